//! The review as Markdown, for a pull-request comment.

use super::{ApiReview, NotReviewed, QUESTIONS};

/// Markdown, for a pull-request comment: a section a document, then what could not be
/// reviewed, so that a comment never passes over a broken document in silence.
pub fn markdown(reviews: &[ApiReview], not_reviewed: &[NotReviewed]) -> String {
    let mut sections: Vec<String> = reviews.iter().map(markdown_section).collect();
    if !not_reviewed.is_empty() {
        let mut s = String::new();
        if reviews.is_empty() {
            s.push_str("## Idempotency review\n\nNothing could be reviewed.\n\n");
        }
        s.push_str("## Not reviewed\n\n");
        for n in not_reviewed {
            s.push_str(&format!("- {}: {}\n", code(&n.place), prose(&n.reason)));
        }
        sections.push(s);
    }
    sections.join("\n")
}

fn markdown_section(r: &ApiReview) -> String {
    let mut s = format!(
        "## Idempotency review: {} (`{}`)\n\n",
        cell(&r.title),
        r.file
    );
    s.push_str(&format!(
        "- **{} of {}** operations whose duplicates matter are protected (a required key or If-Match){}.\n",
        r.protected,
        r.unsafe_operations,
        optional_note(r)
    ));
    if r.carriers.is_empty() {
        s.push_str("- **Key carrier:** none declared.\n");
    } else {
        let list: Vec<String> = r
            .carriers
            .iter()
            .map(|(c, n)| format!("{c} ({n})"))
            .collect();
        s.push_str(&format!("- **Key carrier:** {}.\n", list.join(", ")));
    }
    if r.lifetimes.is_empty() {
        s.push_str("- **Key lifetime:** not documented.\n");
    } else {
        let list: Vec<String> = r
            .lifetimes
            .iter()
            .map(|(t, at)| format!("{t} (`{at}`)"))
            .collect();
        s.push_str(&format!("- **Key lifetime:** {}.\n", list.join(", ")));
    }
    if !r.gaps.is_empty() {
        s.push_str(
            "\n### Gaps, worst first\n\n| rule | severity | findings | what |\n|---|---|---|---|\n",
        );
        for (rule, sev, n, summary) in &r.gaps {
            s.push_str(&format!("| `{rule}` | {sev} | {n} | {} |\n", cell(summary)));
        }
    }
    s.push_str("\n### Operations\n\n| operation |");
    for q in QUESTIONS {
        s.push_str(&format!(" {q} |"));
    }
    s.push_str("\n|---|---|---|---|---|---|\n");
    for op in &r.operations {
        s.push_str(&format!("| {}<br>`{}` |", code(&op.operation), op.at));
        for a in &op.answers {
            let at =
                a.at.as_ref()
                    .map(|at| format!("<br>`{at}`"))
                    .unwrap_or_default();
            s.push_str(&format!(" {} {}{at} |", a.verdict.mark(), cell(&a.text)));
        }
        s.push('\n');
    }
    s.push_str("\n✅ safe as specified · ⚠️ incomplete or undocumented · ❌ wrong under retry · — not applicable\n");
    s
}

/// `; 17 more take an optional key`, when some do.
pub(super) fn optional_note(r: &ApiReview) -> String {
    match r.optional_keys {
        0 => String::new(),
        1 => "; 1 more takes an optional key".to_string(),
        n => format!("; {n} more take an optional key"),
    }
}

/// A code span that holds backticks too (`POST webhook \`a\``).
fn code(s: &str) -> String {
    if s.contains('`') {
        format!("`` {} ``", cell(s))
    } else {
        format!("`{}`", cell(s))
    }
}

/// Text outside code spans, on one line: GitHub reads `<…>` there as HTML and drops it.
fn prose(s: &str) -> String {
    cell(s).replace('<', "&lt;").replace('>', "&gt;")
}

/// Text for a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
