//! `check --fix`, `--diff` and `--fix -`: the rules' fixes applied in passes. Each pass lints the
//! documents as they stand (the fixed texts held in memory, in front of the disk), takes the
//! fixes that [`super::plan`] admits (safe ones, and unsafe ones when asked), and applies them;
//! the next pass lints again, since a fix may bring others (a key added to an operation asks for
//! its 409) or make a deferred one stale. It stops when a pass applies nothing, or after
//! [`MAX_PASSES`]. Only then is anything written: each changed file once, atomically (a
//! temporary file beside it, renamed over it), and only files under the project root that are
//! on the disk (never a file fetched from a URL, never one outside the root).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Applicability, Edit, Fix, apply, plan};
use crate::files::{Disk, Overlay};
use crate::lint::Options;
use crate::report::{Finding, Report};
use crate::resolve::FileId;

/// At most this many passes: a fix that keeps bringing others would otherwise never end.
pub const MAX_PASSES: usize = 10;

/// What `--fix` and `--diff` apply.
#[derive(Debug, Clone, Copy)]
pub struct FixMode {
    /// Unsafe fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
}

impl FixMode {
    fn allows(self, applicability: Applicability) -> bool {
        self.unsafe_fixes || applicability == Applicability::Safe
    }
}

/// One file the fixes changed.
#[derive(Debug, Clone)]
pub struct Changed {
    /// Its absolute path.
    pub path: PathBuf,
    /// As reports name it.
    pub name: String,
    pub before: String,
    pub after: String,
}

/// What the passes did.
#[derive(Debug, Default)]
pub struct Fixed {
    /// Fixes applied, over every pass.
    pub applied: usize,
    /// Passes that applied something.
    pub passes: usize,
    /// The files changed, in the order first changed.
    pub changed: Vec<Changed>,
    /// Whether the last pass still had fixes to apply (the bound was reached).
    pub unfinished: bool,
    /// Why findings of the files as they were read have no fix (`file:line:column: rule: why`),
    /// placed in the text on disk.
    pub refused: Vec<String>,
    /// Files whose fixes were dropped because the text they made no longer parsed (a bug of a
    /// fix, which is reported rather than written), with the parser's message.
    pub broken: Vec<(String, String)>,
}

/// The report after the fixes, and what they changed (nothing written yet). `stdin`: the text
/// of the document read from standard input, if one is; its fixes change that text.
pub fn run(
    paths: &[PathBuf],
    opts: &Options,
    stdin: Option<Vec<u8>>,
    mode: FixMode,
) -> (Report, Fixed) {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    // Where files may be written: the root, and the folders of what was named (as a run reads
    // `$ref`s from them).
    let mut roots = vec![opts.root.clone().unwrap_or_else(|| cwd.clone())];
    for p in paths.iter().filter(|p| p.as_os_str() != "-") {
        let p = cwd.join(p);
        roots.push(if p.is_dir() {
            p
        } else {
            p.parent().map(Path::to_path_buf).unwrap_or_default()
        });
    }
    let roots: Vec<PathBuf> = roots
        .into_iter()
        .map(|r| std::fs::canonicalize(&r).unwrap_or(r))
        .collect();
    let stdin_path = stdin.as_ref().map(|_| match &opts.stdin_filename {
        Some(f) => crate::files::normalize(&cwd.join(f)),
        None => cwd.join("<stdin>"),
    });
    let mut stdin_text = stdin;
    let mut overlay = Overlay::new(Box::new(Disk));
    let mut fixed = Fixed::default();
    // By path: the text before any fix, and now.
    let mut texts: HashMap<PathBuf, (String, String, String)> = HashMap::new();
    let mut order: Vec<PathBuf> = Vec::new();
    loop {
        let input = stdin_text.clone();
        let (report, _) = crate::lint::run_each(
            paths,
            opts,
            &overlay,
            move || Ok(input.unwrap_or_default()),
            &|_| (),
        );
        if fixed.passes == 0 {
            fixed.refused = refusals(&report.findings);
        }
        let broken = &fixed.broken;
        let writable = |path: &Path| {
            !broken.iter().any(|(name, _)| Path::new(name) == path)
                && match &stdin_path {
                    // With `-`, only the document read is written (to standard output).
                    Some(stdin) => path == stdin,
                    None => roots.iter().any(|root| under_root(path, root)),
                }
        };
        let (fixes, sources) = collect(&report.findings, mode, writable);
        let text_of = |file: FileId| sources.get(file.0 as usize).map(|s| s.1.as_str());
        let planned = plan(&fixes, |_| true, text_of);
        if planned.taken.is_empty() {
            return (report, fixed);
        }
        if fixed.passes == MAX_PASSES {
            fixed.unfinished = true;
            return (report, fixed);
        }
        fixed.passes += 1;
        fixed.applied += planned.taken.len();
        let mut by_file: HashMap<FileId, Vec<&Edit>> = HashMap::new();
        for &i in &planned.taken {
            for e in &fixes[i].edits {
                by_file.entry(e.file).or_default().push(e);
            }
        }
        let mut files: Vec<_> = by_file.into_iter().collect();
        files.sort_by_key(|(file, _)| *file);
        for (file, edits) in files {
            let (path, text, name) = &sources[file.0 as usize];
            let Ok(after) = apply(text, &edits) else {
                // (The plan checked every edit against this text: not reached.)
                continue;
            };
            // A fix must never leave a file that does not parse: such a pass is dropped for
            // the file, and the file left as it was (and fixed no further).
            let format = if path.extension().is_some_and(|e| e == "json") {
                crate::source::Format::Json
            } else {
                crate::source::Format::Yaml
            };
            let check =
                crate::source::SourceFile::new(path.clone(), name.clone(), after.clone(), format);
            if let Err(e) = check.parse(&opts.limits) {
                let at = check.line_col(e.span.start as usize);
                fixed.broken.push((
                    path.to_string_lossy().into_owned(),
                    format!("{name}:{}:{}: {}", at.line, at.column, e.message),
                ));
                fixed.applied -= planned
                    .taken
                    .iter()
                    .filter(|&&i| fixes[i].edits.iter().any(|e| e.file == file))
                    .count();
                continue;
            }
            let entry = texts.entry(path.clone()).or_insert_with(|| {
                order.push(path.clone());
                (text.clone(), String::new(), name.clone())
            });
            entry.1.clone_from(&after);
            if stdin_path.as_deref() == Some(path.as_path()) {
                stdin_text = Some(after.into_bytes());
            } else {
                overlay.set(path.clone(), after);
            }
        }
        fixed.changed = order
            .iter()
            .filter_map(|p| {
                let (before, after, name) = &texts[p];
                (before != after).then(|| Changed {
                    path: p.clone(),
                    name: name.clone(),
                    before: before.clone(),
                    after: after.clone(),
                })
            })
            .collect();
    }
}

/// The fixes of `findings` that `mode` admits and that change only writable files, as
/// [`Fix`]es over a table of those files: (path, text, name) by [`FileId`].
fn collect(
    findings: &[Finding],
    mode: FixMode,
    writable: impl Fn(&Path) -> bool,
) -> (Vec<Fix>, Vec<(PathBuf, String, String)>) {
    let mut ids: HashMap<PathBuf, FileId> = HashMap::new();
    let mut sources: Vec<(PathBuf, String, String)> = Vec::new();
    let mut fixes = Vec::new();
    // (Asked once a file: a large spec has thousands of fixes in a handful of files.)
    let mut may_write: HashMap<&Path, bool> = HashMap::new();
    for f in findings {
        let Some(fix) = f.fix.as_deref() else {
            continue;
        };
        if !mode.allows(fix.applicability)
            || fix.edits.iter().any(|e| {
                let path = e.source.path.as_path();
                !*may_write.entry(path).or_insert_with(|| {
                    !path.to_str().is_some_and(crate::fetch::is_http) && writable(path)
                })
            })
        {
            continue;
        }
        let edits = fix
            .edits
            .iter()
            .map(|e| {
                let file = *ids.entry(e.source.path.clone()).or_insert_with(|| {
                    sources.push((
                        e.source.path.clone(),
                        e.source.text.clone(),
                        e.source.name.clone(),
                    ));
                    FileId(sources.len() as u32 - 1)
                });
                Edit {
                    file,
                    span: e.span,
                    text: e.text.clone(),
                }
            })
            .collect();
        fixes.push(Fix {
            title: fix.title.clone(),
            applicability: fix.applicability,
            edits,
        });
    }
    (fixes, sources)
}

/// Why findings have no fix, as `--diff` lists them.
fn refusals(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .filter_map(|f| {
            let why = f.no_fix.as_deref()?;
            Some(format!(
                "{}:{}:{}: {}: no fix: {why}",
                f.file(),
                f.line,
                f.column,
                f.rule.as_str()
            ))
        })
        .collect()
}

/// Whether `path` is a file under `root` (both made canonical, so a link out of the root is out).
fn under_root(path: &Path, root: &Path) -> bool {
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    real.starts_with(root) && real.is_file()
}

/// A unified diff of each changed file, as `git diff` writes one (`--- a/…`, `+++ b/…`).
pub fn diff(changed: &[Changed]) -> String {
    let mut out = String::new();
    for c in changed {
        let name = c.name.trim_start_matches("./");
        let diff = similar::TextDiff::from_lines(&c.before, &c.after);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{name}"), &format!("b/{name}"))
                .to_string(),
        );
    }
    out
}

/// Writes each changed file over the old, atomically: each new text goes to a temporary file
/// in the file's folder (created new, never through a link), then, once every one is written,
/// each is renamed over its file (keeping its permissions, and its byte order mark if it had
/// one). A file that changed on disk since it was read is not written over. Returns the files
/// that could not be written, with why; when one cannot be, none is.
pub fn write(changed: &[Changed]) -> Vec<(String, std::io::Error)> {
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut failed = Vec::new();
    for c in changed {
        match stage(c) {
            Ok(pair) => staged.push(pair),
            Err(e) => failed.push((c.name.clone(), e)),
        }
    }
    if !failed.is_empty() {
        for (temp, _) in &staged {
            let _ = std::fs::remove_file(temp);
        }
        return failed;
    }
    for ((temp, target), c) in staged.iter().zip(changed) {
        if let Err(e) = std::fs::rename(temp, target) {
            let _ = std::fs::remove_file(temp);
            failed.push((c.name.clone(), e));
        }
    }
    failed
}

/// The new text of `c` in a temporary file beside it: (the temporary file, the file).
fn stage(c: &Changed) -> std::io::Result<(PathBuf, PathBuf)> {
    let target = std::fs::canonicalize(&c.path)?;
    let old = std::fs::read(&target)?;
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let bom: &[u8] = if old.starts_with(BOM) { BOM } else { b"" };
    if old[bom.len()..] != *c.before.as_bytes() {
        return Err(std::io::Error::other(
            "it changed on disk while it was being fixed; run --fix again",
        ));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let file_name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{file_name}.idemlint-{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.set_permissions(std::fs::metadata(&target)?.permissions())?;
        file.write_all(bom)?;
        file.write_all(c.after.as_bytes())?;
        file.sync_all()
    })();
    match written {
        Ok(()) => Ok((temp, target)),
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(e)
        }
    }
}
