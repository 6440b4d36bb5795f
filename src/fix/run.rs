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
use std::sync::Arc;

use super::diff::Copied;
use super::{Applicability, Edit, Fix, apply, plan};
use crate::files::{Disk, Overlay};
use crate::lint::Options;
use crate::report::{Finding, Report};
use crate::resolve::FileId;
use crate::source::SourceFile;

/// At most this many passes: a fix that keeps bringing others would otherwise never end.
pub const MAX_PASSES: usize = 10;

/// What `--fix` and `--diff` apply.
#[derive(Debug, Clone, Copy)]
pub struct FixMode {
    /// Unsafe fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
    /// Whether the diff of the changes is wanted (`--diff`): it is then made while the last
    /// pass lints ([`Fixed::diff`]).
    pub diff: bool,
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
    pub before: Arc<str>,
    pub after: Arc<str>,
    /// What `after` keeps of `before`, for the diff.
    pub copied: Vec<Copied>,
}

/// A file's text through the passes.
struct Text {
    /// As read, and now.
    read: Arc<str>,
    now: Arc<str>,
    /// As reports name the file.
    name: String,
    /// What `now` keeps of `read`.
    copied: Vec<Copied>,
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
    /// Where each pass's time went (`--timings`), the last (which found nothing to apply, or
    /// reached the bound) included.
    pub pass_times: Vec<PassTime>,
    /// The diff of [`Fixed::changed`], when [`FixMode::diff`] asked for it and it could be
    /// made beside the last lint.
    pub diff: Option<String>,
}

/// The time of one pass, for `--timings`.
#[derive(Debug, Clone, Copy, Default)]
pub struct PassTime {
    /// Linting the documents as they stand.
    pub lint: std::time::Duration,
    /// Choosing the fixes to apply.
    pub plan: std::time::Duration,
    /// Applying them.
    pub apply: std::time::Duration,
    /// Fixes it applied.
    pub applied: usize,
}

/// The report after the fixes, and what they changed (nothing written yet). `stdin`: the text
/// of the document read from standard input, if one is; its fixes change that text.
pub fn run(
    paths: &[PathBuf],
    opts: &Options,
    stdin: Option<Vec<u8>>,
    mode: FixMode,
) -> (Report, Fixed) {
    run_on(paths, opts, stdin, mode, Box::new(Disk))
}

/// [`run`] reading through `files` rather than the disk: the editor server's "Fix all" reads
/// the unsaved buffers of the files a document `$ref`s. Nothing is written either way; what
/// changed is returned.
pub fn run_on(
    paths: &[PathBuf],
    opts: &Options,
    stdin: Option<Vec<u8>>,
    mode: FixMode,
    files: Box<dyn crate::files::Files>,
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
    // `--diff` shows fixes, not findings: only the rules that have fixes need to run.
    let fixing;
    let opts = if mode.diff {
        fixing = Options {
            fixes_only: true,
            ..opts.clone()
        };
        &fixing
    } else {
        opts
    };
    let mut stdin_text = stdin;
    let mut overlay = Overlay::new(files);
    let mut fixed = Fixed::default();
    // By path. (Texts are shared, not copied: a large spec is megabytes.)
    let mut texts: HashMap<PathBuf, Text> = HashMap::new();
    let mut order: Vec<PathBuf> = Vec::new();
    // The files the last pass changed: (path, name, text before it, what that kept).
    let mut last: Vec<(PathBuf, String, Arc<str>, Vec<Copied>)> = Vec::new();
    loop {
        let mut time = PassTime::default();
        let start = std::time::Instant::now();
        let input = stdin_text.clone();
        // The diff of the texts as they stand is made beside the lint (on another core), for
        // the lint that finds nothing more to fix leaves them as they are.
        let (report, diff) = std::thread::scope(|scope| {
            let diff =
                (mode.diff && fixed.passes > 0).then(|| scope.spawn(|| self::diff(&fixed.changed)));
            let (report, _) = crate::lint::run_each(
                paths,
                opts,
                &overlay,
                move || Ok(input.unwrap_or_default()),
                &|_| (),
            );
            (report, diff.and_then(|d| d.join().ok()))
        });
        time.lint = start.elapsed();
        // A fix must never leave a file that does not parse (a bug of the fix). When the last
        // pass left one so, the pass is undone (in every file: a fix may span two), that file
        // is fixed no further, and the rest linted again. (The lint is the check: no text is
        // parsed twice.)
        let mut broke = unparsable(&last, &report.errors);
        // A changed file the lint did not load (a document skipped as no OpenAPI one, one that
        // could not be modelled) is checked on its own.
        let loaded: std::collections::HashSet<&Path> = report
            .documents
            .iter()
            .flat_map(|d| d.loaded.iter().map(PathBuf::as_path))
            .collect();
        for (path, name, _, _) in &last {
            let checked =
                loaded.contains(path.as_path()) || broke.iter().any(|(p, _)| Path::new(p) == path);
            if let Some(text) = texts.get(path).filter(|_| !checked)
                && let Some(problem) = parse_problem(path, name, &text.now, opts)
            {
                broke.push((path.to_string_lossy().into_owned(), problem));
            }
        }
        if !broke.is_empty() {
            fixed.broken.extend(broke);
            fixed.passes -= 1;
            fixed.applied -= fixed.pass_times.last().map_or(0, |t| t.applied);
            for (path, _, before, copied) in last.drain(..) {
                if let Some(text) = texts.get_mut(&path) {
                    text.now.clone_from(&before);
                    text.copied = copied;
                }
                if stdin_path.as_deref() == Some(path.as_path()) {
                    stdin_text = Some(before.as_bytes().to_vec());
                } else {
                    overlay.set(path, before);
                }
            }
            fixed.changed = changed(&order, &texts);
            fixed.pass_times.push(time);
            continue;
        }
        last.clear();
        fixed.diff = diff;
        let start = std::time::Instant::now();
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
        let text_of = |file: FileId| sources.get(file.0 as usize).map(|s| s.text.as_str());
        let planned = plan(&fixes, |_| true, text_of);
        time.plan = start.elapsed();
        if planned.taken.is_empty() {
            fixed.pass_times.push(time);
            return (report, fixed);
        }
        if fixed.passes == MAX_PASSES {
            fixed.unfinished = true;
            fixed.pass_times.push(time);
            return (report, fixed);
        }
        let start = std::time::Instant::now();
        fixed.passes += 1;
        fixed.applied += planned.taken.len();
        fixed.diff = None;
        let mut by_file: HashMap<FileId, Vec<&Edit>> = HashMap::new();
        for &i in &planned.taken {
            for e in &fixes[i].edits {
                by_file.entry(e.file).or_default().push(e);
            }
        }
        let mut files: Vec<_> = by_file.into_iter().collect();
        files.sort_by_key(|(file, _)| *file);
        for (file, edits) in files {
            let source = &sources[file.0 as usize];
            let (path, name) = (&source.path, &source.name);
            let Ok(after) = apply(&source.text, &edits) else {
                // (The plan checked every edit against this text: not reached.)
                continue;
            };
            let after: Arc<str> = after.into();
            let text = texts.entry(path.clone()).or_insert_with(|| {
                order.push(path.clone());
                let read: Arc<str> = source.text.as_str().into();
                Text {
                    now: read.clone(),
                    copied: super::diff::whole(read.len()),
                    read,
                    name: name.clone(),
                }
            });
            // (An edit given twice is written once: see `apply`.)
            let mut seen = std::collections::HashSet::new();
            let spans: Vec<_> = edits
                .iter()
                .filter(|e| seen.insert((e.span, e.text.as_str())))
                .map(|e| (e.span, e.text.len()))
                .collect();
            let copied = super::diff::carry(&text.copied, &spans);
            last.push((
                path.clone(),
                name.clone(),
                std::mem::replace(&mut text.now, after.clone()),
                std::mem::replace(&mut text.copied, copied),
            ));
            if stdin_path.as_deref() == Some(path.as_path()) {
                stdin_text = Some(after.as_bytes().to_vec());
            } else {
                overlay.set(path.clone(), after);
            }
        }
        fixed.changed = changed(&order, &texts);
        time.apply = start.elapsed();
        time.applied = planned.taken.len();
        fixed.pass_times.push(time);
    }
}

/// The files of `last` (path, name, text, what it kept), which the last pass changed, that `errors` say no
/// longer parse: (path, `name:line:column: message`).
fn unparsable(
    last: &[(PathBuf, String, Arc<str>, Vec<Copied>)],
    errors: &[crate::resolve::FileError],
) -> Vec<(String, String)> {
    last.iter()
        .filter_map(|(path, name, _, _)| {
            let e = errors
                .iter()
                .find(|e| e.kind == crate::resolve::ErrorKind::Parse && e.file == *name)?;
            Some((
                path.to_string_lossy().into_owned(),
                format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message),
            ))
        })
        .collect()
}

/// Why `text`, the text of the file at `path` named `name`, does not parse, if it does not:
/// `name:line:column: message`.
fn parse_problem(path: &Path, name: &str, text: &str, opts: &Options) -> Option<String> {
    let format = if path.extension().is_some_and(|e| e == "json") {
        crate::source::Format::Json
    } else {
        crate::source::Format::Yaml
    };
    let source = SourceFile::new(
        path.to_path_buf(),
        name.to_string(),
        text.to_string(),
        format,
    );
    let e = source.parse(&opts.limits).err()?;
    let at = source.line_col(e.span.start as usize);
    Some(format!("{name}:{}:{}: {}", at.line, at.column, e.message))
}

/// The files whose text differs from the text read, in the order first changed.
fn changed(order: &[PathBuf], texts: &HashMap<PathBuf, Text>) -> Vec<Changed> {
    order
        .iter()
        .filter_map(|p| {
            let text = &texts[p];
            (text.read != text.now).then(|| Changed {
                path: p.clone(),
                name: text.name.clone(),
                before: text.read.clone(),
                after: text.now.clone(),
                copied: text.copied.clone(),
            })
        })
        .collect()
}

/// The fixes of `findings` that `mode` admits and that change only writable files, as
/// [`Fix`]es over a table of those files by [`FileId`].
fn collect(
    findings: &[Finding],
    mode: FixMode,
    writable: impl Fn(&Path) -> bool,
) -> (Vec<Fix>, Vec<Arc<SourceFile>>) {
    let mut ids: HashMap<PathBuf, FileId> = HashMap::new();
    let mut sources: Vec<Arc<SourceFile>> = Vec::new();
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
                    sources.push(Arc::clone(&e.source));
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
        out.push_str(&super::diff::unified(name, &c.before, &c.after, &c.copied));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::{ErrorKind, FileError};

    fn error(kind: ErrorKind, file: &str, message: &str) -> FileError {
        FileError {
            kind,
            file: file.to_string(),
            line: 3,
            column: 7,
            message: message.to_string(),
        }
    }

    /// A pass broke a file when the next lint cannot parse a file it changed; a file it did not
    /// change, or an error that is not the parser's (a `$ref` not found), is no sign of that.
    #[test]
    fn a_pass_broke_the_files_it_changed_that_no_longer_parse() {
        let last = vec![
            (
                PathBuf::from("/p/a.yaml"),
                "a.yaml".to_string(),
                Arc::from(""),
                Vec::new(),
            ),
            (
                PathBuf::from("/p/b.yaml"),
                "b.yaml".to_string(),
                Arc::from(""),
                Vec::new(),
            ),
        ];
        let errors = [
            error(ErrorKind::Parse, "c.yaml", "invalid YAML"),
            error(ErrorKind::Input, "b.yaml", "cannot read"),
            error(
                ErrorKind::Parse,
                "a.yaml",
                "invalid YAML: did not find expected key",
            ),
        ];
        assert_eq!(
            unparsable(&last, &errors),
            [(
                "/p/a.yaml".to_string(),
                "a.yaml:3:7: invalid YAML: did not find expected key".to_string()
            )]
        );
        assert!(unparsable(&last[1..], &errors).is_empty());
        assert!(unparsable(&[], &errors).is_empty());
    }
}
