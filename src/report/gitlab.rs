//! GitLab Code Quality report: a JSON array of issues, shown in merge requests.

use serde::Serialize;

use super::Report;
use crate::diagnostic::Severity;

#[derive(Serialize)]
struct Issue<'a> {
    description: std::borrow::Cow<'a, str>,
    check_name: &'a str,
    fingerprint: &'a str,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

pub fn render(report: &Report) -> String {
    let issues: Vec<Issue<'_>> = report
        .findings
        .iter()
        .map(|f| Issue {
            description: f.shown_message(),
            check_name: f.rule.as_str(),
            fingerprint: &f.fingerprint,
            severity: match f.severity {
                Severity::Error => "critical",
                Severity::Warning => "major",
                Severity::Info => "info",
            },
            location: Location {
                path: f.file(),
                lines: Lines {
                    begin: f.line,
                    end: f.end_line,
                },
            },
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&issues).expect("serialises");
    s.push('\n');
    s
}
