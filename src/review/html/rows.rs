//! An operation's row: its name, method and tags, and one cell an answer, each with a verdict
//! badge and a link to what it cites.

use super::markup::{Links, escape, inline, place_link, place_text};
use crate::review::{Answer, OperationReview, QUESTIONS, Verdict};

/// A verdict's class, its word on a badge and what it means.
pub fn class(v: Verdict) -> &'static str {
    match v {
        Verdict::Risk => "risk",
        Verdict::Gap => "gap",
        Verdict::Good => "good",
        Verdict::NotApplicable => "na",
    }
}

pub fn word(v: Verdict) -> &'static str {
    match v {
        Verdict::Risk => "Risk",
        Verdict::Gap => "Gap",
        Verdict::Good => "Good",
        Verdict::NotApplicable => "N/A",
    }
}

pub fn meaning(v: Verdict) -> &'static str {
    match v {
        Verdict::Risk => "wrong under retry",
        Verdict::Gap => "incomplete or undocumented",
        Verdict::Good => "safe as specified",
        Verdict::NotApplicable => "the question does not arise",
    }
}

/// Worst first, as the charts and filters list them.
pub const VERDICTS: [Verdict; 4] = [
    Verdict::Risk,
    Verdict::Gap,
    Verdict::Good,
    Verdict::NotApplicable,
];

/// A verdict's badge: its icon and its word.
pub fn badge(v: Verdict) -> String {
    let c = class(v);
    format!(
        "<span class=\"v {c}\"><svg aria-hidden=\"true\"><use href=\"#i-{c}\"/></svg>{}</span>",
        word(v)
    )
}

/// The head of a table of operations.
pub fn table_head() -> String {
    let mut s = String::from(
        "<table class=\"ops\"><colgroup><col class=\"op\">\
         <col><col><col><col><col></colgroup>\n<thead><tr><th scope=\"col\">Operation</th>",
    );
    for q in QUESTIONS {
        s.push_str(&format!("<th scope=\"col\">{}</th>", escape(q)));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    s
}

pub const TABLE_END: &str = "</tbody></table>\n";

/// Which side of a change a place belongs to: the tree after it is linked, the base is named.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Now,
    Base,
}

/// A cited place: linked after the change, named at its base.
pub fn place(at: &str, links: &Links, side: Side) -> String {
    match side {
        Side::Now => place_link(at, links),
        Side::Base => place_text(at),
    }
}

/// The opening of an operation's row, with what the filters read: its verdicts in question
/// order, its method and its tags; `extra` adds classes (`changed regression`), `flag` a label
/// after its name.
pub fn row_open(
    op: &OperationReview,
    extra: &str,
    flag: &str,
    links: &Links,
    side: Side,
) -> String {
    let worst = op
        .answers
        .iter()
        .map(|a| a.verdict)
        .max_by_key(|v| (v.rank(), *v == Verdict::Good))
        .unwrap_or(Verdict::NotApplicable);
    let verdicts: Vec<&str> = op.answers.iter().map(|a| class(a.verdict)).collect();
    let tags = op.tags.join("\t");
    let mut s = format!(
        "<tr class=\"operation w-{}{}{extra}\" data-v=\"{}\" data-m=\"{}\" data-t=\"{}\"><th scope=\"row\">",
        class(worst),
        if extra.is_empty() { "" } else { " " },
        verdicts.join(" "),
        escape(&op.method),
        escape(&tags).replace('\t', "&#9;"),
    );
    s.push_str(&operation_name(op));
    if !flag.is_empty() {
        s.push_str(flag);
    }
    s.push_str("<span class=\"op-meta\">");
    if let Some(id) = &op.operation_id {
        s.push_str(&format!("<code>{}</code> ", escape(id)));
    }
    s.push_str(&place(&op.at, links, side));
    s.push_str("</span>");
    if !op.tags.is_empty() {
        s.push_str("<span class=\"op-meta\">");
        for t in &op.tags {
            s.push_str(&format!("<span class=\"tag\">{}</span>", escape(t)));
        }
        s.push_str("</span>");
    }
    s.push_str("</th>");
    s
}

/// `POST /payments` as a method badge and its path in code; a webhook's or callback's name
/// keeps its own code spans; ` (deprecated)` becomes a flag.
fn operation_name(op: &OperationReview) -> String {
    let (name, deprecated) = match op.operation.strip_suffix(" (deprecated)") {
        Some(name) if op.operation != op.identity => (name, true),
        _ => (op.operation.as_str(), false),
    };
    let rest = name
        .strip_prefix(op.method.as_str())
        .and_then(|r| r.strip_prefix(' '))
        .unwrap_or(name);
    let rest = if rest.contains('`') {
        inline(rest)
    } else {
        // A long path breaks after a slash before it breaks anywhere.
        format!("<code>{}</code>", escape(rest).replace('/', "/<wbr>"))
    };
    format!(
        "<span class=\"op-name\"><span class=\"m {}\">{}</span>{rest}{}</span>",
        escape(&op.method.to_ascii_lowercase()),
        escape(&op.method),
        if deprecated {
            "<span class=\"flag\">deprecated</span>"
        } else {
            ""
        }
    )
}

/// An answer: its badge, its text and the place it cites.
pub fn answer_body(a: &Answer, links: &Links, side: Side) -> String {
    let mut s = String::from("<p>");
    s.push_str(&badge(a.verdict));
    s.push(' ');
    s.push_str(&inline(&a.text));
    s.push_str("</p>");
    if let Some(at) = &a.at {
        s.push_str(&place(at, links, side));
    }
    s
}

/// A cell holding one answer.
pub fn answer_cell(a: &Answer, links: &Links, side: Side) -> String {
    format!(
        "<td class=\"a {}\">{}</td>",
        class(a.verdict),
        answer_body(a, links, side)
    )
}

/// A whole row of a review: the operation and its five answers.
pub fn row(op: &OperationReview, links: &Links, side: Side) -> String {
    let mut s = row_open(op, "", "", links, side);
    for a in &op.answers {
        s.push_str(&answer_cell(a, links, side));
    }
    s.push_str("</tr>\n");
    s
}
