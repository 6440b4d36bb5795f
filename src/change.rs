//! Runs against a base: `check --base REF` lints the work tree and the same documents at `REF`
//! (every `$ref` read at `REF` too, through a [`GitRev`]) and tells the findings a change brings
//! from the ones it fixes and the ones it leaves; `diff OLD NEW` compares two versions of one
//! document. Both give the contract-change rules the base's [`Contract`]s to compare with.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::contract::{BaseContracts, Contract};
use crate::engine::Linted;
use crate::files::{Disk, Files, GitRev};
use crate::lint::{Options, run_each};
use crate::project::Projects;
use crate::report::{BaseOutcome, Change, Report};

/// A base revision, opened: its tree, and the files renamed since.
pub struct Base {
    /// As the user named it: `origin/main`, `main...HEAD`.
    pub name: String,
    pub rev: GitRev,
    /// Paths relative to the repository's top, then → now.
    renamed: HashMap<String, String>,
}

impl Base {
    /// Opens `name` in the repository holding `dir`. The error says how to get a revision a
    /// shallow clone lacks.
    pub fn open(dir: &Path, name: &str) -> Result<Base, String> {
        let rev = GitRev::open(dir, name).map_err(|e| {
            if GitRev::is_shallow(dir) {
                format!("{e}\n{}", shallow_hint(dir, name))
            } else {
                e
            }
        })?;
        let renamed = rev
            .renames()
            .map_err(|e| format!("cannot compare the work tree with `{name}`: {e}"))?;
        Ok(Base {
            name: name.to_string(),
            rev,
            renamed,
        })
    }

    /// What a path named now (absolute) was at the base: the files and folders to lint there.
    /// A file renamed since is its old name; a folder is itself where the base has it, else
    /// the folders it was renamed from; files moved into a folder from elsewhere are added by
    /// their old names, when they were documents. Nothing for a path the base lacks.
    fn then(&self, path: &Path) -> Vec<PathBuf> {
        let top = self.rev.top();
        let Some(inside) = self.rev.relative(path) else {
            return vec![path.to_path_buf()];
        };
        let now = inside.to_string_lossy().replace('\\', "/");
        if let Some((old, _)) = self.renamed.iter().find(|(_, n)| **n == now) {
            return vec![top.join(old)];
        }
        let at_base = |p: &Path| self.rev.metadata(p).is_ok();
        let mut out = Vec::new();
        let here = top.join(&inside);
        if at_base(&here) {
            out.push(here);
        }
        let prefix = if now.is_empty() || now == "." {
            String::new()
        } else {
            format!("{now}/")
        };
        let mut renamed: Vec<(&String, &String)> = self
            .renamed
            .iter()
            .filter(|(old, new)| new.starts_with(&prefix) && !old.starts_with(&prefix))
            .collect();
        renamed.sort();
        for (old, new) in renamed {
            // `v1/api.yaml` → `v2/api.yaml` under `v2`: the folder `v1` was renamed, when all
            // of it went there (one file moved out of `v1` leaves the folder where it was).
            let tail = &new[prefix.len()..];
            let folder = old
                .strip_suffix(&format!("/{tail}"))
                .filter(|_| !prefix.is_empty())
                .map(|f| top.join(f))
                .filter(|f| !out.contains(f) && self.all_went(f, top, &prefix));
            match folder {
                Some(f) => out.push(f),
                // A file moved in on its own: its old name, when it was a document (a fragment
                // is reached from the documents that use it).
                None => {
                    let file = top.join(old);
                    if self.was_document(&file) && !out.iter().any(|o| file.starts_with(o)) {
                        out.push(file);
                    }
                }
            }
        }
        out
    }

    /// Whether every file of the base under the folder `folder` (absolute) was renamed to the
    /// same place under `prefix` (a folder of the top, `/`-ended): the folder was renamed.
    fn all_went(&self, folder: &Path, top: &Path, prefix: &str) -> bool {
        let Some(Ok(files)) = self.rev.files_under(folder) else {
            return false;
        };
        let Some(from) = folder
            .strip_prefix(top)
            .ok()
            .map(|f| f.to_string_lossy().replace('\\', "/"))
        else {
            return false;
        };
        !files.is_empty()
            && files.iter().all(|f| {
                let f = f.to_string_lossy().replace('\\', "/");
                self.renamed.get(&format!("{from}/{f}")) == Some(&format!("{prefix}{f}"))
            })
    }

    /// Whether the file at `path` (absolute) was an OpenAPI document at the base, not a
    /// fragment.
    fn was_document(&self, path: &Path) -> bool {
        self.rev
            .read(path)
            .is_ok_and(|text| crate::discover::looks_like_root(&text))
    }

    /// Files of the base under one of `named` (absolute, at the base) that were renamed to
    /// outside all of `now` (absolute): linted at the base, not now, they must not count as
    /// fixed.
    fn moved_out(&self, named: &[PathBuf], now: &[PathBuf]) -> HashSet<PathBuf> {
        let top = self.rev.top();
        let under = |p: &Path, list: &[PathBuf]| list.iter().any(|n| p.starts_with(n));
        let now: Vec<PathBuf> = now
            .iter()
            .filter_map(|p| self.rev.relative(p).map(|r| top.join(r)))
            .collect();
        self.renamed
            .iter()
            .map(|(old, new)| (top.join(old), top.join(new)))
            // (A fragment moved out may still be reached from a document named: its findings are
            // then found now too.)
            .filter(|(old, new)| under(old, named) && !under(new, &now) && self.was_document(old))
            .map(|(old, _)| old)
            .collect()
    }

    /// Whether `path` (absolute) is in the base's repository, not outside it or in a
    /// submodule or a repository of its own inside it (with revisions of their own): no folder
    /// between it and the top holds a `.git`. (Links are not followed: a committed link to a
    /// folder elsewhere is the base's to read, as any run reads it.)
    fn holds(&self, path: &Path) -> bool {
        let Some(inside) = self.rev.relative(path) else {
            return false;
        };
        let top = self.rev.top();
        let mut at = top.to_path_buf();
        for part in inside.components() {
            if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
                return true;
            }
            if at != top && std::fs::symlink_metadata(at.join(".git")).is_ok() {
                return false;
            }
            at.push(part);
        }
        !(at != top
            && std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir())
            && std::fs::symlink_metadata(at.join(".git")).is_ok())
    }
}

/// `path` (absolute) as reports name it: relative to the current folder, with `..` where it
/// lies outside it.
fn as_named(path: PathBuf, cwd: &Path) -> PathBuf {
    if !path.is_absolute() {
        return path;
    }
    PathBuf::from(crate::project::relative_to(&path, cwd))
}

/// What to tell a user whose shallow clone lacks the base.
fn shallow_hint(dir: &Path, name: &str) -> String {
    let first = name.split_once("...").map_or(name, |(a, _)| a);
    // `origin/main`: a branch of a remote, which can be fetched by name.
    let fetch = first
        .split_once('/')
        .filter(|(remote, _)| GitRev::remotes(dir).iter().any(|r| r == remote))
        .map(|(remote, branch)| {
            format!("`git fetch --no-tags {remote} {branch}:refs/remotes/{remote}/{branch}`")
        })
        .unwrap_or_else(|| {
            "`git fetch --no-tags origin <branch>` for a branch, `git fetch --deepen=<commits>` \
             for an older commit"
                .to_string()
        });
    format!(
        "this is a shallow clone, which may not hold `{name}`: fetch it first ({fetch}; for \
         `A...B`, enough history for their merge base: `git fetch --unshallow`), or check out \
         with `fetch-depth: 0` (GitHub Actions' `actions/checkout`) or `GIT_DEPTH: 0` (GitLab CI)"
    )
}

/// The base's contracts of the documents a run at it lints, and the run's report.
pub fn contracts(
    paths: &[PathBuf],
    opts: &Options,
    files: &dyn Files,
) -> (Report, HashMap<String, Contract>) {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let fallback = opts.root.clone().unwrap_or(cwd);
    let renamed = opts.renamed.clone();
    let each = |d: &Linted<'_>| {
        let root = &d.bundle.file(crate::resolve::Bundle::ROOT).source.path;
        let mut path = Projects::new(&fallback).relative(root);
        if let Some(now) = renamed.as_deref().and_then(|r| r.get(&path)) {
            path = now.clone();
        }
        (path, Contract::of(d.bundle, d.api, d.facts))
    };
    let (report, made) = run_each(paths, opts, files, || Ok(Vec::new()), &each);
    (report, made.into_iter().collect())
}

/// Runs `then` (the run at the base) beside `now` (the run of the work tree), on a thread pool
/// of its own so that a work tree's document waiting for the base's contracts never holds up
/// the base's; the contracts `then` makes fill `slot` as soon as it is done. With one run at
/// the base and one of the work tree, a change costs little more than a run.
fn beside<B: Send, N>(
    slot: &BaseContracts,
    stack: usize,
    then: impl FnOnce() -> (B, HashMap<String, Contract>) + Send,
    now: impl FnOnce() -> N,
) -> (Option<B>, N) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .stack_size(stack)
        .build();
    let Ok(pool) = pool else {
        // (No threads to be had: one run after the other.)
        let (b, documents) = then();
        slot.fill(documents);
        return (Some(b), now());
    };
    std::thread::scope(|scope| {
        let base = std::thread::Builder::new()
            .name("idemlint-base".to_string())
            .stack_size(stack)
            .spawn_scoped(scope, || {
                // Whatever happens at the base, the work tree's rules must not wait forever.
                let made =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.install(then)));
                match made {
                    Ok((b, documents)) => {
                        slot.fill(documents);
                        Some(b)
                    }
                    Err(_) => {
                        slot.fill(HashMap::new());
                        None
                    }
                }
            });
        match base {
            Ok(handle) => {
                let n = now();
                (handle.join().ok().flatten(), n)
            }
            Err(_) => {
                slot.fill(HashMap::new());
                (None, now())
            }
        }
    })
}

/// `review --base`: the documents reviewed at the base and now (each review keyed by its
/// document's path in its project, under its name of now), and what the run now found (the
/// contract-change findings among it).
pub struct Reviewed {
    pub report: Report,
    pub before: Vec<crate::review::ApiReview>,
    pub after: Vec<crate::review::ApiReview>,
    /// What went wrong at the base, for a note: its documents count as added.
    pub notes: Vec<String>,
}

pub fn review(
    paths: &[PathBuf],
    opts: &Options,
    base: &Base,
    stdin: impl FnOnce() -> std::io::Result<Vec<u8>>,
) -> Result<Reviewed, String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let then = base_paths(paths, base, &cwd)?;
    let at_base = at_base(opts, base);
    let fallback = opts.root.clone().unwrap_or_else(|| cwd.clone());
    let key = |d: &Linted<'_>, renamed: Option<&HashMap<String, String>>| {
        let root = &d.bundle.file(crate::resolve::Bundle::ROOT).source.path;
        let path = Projects::new(&fallback).relative(root);
        match renamed.and_then(|r| r.get(&path)) {
            Some(now) => now.clone(),
            None => path,
        }
    };
    let at_base_each = |d: &Linted<'_>| {
        let path = key(d, Some(&base.renamed));
        let mut review = crate::review::review_document(d);
        review.key = path.clone();
        (review, (path, Contract::of(d.bundle, d.api, d.facts)))
    };
    let now_each = |d: &Linted<'_>| {
        let mut review = crate::review::review_document(d);
        review.key = key(d, None);
        review
    };
    let slot = Arc::new(BaseContracts::pending(&base.name, false));
    let now = Options {
        base: Some(Arc::clone(&slot)),
        ..opts.clone()
    };
    let (before, (report, after)) = beside(
        &slot,
        opts.limits.stack_bytes(),
        || {
            if then.is_empty() {
                return ((Vec::new(), Vec::new()), HashMap::new());
            }
            let (report, made) =
                run_each(&then, &at_base, &base.rev, || Ok(Vec::new()), &at_base_each);
            let (reviews, contracts): (Vec<_>, Vec<_>) = made.into_iter().unzip();
            (
                (reviews, notes_of(&report)),
                contracts.into_iter().collect(),
            )
        },
        || run_each(paths, &now, &Disk, stdin, &now_each),
    );
    let (before, notes) = before.unwrap_or_else(|| (Vec::new(), vec![failed()]));
    Ok(Reviewed {
        report,
        before,
        after,
        notes,
    })
}

/// What a run at the base could not lint, for notes.
fn notes_of(report: &Report) -> Vec<String> {
    report
        .errors
        .iter()
        .map(|e| format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message))
        .collect()
}

fn failed() -> String {
    "idemlint failed on the base (an internal error; its message is on standard error)".to_string()
}

/// The documents named, under the names they had at the base; one the base lacks (added
/// since) has no findings there, and standard input has no base. A path outside the base's
/// repository is an error: its base is another repository's.
fn base_paths(paths: &[PathBuf], base: &Base, cwd: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = Vec::new();
    for p in paths.iter().filter(|p| p.as_os_str() != "-") {
        let path = crate::files::normalize(&cwd.join(p));
        if !base.holds(&path) {
            return Err(format!(
                "{} is not in the repository at {} (outside it, or in a submodule): run from \
                 the repository that holds it",
                p.display(),
                base.rev.top().display()
            ));
        }
        for then in base.then(&path) {
            let then = as_named(then, cwd);
            if !out.contains(&then) {
                out.push(then);
            }
        }
    }
    Ok(out)
}

/// The options of the run at the base: no base of its own, no baseline, and the files renamed
/// since fingerprinted under their new names.
fn at_base(opts: &Options, base: &Base) -> Options {
    Options {
        // Paths in the project are relative to the top, as git names them.
        renamed: Some(Arc::new(base.renamed.clone())),
        base: None,
        baseline: None,
        stdin_filename: None,
        ..opts.clone()
    }
}

/// `check --base`: the run of `paths` in the work tree, with each finding marked new or
/// unchanged against the same run at `base`, and the base's findings it no longer has counted
/// as fixed. Unchanged findings are left out unless `show_unchanged`.
pub fn check(
    paths: &[PathBuf],
    opts: &Options,
    base: &Base,
    stdin: impl FnOnce() -> std::io::Result<Vec<u8>>,
    show_unchanged: bool,
) -> Result<Report, String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let then = base_paths(paths, base, &cwd)?;
    let named_now: Vec<PathBuf> = paths
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .map(|p| crate::files::normalize(&cwd.join(p)))
        .collect();
    let named_then: Vec<PathBuf> = then
        .iter()
        .map(|p| crate::files::normalize(&cwd.join(p)))
        .collect();
    let moved_out = base.moved_out(&named_then, &named_now);
    let at_base = at_base(opts, base);
    let slot = Arc::new(BaseContracts::pending(&base.name, false));
    let now = Options {
        base: Some(Arc::clone(&slot)),
        ..opts.clone()
    };
    let (before, report) = beside(
        &slot,
        opts.limits.stack_bytes(),
        || {
            if then.is_empty() {
                return (Report::default(), HashMap::new());
            }
            contracts(&then, &at_base, &base.rev)
        },
        || run_each(paths, &now, &Disk, stdin, &|_| ()).0,
    );
    let mut report = report;
    let (mut before, notes) = match before {
        Some(before) => {
            let notes = notes_of(&before);
            (before, notes)
        }
        None => (Report::default(), vec![failed()]),
    };
    // Files moved out of the folders linted are not linted now: not fixed either.
    before
        .findings
        .retain(|f| !moved_out.contains(&crate::files::normalize(&f.source.path)));
    compare(&mut report, before, base, show_unchanged);
    if let Some(outcome) = &mut report.base {
        outcome.notes = notes;
    }
    Ok(report)
}

/// Marks `report`'s findings against the base run's, by fingerprint (rule, file in its
/// project, JSON pointer): lines that moved never make a finding new. Findings silenced now
/// (by the spec or a baseline) are neither new nor fixed; each fingerprint is counted, so one
/// of two alike that goes away is fixed.
fn compare(report: &mut Report, before: Report, base: &Base, show_unchanged: bool) {
    let mut then: HashMap<&str, usize> = HashMap::new();
    for f in &before.findings {
        *then.entry(f.fingerprint.as_str()).or_default() += 1;
    }
    let mut now: HashMap<&str, usize> = HashMap::new();
    for f in report
        .findings
        .iter()
        .chain(report.suppressed.iter().map(|s| &s.finding))
    {
        *now.entry(f.fingerprint.as_str()).or_default() += 1;
    }
    let mut fixed = Vec::new();
    for f in &before.findings {
        match now.get_mut(f.fingerprint.as_str()).filter(|n| **n > 0) {
            Some(n) => *n -= 1,
            None => {
                let mut f = f.clone();
                f.change = Some(Change::Fixed);
                fixed.push(f);
            }
        }
    }
    let mut outcome = BaseOutcome {
        name: base.name.clone(),
        commit: base.rev.commit().to_string(),
        unchanged_shown: show_unchanged,
        ..BaseOutcome::default()
    };
    for f in &mut report.findings {
        let seen = then.get_mut(f.fingerprint.as_str()).filter(|n| **n > 0);
        f.change = Some(match seen {
            Some(n) => {
                *n -= 1;
                outcome.unchanged += 1;
                Change::Unchanged
            }
            None => {
                outcome.new += 1;
                Change::New
            }
        });
    }
    if !show_unchanged {
        report
            .findings
            .retain(|f| f.change != Some(Change::Unchanged));
    }
    outcome.fixed = fixed;
    report.base = Some(outcome);
}

/// One version of a document for `diff`: a file, or `REV:path`, read as `git show` reads it: a
/// path from the repository's top, or from the current folder when it starts with `./` or
/// `../`.
pub enum Version {
    File(PathBuf),
    At { rev: String, path: PathBuf },
}

impl Version {
    pub fn parse(arg: &str) -> Version {
        // A drive letter or a path with a colon that exists is a file.
        match arg.split_once(':') {
            Some((rev, path)) if !rev.is_empty() && !Path::new(arg).exists() && rev.len() > 1 => {
                Version::At {
                    rev: rev.to_string(),
                    path: PathBuf::from(path),
                }
            }
            _ => Version::File(PathBuf::from(arg)),
        }
    }
}

/// The file `REV:path` names, as reports name it; an error when the revision has none there.
fn at_revision(tree: &GitRev, rev: &str, path: &Path, cwd: &Path) -> Result<PathBuf, String> {
    let from_cwd = path.starts_with(".") || path.starts_with("..");
    let at = crate::files::normalize(&if from_cwd {
        cwd.join(path)
    } else {
        tree.top().join(path)
    });
    match tree.metadata(&at) {
        Ok(meta) if meta.is_file() => Ok(as_named(at, cwd)),
        _ => Err(format!(
            "`{rev}:{}` names no file at `{rev}` (a path from the repository's top; `./` or \
             `../` for one from the current folder)",
            path.display()
        )),
    }
}

/// `diff OLD NEW`: the contract-change findings of `new` against `old`, which may each be a
/// file or a path at a revision.
pub fn diff(old: &Version, new: &Version, opts: &Options) -> Result<Report, String> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let (old_report, contracts) = {
        let at_old = Options {
            base: None,
            baseline: None,
            ..opts.clone()
        };
        match old {
            Version::File(path) => contracts(std::slice::from_ref(path), &at_old, &Disk),
            Version::At { rev, path } => {
                let tree = GitRev::open(&cwd, rev)?;
                let named = at_revision(&tree, rev, path, &cwd)?;
                contracts(&[named], &at_old, &tree)
            }
        }
    };
    if !old_report.errors.is_empty() {
        let e = &old_report.errors[0];
        return Err(format!(
            "the old version cannot be linted: {}:{}:{}: {}",
            e.file, e.line, e.column, e.message
        ));
    }
    let now = Options {
        base: Some(Arc::new(BaseContracts::ready("OLD", true, contracts))),
        ..opts.clone()
    };
    let report = match new {
        Version::File(path) => {
            run_each(
                std::slice::from_ref(path),
                &now,
                &Disk,
                || Ok(Vec::new()),
                &|_| (),
            )
            .0
        }
        Version::At { rev, path } => {
            let tree = GitRev::open(&cwd, rev)?;
            let named = at_revision(&tree, rev, path, &cwd)?;
            run_each(&[named], &now, &tree, || Ok(Vec::new()), &|_| ()).0
        }
    };
    Ok(report)
}
