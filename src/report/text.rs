//! Rich terminal diagnostics through miette, one snippet a finding.

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, Severity as MSeverity,
};

use super::{RenderOptions, Report, SourceView, summary_line};
use crate::diagnostic::Severity;

pub fn render(report: &Report, opts: &RenderOptions) -> String {
    let theme = if opts.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(opts.width)
        .with_context_lines(2);
    let mut out = String::new();
    for e in &report.errors {
        let d = MietteDiagnostic::new(format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message))
            .with_code("input")
            .with_severity(MSeverity::Error)
            .with_help("this input was not linted; the other files were");
        let _ = handler.render_report(&mut out, &d);
        out.push('\n');
    }
    for f in &report.findings {
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            None,
            (f.span.start as usize, f.span.len()),
        )];
        let mut notes = Vec::new();
        for l in &f.labels {
            if l.same_file {
                labels.push(LabeledSpan::new_with_span(
                    Some(l.message.clone()),
                    (l.span.start as usize, l.span.len()),
                ));
            } else {
                notes.push(format!(
                    "{} at {}:{}:{}",
                    l.message, l.file, l.line, l.column
                ));
            }
        }
        let mut help = f.help.clone().unwrap_or_default();
        for n in notes {
            if !help.is_empty() {
                help.push('\n');
            }
            help.push_str(&n);
        }
        let mut d = MietteDiagnostic::new(f.message.clone())
            .with_code(f.rule)
            .with_severity(match f.severity {
                Severity::Error => MSeverity::Error,
                Severity::Warning => MSeverity::Warning,
                Severity::Info => MSeverity::Advice,
            })
            .with_labels(labels);
        if !help.is_empty() {
            d = d.with_help(help);
        }
        let report = miette::Report::new(d).with_source_code(SourceView(f.source.clone()));
        let _ = handler.render_report(&mut out, report.as_ref());
        out.push('\n');
    }
    out.push_str(&summary_line(report));
    out.push('\n');
    out
}
