//! Turning findings into output: `text` (miette), `concise` and `json`.

mod concise;
mod excerpt;
mod github;
mod gitlab;
mod json;
mod junit;
mod sarif;
pub mod statistics;
mod text;

use std::borrow::Cow;
use std::sync::Arc;

use crate::catalogue::RuleId;
use crate::diagnostic::{OpRef, Severity};
pub use crate::filter::baseline::{BaselineOutcome, StaleEntry};
use crate::fix::Applicability;
use crate::resolve::FileError;
use crate::source::{SourceFile, Span};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Rich diagnostics with source snippets.
    Text,
    /// One line a finding: `path:line:col: severity[rule] message`.
    Concise,
    /// The version-1 JSON report.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
    /// JUnit XML: a suite per document, a case per operation.
    Junit,
    /// GitLab Code Quality JSON.
    Gitlab,
}

/// A finding resolved to its file, lines and columns: what every format prints.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: RuleId,
    pub severity: Severity,
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub pointer: String,
    pub operation: Option<OpRef>,
    /// The operation's method key (file and span), identifying it among same-named ones.
    pub operation_at: Option<OperationAt>,
    pub fingerprint: String,
    pub help: Option<Cow<'static, str>>,
    pub labels: Vec<ResolvedLabel>,
    pub source: Arc<SourceFile>,
    pub span: Span,
    /// The change that resolves the finding, when its rule proposes one.
    pub fix: Option<Box<ResolvedFix>>,
    /// Why the rule, which fixes findings like this one, has no fix for it.
    pub no_fix: Option<Cow<'static, str>>,
    /// A contract-change finding's place in the base it compares with.
    pub before: Option<Box<crate::diagnostic::Place>>,
    /// How the finding compares with a base (`check --base`); `None` in a run without one.
    pub change: Option<Change>,
    /// A runtime finding's requests and responses (`idemlint probe`).
    pub evidence: Option<String>,
}

/// How a finding of a run compares with the same run at a base revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Not found at the base: the change brought it.
    New,
    /// Found at the base and no longer: the change fixed it.
    Fixed,
    /// Found at the base too.
    Unchanged,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::New => "new",
            Change::Fixed => "fixed",
            Change::Unchanged => "unchanged",
        }
    }
}

impl Finding {
    /// The file the finding is in, as shown to users.
    pub fn file(&self) -> &str {
        &self.source.name
    }

    /// The message as the human formats show it: an unchanged finding (shown with
    /// `--show-unchanged`) says so.
    pub fn shown_message(&self) -> Cow<'_, str> {
        match self.change {
            Some(Change::Unchanged) => Cow::Owned(format!("{} (unchanged)", self.message)),
            _ => Cow::Borrowed(&self.message),
        }
    }

    /// Whether the finding counts toward the exit code: in a run against a base, only the
    /// ones the change brought do.
    pub fn fails(&self) -> bool {
        self.change != Some(Change::Unchanged)
    }

    /// The finding as a baseline knows it.
    pub fn baseline_key(&self) -> crate::filter::baseline::Key<'_> {
        crate::filter::baseline::Key {
            rule: self.rule.as_str(),
            path: &self.source.path,
            pointer: &self.pointer,
            message: &self.message,
        }
    }
}

/// A root document that was linted, and its operations.
#[derive(Debug, Clone)]
pub struct LintedDocument {
    pub file: String,
    pub operations: Vec<DocumentOperation>,
    /// Operations that could not be checked: what they need sits behind a `$ref` to a file
    /// that was not loaded.
    pub unchecked: Vec<UncheckedOperation>,
    /// Every file the document loaded, itself first (absolute paths, or URLs): what the run
    /// looked at, so that a baseline entry elsewhere is not called stale.
    pub loaded: Vec<std::path::PathBuf>,
}

/// A named fragment and the documents that reach it, which were linted for it.
#[derive(Debug, Clone)]
pub struct FragmentNote {
    pub file: String,
    pub documents: Vec<String>,
}

/// A document that was not linted because its configuration has errors.
#[derive(Debug, Clone)]
pub struct SkippedDocument {
    pub file: String,
    pub reason: String,
}

/// An operation no rule looked at, and why.
#[derive(Debug, Clone)]
pub struct UncheckedOperation {
    /// `POST /payments`.
    pub display: String,
    /// Where its method key is: file name, line, column.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// `parameters.yaml:3:5: $ref `https://…` was not loaded`.
    pub reason: String,
}

#[derive(Debug, Clone)]
pub struct DocumentOperation {
    /// `POST /payments`, `POST webhook `orderShipped``.
    pub display: String,
    /// Its method key: file and span, as in [`Finding::operation_at`].
    pub at: OperationAt,
}

/// Where an operation's method key is: its file (shared by every operation and finding of it,
/// not copied for each) and span.
pub type OperationAt = (Arc<std::path::Path>, Span);

/// A silenced finding and what silenced it.
#[derive(Debug, Clone)]
pub struct Suppressed {
    pub finding: Finding,
    pub kind: SuppressionKind,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuppressionKind {
    /// `x-idemlint-ignore` or an `# idemlint-ignore` comment.
    InSource,
    /// Listed in the `--baseline` file.
    Baseline,
}

#[derive(Debug, Clone)]
pub struct ResolvedLabel {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub span: Span,
    pub message: Cow<'static, str>,
    /// Whether the label sits in the finding's own file (and so can be drawn in its snippet).
    pub same_file: bool,
}

/// A fix as reports show it: its edits placed in their files.
#[derive(Debug, Clone)]
pub struct ResolvedFix {
    pub title: String,
    pub applicability: Applicability,
    pub edits: Vec<ResolvedEdit>,
}

/// One edit of a fix: the bytes of `span` in `source` replaced by `text`, with the 1-based
/// lines and columns (Unicode code points) of the span's ends.
#[derive(Debug, Clone)]
pub struct ResolvedEdit {
    pub source: Arc<SourceFile>,
    pub span: Span,
    pub text: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl ResolvedEdit {
    /// The file the edit changes, as shown to users.
    pub fn file(&self) -> &str {
        &self.source.name
    }
}

/// Everything one run produced.
#[derive(Debug, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    /// Findings silenced in the spec or by a baseline: not shown, but counted (and, in SARIF,
    /// reported as suppressed).
    pub suppressed: Vec<Suppressed>,
    pub errors: Vec<FileError>,
    /// Every linted root document with its operations, in run order.
    pub documents: Vec<LintedDocument>,
    /// Named fragments, with the documents linted for them.
    pub fragments: Vec<FragmentNote>,
    /// Documents not linted because their configuration has errors.
    pub skipped: Vec<SkippedDocument>,
    /// Documents left out by `--exclude` or a configuration's `exclude`.
    pub excluded: usize,
    pub files: usize,
    pub operations: usize,
    /// Where the time went (`--timings`).
    pub timings: crate::timings::Timings,
    /// How the `--baseline` matched, when one was given.
    pub baseline: Option<BaselineOutcome>,
    /// How the run compares with a base revision (`check --base`), when one was given.
    pub base: Option<BaseOutcome>,
    /// What `--fix` applied, when it ran.
    pub fixes: Option<FixSummary>,
    /// `probe`: checks that ran but could not judge, or were not run (the summary's notes say
    /// why); with none judged, "No problems found" would be untrue.
    pub not_judged: usize,
}

/// What `check --fix` did.
#[derive(Debug, Clone, Default)]
pub struct FixSummary {
    /// Fixes applied.
    pub applied: usize,
    /// Files written.
    pub files: usize,
    /// Whether fixes were still being found when the passes ran out.
    pub unfinished: bool,
}

impl Report {
    /// The findings shown that carry a fix: those `--fix` applies, and those only
    /// `--unsafe-fixes` does.
    pub fn fixable(&self) -> (usize, usize) {
        let mut counts = (0, 0);
        for fix in self.findings.iter().filter_map(|f| f.fix.as_deref()) {
            match fix.applicability {
                Applicability::Safe => counts.0 += 1,
                Applicability::Unsafe => counts.1 += 1,
            }
        }
        counts
    }
}

/// How a run compared with the same run at a base revision.
#[derive(Debug, Clone, Default)]
pub struct BaseOutcome {
    /// The base as named (`origin/main`).
    pub name: String,
    /// Its commit.
    pub commit: String,
    pub new: usize,
    /// Findings of the base the change fixed, in report order.
    pub fixed: Vec<Finding>,
    pub unchanged: usize,
    /// Whether unchanged findings are among `Report::findings` (`--show-unchanged`).
    pub unchanged_shown: bool,
    /// What could not be linted at the base (its findings there are unknown, so the ones now
    /// count as new).
    pub notes: Vec<String>,
}

impl BaseOutcome {
    /// `against origin/main (3f2a9c1): 2 new, 1 fixed, 180 unchanged (not shown)`.
    pub fn summary(&self) -> String {
        let short = &self.commit[..self.commit.len().min(7)];
        format!(
            "Against {} ({short}): {} new, {} fixed, {} unchanged{}.",
            self.name,
            self.new,
            self.fixed.len(),
            self.unchanged,
            if self.unchanged_shown || self.unchanged == 0 {
                ""
            } else {
                " (not shown)"
            }
        )
    }
}

impl Report {
    /// How many operations could not be checked, in all documents.
    pub fn unchecked(&self) -> usize {
        self.documents.iter().map(|d| d.unchecked.len()).sum()
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }
}

pub struct RenderOptions {
    pub color: bool,
    /// `-q`: the findings and nothing else (no summary line).
    pub quiet: bool,
    /// Terminal width for wrapping text output.
    pub width: usize,
}

/// Writes the report to `out`. Text, JSON and SARIF, the formats that grow large, stream;
/// the others are rendered whole first.
pub fn write(
    report: &Report,
    format: Format,
    opts: &RenderOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let whole = match format {
        Format::Text => return text::write(report, opts, out),
        Format::Json => return json::write(report, out),
        Format::Sarif => return sarif::write(report, out),
        Format::Concise => concise::render(report, opts),
        Format::Github => github::render(report),
        Format::Junit => junit::render(report),
        Format::Gitlab => gitlab::render(report),
    };
    out.write_all(whole.as_bytes())
}

/// The report as a string.
pub fn render(report: &Report, format: Format, opts: &RenderOptions) -> String {
    let mut out = Vec::new();
    write(report, format, opts, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("reports are UTF-8")
}

/// Text from the document made safe for one-line output: control characters (a newline in a
/// YAML key) are escaped.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(char::is_control) {
        s.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect::<String>()
            .into()
    } else {
        s.into()
    }
}

/// `3 errors, 1 warning` style counts.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The line under the summary that says what `--fix` would do, as ruff's `[*] 3 fixable with
/// the --fix option` does: `None` when nothing is fixable, or after `--fix` applied what it may.
pub fn fixable_line(report: &Report) -> Option<String> {
    let (safe, unsafe_) = report.fixable();
    let fixes = |n: usize| {
        if n == 1 {
            "1 fix".to_string()
        } else {
            format!("{n} fixes")
        }
    };
    match (safe, unsafe_, report.fixes.is_some()) {
        (0, 0, _) => None,
        (0, n, _) => Some(format!(
            "{} available with --fix --unsafe-fixes (they change the contract clients see).",
            fixes(n)
        )),
        (s, 0, _) => Some(format!("[*] {} available with --fix.", fixes(s))),
        (s, n, _) => Some(format!(
            "[*] {} available with --fix ({} more with --unsafe-fixes).",
            fixes(s),
            n
        )),
    }
}

/// The closing summary line shared by the human formats.
pub fn summary_line(report: &Report) -> String {
    let mut parts = Vec::new();
    for (sev, word) in [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Info, "info"),
    ] {
        let n = report.count(sev);
        if n > 0 {
            parts.push(if sev == Severity::Info {
                format!("{n} info")
            } else {
                plural(n, word)
            });
        }
    }
    let mut operations = plural(report.operations, "operation");
    let unchecked = report.unchecked();
    if unchecked > 0 {
        operations.push_str(&format!(
            ", {unchecked} not checked: a $ref they need was not loaded"
        ));
    }
    let mut line = if let Some(base) = &report.base {
        // Against a base, the problems named are the new ones.
        let mut line = base.summary();
        line.push_str(&format!(
            " {} linted ({operations}).",
            plural(report.files, "file")
        ));
        line
    } else if report.findings.is_empty() && report.not_judged > 0 {
        format!(
            "No problem found by the checks judged, but {} not judged (the notes above say \
             why) in {} ({operations}).",
            if report.not_judged == 1 {
                "1 check was".to_string()
            } else {
                format!("{} checks were", report.not_judged)
            },
            plural(report.files, "file"),
        )
    } else if report.findings.is_empty() {
        format!(
            "No problems found in {} ({operations}).",
            plural(report.files, "file"),
        )
    } else {
        format!(
            "Found {} ({}) in {} ({operations}).",
            plural(report.findings.len(), "problem"),
            parts.join(", "),
            plural(report.files, "file"),
        )
    };
    if let Some(fixes) = &report.fixes {
        line.push_str(&format!(
            " {} fixed, {} remaining.",
            fixes.applied,
            report.findings.len()
        ));
    }
    if !report.suppressed.is_empty() {
        line.push_str(&format!(" {} suppressed.", report.suppressed.len()));
    }
    if report.excluded > 0 {
        line.push_str(&format!(
            " {} excluded.",
            plural(report.excluded, "document")
        ));
    }
    let configuration = report
        .errors
        .iter()
        .filter(|e| e.kind == crate::resolve::ErrorKind::Configuration)
        .count();
    let inputs = report.errors.len() - configuration;
    if inputs > 0 {
        line.push_str(&format!(
            " {} could not be linted.",
            plural(inputs, "input")
        ));
    }
    if configuration > 0 {
        line.push_str(&format!(
            " {} in configuration files: {} not linted.",
            plural(configuration, "error"),
            plural(report.skipped.len(), "document")
        ));
    }
    // Which documents were linted for named fragments, before the counts.
    let mut notes = String::new();
    for note in &report.fragments {
        let (documents, verb) = match note.documents.as_slice() {
            [one] => (one.clone(), "reaches"),
            [init @ .., last] => (format!("{} and {last}", init.join(", ")), "reach"),
            [] => continue,
        };
        notes.push_str(&format!(
            "{} is a fragment: linted {documents}, which {verb} it through $ref.\n",
            note.file
        ));
    }
    notes + &line
}
