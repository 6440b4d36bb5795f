//! The engine: one root document, read through a [`Files`], turned into its outcome (findings
//! shown and silenced, input errors, operations) by the stages every front end shares: parse →
//! resolve `$ref`s → model → rules → filter (selection, levels, suppressions, shadowing) → report
//! rows with their fingerprints. `check` and `review` run it for each document of a run
//! (`lint.rs`); editors and git revisions run it with their own [`Files`].

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::facts::Facts;
use crate::files::Files;
use crate::filter::{Filter, Kept};
use crate::model;
use crate::options::Options;
use crate::project::Projects;
use crate::report::{
    DocumentOperation, Finding, LintedDocument, ResolvedEdit, ResolvedFix, ResolvedLabel,
    Suppressed, SuppressionKind, UncheckedOperation, printable,
};
use crate::resolve::{Bundle, ErrorKind, FileError, Location, PointerCache, ResolveOptions};
use crate::rules::{Context, check_each};
use crate::source::SourceFile;
use crate::timings::{Timings, timed};

/// What linting one root document gave.
#[derive(Default)]
pub struct Outcome {
    /// Findings shown, suppressions and levels applied, in report order.
    pub findings: Vec<Finding>,
    /// Findings silenced in the source.
    pub suppressed: Vec<Suppressed>,
    /// Why the document, or some file it reaches, could not be (fully) linted.
    pub errors: Vec<FileError>,
    /// Whether the rules ran on it.
    pub linted: bool,
    pub operations: usize,
    /// The linted document and its operations, for per-operation formats (JUnit).
    pub document: Option<LintedDocument>,
    pub timings: Timings,
}

/// One linted document as a front end sees it beside the report, while its tree is loaded.
pub struct Linted<'a> {
    pub bundle: &'a Bundle,
    pub api: &'a model::Api<'a>,
    /// What the document says of each operation, as the rules judged it.
    pub facts: &'a Facts<'a>,
    pub config: &'a Config,
    /// The document's findings, suppressions and levels applied, in report order.
    pub findings: &'a [Finding],
}

/// How much a linted file's problems matter.
#[derive(Debug, Clone, Copy)]
pub struct Strict {
    /// Invalid YAML or JSON is an error.
    pub parse: bool,
    /// A file that parses but is not an OpenAPI document is an error.
    pub not_openapi: bool,
}

impl Strict {
    /// A document the user named: each of its problems is an error.
    pub const NAMED: Strict = Strict {
        parse: true,
        not_openapi: true,
    };
}

pub(crate) fn parse_error(source: &SourceFile, e: crate::source::LoadError) -> FileError {
    let at = source.line_col(e.span.start as usize);
    FileError {
        kind: ErrorKind::Parse,
        file: source.name.clone(),
        line: at.line,
        column: at.column,
        message: e.message,
    }
}

/// Findings in the order every report shows them: by file, position, rule and message; findings
/// alike in all of those (one shared `$ref` target reported for two operations) by their
/// operations' place in the document, then by fingerprint. The order is the same every run
/// without a stable sort, whose buffer would copy half the findings.
pub(crate) fn sort_findings(findings: &mut [Finding]) {
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
        f.rule.as_str(),
        &f.message,
        f.operation_at
            .as_ref()
            .map(|(path, span)| (&**path, span.start)),
        &f.fingerprint,
    )
}

/// What the engine lints a document with, besides the document.
pub struct Setup<'a> {
    /// Where every file is read: the root's `$ref` targets and nothing else (the root is read
    /// by the caller, who had to read it to know it for a document).
    pub files: &'a dyn Files,
    /// Where `$ref`s may lead.
    pub resolve: &'a ResolveOptions,
    /// The configuration governing the document.
    pub config: &'a Config,
    /// The run's selection, limits and project root.
    pub opts: &'a Options,
}

/// The engine: lints one root document (and the files its `$ref`s reach) into its outcome.
/// `each` makes the front end's part of the output while the document's model is loaded
/// (`review`'s answers), named by the document. `keep_tree`: leave the trees allocated (see
/// `Options::skip_teardown`).
pub fn lint_document<T>(
    source: SourceFile,
    strict: Strict,
    setup: &Setup<'_>,
    keep_tree: bool,
    each: &(dyn Fn(&Linted<'_>) -> T + Sync),
) -> (Outcome, Option<(String, T)>) {
    let Setup {
        files,
        resolve,
        config,
        opts,
    } = *setup;
    let mut result = Outcome::default();
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
        Bundle::load(source, loaded.root, loaded.duplicates, files, resolve)
    });
    let made = model_of(&bundle, &mut result).map(|api| {
        let facts = timed(&mut result.timings.rules, || {
            Facts::new(&api, &bundle, &config.settings)
        });
        lint_model(&bundle, &api, &facts, config, opts, &mut result);
        sort_findings(&mut result.findings);
        let linted = Linted {
            bundle: &bundle,
            api: &api,
            facts: &facts,
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

/// The model of a loaded document; a document that cannot be modelled is an error in `result`.
fn model_of<'b>(bundle: &'b Bundle, result: &mut Outcome) -> Option<model::Api<'b>> {
    match timed(&mut result.timings.model, || model::build(bundle)) {
        Ok(api) => Some(api),
        Err(e) => {
            result.errors.push(FileError {
                kind: ErrorKind::Input,
                file: bundle.file(Bundle::ROOT).source.name.clone(),
                line: 1,
                column: 1,
                message: e.0,
            });
            None
        }
    }
}

/// Runs the rules on a modelled document and filters what they find, into `result`.
fn lint_model(
    bundle: &Bundle,
    api: &model::Api<'_>,
    facts: &Facts<'_>,
    config: &Config,
    opts: &Options,
    result: &mut Outcome,
) {
    let rules_start = std::time::Instant::now();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let paths: Vec<Arc<Path>> = bundle
        .files
        .iter()
        .map(|f| Arc::from(f.source.path.as_path()))
        .collect();
    let mut resolving = Resolving::new(
        opts.root.as_deref().unwrap_or(&cwd),
        paths.clone(),
        opts.renamed.clone(),
    );
    let base = opts.base.as_deref().map(|base| {
        (
            base,
            resolving.project_path(bundle, Bundle::ROOT).to_string(),
        )
    });
    let cx = Context::new(api, bundle, &config.settings, facts).with_base(base);
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
                at: (Arc::clone(&paths[op.key.file.0 as usize]), op.key.span),
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
    let mut filter = Filter::new(bundle, config, opts.selection());
    // Each diagnostic kept becomes a row at once, rather than a rule's all being held as
    // diagnostics beside their rows (only the shadowable ones wait for the end).
    let mut row = |k: Kept| resolving.row(bundle, k, result);
    let safe_fixes = &config.settings.safe_fixes;
    let selection = opts.selection();
    // (`--diff`: the rules with fixes, and those a suppression names, whose unused ids it
    // takes out as `--fix` does.)
    let suppressed: HashSet<crate::rules::RuleId> = if opts.fixes_only {
        crate::rules::RuleId::ALL
            .iter()
            .copied()
            .filter(|r| filter.suppresses(r.as_str()))
            .collect()
    } else {
        HashSet::new()
    };
    let runs = |rule: crate::rules::RuleId| {
        selection.runs(rule.as_str())
            && (!opts.fixes_only || rule.meta().fixes || suppressed.contains(&rule))
    };
    check_each(&cx, runs, |diagnostics| {
        if !safe_fixes.is_empty() {
            // The configuration takes these rules' fixes as safe.
            for d in diagnostics.iter_mut() {
                if let Some(fix) = d.fix.as_mut().filter(|_| safe_fixes.contains(&d.rule)) {
                    fix.applicability = crate::fix::Applicability::Safe;
                }
            }
        }
        filter.rule(diagnostics, &mut row)
    });
    filter.finish(&mut row);
    result.timings.rules += rules_start.elapsed();
}

/// Findings of diagnostics made outside the rules (`idemlint probe`'s, about a running server)
/// for a linted document: judged by the same filter as the rules' (selection, the
/// configuration's levels, suppressions in the spec) and made rows the same way, so that every
/// report format shows them. Only findings of `rules` are kept (a suppression of another rule
/// that silenced nothing is no concern of theirs).
pub fn rows_of(
    linted: &Linted<'_>,
    opts: &Options,
    diagnostics: Vec<crate::diagnostic::Diagnostic>,
    rules: &[crate::rules::RuleId],
) -> (Vec<Finding>, Vec<Suppressed>) {
    let bundle = linted.bundle;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let paths: Vec<Arc<Path>> = bundle
        .files
        .iter()
        .map(|f| Arc::from(f.source.path.as_path()))
        .collect();
    let mut resolving = Resolving::new(
        opts.root.as_deref().unwrap_or(&cwd),
        paths,
        opts.renamed.clone(),
    );
    let mut outcome = Outcome::default();
    let mut filter = Filter::new(bundle, linted.config, opts.selection());
    let mut row = |k: Kept| resolving.row(bundle, k, &mut outcome);
    let mut diagnostics = diagnostics;
    for rule in rules {
        let mut of_rule: Vec<_> = diagnostics.extract_if(.., |d| d.rule == *rule).collect();
        filter.rule(&mut of_rule, &mut row);
    }
    filter.finish(&mut row);
    let mut findings: Vec<Finding> = outcome
        .findings
        .into_iter()
        .filter(|f| rules.contains(&f.rule))
        .collect();
    sort_findings(&mut findings);
    let suppressed = outcome
        .suppressed
        .into_iter()
        .filter(|s| rules.contains(&s.finding.rule))
        .collect();
    (findings, suppressed)
}

/// What turning one document's diagnostics into findings remembers: the fingerprints given so
/// far (a repeat gets a counter), which mappings are in source order, and each file's path in
/// its project.
struct Resolving {
    fingerprints: HashSet<[u8; 16]>,
    pointers: PointerCache,
    projects: Projects,
    in_project: HashMap<crate::resolve::FileId, String>,
    /// Each file's path, shared by the rows that name an operation in it.
    paths: Vec<Arc<Path>>,
    /// In a run at a base: project paths renamed since, then → now.
    renamed: Option<Arc<HashMap<String, String>>>,
}

impl Resolving {
    /// `fallback`: the project folder of files outside any git work tree.
    fn new(
        fallback: &Path,
        paths: Vec<Arc<Path>>,
        renamed: Option<Arc<HashMap<String, String>>>,
    ) -> Self {
        Resolving {
            fingerprints: HashSet::new(),
            pointers: PointerCache::default(),
            projects: Projects::new(fallback),
            in_project: HashMap::new(),
            paths,
            renamed,
        }
    }

    /// The path of a file of the bundle in its project, the basis of fingerprints: at a base,
    /// the name a file renamed since has now.
    fn project_path(&mut self, bundle: &Bundle, file: crate::resolve::FileId) -> &str {
        let projects = &mut self.projects;
        let renamed = self.renamed.as_deref();
        self.in_project.entry(file).or_insert_with(|| {
            let path = projects.relative(&bundle.file(file).source.path);
            match renamed.and_then(|r| r.get(&path)) {
                Some(now) => now.clone(),
                None => path,
            }
        })
    }

    /// Turns a kept diagnostic into a row of `result`, shown or silenced.
    fn row(&mut self, bundle: &Bundle, mut kept: Kept, result: &mut Outcome) {
        let silenced = kept.silenced.take();
        let finding = self.finding(bundle, kept);
        match silenced {
            Some(reason) => result.suppressed.push(Suppressed {
                finding,
                kind: SuppressionKind::InSource,
                reason,
            }),
            None => result.findings.push(finding),
        }
    }

    fn finding(&mut self, bundle: &Bundle, kept: Kept) -> Finding {
        let Kept {
            diagnostic: d,
            severity,
            pointer,
            ..
        } = kept;
        let file = bundle.file(d.primary.file);
        let start = file.source.line_col(d.primary.span.start as usize);
        let end = file.source.line_col(d.primary.span.end as usize);
        // (Looked up once a file, and borrowed below: not copied for each finding.)
        self.project_path(bundle, d.primary.file);
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
            d.rule.as_str(),
            &self.in_project[&d.primary.file],
            &pointer,
            operation.as_deref(),
            &mut self.fingerprints,
        );
        // A fix that changes nothing is no fix (and SARIF has no way to say one).
        let fix = d.fix.filter(|fix| !fix.edits.is_empty()).map(|fix| {
            let crate::fix::Fix {
                title,
                applicability,
                edits,
            } = *fix;
            let mut edits = edits;
            crate::fix::order(&mut edits);
            let edits = edits
                .into_iter()
                .map(|edit| {
                    let source = &bundle.file(edit.file).source;
                    let start = source.line_col(edit.span.start as usize);
                    let end = source.line_col(edit.span.end as usize);
                    ResolvedEdit {
                        source: Arc::clone(source),
                        span: edit.span,
                        text: edit.text,
                        line: start.line,
                        column: start.column,
                        end_line: end.line,
                        end_column: end.column,
                    }
                })
                .collect();
            Box::new(ResolvedFix {
                title,
                applicability,
                edits,
            })
        });
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
            severity,
            message,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            pointer,
            operation: d.operation,
            operation_at: d
                .operation_key
                .map(|k| (Arc::clone(&self.paths[k.file.0 as usize]), k.span)),
            fingerprint,
            help: d.help,
            labels,
            source: Arc::clone(&file.source),
            span: d.primary.span,
            fix,
            no_fix: d.no_fix,
            before: d.before,
            change: None,
            evidence: d.evidence,
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
