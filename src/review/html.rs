//! The review as one self-contained HTML page: a sticky header with filters (by verdict,
//! method, tag and text), and for each document its summary, a chart of the answers by
//! verdict, its gaps and a table of its operations, each answer linked to the line it cites.
//! `html_change` shows a change the same way: what got worse first, each changed answer
//! before and after it.
//!
//! Nothing on the page is fetched: style, script and icons are inline, and the verdicts are
//! drawn, not emoji, which a machine without an emoji font shows as empty boxes.

mod assets;
mod change;
mod chart;
mod markup;
mod page;
mod rows;

pub use change::html_change;
pub use markup::Links;

use super::markdown::optional_note;
use super::{ApiReview, NotReviewed};
use markup::{escape, inline};
use page::{Frame, page};
use rows::{Side, TABLE_END, row, table_head};

/// One page, a section a document and one for what could not be reviewed.
pub fn html(reviews: &[ApiReview], not_reviewed: &[NotReviewed], links: &Links) -> String {
    let title = match reviews {
        [one] => one.title.clone(),
        [] => "nothing reviewed".to_string(),
        many => format!("{} documents", many.len()),
    };
    let heading = format!(": <span>{}</span>", escape(&title));
    let mut sections = String::new();
    if reviews.is_empty() {
        sections.push_str("<p class=\"empty\">Nothing could be reviewed.</p>\n");
    }
    for (i, r) in reviews.iter().enumerate() {
        sections.push_str(&document(r, &doc_id(i), links));
    }
    sections.push_str(&not_reviewed_section(not_reviewed, links));
    let frame = Frame {
        title,
        heading,
        operations: reviews.iter().flat_map(|r| &r.operations).collect(),
        documents: reviews
            .iter()
            .enumerate()
            .map(|(i, r)| (doc_id(i), r.title.clone(), r.file.clone()))
            .collect(),
    };
    page(&frame, &sections)
}

fn doc_id(i: usize) -> String {
    format!("doc-{}", i + 1)
}

/// One document's section.
fn document(r: &ApiReview, id: &str, links: &Links) -> String {
    let mut s = format!(
        "<section class=\"doc\" id=\"{id}\">\n<h2>{}</h2>\n<p class=\"file\">{}</p>\n",
        escape(&r.title),
        file_link(&r.file, links)
    );
    s.push_str("<div class=\"overview\">\n<dl class=\"facts\">");
    s.push_str(&format!(
        "<dt>Protected</dt><dd>{}</dd>",
        protected(r, true)
    ));
    s.push_str(&format!("<dt>Key carrier</dt><dd>{}</dd>", carriers(r)));
    s.push_str(&format!(
        "<dt>Key lifetime</dt><dd>{}</dd>",
        lifetimes(r, links, Side::Now)
    ));
    s.push_str(&format!(
        "<dt>Operations</dt><dd>{}</dd></dl>\n",
        r.operations.len()
    ));
    s.push_str(&chart::chart(&r.operations));
    s.push_str("</div>\n");
    s.push_str(&gaps(r));
    s.push_str(&format!(
        "<h3>Operations <span class=\"count\">({})</span></h3>\n",
        r.operations.len()
    ));
    s.push_str(&operations(r.operations.iter(), links, Side::Now));
    s.push_str("</section>\n");
    s
}

/// A table of operations, or a line saying there are none.
fn operations<'a>(
    ops: impl ExactSizeIterator<Item = &'a super::OperationReview>,
    links: &Links,
    side: Side,
) -> String {
    if ops.len() == 0 {
        return "<p class=\"empty\">No operations.</p>\n".to_string();
    }
    let mut s = table_head();
    for op in ops {
        s.push_str(&row(op, links, side));
    }
    s.push_str(TABLE_END);
    s
}

fn file_link(file: &str, links: &Links) -> String {
    format!(
        "<a href=\"{}\">{}</a>",
        escape(&links.href(file, None)),
        escape(file)
    )
}

/// `3 of 6`, the operations whose duplicates matter that are protected; with `sentence`, what
/// those numbers count.
fn protected(r: &ApiReview, sentence: bool) -> String {
    let count = format!(
        "<span class=\"big\">{} of {}</span>",
        r.protected, r.unsafe_operations
    );
    if sentence {
        format!(
            "{count} operations whose duplicates matter have a required key or If-Match{}",
            escape(&optional_note(r))
        )
    } else {
        count
    }
}

fn carriers(r: &ApiReview) -> String {
    if r.carriers.is_empty() {
        return "none declared".to_string();
    }
    r.carriers
        .iter()
        .map(|(c, n)| format!("{} ({n})", inline(c)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn lifetimes(r: &ApiReview, links: &Links, side: Side) -> String {
    if r.lifetimes.is_empty() {
        return "not documented".to_string();
    }
    r.lifetimes
        .iter()
        .map(|(t, at)| format!("{} {}", inline(t), rows::place(at, links, side)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rules with findings, worst first.
fn gaps(r: &ApiReview) -> String {
    if r.gaps.is_empty() {
        return "<h3>Gaps</h3>\n<p class=\"empty\">No rule reports a gap.</p>\n".to_string();
    }
    let mut s = String::from(
        "<h3>Gaps, worst first</h3>\n<table class=\"gaps\"><colgroup><col class=\"rule\">\
         <col class=\"sev\"><col class=\"n\"><col></colgroup><thead><tr><th scope=\"col\">Rule</th>\
         <th scope=\"col\">Severity</th><th scope=\"col\">Findings</th><th scope=\"col\">What</th>\
         </tr></thead><tbody>\n",
    );
    for (rule, sev, n, summary) in &r.gaps {
        s.push_str(&format!(
            "<tr><td><code>{}</code></td><td><span class=\"sev {sev}\">{sev}</span></td><td>{n}</td><td>{}</td></tr>\n",
            escape(rule),
            inline(summary)
        ));
    }
    s.push_str("</tbody></table>\n");
    s
}

/// What could not be reviewed: a page must not pass over a broken document in silence.
fn not_reviewed_section(not_reviewed: &[NotReviewed], links: &Links) -> String {
    if not_reviewed.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "<section class=\"not-reviewed\">\n<h2>Not reviewed</h2>\n<ul class=\"not-reviewed\">\n",
    );
    for n in not_reviewed {
        // The whole place: the file's folders say which of several documents it is.
        let (file, line) = markup::split_place(&n.place);
        s.push_str(&format!(
            "<li><a href=\"{}\"><code>{}</code></a>: {}</li>\n",
            escape(&links.href(file, line)),
            escape(&n.place),
            inline(&n.reason)
        ));
    }
    s.push_str("</ul>\n</section>\n");
    s
}

#[cfg(test)]
mod tests;
