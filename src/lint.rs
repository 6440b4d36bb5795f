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
use crate::limits::Limits;
use crate::model;
use crate::report::{
    DocumentOperation, Finding, LintedDocument, Report, ResolvedLabel, Suppressed, SuppressionKind,
    UncheckedOperation, printable,
};
use crate::suppress::{self, Suppressions};
use crate::timings::{Timings, timed};

/// The rule that reports suppressions that silence nothing.
const UNUSED: &str = "unused-suppression";
use crate::resolve::{Bundle, FileError, Location, PointerCache, ResolveOptions, normalize};
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
    let mut timings = Timings::default();
    let (inputs, mut errors) = timed(&mut timings.read, || discover(paths, &opts.limits));
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let named = inputs.iter().filter_map(|input| match input {
        Input::File {
            path,
            explicit: true,
            ..
        } => Some(path.as_path()),
        _ => None,
    });
    let resolve = resolve_options(named, paths.iter().filter(|p| p.is_dir()), &cwd, opts);

    let mut stdin_file = None;
    if inputs.contains(&Input::Stdin) {
        let path = cwd.join("<stdin>");
        let name = "<stdin>".to_string();
        match timed(&mut timings.read, stdin) {
            Ok(bytes) if opts.limits.too_large(bytes.len() as u64).is_some() => {
                errors.push(FileError {
                    file: name,
                    line: 1,
                    column: 1,
                    message: format!(
                        "standard input is over the limit of {} MiB (raise it with --max-file-size)",
                        opts.limits.max_file_bytes / crate::limits::MIB
                    ),
                })
            }
            Ok(bytes) => match SourceFile::decode(path, name.clone(), bytes) {
                Ok(f) => stdin_file = Some(f),
                Err(e) => errors.push(FileError::unreadable(name, e)),
            },
            Err(e) => errors.push(FileError {
                file: name,
                line: 1,
                column: 1,
                message: e.to_string(),
            }),
        }
    }

    let mut sources: Vec<(SourceFile, bool)> = Vec::new();
    let read_start = std::time::Instant::now();
    let read: Vec<Result<(SourceFile, bool), FileError>> = inputs
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
                let abs = std::fs::canonicalize(&abs).unwrap_or_else(|_| normalize(&abs));
                let file = match bytes {
                    Some(bytes) => SourceFile::decode(abs, name.clone(), bytes),
                    None => SourceFile::read(&abs, name.clone(), &opts.limits),
                };
                let explicit = explicit && !opts.skip_non_openapi;
                Some(
                    file.map(|f| (f, explicit))
                        .map_err(|e| FileError::unreadable(name, e)),
                )
            }
        })
        .collect();
    timings.read += read_start.elapsed();
    for r in read {
        match r {
            Ok(s) => sources.push(s),
            Err(e) => errors.push(e),
        }
    }
    if let Some(f) = stdin_file {
        sources.push((f, true));
    }

    // Each file's configuration, loaded once per configuration file, before the parallel part.
    let mut configs: Vec<Config> = Vec::new();
    let mut governed_by: HashMap<Option<PathBuf>, Governed> = HashMap::new();
    let mut planned = Vec::new();
    for (source, explicit) in sources {
        let governed = match &opts.config {
            Some(_) => Governed::Fixed,
            None => {
                let file = source.path.parent().and_then(find_config_file);
                match governed_by.get(&file) {
                    Some(g) => *g,
                    None => {
                        let g = match load_config(file.as_deref(), &cwd, opts) {
                            Ok(c) => {
                                configs.push(c);
                                Governed::By(configs.len() - 1)
                            }
                            Err(errs) => {
                                errors.extend(errs);
                                Governed::Broken
                            }
                        };
                        governed_by.insert(file, g);
                        g
                    }
                }
            }
        };
        planned.push((source, explicit, governed));
    }
    let jobs: Vec<(SourceFile, bool, &Config)> = planned
        .into_iter()
        .filter_map(|(source, explicit, governed)| match governed {
            Governed::Fixed => opts.config.as_ref().map(|c| (source, explicit, c)),
            Governed::By(i) => Some((source, explicit, &configs[i])),
            // Under a broken configuration the settings are unknown: not linted.
            Governed::Broken => None,
        })
        .collect();
    let keep_trees = opts.skip_teardown && jobs.len() == 1;
    let results: Vec<FileResult> = jobs
        .into_par_iter()
        .map(|(source, explicit, config)| {
            lint_source(source, explicit, &resolve, config, opts, keep_trees)
        })
        .collect();

    let mut report = Report::default();
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
    let mut seen_errors = HashSet::new();
    errors.retain(|e| seen_errors.insert((e.file.clone(), e.line, e.column, e.message.clone())));
    errors.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    report.errors = errors;
    report.timings = timings;
    report
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
#[derive(Debug, Clone, Copy)]
enum Governed {
    /// `Options::config`.
    Fixed,
    /// A loaded configuration, by index.
    By(usize),
    /// Its configuration file has errors.
    Broken,
}

/// The configuration in `file`, or the defaults (with `--profile`) when there is none.
fn load_config(file: Option<&Path>, cwd: &Path, opts: &Options) -> Result<Config, Vec<FileError>> {
    let Some(path) = file else {
        return Config::defaults(cwd.to_path_buf(), opts.profile.as_deref()).map_err(|message| {
            vec![FileError {
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
                file: e.file,
                line: e.line,
                column: e.column,
                message: format!("configuration: {}", e.message),
            })
            .collect()
    })
}

/// Lints one root document (and the files its `$ref`s reach).
fn lint_source(
    source: SourceFile,
    explicit: bool,
    resolve: &ResolveOptions,
    config: &Config,
    opts: &Options,
    keep_tree: bool,
) -> FileResult {
    let mut result = FileResult::default();
    // Walked files were checked already; a named `.yaml`/`.json` file is parsed and judged by
    // its content, so only a file of another kind (Cargo.toml) is turned away unparsed.
    if !crate::discover::is_spec_extension(&source.path)
        && !crate::discover::looks_like_root(source.text.as_bytes())
    {
        if explicit {
            result.errors.push(FileError {
                file: source.name.clone(),
                line: 1,
                column: 1,
                message: "not an OpenAPI document: no top-level `openapi` or `swagger` key"
                    .to_string(),
            });
        }
        return result;
    }
    let loaded = match timed(&mut result.timings.parse, || source.parse(&opts.limits)) {
        Ok(l) => l,
        Err(e) => {
            let at = source.line_col(e.span.start as usize);
            result.errors.push(FileError {
                file: source.name.clone(),
                line: at.line,
                column: at.column,
                message: e.message,
            });
            return result;
        }
    };
    if let Err(e) = model::build::spec_version(&loaded.root) {
        if explicit {
            result.errors.push(FileError {
                file: source.name.clone(),
                line: 1,
                column: 1,
                message: e.0,
            });
        }
        return result;
    }
    let bundle = timed(&mut result.timings.resolve, || {
        Bundle::load(source, loaded.root, loaded.duplicates, resolve)
    });
    lint_bundle(&bundle, config, opts, &mut result);
    if keep_tree {
        std::mem::forget(bundle);
    }
    result
}

/// What linting a loaded document gave: its findings, the ones suppressed, and the errors met.
pub struct DocumentFindings {
    pub findings: Vec<Finding>,
    pub suppressed: Vec<Suppressed>,
    pub errors: Vec<FileError>,
}

/// Lints a document already loaded (for `review`, which needs the bundle for its own answers).
pub fn lint_loaded(bundle: &Bundle, config: &Config, opts: &Options) -> DocumentFindings {
    let mut result = FileResult::default();
    lint_bundle(bundle, config, opts, &mut result);
    sort_findings(&mut result.findings);
    DocumentFindings {
        findings: result.findings,
        suppressed: result.suppressed,
        errors: result.errors,
    }
}

/// Models a loaded document and runs the rules on it, into `result`.
fn lint_bundle(bundle: &Bundle, config: &Config, opts: &Options, result: &mut FileResult) {
    let api = match timed(&mut result.timings.model, || model::build(bundle)) {
        Ok(api) => api,
        Err(e) => {
            result.errors.push(FileError {
                file: bundle.file(Bundle::ROOT).source.name.clone(),
                line: 1,
                column: 1,
                message: e.0,
            });
            return;
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
    });
    result.errors = bundle.errors.clone();
    let mut fingerprints = HashSet::new();
    let mut suppressions = Suppressions::collect(bundle);
    let mut pointers = PointerCache::default();
    let levelled =
        |d: Diagnostic, fingerprints: &mut HashSet<[u8; 16]>, pointers: &mut PointerCache| {
            if !selected(d.rule, opts) {
                return None;
            }
            let mut f = resolve_finding(bundle, d, fingerprints, pointers);
            match config.level(f.rule, &f.source.path, &f.pointer) {
                Some(Level::Off) => return None,
                Some(Level::On(severity)) => f.severity = severity,
                None => {}
            }
            Some(f)
        };
    check_each(&cx, |diagnostics| {
        for d in diagnostics.drain(..) {
            let op_node = d.operation_node;
            let Some(f) = levelled(d, &mut fingerprints, &mut pointers) else {
                continue;
            };
            let silenced = suppress::file_of(bundle, &f)
                .and_then(|file| suppressions.silence(file, &f))
                .or_else(|| {
                    // Written inside the operation object, which may be a `$ref` away.
                    let node = op_node?;
                    suppressions.silence_at(node.file, node.span, None, f.rule)
                });
            match silenced {
                Some(reason) => result.suppressed.push(Suppressed {
                    finding: f,
                    kind: SuppressionKind::InSource,
                    reason,
                }),
                None => result.findings.push(f),
            }
        }
    });
    let enabled = |rule: &str| selected(rule, opts) && config.levels.get(rule) != Some(&Level::Off);
    for (at, message) in suppressions.unused(enabled) {
        let d = cx.diagnostic(crate::rules::find(UNUSED).expect("registered"), at, message);
        if let Some(f) = levelled(d, &mut fingerprints, &mut pointers) {
            result.findings.push(f);
        }
    }
    result.timings.rules += rules_start.elapsed();
}

/// `--select` and `--ignore`.
fn selected(rule: &str, opts: &Options) -> bool {
    (opts.select.is_empty() || opts.select.iter().any(|s| s == rule))
        && !opts.ignore.iter().any(|s| s == rule)
}

fn resolve_finding(
    bundle: &Bundle,
    d: Diagnostic,
    fingerprints: &mut HashSet<[u8; 16]>,
    pointers: &mut PointerCache,
) -> Finding {
    let file = bundle.file(d.primary.file);
    let start = file.source.line_col(d.primary.span.start as usize);
    let end = file.source.line_col(d.primary.span.end as usize);
    let pointer = pointers.pointer_to(&file.root, d.primary.span);
    let fingerprint = fingerprint(d.rule, &file.source.name, &pointer, fingerprints);
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

/// A fingerprint stable under line shifts: rule, file and JSON pointer, plus a counter when
/// several findings of one rule share a pointer.
fn fingerprint(rule: &str, file: &str, pointer: &str, seen: &mut HashSet<[u8; 16]>) -> String {
    let mut n = 0u32;
    loop {
        let mut h = Sha256::new();
        h.update(rule.as_bytes());
        h.update([0]);
        h.update(file.as_bytes());
        h.update([0]);
        h.update(pointer.as_bytes());
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
