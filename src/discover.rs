//! Which files to lint: files and directories from the command line, walked with `.gitignore`
//! respected, keeping the YAML and JSON files that look like OpenAPI roots.

use crate::files::Files;
use crate::limits::Limits;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::bytes::Regex;

use crate::resolve::{ErrorKind, FileError};

/// One input to lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// `-`: one document on standard input.
    Stdin,
    /// A file, with the name to show for it.
    File {
        path: PathBuf,
        name: String,
        /// Named on the command line (so it must be OpenAPI), not found by walking.
        explicit: bool,
        /// The content, when walking already read it: files are read once.
        bytes: Option<Vec<u8>>,
    },
}

/// An `openapi:`/`swagger:` key, YAML or JSON, at any indentation (a YAML document may indent
/// its top level). Walked files without one are not parsed: they are fragments or unrelated YAML
/// (CI files, Helm charts). Files with one are parsed, and the parse decides.
static ROOT_MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?m)(^[ \t]*['"]?(openapi|swagger)['"]?[ \t]*:|"(openapi|swagger)"[ \t\r\n]*:|[{,][ \t\r\n]*(openapi|swagger)[ \t]*:)"#,
    )
    .expect("valid regex")
});

pub fn looks_like_root(text: &[u8]) -> bool {
    ROOT_MARKER.is_match(text)
}

pub fn is_spec_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "yaml" | "yml" | "json"))
}

/// `./a/b.yaml` → `a/b.yaml`: names as a user would type them.
pub fn display_name(path: &Path) -> String {
    let s = path.to_string_lossy();
    let s = s.strip_prefix("./").unwrap_or(&s);
    s.replace('\\', "/")
}

/// Expands the command-line paths into inputs, in a stable order. Paths that do not exist are
/// errors; directories contribute only files that look like OpenAPI roots. Named paths and the
/// files found are read through `files`; directories are walked on the disk.
pub fn discover(
    paths: &[PathBuf],
    cwd: &Path,
    files: &dyn Files,
    limits: &Limits,
) -> (Vec<Input>, Vec<FileError>) {
    // `Files` are asked by absolute path: a revision or an editor knows files by where they are,
    // not by how a command line spelt them. (Not folded here: `link/..` is the link's parent on
    // the disk, which only the disk knows.)
    let at = |path: &Path| cwd.join(path);
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        let name = display_name(path);
        match files.metadata(&at(path)) {
            Err(e) => errors.push(FileError {
                kind: ErrorKind::Input,
                file: name,
                line: 1,
                column: 1,
                message: crate::source::io_message(&e),
            }),
            Ok(meta) if meta.is_dir() => {
                let mut found = Vec::new();
                // A source with its own list (a revision) says what the folder holds.
                let listed = match files.files_under(&at(path)) {
                    Some(Ok(listed)) => Some(listed),
                    Some(Err(e)) => {
                        errors.push(FileError {
                            kind: ErrorKind::Input,
                            file: name.clone(),
                            line: 1,
                            column: 1,
                            message: crate::source::io_message(&e),
                        });
                        Some(Vec::new())
                    }
                    None => None,
                };
                if let Some(listed) = listed {
                    found.extend(
                        listed
                            .into_iter()
                            .filter(|p| is_spec_extension(p) && !hidden(p))
                            .map(|p| path.join(p)),
                    );
                } else {
                    let walker = ignore::WalkBuilder::new(path)
                        .require_git(false)
                        .sort_by_file_name(|a, b| a.cmp(b))
                        .build();
                    for entry in walker {
                        let entry = match entry {
                            Ok(e) => e,
                            Err(e) => {
                                errors.push(FileError {
                                    kind: ErrorKind::Input,
                                    file: name.clone(),
                                    line: 1,
                                    column: 1,
                                    message: e.to_string(),
                                });
                                continue;
                            }
                        };
                        let p = entry.path();
                        if !entry.file_type().is_some_and(|t| t.is_file()) || !is_spec_extension(p)
                        {
                            continue;
                        }
                        found.push(p.to_path_buf());
                    }
                }
                // Each file is read and sniffed on its own, so on every core at once (the
                // walk's order kept): a corpus of many files is otherwise read one by one
                // while the other cores wait.
                use rayon::prelude::*;
                let roots: Vec<Option<Input>> = found
                    .into_par_iter()
                    .map(|p| {
                        // Too large or unreadable: named as an input, so reading it reports
                        // why. (A file the `Files` do not hold, one a disk walk found that was
                        // added since the revision they are, is not theirs to lint.)
                        let bytes = match read_small(files, &at(&p), limits) {
                            Err(()) => return None,
                            Ok(bytes) => bytes,
                        };
                        bytes
                            .as_ref()
                            .is_none_or(|b| looks_like_root(b))
                            .then(|| Input::File {
                                name: display_name(&p),
                                path: p,
                                explicit: false,
                                bytes,
                            })
                    })
                    .collect();
                inputs.extend(roots.into_iter().flatten());
            }
            Ok(_) => inputs.push(Input::File {
                path: path.clone(),
                name,
                explicit: true,
                bytes: None,
            }),
        }
    }
    let mut seen = std::collections::HashSet::new();
    inputs.retain(|i| match i {
        Input::Stdin => true,
        Input::File { path, .. } => seen.insert(crate::files::identity(files, &at(path))),
    });
    (inputs, errors)
}

/// Whether a listed path is in a hidden folder or is a hidden file, which a walk of the disk
/// passes over.
fn hidden(relative: &Path) -> bool {
    relative
        .components()
        .any(|c| c.as_os_str().to_str().is_some_and(|s| s.starts_with('.')))
}

/// A file's bytes, unless it is over the size limit or cannot be read; `Err` when `files` have
/// no such file.
fn read_small(files: &dyn Files, path: &Path, limits: &Limits) -> Result<Option<Vec<u8>>, ()> {
    let meta = match files.metadata(path) {
        Ok(meta) => meta,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Err(());
        }
        Err(_) => return Ok(None),
    };
    if limits.too_large(meta.len).is_some() {
        return Ok(None);
    }
    Ok(files.read(path).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_markers() {
        assert!(looks_like_root(b"openapi: 3.1.0\n"));
        assert!(looks_like_root(b"# c\n'swagger': '2.0'\n"));
        assert!(looks_like_root(b"{\n  \"openapi\" : \"3.0.0\"}"));
        assert!(!looks_like_root(b"type: object\nproperties: {}\n"));
        assert!(looks_like_root(b"---\n  swagger: '2.0'\n"));
        assert!(looks_like_root(b"{openapi: 3.0.0, paths: {}}"));
        assert!(!looks_like_root(b"description: the openapi: key\n"));
    }
}
