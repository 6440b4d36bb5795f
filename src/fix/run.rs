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
    let root = opts.root.clone().unwrap_or_else(|| cwd.clone());
    let root = std::fs::canonicalize(&root).unwrap_or(root);
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
        let writable = |path: &Path| match &stdin_path {
            // With `-`, only the document read is written (to standard output).
            Some(stdin) => path == stdin,
            None => under_root(path, &root),
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

/// Writes each changed file over the old, atomically: the new text goes to a temporary file in
/// the same folder, which is renamed over the file (keeping its permissions, and its byte order
/// mark if it had one). Returns the files that could not be written, with why.
pub fn write(changed: &[Changed]) -> Vec<(String, std::io::Error)> {
    let mut failed = Vec::new();
    for c in changed {
        if let Err(e) = write_one(&c.path, &c.after) {
            failed.push((c.name.clone(), e));
        }
    }
    failed
}

fn write_one(path: &Path, text: &str) -> std::io::Result<()> {
    let target = std::fs::canonicalize(path)?;
    let old = std::fs::read(&target)?;
    let bom: &[u8] = if old.starts_with(b"\xEF\xBB\xBF") {
        b"\xEF\xBB\xBF"
    } else {
        b""
    };
    let dir = target.parent().unwrap_or(Path::new("."));
    let file_name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{file_name}.idemlint-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bom)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        let permissions = std::fs::metadata(&target)?.permissions();
        std::fs::set_permissions(&temp, permissions)?;
        std::fs::rename(&temp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}
