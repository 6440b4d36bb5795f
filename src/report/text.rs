//! Rich terminal diagnostics through miette, one snippet a finding.

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic,
    Severity as MSeverity,
};

use rayon::prelude::*;

use super::excerpt::Excerpt;
use super::{Finding, RenderOptions, Report, summary_line};
use crate::diagnostic::Severity;
use crate::resolve::ErrorKind;
use crate::source::Span;

/// Findings render in parallel a batch at a time and are written in order.
const BATCH: usize = 256;

pub fn write(
    report: &Report,
    opts: &RenderOptions,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let theme = if opts.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // ASCII word separation: the Unicode line-break algorithm miette uses by default was most of
    // the time of a text report, and our messages break fine at spaces.
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(opts.width)
        .with_context_lines(2)
        .with_links(false)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace);
    let mut errors = String::new();
    for e in &report.errors {
        let d = MietteDiagnostic::new(format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message))
            .with_code(e.kind.code())
            .with_severity(MSeverity::Error)
            .with_help(match e.kind {
                ErrorKind::Input | ErrorKind::Parse => {
                    "this input was not linted; the other files were"
                }
                ErrorKind::Configuration => {
                    "the documents under this configuration were not linted; the others were"
                }
            });
        let _ = handler.render_report(&mut errors, &d);
        errors.push('\n');
    }
    out.write_all(errors.as_bytes())?;
    // Each finding renders on its own (miette takes tens of microseconds a finding), so a batch
    // renders in parallel and is written in order; the whole report is never held at once.
    for batch in report.findings.chunks(BATCH) {
        let rendered: Vec<String> = batch.par_iter().map(|f| render(&handler, f)).collect();
        for r in rendered {
            out.write_all(r.as_bytes())?;
        }
    }
    if opts.quiet {
        return Ok(());
    }
    writeln!(out, "{}", summary_line(report))?;
    match super::fixable_line(report) {
        Some(line) => writeln!(out, "{line}"),
        None => Ok(()),
    }
}

/// One finding as miette draws it: its snippet with the labels in the same file that fit beside
/// the span; the others (in another file, or too far along a long line) as notes under the help.
fn render(handler: &GraphicalReportHandler, f: &Finding) -> String {
    let same_file: Vec<Span> = f
        .labels
        .iter()
        .filter(|l| l.same_file)
        .map(|l| l.span)
        .collect();
    let (excerpt, primary, placed) = Excerpt::build(&f.source, f.span, &same_file);
    let mut placed = placed.into_iter();
    let mut labels = vec![LabeledSpan::new_primary_with_span(None, primary)];
    let mut notes = Vec::new();
    for l in &f.labels {
        match l.same_file.then(|| placed.next().flatten()).flatten() {
            Some(at) => labels.push(LabeledSpan::new_with_span(Some(l.message.to_string()), at)),
            None => notes.push(format!(
                "{} at {}:{}:{}",
                l.message, l.file, l.line, l.column
            )),
        }
    }
    let mut help = f.help.as_deref().unwrap_or_default().to_string();
    if let Some(evidence) = &f.evidence {
        if !help.is_empty() {
            help.push('\n');
        }
        help.push_str(&format!("what the server answered:\n{evidence}"));
    }
    // What `--fix` would do for it, or why it cannot.
    let fix = match (&f.fix, &f.no_fix) {
        (Some(fix), _) => Some(format!(
            "fix ({}): {}",
            match fix.applicability {
                crate::fix::Applicability::Safe => "--fix",
                crate::fix::Applicability::Unsafe => "--fix --unsafe-fixes",
            },
            fix.title
        )),
        (None, Some(why)) => Some(format!("no fix: {why}")),
        (None, None) => None,
    };
    for n in fix.into_iter().chain(notes) {
        if !help.is_empty() {
            help.push('\n');
        }
        help.push_str(&n);
    }
    let mut d = MietteDiagnostic::new(f.shown_message().into_owned())
        .with_code(f.rule.as_str())
        .with_severity(match f.severity {
            Severity::Error => MSeverity::Error,
            Severity::Warning => MSeverity::Warning,
            Severity::Info => MSeverity::Advice,
        })
        .with_labels(labels);
    if !help.is_empty() {
        d = d.with_help(help);
    }
    let d = WithSource {
        diagnostic: d,
        source: excerpt,
    };
    let mut out = String::new();
    let _ = handler.render_report(&mut out, &d);
    out.push('\n');
    out
}

/// A diagnostic with its source attached. `miette::Report::with_source_code` would do the same,
/// but creating a `Report` runs miette's global hook, which asks the terminal for its size and
/// colour support on every finding: most of the time of a large text report.
#[derive(Debug)]
struct WithSource<'a> {
    diagnostic: MietteDiagnostic,
    source: Excerpt<'a>,
}

impl std::fmt::Display for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.diagnostic.fmt(f)
    }
}

impl std::error::Error for WithSource<'_> {}

impl Diagnostic for WithSource<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.diagnostic.code()
    }

    fn severity(&self) -> Option<MSeverity> {
        self.diagnostic.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.diagnostic.help()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.diagnostic.labels()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
}
