//! JUnit XML: one test suite per linted document, one test case per operation, a failure per
//! finding. Findings about the document itself (`$ref`s, duplicate keys) form a case of their own.

use std::collections::HashMap;

use super::{Finding, OperationAt, Report};

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no place for most control characters.
            c if c.is_control() && !matches!(c, '\n' | '\t') => out.push(' '),
            // Nor for these two noncharacters (a server's or a spec's bytes may hold them).
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn failure(f: &Finding) -> String {
    format!(
        "      <failure type=\"{}\" message=\"{}\">{}:{}:{}: {}[{}] {}{}</failure>\n",
        escape(f.rule.as_str()),
        escape(&f.shown_message()),
        escape(f.file()),
        f.line,
        f.column,
        f.severity,
        f.rule,
        escape(&f.shown_message()),
        f.evidence
            .as_deref()
            .map(|e| format!("\n{}", escape(e)))
            .unwrap_or_default()
    )
}

pub fn render(report: &Report) -> String {
    let mut suites = String::new();
    let mut total_tests = 0;
    let mut total_failures = 0;
    let mut claimed = vec![false; report.findings.len()];
    // Each operation's findings, in report order, found by its method key: scanning every
    // finding for every operation was quadratic (seconds on a minified 50 MB spec).
    let mut by_operation: HashMap<&OperationAt, Vec<usize>> = HashMap::new();
    for (i, f) in report.findings.iter().enumerate() {
        if let Some(at) = &f.operation_at {
            by_operation.entry(at).or_default().push(i);
        }
    }
    for doc in &report.documents {
        let mut cases = String::new();
        let (mut tests, mut failures) = (0, 0);
        for op in &doc.operations {
            let mut body = String::new();
            // The first operation with a key claims its findings; a later one with the same key
            // finds them claimed, as before.
            for i in by_operation.remove(&op.at).unwrap_or_default() {
                if !claimed[i] {
                    claimed[i] = true;
                    body.push_str(&failure(&report.findings[i]));
                }
            }
            tests += 1;
            failures += usize::from(!body.is_empty());
            cases.push_str(&case(&doc.file, &op.display, &body));
        }
        for op in &doc.unchecked {
            tests += 1;
            let body = format!(
                "      <skipped message=\"not checked: {}\"/>\n",
                escape(&op.reason)
            );
            cases.push_str(&case(&doc.file, &op.display, &body));
        }
        // What no operation owns, in this document's files.
        let mut body = String::new();
        for (i, f) in report.findings.iter().enumerate() {
            if !claimed[i] && f.operation.is_none() && same_tree(&doc.file, f.file()) {
                claimed[i] = true;
                body.push_str(&failure(f));
            }
        }
        tests += 1;
        failures += usize::from(!body.is_empty());
        cases.push_str(&case(&doc.file, "document", &body));
        total_tests += tests;
        total_failures += failures;
        let skipped = match doc.unchecked.len() {
            0 => String::new(),
            n => format!(" skipped=\"{n}\""),
        };
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\"{skipped}>\n{cases}  </testsuite>\n",
            escape(&doc.file)
        ));
    }
    // Findings in files outside every document's folder (a `$ref` to `../shared/...`).
    let rest: String = report
        .findings
        .iter()
        .zip(&claimed)
        .filter(|(_, c)| !**c)
        .map(|(f, _)| failure(f))
        .collect();
    if !rest.is_empty() {
        total_tests += 1;
        total_failures += 1;
        suites.push_str(&format!(
            "  <testsuite name=\"referenced files\" tests=\"1\" failures=\"1\" errors=\"0\">\n{}  </testsuite>\n",
            case("referenced files", "findings", &rest)
        ));
    }
    let mut errors = String::new();
    for e in &report.errors {
        errors.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"1\" failures=\"0\" errors=\"1\">\n    <testcase classname=\"{0}\" name=\"load\">\n      <error message=\"{}\">{}:{}:{}: {}</error>\n    </testcase>\n  </testsuite>\n",
            escape(&e.file),
            escape(&e.message),
            escape(&e.file),
            e.line,
            e.column,
            escape(&e.message)
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"idemlint\" tests=\"{}\" failures=\"{total_failures}\" errors=\"{}\">\n{suites}{errors}</testsuites>\n",
        total_tests + report.errors.len(),
        report.errors.len()
    )
}

fn case(file: &str, name: &str, body: &str) -> String {
    if body.is_empty() {
        format!(
            "    <testcase classname=\"{}\" name=\"{}\"/>\n",
            escape(file),
            escape(name)
        )
    } else {
        format!(
            "    <testcase classname=\"{}\" name=\"{}\">\n{body}    </testcase>\n",
            escape(file),
            escape(name)
        )
    }
}

/// Whether a finding's file belongs with a document: the same file, or one beside or below it.
fn same_tree(doc: &str, file: &str) -> bool {
    let dir = std::path::Path::new(doc)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    file == doc || std::path::Path::new(file).starts_with(dir)
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn what_xml_cannot_hold_is_replaced() {
        assert_eq!(
            escape("a\u{1}b\u{FFFE}c\u{FFFF}<d>\te\n"),
            "a b\u{FFFD}c\u{FFFD}&lt;d&gt;\te\n"
        );
    }
}
