//! `path:line:col: severity[rule] message`, one line a finding: for grep, editors and CI logs.
//!
//! On a terminal the location is bold and `severity[rule]` bold in the severity's colour, as
//! rustc and ruff print theirs; the message, which quotes the document, is never styled.

use super::{RenderOptions, Report, summary_line};
use crate::diagnostic::Severity;

const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

fn colour(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "\x1b[1;31m",
        Severity::Warning => "\x1b[1;33m",
        Severity::Info => "\x1b[1;36m",
    }
}

pub fn render(report: &Report, opts: &RenderOptions) -> String {
    let mut out = String::new();
    let mut line = |file: &str, l: u32, c: u32, severity: Severity, rule: &str, message: &str| {
        if opts.color {
            out.push_str(&format!(
                "{BOLD}{file}:{l}:{c}:{RESET} {}{severity}[{rule}]{RESET} {message}\n",
                colour(severity)
            ));
        } else {
            out.push_str(&format!("{file}:{l}:{c}: {severity}[{rule}] {message}\n"));
        }
    };
    for e in &report.errors {
        line(
            &e.file,
            e.line,
            e.column,
            Severity::Error,
            e.kind.code(),
            &e.message,
        );
    }
    for f in &report.findings {
        line(
            f.file(),
            f.line,
            f.column,
            f.severity,
            f.rule.as_str(),
            &f.shown_message(),
        );
    }
    if !opts.quiet {
        out.push_str(&summary_line(report));
        out.push('\n');
    }
    out
}
