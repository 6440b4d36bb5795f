//! The pipeline for a whole run: discover → load → resolve → model → rules → report.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::config::{Config, Level, find_config_file};
use crate::diagnostic::Diagnostic;
use crate::discover::{Input, discover};
use crate::fragments;
use crate::inputs::{self, Excludes, Named, Origin, Source, Stdin};
use crate::limits::Limits;
use crate::model;
use crate::project::Projects;
use crate::report::{
    DocumentOperation, Finding, FragmentNote, LintedDocument, Report, ResolvedLabel,
    SkippedDocument, Suppressed, SuppressionKind, UncheckedOperation, printable,
};
use crate::suppress::{self, Suppressions};
use crate::timings::{Timings, timed};

/// The rule that reports suppressions that silence nothing.
const UNUSED: &str = "unused-suppression";
use crate::resolve::{
    Bundle, ErrorKind, FileError, Location, PointerCache, ResolveOptions, normalize,
};
use crate::rules::{Context, check_each};
use crate::source::SourceFile;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Where `$ref`s may lead; defaults to the working directory.
    pub root: Option<PathBuf>,
    /// One configuration for every file (`--config`, or set by a caller); without it each file
    /// gets its nearest `.idemlint.yaml`, or the defaults.
    pub config: Option<Config>,
    /// `--profile`: wins over a configuration's `extends`.
    pub profile: Option<String>,
    /// `--select`: only these rules run (empty: all).
    pub select: Vec<String>,
    /// `--ignore`: these rules do not run.
    pub ignore: Vec<String>,
    /// Named files that are no OpenAPI document are skipped, as in a directory walk, instead of
    /// being an error (for hooks that pass every YAML file).
    pub skip_non_openapi: bool,
    /// Leave the document's tree allocated when done with it, when the run lints one document.
    /// Freeing millions of nodes is a tenth of the run time on a large spec, and a process about
    /// to exit need not pay it; with many documents, though, the trees would add up.
    pub skip_teardown: bool,
    /// `--exclude`: documents not to lint (a configuration's `exclude:` adds its own).
    pub exclude: Option<Excludes>,
    /// `--stdin-filename`: the name and place of the document read from `-`.
    pub stdin_filename: Option<PathBuf>,
    /// File size, nesting, alias and `$ref` fan-out limits.
    pub limits: Limits,
    /// `--allow-outside-root`: `$ref`s may read any local file.
    pub allow_outside_root: bool,
    /// `--allow-remote-refs`: `$ref`s to http(s) URLs are fetched.
    pub allow_remote_refs: bool,
}

/// What linting one root document gave.
#[derive(Default)]
struct FileResult {
    findings: Vec<Finding>,
    suppressed: Vec<Suppressed>,
    errors: Vec<FileError>,
    linted: bool,
    operations: usize,
    /// The linted document and its operations, for per-operation formats (JUnit).
    document: Option<LintedDocument>,
    timings: Timings,
}

/// Lints every OpenAPI document found under `paths`; `stdin` is read for `-`.
pub fn run(
    paths: &[PathBuf],
    opts: &Options,
    stdin: impl FnOnce() -> std::io::Result<Vec<u8>>,
) -> Report {
    run_each(paths, opts, stdin, &|_| ()).0
}

/// One linted document as a front end sees it beside the report, while its tree is loaded.
pub struct Linted<'a> {
    pub bundle: &'a Bundle,
    pub api: &'a model::Api<'a>,
    pub config: &'a Config,
    /// The document's findings, suppressions and levels applied, in report order.
    pub findings: &'a [Finding],
}

/// [`run`], which also gives what `each` makes of every linted document (`review`'s answers),
/// in the order of `Report::documents`.
pub fn run_each<T: Send>(
    paths: &[PathBuf],
    opts: &Options,
    stdin: impl FnOnce() -> std::io::Result<Vec<u8>>,
    each: &(dyn Fn(&Linted<'_>) -> T + Sync),
) -> (Report, Vec<T>) {
    let mut timings = Timings::default();
    let (inputs, mut errors) = timed(&mut timings.read, || discover(paths, &opts.limits));
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
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
    let resolve = resolve_options(named, paths.iter().filter(|p| p.is_dir()), &cwd, opts);
    let read_start = std::time::Instant::now();
    let stdin = Stdin {
        read: Box::new(stdin),
        filename: opts.stdin_filename.as_deref(),
    };
    let sources = inputs::read(inputs, &cwd, &opts.limits, stdin, &mut errors);
    timings.read += read_start.elapsed();

    let mut report = Report::default();
    let mut configs = Configs::new(&cwd, opts);
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
        // As the user would name it, so that the documents found get names relative to it.
        let search = opts.root.clone().unwrap_or_else(|| PathBuf::from("."));
        let found = for_fragments(fragments, &search, &cwd, &plan, &resolve, opts, &mut errors);
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
                lint_source(source, strict, &resolve, config, opts, keep_trees, each)
            }));
            let linted = linted.unwrap_or_else(|_| {
                let mut result = FileResult::default();
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
    let (results, made): (Vec<FileResult>, Vec<Option<(String, T)>>) =
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
    (report, made)
}

/// How much a linted file's problems matter.
#[derive(Debug, Clone, Copy)]
struct Strict {
    /// Invalid YAML or JSON is an error.
    parse: bool,
    /// A file that parses but is not an OpenAPI document is an error.
    not_openapi: bool,
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

/// Finds the documents under `search` that reach the named `fragments`. A fragment no document
/// reaches is an error, unless in hook mode, where it may be any YAML file of the commit. A
/// fragment that is not even valid YAML or JSON is an error as any named file is.
fn for_fragments(
    fragments: Vec<SourceFile>,
    search: &Path,
    cwd: &Path,
    plan: &Plan,
    resolve: &ResolveOptions,
    opts: &Options,
    errors: &mut Vec<FileError>,
) -> ForFragments {
    let hook = opts.skip_non_openapi;
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
    let found = fragments::documents_reaching(&targets, search, cwd, resolve, &opts.limits);
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

fn parse_error(source: &SourceFile, e: crate::source::LoadError) -> FileError {
    let at = source.line_col(e.span.start as usize);
    FileError {
        kind: ErrorKind::Input,
        file: source.name.clone(),
        line: at.line,
        column: at.column,
        message: e.message,
    }
}

/// Each file's configuration, loaded once per configuration file.
struct Configs<'o> {
    cwd: &'o Path,
    opts: &'o Options,
    loaded: Vec<Config>,
    by_file: HashMap<Option<PathBuf>, Governed>,
}

impl<'o> Configs<'o> {
    fn new(cwd: &'o Path, opts: &'o Options) -> Self {
        Configs {
            cwd,
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
        let file = path.parent().and_then(find_config_file);
        if let Some(g) = self.by_file.get(&file) {
            return g.clone();
        }
        let g = match load_config(file.as_deref(), self.cwd, self.opts) {
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
                std::fs::canonicalize(&abs).unwrap_or_else(|_| normalize(&abs))
            })
            .collect(),
        outside_root: opts.allow_outside_root,
        remote: opts.allow_remote_refs,
        limits: opts.limits,
    }
}

/// Findings in the order every report shows them: by file, position, rule and message; findings
/// alike in all of those (one shared `$ref` target reported for two operations) by their
/// operations' place in the document, then by fingerprint. The order is the same every run
/// without a stable sort, whose buffer would copy half the findings.
fn sort_findings(findings: &mut [Finding]) {
    findings.sort_unstable_by(|a, b| sort_key(a).cmp(&sort_key(b)));
}

type SortKey<'f> = (
    &'f str,
    u32,
    u32,
    &'static str,
    &'f str,
    Option<(&'f Path, u32)>,
    &'f str,
);

fn sort_key(f: &Finding) -> SortKey<'_> {
    (
        f.file(),
        f.line,
        f.column,
        f.rule,
        &f.message,
        f.operation_at
            .as_ref()
            .map(|(path, span)| (path.as_path(), span.start)),
        &f.fingerprint,
    )
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
fn load_config(file: Option<&Path>, cwd: &Path, opts: &Options) -> Result<Config, Vec<FileError>> {
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
    Config::load(path, &name, opts.profile.as_deref()).map_err(|errs| {
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

/// Lints one root document (and the files its `$ref`s reach); `each` makes its part of the
/// front end's output, named by the document.
fn lint_source<T>(
    source: SourceFile,
    strict: Strict,
    resolve: &ResolveOptions,
    config: &Config,
    opts: &Options,
    keep_tree: bool,
    each: &(dyn Fn(&Linted<'_>) -> T + Sync),
) -> (FileResult, Option<(String, T)>) {
    let mut result = FileResult::default();
    // Walked files were checked already; a named `.yaml`/`.json` file is parsed and judged by
    // its content, so only a file of another kind (Cargo.toml) is turned away unparsed.
    if !crate::discover::is_spec_extension(&source.path)
        && !crate::discover::looks_like_root(source.text.as_bytes())
    {
        if strict.not_openapi {
            result.errors.push(FileError {
                kind: ErrorKind::Input,
                file: source.name.clone(),
                line: 1,
                column: 1,
                message: "not an OpenAPI document: no top-level `openapi` or `swagger` key"
                    .to_string(),
            });
        }
        return (result, None);
    }
    let loaded = match timed(&mut result.timings.parse, || source.parse(&opts.limits)) {
        Ok(l) => l,
        Err(e) => {
            if strict.parse {
                result.errors.push(parse_error(&source, e));
            }
            return (result, None);
        }
    };
    if let Err(e) = model::build::spec_version(&loaded.root) {
        if strict.not_openapi {
            result.errors.push(FileError {
                kind: ErrorKind::Input,
                file: source.name.clone(),
                line: 1,
                column: 1,
                message: e.0,
            });
        }
        return (result, None);
    }
    let bundle = timed(&mut result.timings.resolve, || {
        Bundle::load(source, loaded.root, loaded.duplicates, resolve)
    });
    let made = lint_bundle(&bundle, config, opts, &mut result).map(|api| {
        sort_findings(&mut result.findings);
        let linted = Linted {
            bundle: &bundle,
            api: &api,
            config,
            findings: &result.findings,
        };
        (bundle.file(Bundle::ROOT).source.name.clone(), each(&linted))
    });
    if keep_tree {
        std::mem::forget(bundle);
    }
    (result, made)
}

/// Models a loaded document and runs the rules on it, into `result`; gives the model back,
/// unless the document could not be modelled.
fn lint_bundle<'b>(
    bundle: &'b Bundle,
    config: &Config,
    opts: &Options,
    result: &mut FileResult,
) -> Option<model::Api<'b>> {
    let api = match timed(&mut result.timings.model, || model::build(bundle)) {
        Ok(api) => api,
        Err(e) => {
            result.errors.push(FileError {
                kind: ErrorKind::Input,
                file: bundle.file(Bundle::ROOT).source.name.clone(),
                line: 1,
                column: 1,
                message: e.0,
            });
            return None;
        }
    };
    let rules_start = std::time::Instant::now();
    let cx = Context::new(&api, bundle, &config.settings);
    result.linted = true;
    result.operations = api.operations.len() + api.unchecked.len();
    let place = |at: Location| {
        let file = bundle.file(at.file);
        let lc = file.source.line_col(at.span.start as usize);
        (file.source.name.clone(), lc.line, lc.column)
    };
    result.document = Some(LintedDocument {
        file: bundle.file(Bundle::ROOT).source.name.clone(),
        operations: api
            .operations
            .iter()
            .map(|op| DocumentOperation {
                display: op.display(),
                at: (bundle.file(op.key.file).source.path.clone(), op.key.span),
            })
            .collect(),
        unchecked: api
            .unchecked
            .iter()
            .map(|op| {
                let (file, line, column) = place(op.key);
                let (ref_file, ref_line, ref_column) = place(op.because);
                let target = bundle.ref_target(op.because).unwrap_or_default();
                UncheckedOperation {
                    display: op.display.clone(),
                    file,
                    line,
                    column,
                    reason: format!(
                        "$ref `{target}` at {ref_file}:{ref_line}:{ref_column} was not loaded"
                    ),
                }
            })
            .collect(),
        loaded: bundle.files.iter().map(|f| f.source.path.clone()).collect(),
    });
    result.errors = bundle.errors.clone();
    let mut suppressions = Suppressions::collect(bundle);
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let mut resolving = Resolving::new(opts.root.as_deref().unwrap_or(&cwd));
    let levelled = |d: Diagnostic, resolving: &mut Resolving| {
        if !selected(d.rule, opts) {
            return None;
        }
        let mut f = resolving.finding(bundle, d);
        match config.level(f.rule, &f.source.path, &f.pointer) {
            Some(Level::Off) => return None,
            Some(Level::On(severity)) => f.severity = severity,
            None => {}
        }
        Some(f)
    };
    // The operations each rule reported and kept (selected, not turned off): what shadows a
    // weaker rule's finding. Shadowable findings wait until every rule has run, since the rule
    // that shadows one may come later in the catalogue.
    let mut reported: HashSet<(&'static str, Location)> = HashSet::new();
    let mut waiting: Vec<Diagnostic> = Vec::new();
    // What became of a diagnostic: shown, or silenced in the source.
    enum Kept {
        Shown(Finding),
        Silenced(Suppressed),
    }
    let mut keep = |d: Diagnostic,
                    resolving: &mut Resolving,
                    reported: &mut HashSet<(&'static str, Location)>| {
        let op_node = d.operation_node;
        let op_key = d.operation_key;
        // Advice on a deprecated operation is judged (its suppression is used, it shadows what
        // it would) and then left out, unless the configuration sets its rule's level.
        let left_out = d.deprecated_advice && !config.levels.contains_key(d.rule);
        let f = levelled(d, resolving)?;
        if let Some(key) = op_key {
            reported.insert((f.rule, key));
        }
        let silenced = suppress::file_of(bundle, &f)
            .and_then(|file| suppressions.silence(file, &f))
            .or_else(|| {
                // Written inside the operation object, which may be a `$ref` away.
                let node = op_node?;
                suppressions.silence_at(node.file, node.span, None, f.rule)
            });
        if left_out {
            return None;
        }
        Some(match silenced {
            Some(reason) => Kept::Silenced(Suppressed {
                finding: f,
                kind: SuppressionKind::InSource,
                reason,
            }),
            None => Kept::Shown(f),
        })
    };
    check_each(&cx, |diagnostics| {
        // One rule's findings of a gap the whole API shares: one stands for all that are shown,
        // and one for all that are silenced.
        let mut shown_gap = Vec::new();
        let mut silenced_gap = Vec::new();
        // (What no operation declares: one phrase for all of a rule's marked findings.)
        let mut gap = String::new();
        for d in diagnostics.drain(..) {
            if !d.shadowed_by.is_empty() && d.operation_key.is_some() {
                waiting.push(d);
                continue;
            }
            let shared = d.shared_gap.is_some();
            if let Some(what) = &d.shared_gap {
                gap.clone_from(what);
            }
            match keep(d, &mut resolving, &mut reported) {
                Some(Kept::Shown(f)) if shared => shown_gap.push(f),
                Some(Kept::Shown(f)) => result.findings.push(f),
                Some(Kept::Silenced(s)) if shared => silenced_gap.push(s),
                Some(Kept::Silenced(s)) => result.suppressed.push(s),
                None => {}
            }
        }
        if let Some(f) = one_for_the_gap(shown_gap, &gap, |f| f) {
            result.findings.push(f);
        }
        if let Some(s) = one_for_the_gap(silenced_gap, &gap, |s| &mut s.finding) {
            result.suppressed.push(s);
        }
    });
    // In catalogue order, so a kept shadowable finding can shadow the next one in turn.
    for d in waiting {
        let key = d
            .operation_key
            .expect("only findings about an operation wait");
        if d.shadowed_by.iter().any(|r| reported.contains(&(*r, key))) {
            continue;
        }
        match keep(d, &mut resolving, &mut reported) {
            Some(Kept::Shown(f)) => result.findings.push(f),
            Some(Kept::Silenced(s)) => result.suppressed.push(s),
            None => {}
        }
    }
    let enabled = |rule: &str| selected(rule, opts) && config.levels.get(rule) != Some(&Level::Off);
    for (at, message) in suppressions.unused(enabled) {
        let d = cx.diagnostic(crate::rules::find(UNUSED).expect("registered"), at, message);
        if let Some(f) = levelled(d, &mut resolving) {
            result.findings.push(f);
        }
    }
    result.timings.rules += rules_start.elapsed();
    drop(cx);
    Some(api)
}

/// The one finding that stands for a gap the whole API shares ([`Diagnostic::shared_gap`]): the
/// first of the most severe (a per-path level may have raised or lowered some), its message
/// counting the others and naming what no operation declares (`what`).
fn one_for_the_gap<T>(
    mut all: Vec<T>,
    what: &str,
    finding: impl Fn(&mut T) -> &mut Finding,
) -> Option<T> {
    let others = all.len().checked_sub(1)?;
    let mut at = 0;
    for i in 1..all.len() {
        let here = finding(&mut all[i]).severity;
        if here > finding(&mut all[at]).severity {
            at = i;
        }
    }
    let mut one = all.swap_remove(at);
    if others > 0 {
        finding(&mut one)
            .message
            .push_str(&crate::rules::shared_gap_note(what, others));
    }
    Some(one)
}

/// `--select` and `--ignore`.
pub fn selected(rule: &str, opts: &Options) -> bool {
    (opts.select.is_empty() || opts.select.iter().any(|s| s == rule))
        && !opts.ignore.iter().any(|s| s == rule)
}

/// What turning one document's diagnostics into findings remembers: the fingerprints given so
/// far (a repeat gets a counter), which mappings are in source order, and each file's path in
/// its project.
struct Resolving {
    fingerprints: HashSet<[u8; 16]>,
    pointers: PointerCache,
    projects: Projects,
    in_project: HashMap<crate::resolve::FileId, String>,
}

impl Resolving {
    /// `fallback`: the project folder of files outside any git work tree.
    fn new(fallback: &Path) -> Self {
        Resolving {
            fingerprints: HashSet::new(),
            pointers: PointerCache::default(),
            projects: Projects::new(fallback),
            in_project: HashMap::new(),
        }
    }

    fn finding(&mut self, bundle: &Bundle, d: Diagnostic) -> Finding {
        let file = bundle.file(d.primary.file);
        let start = file.source.line_col(d.primary.span.start as usize);
        let end = file.source.line_col(d.primary.span.end as usize);
        let pointer = self.pointers.pointer_to(&file.root, d.primary.span);
        let projects = &mut self.projects;
        let path = self
            .in_project
            .entry(d.primary.file)
            .or_insert_with(|| projects.relative(&file.source.path));
        // A place several operations share (a parameter component, a shared response) holds a
        // finding of each: which operation is part of what it is, so one that goes away leaves
        // the others' fingerprints as they were. A place of the operation's own (its method key
        // or anything inside it) keeps the plain rule, file and pointer. The operation is named
        // by its method, path and the pointer of its method key, which tells callbacks with one
        // URL expression apart and stays the same when lines move.
        let within = |outer: Location| {
            outer.file == d.primary.file
                && outer.span.start <= d.primary.span.start
                && d.primary.span.end <= outer.span.end
        };
        let own_place = d.operation_node.is_some_and(within) || d.operation_key.is_some_and(within);
        let operation = match (&d.operation, d.operation_key) {
            (Some(op), Some(key)) if !own_place => {
                let key_file = bundle.file(key.file);
                let key_pointer = self.pointers.pointer_to(&key_file.root, key.span);
                Some(format!("{} {} {key_pointer}", op.method, op.path))
            }
            _ => None,
        };
        let fingerprint = fingerprint(
            d.rule,
            path,
            &pointer,
            operation.as_deref(),
            &mut self.fingerprints,
        );
        let labels = d
            .labels
            .into_iter()
            .map(|l| resolve_label(bundle, d.primary, l.at, l.message))
            .collect();
        // Messages quote the document: a newline in a key must not break one-line formats.
        let message = match printable(&d.message) {
            Cow::Owned(escaped) => escaped,
            Cow::Borrowed(_) => d.message,
        };
        Finding {
            rule: d.rule,
            severity: d.severity,
            message,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            pointer,
            operation: d.operation,
            operation_at: d
                .operation_key
                .map(|k| (bundle.file(k.file).source.path.clone(), k.span)),
            fingerprint,
            help: d.help,
            labels,
            source: Arc::clone(&file.source),
            span: d.primary.span,
        }
    }
}

fn resolve_label(
    bundle: &Bundle,
    primary: Location,
    at: Location,
    message: Cow<'static, str>,
) -> ResolvedLabel {
    let file = bundle.file(at.file);
    let lc = file.source.line_col(at.span.start as usize);
    ResolvedLabel {
        file: file.source.name.clone(),
        line: lc.line,
        column: lc.column,
        span: at.span,
        message,
        same_file: at.file == primary.file,
    }
}

/// A fingerprint stable under line shifts and independent of the working directory: rule, the
/// file's path in its project ([`Projects`]) and JSON pointer, with the operation (method, path
/// and the pointer of its method key) for a finding at a place outside its operation that
/// others may share, plus a counter when several findings of one rule still share all of those
/// (a path item several paths `$ref`).
fn fingerprint(
    rule: &str,
    file: &str,
    pointer: &str,
    operation: Option<&str>,
    seen: &mut HashSet<[u8; 16]>,
) -> String {
    let mut n = 0u32;
    loop {
        let mut h = Sha256::new();
        h.update(rule.as_bytes());
        h.update([0]);
        h.update(file.as_bytes());
        h.update([0]);
        h.update(pointer.as_bytes());
        if let Some(op) = operation {
            h.update([0]);
            h.update(op.as_bytes());
        }
        if n > 0 {
            h.update(n.to_le_bytes());
        }
        let digest = h.finalize();
        let mut short = [0u8; 16];
        short.copy_from_slice(&digest[..16]);
        if seen.insert(short) {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            return short
                .iter()
                .flat_map(|b| [HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])
                .map(char::from)
                .collect();
        }
        n += 1;
    }
}
