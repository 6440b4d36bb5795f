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
                format!("{e}\n{}", shallow_hint(name))
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

    /// `path` (absolute) as it was named at the base: its old name when git saw it renamed.
    fn then(&self, path: &Path) -> PathBuf {
        let top = self.rev.top();
        let Ok(inside) = path.strip_prefix(top) else {
            return path.to_path_buf();
        };
        let now = inside.to_string_lossy().replace('\\', "/");
        match self.renamed.iter().find(|(_, n)| **n == now) {
            Some((old, _)) => top.join(old),
            None => path.to_path_buf(),
        }
    }
}

/// `path` as reports name it: relative to the current folder when it is under it.
fn as_named(path: PathBuf, cwd: &Path) -> PathBuf {
    match path.strip_prefix(cwd) {
        Ok(inside) if inside.as_os_str().is_empty() => PathBuf::from("."),
        Ok(inside) => inside.to_path_buf(),
        Err(_) => path,
    }
}

/// What to tell a user whose shallow clone lacks the base.
fn shallow_hint(name: &str) -> String {
    let (remote, branch) = match name
        .split_once("...")
        .map_or(name, |(a, _)| a)
        .split_once('/')
    {
        Some((remote, branch)) => (remote.to_string(), branch.to_string()),
        None => ("origin".to_string(), name.to_string()),
    };
    format!(
        "this is a shallow clone, which may not hold `{name}`: fetch it first \
         (`git fetch --no-tags --depth=1 {remote} {branch}:refs/remotes/{remote}/{branch}`; for \
         `A...B`, enough history for a merge base: `git fetch --unshallow`), or check out with \
         `fetch-depth: 0` (GitHub Actions' `actions/checkout`) or `GIT_DEPTH: 0` (GitLab CI)"
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

/// `review --base`: the documents reviewed at the base and now, what the run now found (the
/// contract-change findings among it), and how the base names each document renamed since.
pub struct Reviewed {
    pub report: Report,
    pub before: Vec<crate::review::ApiReview>,
    pub after: Vec<crate::review::ApiReview>,
    pub renamed: HashMap<String, String>,
}

pub fn review(
    paths: &[PathBuf],
    opts: &Options,
    base: &Base,
    stdin: impl FnOnce() -> std::io::Result<Vec<u8>>,
) -> Reviewed {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let then = base_paths(paths, base, &cwd);
    let at_base = at_base(opts, base);
    let fallback = opts.root.clone().unwrap_or_else(|| cwd.clone());
    let each = |d: &Linted<'_>| {
        let root = &d.bundle.file(crate::resolve::Bundle::ROOT).source.path;
        let mut path = Projects::new(&fallback).relative(root);
        if let Some(now) = base.renamed.get(&path) {
            path = now.clone();
        }
        (
            crate::review::review_document(d),
            (path, Contract::of(d.bundle, d.api, d.facts)),
        )
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
                return (Vec::new(), HashMap::new());
            }
            let (reviews, contracts): (Vec<_>, Vec<_>) =
                run_each(&then, &at_base, &base.rev, || Ok(Vec::new()), &each)
                    .1
                    .into_iter()
                    .unzip();
            (reviews, contracts.into_iter().collect())
        },
        || run_each(paths, &now, &Disk, stdin, &crate::review::review_document),
    );
    let before = before.unwrap_or_default();
    // Reviews name documents as the run does, relative to the current folder.
    let top = base.rev.top();
    let renamed = base
        .renamed
        .iter()
        .map(|(old, new)| {
            let name = |p: &str| as_named(top.join(p), &cwd).to_string_lossy().into_owned();
            (name(old), name(new))
        })
        .collect();
    Reviewed {
        report,
        before,
        after,
        renamed,
    }
}

/// The documents named, under the names they had at the base; one the base lacks (added
/// since) has no findings there, and standard input has no base.
fn base_paths(paths: &[PathBuf], base: &Base, cwd: &Path) -> Vec<PathBuf> {
    paths
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .map(|p| base.then(&crate::files::normalize(&cwd.join(p))))
        .filter(|p| base.rev.metadata(p).is_ok())
        .map(|p| as_named(p, cwd))
        .collect()
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
) -> Report {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let then = base_paths(paths, base, &cwd);
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
    compare(
        &mut report,
        before.unwrap_or_default(),
        base,
        show_unchanged,
    );
    report
}

/// Marks `report`'s findings against the base run's, by fingerprint (rule, file in its
/// project, JSON pointer): lines that moved never make a finding new.
fn compare(report: &mut Report, before: Report, base: &Base, show_unchanged: bool) {
    let mut then: HashMap<&str, usize> = HashMap::new();
    for f in &before.findings {
        *then.entry(f.fingerprint.as_str()).or_default() += 1;
    }
    let now: HashSet<&str> = report
        .findings
        .iter()
        .map(|f| f.fingerprint.as_str())
        .collect();
    let fixed: Vec<_> = before
        .findings
        .iter()
        .filter(|f| !now.contains(f.fingerprint.as_str()))
        .cloned()
        .map(|mut f| {
            f.change = Some(Change::Fixed);
            f
        })
        .collect();
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

/// One version of a document for `diff`: a file, or `REV:path` (a path in the repository at
/// `REV`, relative to the current folder as `git show REV:./path` reads it).
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
                let named = as_named(crate::files::normalize(&cwd.join(path)), &cwd);
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
            let named = as_named(crate::files::normalize(&cwd.join(path)), &cwd);
            run_each(&[named], &now, &tree, || Ok(Vec::new()), &|_| ()).0
        }
    };
    Ok(report)
}
