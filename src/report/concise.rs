//! `path:line:col: severity[rule] message`, one line a finding: for grep, editors and CI logs.

use super::{Report, summary_line};

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for e in &report.errors {
        out.push_str(&format!(
            "{}:{}:{}: error[input] {}\n",
            e.file, e.line, e.column, e.message
        ));
    }
    for f in &report.findings {
        out.push_str(&format!(
            "{}:{}:{}: {}[{}] {}\n",
            f.file(),
            f.line,
            f.column,
            f.severity,
            f.rule,
            f.message
        ));
    }
    out.push_str(&summary_line(report));
    out.push('\n');
    out
}
