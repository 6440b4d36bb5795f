//! `--statistics`: how many findings each rule has, most first, instead of the findings (as
//! ruff's `--statistics` does): where to start on a large API.

use serde::Serialize;

use super::{Report, summary_line};
use crate::diagnostic::Severity;

/// One rule's count, at one severity (configuration may set a rule's severity per file).
#[derive(Serialize)]
struct Row {
    rule: &'static str,
    severity: &'static str,
    count: usize,
    /// How many of them carry a fix (`--fix`, or `--unsafe-fixes` for unsafe ones).
    fixable: usize,
    summary: &'static str,
}

fn rows(report: &Report) -> Vec<Row> {
    let mut counts: std::collections::HashMap<(&'static str, Severity), (usize, usize)> =
        Default::default();
    for f in &report.findings {
        let row = counts.entry((f.rule.as_str(), f.severity)).or_default();
        row.0 += 1;
        row.1 += usize::from(f.fix.is_some());
    }
    let mut rows: Vec<Row> = counts
        .into_iter()
        .map(|((rule, severity), (count, fixable))| Row {
            rule,
            severity: severity.as_str(),
            count,
            fixable,
            summary: crate::rules::meta(rule).summary.as_str(),
        })
        .collect();
    // Most first; ties by severity (worst first), then by id, so the order never varies.
    rows.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| severity_rank(b.severity).cmp(&severity_rank(a.severity)))
            .then_with(|| a.rule.cmp(b.rule))
    });
    rows
}

fn severity_rank(s: &str) -> u8 {
    match s {
        "error" => 2,
        "warning" => 1,
        _ => 0,
    }
}

/// Writes the table (or, with `json`, an array of `{rule, severity, count, summary}`); the
/// summary line follows the table unless `quiet`.
pub fn write(
    report: &Report,
    json: bool,
    quiet: bool,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let rows = rows(report);
    if json {
        serde_json::to_writer_pretty(&mut *out, &rows)?;
        return out.write_all(b"\n");
    }
    let count_width = rows
        .iter()
        .map(|r| r.count.to_string().len())
        .max()
        .unwrap_or(1);
    let rule_width = rows.iter().map(|r| r.rule.len()).max().unwrap_or(0);
    for e in &report.errors {
        writeln!(
            out,
            "{}:{}:{}: error[{}] {}",
            e.file,
            e.line,
            e.column,
            e.kind.code(),
            e.message
        )?;
    }
    for r in &rows {
        // ruff's mark: `[*]` when every finding of the row has a fix, `[n*]` when some do.
        let mark = match r.fixable {
            0 => String::new(),
            n if n == r.count => " [*]".to_string(),
            n => format!(" [{n}*]"),
        };
        writeln!(
            out,
            "{:>count_width$}  {:<7}  {:<rule_width$}  {}{mark}",
            r.count, r.severity, r.rule, r.summary
        )?;
    }
    if !quiet {
        writeln!(out, "{}", summary_line(report))?;
        if let Some(line) = super::fixable_line(report) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
