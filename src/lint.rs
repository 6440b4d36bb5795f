//! The pipeline for a whole run: discover → load → resolve → model → rules → report.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::{Config, find_config_file};
use crate::discover::{Input, discover};
use crate::engine::{Linted, Outcome, Setup, Strict, lint_document, parse_error, sort_findings};
use crate::files::{Disk, Files};
use crate::filter::baseline::{self, Baseline, Key, Looked};
use crate::fragments;
use crate::inputs::{self, Named, Origin, Source, Stdin};
pub use crate::options::Options;
use crate::report::Finding;
use crate::report::{FragmentNote, Report, SkippedDocument, Suppressed, SuppressionKind};
use crate::resolve::{ErrorKind, FileError, ResolveOptions};
use crate::source::SourceFile;
use crate::timings::{Timings, timed};

/// Lints every OpenAPI document found under `paths`; `stdin` is read for `-`.
pub fn run(
    paths: &[PathBuf],
    opts: &Options,
    stdin: impl FnOnce() -> std::io::Result<Vec<u8>>,
) -> Report {
    run_each(paths, opts, &Disk, stdin, &|_| ()).0
}

/// [`run`] with every file read through `files`, which also gives what `each` makes of every
/// linted document (`review`'s answers), in the order of `Report::documents`. (Directories
/// named are walked on the disk.)
pub fn run_each<T: Send>(
    paths: &[PathBuf],
    opts: &Options,
    files: &dyn Files,
    stdin: impl FnOnce() -> std::io::Result<Vec<u8>>,
    each: &(dyn Fn(&Linted<'_>) -> T + Sync),
) -> (Report, Vec<T>) {
    let mut timings = Timings::default();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let (inputs, mut errors) = timed(&mut timings.read, || {
        discover(paths, &cwd, files, &opts.limits)
    });
    let stdin_name = opts.stdin_filename.as_deref().map(|f| cwd.join(f));
    let named = inputs
        .iter()
        .filter_map(|input| match input {
            Input::File {
                path,
                explicit: true,
                ..
            } => Some(path.as_path()),
            Input::Stdin => stdin_name.as_deref(),
            _ => None,
        })
        .collect::<Vec<_>>();
    let resolve = resolve_options(
        named,
        paths.iter().filter(|p| p.is_dir()),
        &cwd,
        files,
        opts,
    );
    let read_start = std::time::Instant::now();
    let stdin = Stdin {
        read: Box::new(stdin),
        filename: opts.stdin_filename.as_deref(),
    };
    let sources = inputs::read(inputs, files, &cwd, &opts.limits, stdin, &mut errors);
    timings.read += read_start.elapsed();

    let mut report = Report::default();
    let mut configs = Configs::new(&cwd, files, opts);
    let mut plan = Plan::default();
    let mut fragments = Vec::new();
    for Source { file, origin } in sources {
        let strict = match origin {
            Origin::Named => match inputs::classify(&file, opts.skip_non_openapi) {
                Named::Document { strict } => Strict {
                    parse: strict,
                    not_openapi: strict,
                },
                Named::Fragment => {
                    fragments.push(file);
                    continue;
                }
                Named::Skip => continue,
            },
            // Walked files look like OpenAPI documents: a parse error is worth reporting, a file
            // that turns out not to be one is not.
            Origin::Walked | Origin::ForFragment => Strict {
                parse: true,
                not_openapi: false,
            },
        };
        plan.add(file, strict, &mut configs, &mut report, &mut errors);
    }
    if !fragments.is_empty() {
        let found = for_fragments(fragments, &cwd, files, &plan, &resolve, opts, &mut errors);
        report.fragments = found.notes;
        for file in found.documents {
            let strict = Strict {
                parse: true,
                not_openapi: false,
            };
            plan.add(file, strict, &mut configs, &mut report, &mut errors);
        }
    }
    let jobs: Vec<(SourceFile, Strict, &Config)> = plan
        .jobs
        .into_iter()
        .map(|(source, strict, governed)| {
            let config = match governed {
                Governed::Fixed => opts.config.as_ref().expect("--config is loaded"),
                Governed::By(i) => &configs.loaded[i],
                Governed::Broken(_) => unreachable!("not planned under a broken configuration"),
            };
            (source, strict, config)
        })
        .collect();
    let keep_trees = opts.skip_teardown && jobs.len() == 1;
    // Largest first, one file a task: a big spec started last would leave the other cores idle
    // while it alone is linted. The results are put back in plan order before they are merged:
    // the first of two equal findings (a file shared by two documents, each with its own
    // configuration) is the one kept, and must not depend on file sizes.
    let mut jobs: Vec<(usize, _)> = jobs.into_iter().enumerate().collect();
    jobs.sort_by_key(|(_, (source, _, _))| std::cmp::Reverse(source.text.len()));
    let mut done: Vec<(usize, _)> = jobs
        .into_par_iter()
        .with_max_len(1)
        .map(|(at, (source, strict, config))| {
            // A bug in a rule on one file is that file's error, not the end of the run: the
            // other files are still linted and reported, and the exit code is 2, as for any
            // input that could not be linted. (The panic's own message has been printed by
            // then, for a bug report.)
            let name = source.name.clone();
            let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let setup = Setup {
                    files,
                    resolve: &resolve,
                    config,
                    opts,
                };
                lint_document(source, strict, &setup, keep_trees, each)
            }));
            let linted = linted.unwrap_or_else(|_| {
                let mut result = Outcome::default();
                result.errors.push(FileError {
                    kind: ErrorKind::Input,
                    file: name,
                    line: 1,
                    column: 1,
                    message: "idemlint failed on this file: an internal error (its message is \
                              on standard error); please report it with the file"
                        .to_string(),
                });
                (result, None)
            });
            (at, linted)
        })
        .collect();
    done.sort_by_key(|(at, _)| *at);
    let (results, made): (Vec<Outcome>, Vec<Option<(String, T)>>) =
        done.into_iter().map(|(_, r)| r).unzip();

    let mut seen = HashSet::new();
    let mut seen_suppressed = HashSet::new();
    for r in &results {
        for s in &r.suppressed {
            // A file shared by several documents is silenced once.
            let f = &s.finding;
            if seen_suppressed.insert((f.rule, f.source.path.clone(), f.span, f.message.clone())) {
                report.suppressed.push(s.clone());
            }
        }
    }
    for r in results {
        timings += r.timings;
        report.files += usize::from(r.linted);
        report.operations += r.operations;
        report.documents.extend(r.document);
        errors.extend(r.errors);
        for f in r.findings {
            // A file shared by several roots is reported once.
            if seen.insert((f.rule, f.source.path.clone(), f.span, f.message.clone())) {
                report.findings.push(f);
            }
        }
    }
    sort_findings(&mut report.findings);
    report.documents.sort_by(|a, b| a.file.cmp(&b.file));
    // In the order of `report.documents`: by name, as documents are sorted above.
    let mut made: Vec<(String, T)> = made.into_iter().flatten().collect();
    made.sort_by(|a, b| a.0.cmp(&b.0));
    let made = made.into_iter().map(|(_, t)| t).collect();
    report.skipped.sort_by(|a, b| a.file.cmp(&b.file));
    if report.files == 0 && errors.is_empty() && !quiet_when_empty(paths, opts) {
        errors.push(nothing_found(paths, report.excluded));
    }
    let mut seen_errors = HashSet::new();
    errors.retain(|e| seen_errors.insert((e.file.clone(), e.line, e.column, e.message.clone())));
    errors.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    report.errors = errors;
    report.timings = timings;
    if let Some(baseline) = &opts.baseline {
        apply_baseline(&mut report, baseline, opts);
    }
    (report, made)
}

/// The baseline stage of the filter: the run's findings the baseline knows are moved to the
/// silenced ones, and how it matched is recorded for the report.
fn apply_baseline(report: &mut Report, baseline: &Baseline, opts: &Options) {
    let keys: Vec<Key<'_>> = report.findings.iter().map(Finding::baseline_key).collect();
    let documents: Vec<&[PathBuf]> = report
        .documents
        .iter()
        .map(|d| d.loaded.as_slice())
        .collect();
    let looked = Looked {
        documents: &documents,
        complete: report.errors.is_empty(),
        ran: &|rule| opts.selection().runs(rule),
    };
    let (known, outcome) = baseline::judge(baseline, &keys, &looked);
    drop(keys);
    let findings = std::mem::take(&mut report.findings);
    for (finding, known) in findings.into_iter().zip(known) {
        if known {
            report.suppressed.push(Suppressed {
                finding,
                kind: SuppressionKind::Baseline,
                reason: None,
            });
        } else {
            report.findings.push(finding);
        }
    }
    report.baseline = Some(outcome);
}

/// The documents to lint, each with its configuration.
#[derive(Default)]
struct Plan {
    jobs: Vec<(SourceFile, Strict, Governed)>,
    /// Canonical paths of the documents planned, so that none is linted twice.
    paths: HashSet<PathBuf>,
}

impl Plan {
    /// Plans `file` under its configuration, unless excluded, already planned, or governed by a
    /// broken configuration (then it is listed as skipped).
    fn add(
        &mut self,
        file: SourceFile,
        strict: Strict,
        configs: &mut Configs<'_>,
        report: &mut Report,
        errors: &mut Vec<FileError>,
    ) {
        if !self.paths.insert(file.path.clone()) {
            return;
        }
        let governed = configs.governing(&file.path, errors);
        let excluded = match governed {
            Governed::Broken(ref config) => {
                report.skipped.push(SkippedDocument {
                    file: file.name.clone(),
                    reason: format!("its configuration {config} has errors"),
                });
                return;
            }
            Governed::Fixed => configs
                .opts
                .config
                .as_ref()
                .is_some_and(|c| c.excludes(&file.path)),
            Governed::By(i) => configs.loaded[i].excludes(&file.path),
        };
        if excluded
            || configs
                .opts
                .exclude
                .as_ref()
                .is_some_and(|e| e.matches(&file.path))
        {
            report.excluded += 1;
            return;
        }
        self.jobs.push((file, strict, governed));
    }
}

/// What linting named fragments adds: the documents that reach them, and a note for each.
struct ForFragments {
    documents: Vec<SourceFile>,
    notes: Vec<FragmentNote>,
}

/// Finds the documents under the root (`--root`, else the working directory) that reach the named `fragments`. A fragment no document
/// reaches is an error, unless in hook mode, where it may be any YAML file of the commit. A
/// fragment that is not even valid YAML or JSON is an error as any named file is.
fn for_fragments(
    fragments: Vec<SourceFile>,
    cwd: &Path,
    files: &dyn Files,
    plan: &Plan,
    resolve: &ResolveOptions,
    opts: &Options,
    errors: &mut Vec<FileError>,
) -> ForFragments {
    let hook = opts.skip_non_openapi;
    // As the user would name it, so that the documents found get names relative to it.
    let search = opts.root.clone().unwrap_or_else(|| PathBuf::from("."));
    let search = search.as_path();
    let mut targets = Vec::new();
    let mut names = Vec::new();
    for f in fragments {
        match f.parse(&opts.limits) {
            Ok(_) => {
                targets.push(f.path.clone());
                names.push(f.name.clone());
            }
            Err(e) if !hook => errors.push(parse_error(&f, e)),
            Err(_) => {}
        }
    }
    let found = fragments::documents_reaching(&targets, search, cwd, files, resolve, &opts.limits);
    let mut notes: Vec<FragmentNote> = names
        .into_iter()
        .map(|file| FragmentNote {
            file,
            documents: Vec::new(),
        })
        .collect();
    let mut documents = Vec::new();
    for reaching in found {
        for &i in &reaching.reaches {
            notes[i].documents.push(reaching.file.name.clone());
        }
        // A document the run lints anyway is noted, not linted twice.
        if !plan.paths.contains(&reaching.file.path) {
            documents.push(reaching.file);
        }
    }
    for note in &mut notes {
        note.documents.sort();
    }
    notes.retain(|note| {
        if note.documents.is_empty() && !hook {
            errors.push(FileError {
                kind: ErrorKind::Input,
                file: note.file.clone(),
                line: 1,
                column: 1,
                message: format!(
                    "not an OpenAPI document: no top-level `openapi` or `swagger` key, and no \
                     OpenAPI document under {} reaches it through `$ref`",
                    display_dir(search)
                ),
            });
        }
        !note.documents.is_empty()
    });
    documents.sort_by(|a, b| a.name.cmp(&b.name));
    ForFragments { documents, notes }
}

/// `dir` as a user would write it: `.` for the working directory.
fn display_dir(dir: &Path) -> String {
    match crate::discover::display_name(dir) {
        name if name.is_empty() => ".".to_string(),
        name => name,
    }
}

/// Whether a run that found no document is fine: a hook naming only files that are not OpenAPI.
fn quiet_when_empty(paths: &[PathBuf], opts: &Options) -> bool {
    opts.skip_non_openapi && paths.iter().all(|p| p.as_os_str() != "-" && !p.is_dir())
}

/// The error of a run whose paths hold no OpenAPI document: a wrong path in CI must not pass.
fn nothing_found(paths: &[PathBuf], excluded: usize) -> FileError {
    let shown: Vec<String> = paths
        .iter()
        .map(|p| crate::discover::display_name(p))
        .collect();
    let mut message = format!(
        "no OpenAPI documents found in {} (looked for *.yaml, *.yml, *.json with an openapi or \
         swagger key)",
        shown.join(", ")
    );
    if excluded > 0 {
        message.push_str(&format!(
            "; {excluded} excluded by --exclude or a configuration's `exclude`"
        ));
    }
    FileError {
        kind: ErrorKind::Input,
        file: shown.join(", "),
        line: 1,
        column: 1,
        message,
    }
}

/// Each file's configuration, loaded once per configuration file.
struct Configs<'o> {
    cwd: &'o Path,
    files: &'o dyn Files,
    opts: &'o Options,
    loaded: Vec<Config>,
    by_file: HashMap<Option<PathBuf>, Governed>,
}

impl<'o> Configs<'o> {
    fn new(cwd: &'o Path, files: &'o dyn Files, opts: &'o Options) -> Self {
        Configs {
            cwd,
            files,
            opts,
            loaded: Vec::new(),
            by_file: HashMap::new(),
        }
    }

    /// The configuration governing the document at `path`; a broken one's errors go to `errors`
    /// the first time it is met.
    fn governing(&mut self, path: &Path, errors: &mut Vec<FileError>) -> Governed {
        if self.opts.config.is_some() {
            return Governed::Fixed;
        }
        let file = path
            .parent()
            .and_then(|dir| find_config_file(self.files, dir));
        if let Some(g) = self.by_file.get(&file) {
            return g.clone();
        }
        let g = match load_config(self.files, file.as_deref(), self.cwd, self.opts) {
            Ok(c) => {
                self.loaded.push(c);
                Governed::By(self.loaded.len() - 1)
            }
            Err(errs) => {
                let name = errs
                    .first()
                    .map_or_else(|| "--profile".to_string(), |e| e.file.clone());
                errors.extend(errs);
                Governed::Broken(name)
            }
        };
        self.by_file.insert(file, g.clone());
        g
    }
}

/// Where `$ref`s may lead: the root (`--root`, or the working directory), plus the folders of
/// documents named on the command line and the directories given, since naming a path outside
/// the root is asking for it to be read.
pub fn resolve_options<'p>(
    named_files: impl IntoIterator<Item = &'p Path>,
    dirs: impl IntoIterator<Item = &'p PathBuf>,
    cwd: &Path,
    files: &dyn Files,
    opts: &Options,
) -> ResolveOptions {
    let mut allowed = vec![opts.root.clone().unwrap_or_else(|| cwd.to_path_buf())];
    allowed.extend(
        named_files
            .into_iter()
            .map(|p| p.parent().unwrap_or(Path::new(".")).to_path_buf()),
    );
    allowed.extend(dirs.into_iter().cloned());
    ResolveOptions {
        allowed_roots: allowed
            .iter()
            .map(|p| {
                let abs = if p.as_os_str().is_empty() {
                    cwd.to_path_buf()
                } else {
                    cwd.join(p)
                };
                crate::files::identity(files, &abs)
            })
            .collect(),
        outside_root: opts.allow_outside_root,
        remote: opts.allow_remote_refs,
        limits: opts.limits,
    }
}

/// Which configuration a file is linted with.
#[derive(Debug, Clone)]
enum Governed {
    /// `Options::config`.
    Fixed,
    /// A loaded configuration, by index.
    By(usize),
    /// Its configuration file (named) has errors.
    Broken(String),
}

/// The configuration in `file`, or the defaults (with `--profile`) when there is none.
fn load_config(
    files: &dyn Files,
    file: Option<&Path>,
    cwd: &Path,
    opts: &Options,
) -> Result<Config, Vec<FileError>> {
    let Some(path) = file else {
        return Config::defaults(cwd.to_path_buf(), opts.profile.as_deref()).map_err(|message| {
            vec![FileError {
                kind: ErrorKind::Input,
                file: "--profile".to_string(),
                line: 1,
                column: 1,
                message,
            }]
        });
    };
    let name = crate::discover::display_name(path.strip_prefix(cwd).unwrap_or(path));
    Config::load(files, path, &name, opts.profile.as_deref()).map_err(|errs| {
        errs.into_iter()
            .map(|e| FileError {
                kind: ErrorKind::Configuration,
                file: e.file,
                line: e.line,
                column: e.column,
                message: e.message,
            })
            .collect()
    })
}
