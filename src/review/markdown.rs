//! The review as Markdown, for a pull-request comment.

use super::change::{ChangeReview, DocumentChange, OperationChange};
use super::{ApiReview, NotReviewed, OperationReview, QUESTIONS, Verdict};

/// The longest comment a review makes by default: GitHub refuses comments over 65,536 characters, and a
/// job summary is cut at 1 MiB; a review this long says less and links to the whole page.
pub const MAX_CHARS: usize = 60_000;

/// How a Markdown review is written.
#[derive(Debug, Clone, Copy, Default)]
pub struct MarkdownOptions<'a> {
    /// `--only-gaps`: leave out the operations with nothing to say (every answer good or not
    /// applicable).
    pub only_gaps: bool,
    /// Where the whole review (the HTML page) is, for a review too long for a comment.
    pub details_url: Option<&'a str>,
    /// The longest review written ([`MAX_CHARS`] for a comment); `None` for no limit.
    pub max_chars: Option<usize>,
}

/// Markdown, for a pull-request comment: a section a document, then what could not be
/// reviewed, so that a comment never passes over a broken document in silence. Never longer
/// than `opts.max_chars` ([`MAX_CHARS`] for a comment): a longer review shows each operation's verdicts without their texts, then
/// only the operations with a risk or a gap, then as many of those as fit.
pub fn markdown(
    reviews: &[ApiReview],
    not_reviewed: &[NotReviewed],
    opts: &MarkdownOptions<'_>,
) -> String {
    fitted(opts.max_chars, opts.details_url, |detail| {
        markdown_at(reviews, not_reviewed, opts, detail)
    })
}

/// How much of each operation a review shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detail {
    /// Every answer with its text and place.
    Full,
    /// Each operation's five verdicts, no texts.
    Marks,
    /// The verdicts of the operations with a risk or a gap only.
    GapsOnly,
}

/// The review `write` writes with the most detail that fits in `max` characters: every answer,
/// else the verdicts alone, else the verdicts of the operations with a gap or a risk, else
/// those cut at a line's end.
fn fitted(
    max: Option<usize>,
    details_url: Option<&str>,
    write: impl Fn(Detail) -> String,
) -> String {
    let full = write(Detail::Full);
    let Some(max) = max else { return full };
    if full.chars().count() <= max {
        return full;
    }
    let mut text = full;
    for detail in [Detail::Marks, Detail::GapsOnly] {
        text = write(detail);
        if text.chars().count() <= max {
            return text;
        }
    }
    cut(text, max, details_url)
}

/// `text` cut to `max` characters at a line's end, saying so (and where the whole review is);
/// cut anywhere when even the note does not fit.
fn cut(text: String, max: usize, details_url: Option<&str>) -> String {
    let note = match details_url {
        Some(url) => format!("\n\n… (cut to fit a comment: [the whole review]({url}))\n"),
        None => "\n\n… (cut to fit a comment: `idemlint review --format html` writes the whole \
                 review)\n"
            .to_string(),
    };
    let Some(budget) = max.checked_sub(note.chars().count()) else {
        return text.chars().take(max).collect();
    };
    let mut end = 0;
    for (count, (at, c)) in text.char_indices().enumerate() {
        if count >= budget {
            break;
        }
        if c == '\n' {
            end = at;
        }
    }
    format!("{}{note}", &text[..end])
}

fn has_something_to_say(op: &OperationReview) -> bool {
    op.answers
        .iter()
        .any(|a| matches!(a.verdict, Verdict::Gap | Verdict::Risk))
}

fn markdown_at(
    reviews: &[ApiReview],
    not_reviewed: &[NotReviewed],
    opts: &MarkdownOptions<'_>,
    detail: Detail,
) -> String {
    let mut sections: Vec<String> = reviews
        .iter()
        .map(|r| markdown_section(r, opts, detail))
        .collect();
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

fn markdown_section(r: &ApiReview, opts: &MarkdownOptions<'_>, detail: Detail) -> String {
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
    let shown: Vec<&OperationReview> = r
        .operations
        .iter()
        .filter(|op| !(opts.only_gaps || detail == Detail::GapsOnly) || has_something_to_say(op))
        .collect();
    s.push_str("\n### Operations\n\n");
    let left_out = r.operations.len() - shown.len();
    if left_out > 0 {
        s.push_str(&format!(
            "{left_out} of {} operations with nothing to say (every answer safe or not \
             applicable) are left out.\n\n",
            r.operations.len()
        ));
    }
    s.push_str(&answers_table(&shown, detail));
    if detail != Detail::Full {
        s.push_str(&details_note(opts.details_url));
    }
    s.push_str(LEGEND);
    s
}

const LEGEND: &str = "\n✅ safe as specified · ⚠️ incomplete or undocumented · ❌ wrong under retry · — not applicable\n";

/// Where the whole review is, when this one shows less of it.
fn details_note(url: Option<&str>) -> String {
    match url {
        Some(url) => format!(
            "\nThe answers' texts are left out to fit a comment: [the whole review]({url}).\n"
        ),
        None => "\nThe answers' texts are left out to fit a comment: `idemlint review \
                 --format html` writes the whole review.\n"
            .to_string(),
    }
}

/// The table of operations and their five answers.
fn answers_table(ops: &[&OperationReview], detail: Detail) -> String {
    let mut s = String::from("| operation |");
    for q in QUESTIONS {
        s.push_str(&format!(" {q} |"));
    }
    s.push_str("\n|---|---|---|---|---|---|\n");
    for op in ops {
        if detail == Detail::Full {
            s.push_str(&format!("| {}<br>`{}` |", code(&op.operation), op.at));
        } else {
            s.push_str(&format!("| {} |", code(&op.operation)));
        }
        for a in &op.answers {
            if detail == Detail::Full {
                let at =
                    a.at.as_ref()
                        .map(|at| format!("<br>`{at}`"))
                        .unwrap_or_default();
                s.push_str(&format!(" {} {}{at} |", a.verdict.mark(), cell(&a.text)));
            } else {
                s.push_str(&format!(" {} |", a.verdict.mark()));
            }
        }
        s.push('\n');
    }
    s
}

/// The review of a change, for a pull-request comment: each document's operations the change
/// added, removed and changed, regressions first, each changed one with the answers that
/// changed before → after, and the contract-change findings; unchanged operations are one line.
/// Never longer than `opts.max_chars`.
pub fn markdown_change(
    change: &ChangeReview,
    not_reviewed: &[NotReviewed],
    opts: &MarkdownOptions<'_>,
) -> String {
    fitted(opts.max_chars, opts.details_url, |detail| {
        change_at(change, not_reviewed, opts, detail)
    })
}

fn change_at(
    change: &ChangeReview,
    not_reviewed: &[NotReviewed],
    opts: &MarkdownOptions<'_>,
    detail: Detail,
) -> String {
    let mut s = String::new();
    if change.documents.is_empty() {
        s.push_str(&format!(
            "## Idempotency review of the change against {}\n\nNo OpenAPI document on either side.\n",
            prose(&change.base)
        ));
    }
    for d in &change.documents {
        s.push_str(&document_change(d, &change.base, opts, detail));
        s.push('\n');
    }
    if !not_reviewed.is_empty() {
        s.push_str("## Not reviewed\n\n");
        for n in not_reviewed {
            s.push_str(&format!("- {}: {}\n", code(&n.place), prose(&n.reason)));
        }
    }
    s
}

fn document_change(
    d: &DocumentChange,
    base: &str,
    opts: &MarkdownOptions<'_>,
    detail: Detail,
) -> String {
    let was = match (&d.before_file, &d.after) {
        (None, _) => ", added by the change".to_string(),
        (Some(_), None) => ", deleted by the change".to_string(),
        (Some(then), Some(_)) if *then != d.file => format!(", was `{then}`"),
        _ => String::new(),
    };
    let mut s = format!(
        "## Idempotency review of the change: {} (`{}`{was}) against {}\n\n",
        cell(&d.title),
        d.file,
        prose(base)
    );
    let regressions = d.regressions();
    let improved = d.changed.iter().filter(|c| c.improvement).count();
    let risky = d.added_at_risk();
    s.push_str(&format!(
        "**{}**, {} improved, {} changed otherwise, {} added{}, {} removed, {} unchanged.\n",
        match regressions {
            1 => "1 regression".to_string(),
            n => format!("{n} regressions"),
        },
        improved,
        d.changed.len() - improved - regressions,
        d.added.len(),
        match risky {
            0 => String::new(),
            n => format!(" ({n} wrong under retry)"),
        },
        d.removed.len(),
        d.unchanged,
    ));
    if let (Some(was), Some(now)) = (&d.before, &d.after) {
        s.push_str(&format!(
            "\n- Protected operations whose duplicates matter: {} of {} → {} of {}.\n",
            was.protected, was.unsafe_operations, now.protected, now.unsafe_operations
        ));
    }
    let notes: Vec<_> = d.changed.iter().flat_map(|c| &c.findings).collect();
    if !notes.is_empty() {
        s.push_str("\n### Contract changes\n\n");
        // A review too long for a comment lists the most severe first, twenty at most.
        let mut notes = notes;
        let shown = if detail == Detail::Full {
            notes.len()
        } else {
            notes.sort_by_key(|n| std::cmp::Reverse(n.severity));
            notes.len().min(20)
        };
        let left = notes.len() - shown;
        for n in notes.into_iter().take(shown) {
            s.push_str(&format!(
                "- **{}** `{}`: {} (`{}`)\n",
                n.severity,
                n.rule,
                prose(&n.message),
                n.at
            ));
        }
        if left > 0 {
            s.push_str(&format!("- … and {left} more\n"));
        }
    }
    let changed: Vec<&OperationChange> = d
        .changed
        .iter()
        .filter(|c| detail != Detail::GapsOnly || c.regression)
        .collect();
    if !changed.is_empty() {
        s.push_str("\n### Changed operations, regressions first\n\n");
        if detail == Detail::Full {
            for c in &changed {
                s.push_str(&operation_change(c));
            }
        } else {
            s.push_str("| operation | before | after |\n|---|---|---|\n");
            for c in &changed {
                let marks = |op: &OperationReview| {
                    op.answers
                        .iter()
                        .map(|a| a.verdict.mark())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                s.push_str(&format!(
                    "| {}{} | {} | {} |\n",
                    code(&c.after.operation),
                    if c.regression { " (regression)" } else { "" },
                    marks(&c.before),
                    marks(&c.after)
                ));
            }
        }
    }
    let added: Vec<&OperationReview> = d
        .added
        .iter()
        .filter(|op| !(opts.only_gaps || detail == Detail::GapsOnly) || has_something_to_say(op))
        .collect();
    if !added.is_empty() {
        s.push_str("\n### Added operations\n\n");
        s.push_str(&answers_table(&added, detail));
    }
    if !d.removed.is_empty() {
        s.push_str("\n### Removed operations\n\n");
        for op in &d.removed {
            s.push_str(&format!("- {} (was `{}`)\n", code(&op.operation), op.at));
        }
    }
    if d.unchanged > 0 {
        s.push_str(&format!(
            "\n{} operation{} answered as before the change.\n",
            d.unchanged,
            if d.unchanged == 1 { "" } else { "s" }
        ));
    }
    if detail != Detail::Full {
        s.push_str(&details_note(opts.details_url));
    }
    if !d.is_unchanged() {
        s.push_str(LEGEND);
    }
    s
}

/// One changed operation: the questions whose answers changed, before → after.
fn operation_change(c: &OperationChange) -> String {
    let mut s = format!(
        "#### {}{}\n\n`{}`{}\n\n| question | before | after |\n|---|---|---|\n",
        code(&c.after.operation),
        if c.regression {
            " — regression"
        } else if c.improvement {
            " — improved"
        } else {
            ""
        },
        c.after.at,
        if c.before.at == c.after.at {
            String::new()
        } else {
            format!(" (was `{}`)", c.before.at)
        }
    );
    let answer = |a: &super::Answer| {
        let at =
            a.at.as_ref()
                .map(|at| format!("<br>`{at}`"))
                .unwrap_or_default();
        format!("{} {}{at}", a.verdict.mark(), cell(&a.text))
    };
    for (i, q) in QUESTIONS.iter().enumerate() {
        if c.differs(i) {
            s.push_str(&format!(
                "| {q} | {} | {} |\n",
                answer(&c.before.answers[i]),
                answer(&c.after.answers[i])
            ));
        }
    }
    if c.before.identity != c.after.identity {
        s.push_str(&format!(
            "| (the operation) | {} | {} |\n",
            code(&c.before.identity),
            code(&c.after.identity)
        ));
    } else if !(0..QUESTIONS.len()).any(|i| c.differs(i)) {
        s.push_str("| (its answers read as before; its contract changed, see above) | | |\n");
    }
    s.push('\n');
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_review_fits_and_says_where_the_whole_one_is() {
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let cut_text = cut(text.clone(), 200, Some("https://ci.example.com/r.html"));
        assert!(cut_text.chars().count() <= 200, "{cut_text}");
        assert!(cut_text.ends_with("[the whole review](https://ci.example.com/r.html))\n"));
        assert!(cut_text.starts_with("line 0\nline 1\n"));
        // Whole lines only, before the note.
        let body = &cut_text[..cut_text.find("\n\n…").unwrap()];
        assert!(body.ends_with(|c: char| c.is_ascii_digit()), "{body}");
        // A limit smaller than the note itself still holds.
        assert_eq!(cut(text.clone(), 10, None).chars().count(), 10);
        assert_eq!(cut(text, 0, None), "");
    }
}
