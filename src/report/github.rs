//! GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

use super::Report;
use crate::diagnostic::Severity;

/// Escapes the message part of a workflow command.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (`file=`, `title=`).
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for e in &report.errors {
        out.push_str(&format!(
            "::error file={},line={},col={},title={}::{}\n",
            property(&e.file),
            e.line,
            e.column,
            property(match e.kind {
                crate::resolve::ErrorKind::Input | crate::resolve::ErrorKind::Parse => {
                    "idemlint: input not linted"
                }
                crate::resolve::ErrorKind::Configuration => "idemlint: configuration error",
            }),
            data(&e.message)
        ));
    }
    for f in &report.findings {
        let command = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        out.push_str(&format!(
            "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            property(f.file()),
            f.line,
            f.column,
            f.end_line,
            f.end_column,
            property(&format!("idemlint {}", f.rule)),
            data(&f.shown_message())
        ));
    }
    out
}
