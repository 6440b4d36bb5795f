//! From discovered inputs to source files, and what each named file is: an OpenAPI document to
//! lint, a fragment whose documents are linted instead, or (in hook mode) something to leave
//! alone.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rayon::prelude::*;
use regex::Regex;

use crate::discover::{Input, is_spec_extension, looks_like_root};
use crate::files::{Files, normalize};
use crate::limits::Limits;
use crate::resolve::{ErrorKind, FileError};
use crate::source::SourceFile;

/// How a source came to be linted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named on the command line (or standard input): the user asked for it.
    Named,
    /// Found by walking a directory: linted when it is an OpenAPI document, else left alone.
    Walked,
    /// An OpenAPI document found because it reaches a named fragment through `$ref`.
    ForFragment,
}

/// A file to lint, read once.
pub struct Source {
    pub file: SourceFile,
    pub origin: Origin,
}

/// What a run reads from standard input for `-`, and under which name.
pub struct Stdin<'s> {
    pub read: Box<dyn FnOnce() -> std::io::Result<Vec<u8>> + 's>,
    /// `--stdin-filename`: the name in reports, and the place `$ref`s and the configuration are
    /// found from. Without it, `<stdin>` in the working directory.
    pub filename: Option<&'s Path>,
}

/// Reads every discovered input (files in parallel); what cannot be read becomes an error.
pub fn read(
    inputs: Vec<Input>,
    files: &dyn Files,
    cwd: &Path,
    limits: &Limits,
    stdin: Stdin<'_>,
    errors: &mut Vec<FileError>,
) -> Vec<Source> {
    let wants_stdin = inputs.contains(&Input::Stdin);
    let read: Vec<Result<Source, FileError>> = inputs
        .into_par_iter()
        .filter_map(|input| match input {
            Input::Stdin => None,
            Input::File {
                path,
                name,
                explicit,
                bytes,
            } => {
                let abs = cwd.join(&path);
                let abs = crate::files::identity(files, &abs);
                let file = match bytes {
                    Some(bytes) => SourceFile::decode(abs, name.clone(), bytes),
                    None => SourceFile::read(files, &abs, name.clone(), limits),
                };
                let origin = if explicit {
                    Origin::Named
                } else {
                    Origin::Walked
                };
                Some(
                    file.map(|file| Source { file, origin })
                        .map_err(|e| FileError::unreadable(name, e)),
                )
            }
        })
        .collect();
    let mut sources = Vec::with_capacity(read.len() + 1);
    for r in read {
        match r {
            Ok(s) => sources.push(s),
            Err(e) => errors.push(e),
        }
    }
    if wants_stdin {
        match read_stdin(stdin, cwd, limits) {
            Ok(file) => sources.push(Source {
                file,
                origin: Origin::Named,
            }),
            Err(e) => errors.push(e),
        }
    }
    sources
}

fn read_stdin(stdin: Stdin<'_>, cwd: &Path, limits: &Limits) -> Result<SourceFile, FileError> {
    let (path, name) = match stdin.filename {
        Some(f) => (normalize(&cwd.join(f)), crate::discover::display_name(f)),
        None => (cwd.join("<stdin>"), "<stdin>".to_string()),
    };
    let fail = |message: String| FileError {
        kind: ErrorKind::Input,
        file: name.clone(),
        line: 1,
        column: 1,
        message,
    };
    let bytes = (stdin.read)().map_err(|e| fail(e.to_string()))?;
    if limits.too_large(bytes.len() as u64).is_some() {
        return Err(fail(format!(
            "standard input is over the limit of {} MiB (raise it with --max-file-size)",
            limits.max_file_bytes / crate::limits::MIB
        )));
    }
    SourceFile::decode(path, name.clone(), bytes).map_err(|e| FileError::unreadable(name, e))
}

/// What a named file is taken for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// Lint it as an OpenAPI document. `strict`: its problems (invalid YAML, not OpenAPI) are
    /// errors; otherwise (hook mode, a file that only may be OpenAPI) it is skipped quietly.
    Document { strict: bool },
    /// No `openapi` or `swagger` key: lint the documents that reach it through `$ref`.
    Fragment,
    /// Not OpenAPI and not worth a word (hook mode).
    Skip,
}

/// A top-level `openapi`/`swagger` key with a version number: what a file that means to be an
/// OpenAPI document has, and a Helm chart's `swagger: {enabled: true}` or a templated
/// `openapi: {{ .Values.version }}` has not.
static VERSION_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?m)(^['"]?(openapi|swagger)['"]?[ \t]*:[ \t]*['"]?[0-9]|"(openapi|swagger)"[ \t\r\n]*:[ \t\r\n]*"?[0-9])"#,
    )
    .expect("valid regex")
});

/// Template markers (Helm, Jinja, Go templates): such a file is the source of a document, not a
/// document, and does not parse as one.
fn templated(text: &str) -> bool {
    text.contains("{{") || text.contains("{%")
}

/// What the named file `source` is. `hook`: `--skip-non-openapi`, where every YAML and JSON
/// file of a commit is named and only OpenAPI documents are meant.
pub fn classify(source: &SourceFile, hook: bool) -> Named {
    let text = &source.text;
    if looks_like_root(text.as_bytes()) {
        let strict = !hook || (VERSION_KEY.is_match(text) && !templated(text));
        return Named::Document { strict };
    }
    if !is_spec_extension(&source.path) && !hook {
        // `Cargo.toml`, `README.md`: named by mistake. Linting it says why not.
        return Named::Document { strict: true };
    }
    if hook && !is_spec_extension(&source.path) {
        return Named::Skip;
    }
    Named::Fragment
}

/// `--exclude` globs (relative to the working directory) or a configuration's `exclude:`
/// (relative to its folder): a path is excluded when it or a folder above it matches.
#[derive(Debug, Clone)]
pub struct Excludes {
    base: PathBuf,
    globs: GlobSet,
}

impl Excludes {
    /// The globs `patterns`, relative to `base` (absolute); the first bad one is the error.
    pub fn new(base: PathBuf, patterns: &[String]) -> Result<Excludes, String> {
        let mut builder = GlobSetBuilder::new();
        for p in patterns {
            let p = p.strip_prefix("./").unwrap_or(p).trim_end_matches('/');
            let glob = GlobBuilder::new(p)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("bad glob `{p}`: {e}"))?;
            builder.add(glob);
        }
        let globs = builder.build().map_err(|e| e.to_string())?;
        Ok(Excludes { base, globs })
    }

    /// Whether `path` (absolute) is excluded.
    pub fn matches(&self, path: &Path) -> bool {
        let Ok(relative) = path.strip_prefix(&self.base) else {
            return false;
        };
        relative
            .ancestors()
            .filter(|p| !p.as_os_str().is_empty())
            .any(|p| self.globs.is_match(p))
    }
}
