//! The page of a change (`review --base`): per document, what the change did to its answers
//! as numbers and as a chart before and after, then the operations it changed (worst first,
//! each changed answer before and after it, the others dimmed, the contract-change notes
//! below), added and removed; the unchanged ones are counted, not listed.

use super::markup::{Links, escape, inline, place_link, split_place};
use super::page::{Frame, page};
use super::rows::{Side, TABLE_END, answer_body, class, row_open, table_head};
use super::{carriers, doc_id, file_link, lifetimes, not_reviewed_section, operations, protected};
use crate::review::change::{ChangeReview, DocumentChange, OperationChange};
use crate::review::{ApiReview, NotReviewed, QUESTIONS};

/// One page for the review of a change.
pub fn html_change(change: &ChangeReview, not_reviewed: &[NotReviewed], links: &Links) -> String {
    let title = match change.documents.as_slice() {
        [one] => one.title.clone(),
        [] => "no documents".to_string(),
        many => format!("{} documents", many.len()),
    };
    let mut sections = String::new();
    if change.documents.is_empty() {
        sections.push_str("<p class=\"empty\">No document was reviewed on either side.</p>\n");
    }
    for (i, d) in change.documents.iter().enumerate() {
        sections.push_str(&document(d, &doc_id(i), links));
    }
    sections.push_str(&not_reviewed_section(not_reviewed, links));
    let frame = Frame {
        title: format!("{title}, change against {}", change.base),
        heading: format!(
            " of a change: <span>{}, against <code>{}</code></span>",
            escape(&title),
            escape(&change.base)
        ),
        operations: change
            .documents
            .iter()
            .flat_map(|d| {
                d.changed
                    .iter()
                    .map(|c| &c.after)
                    .chain(&d.added)
                    .chain(&d.removed)
            })
            .collect(),
        documents: change
            .documents
            .iter()
            .enumerate()
            .map(|(i, d)| (doc_id(i), d.title.clone(), d.file.clone()))
            .collect(),
    };
    page(&frame, &sections)
}

fn document(d: &DocumentChange, id: &str, links: &Links) -> String {
    let mut s = format!(
        "<section class=\"doc change\" id=\"{id}\">\n<h2>{}</h2>\n<p class=\"file\">{}</p>\n",
        escape(&d.title),
        file_line(d, links)
    );
    s.push_str(&tally(d));
    s.push_str("<div class=\"overview\">\n");
    s.push_str(&facts(d.before.as_ref(), d.after.as_ref(), links));
    s.push_str(&super::chart::change_chart(
        d.before.as_ref().map(|r| r.operations.as_slice()),
        d.after.as_ref().map(|r| r.operations.as_slice()),
    ));
    s.push_str("</div>\n");
    if !d.changed.is_empty() {
        s.push_str(&heading(
            "Changed operations, regressions first",
            d.changed.len(),
        ));
        s.push_str(&table_head());
        for c in &d.changed {
            s.push_str(&changed_row(c, links));
        }
        s.push_str(TABLE_END);
    }
    if !d.added.is_empty() {
        s.push_str(&heading("Added operations", d.added.len()));
        s.push_str(&operations(d.added.iter(), links, Side::Now));
    }
    if !d.removed.is_empty() {
        s.push_str(&heading("Removed operations", d.removed.len()));
        s.push_str(&operations(d.removed.iter(), links, Side::Base));
    }
    s.push_str(&format!(
        "<p class=\"unchanged\">{}</p>\n</section>\n",
        match (d.is_unchanged(), d.unchanged) {
            (true, 0) => "The change leaves this document without operations.".to_string(),
            (true, n) => format!("No operation changed: all {n} are answered as before."),
            (false, 1) => "1 other operation is answered as before.".to_string(),
            (false, n) => format!("{n} other operations are answered as before."),
        }
    ));
    s
}

fn heading(what: &str, n: usize) -> String {
    format!("<h3>{what} <span class=\"count\">({n})</span></h3>\n")
}

/// The document's file, and what the change did to it.
fn file_line(d: &DocumentChange, links: &Links) -> String {
    let file = file_link(&d.file, links);
    match (&d.before, &d.after, &d.before_file) {
        (None, _, _) => format!("{file}, new in this change"),
        (_, None, _) => format!("<code>{}</code>, deleted by this change", escape(&d.file)),
        (_, _, Some(was)) if *was != d.file => {
            format!("{file}, renamed from <code>{}</code>", escape(was))
        }
        _ => file,
    }
}

/// `2 regressions 1 improvement 3 changed 1 added 0 removed 40 unchanged`.
fn tally(d: &DocumentChange) -> String {
    let improvements = d.changed.iter().filter(|c| c.improvement).count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "<p class=\"tally\"><span class=\"regressions\">{}</span><span class=\"improvements\">{}</span>\
         <span>{} changed</span><span>{} added{}</span><span>{} removed</span><span>{} unchanged</span></p>\n",
        plural(d.regressions(), "regression", "regressions"),
        plural(improvements, "improvement", "improvements"),
        d.changed.len(),
        d.added.len(),
        match d.added_at_risk() {
            0 => String::new(),
            n => format!(" ({n} wrong under retry)"),
        },
        d.removed.len(),
        d.unchanged,
    )
}

/// The summary's facts before → after; a fact the change leaves alone is said once.
fn facts(before: Option<&ApiReview>, after: Option<&ApiReview>, links: &Links) -> String {
    // `same` compares what a fact says, not where: a place moves with every line inserted
    // above it.
    let pair = |f: &dyn Fn(&ApiReview, Side) -> String, same: &dyn Fn(&ApiReview) -> String| match (
        before, after,
    ) {
        (Some(a), Some(b)) if same(a) == same(b) => f(b, Side::Now),
        (Some(a), Some(b)) => format!(
            "<span class=\"when-label\">was</span>{} <span class=\"when-label\">now</span>{}",
            f(a, Side::Base),
            f(b, Side::Now)
        ),
        (Some(a), None) => f(a, Side::Base),
        (None, Some(b)) => f(b, Side::Now),
        (None, None) => String::new(),
    };
    let protected = |r: &ApiReview| protected(r, false);
    let count = |r: &ApiReview| r.operations.len().to_string();
    let mut s = String::from("<dl class=\"facts\">");
    s.push_str(&format!(
        "<dt>Protected</dt><dd>{}</dd>",
        pair(&|r, _| protected(r), &protected)
    ));
    s.push_str(&format!(
        "<dt>Key carrier</dt><dd>{}</dd>",
        pair(&|r, _| carriers(r), &carriers)
    ));
    s.push_str(&format!(
        "<dt>Key lifetime</dt><dd>{}</dd>",
        pair(&|r, side| lifetimes(r, links, side), &|r| format!(
            "{:?}",
            r.lifetimes.iter().map(|l| &l.0).collect::<Vec<_>>()
        ),)
    ));
    s.push_str(&format!(
        "<dt>Operations</dt><dd>{}</dd></dl>\n",
        pair(&|r, _| count(r), &count)
    ));
    s
}

/// A changed operation: each changed answer as it was and as it is, the others dimmed, and the
/// contract-change notes on a row of their own below.
fn changed_row(c: &OperationChange, links: &Links) -> String {
    let (kind, label) = match (c.regression, c.improvement) {
        (true, _) => ("regression", "regression"),
        (false, true) => ("improvement", "improvement"),
        (false, false) => ("changed", "changed"),
    };
    let mut flag = format!("<span class=\"flag {kind}\">{label}</span>");
    if c.before.identity != c.after.identity {
        flag.push_str(&format!(
            "<span class=\"op-meta\">was <code>{}</code></span>",
            escape(&c.before.identity)
        ));
    }
    let mut s = row_open(
        &c.after,
        &format!("changed {kind}"),
        &flag,
        links,
        Side::Now,
    );
    for (i, now) in c.after.answers.iter().enumerate() {
        if c.differs(i) {
            let was = &c.before.answers[i];
            s.push_str(&format!(
                "<td class=\"a {} changed\" title=\"{}: changed\"><div class=\"was\">\
                 <span class=\"when-label\">was</span>{}</div><div class=\"now\">\
                 <span class=\"when-label\">now</span>{}</div></td>",
                class(now.verdict),
                escape(QUESTIONS[i]),
                answer_body(was, links, Side::Base),
                answer_body(now, links, Side::Now),
            ));
        } else {
            s.push_str(&format!(
                "<td class=\"a {} same\">{}</td>",
                class(now.verdict),
                answer_body(now, links, Side::Now)
            ));
        }
    }
    s.push_str("</tr>\n");
    if !c.findings.is_empty() {
        s.push_str(&format!(
            "<tr class=\"notes\"><td colspan=\"{}\"><ul>",
            QUESTIONS.len() + 1
        ));
        for n in &c.findings {
            let (_, line) = split_place(&n.at);
            let at = if line.is_some() {
                place_link(&n.at, links)
            } else {
                String::new()
            };
            s.push_str(&format!(
                "<li><span class=\"sev {sev}\">{sev}</span><code>{}</code> {} {at}</li>",
                escape(&n.rule),
                inline(&n.message),
                sev = n.severity,
            ));
        }
        s.push_str("</ul></td></tr>\n");
    }
    s
}
