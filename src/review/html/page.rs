//! The page around the sections: its head, the sticky header with the filters, the legend and
//! the script.

use std::collections::BTreeSet;

use super::assets::{ICONS, SCRIPT, STYLE};
use super::markup::escape;
use super::rows::{VERDICTS, badge, class, meaning};
use crate::review::OperationReview;

/// What a page holds besides its sections.
pub struct Frame<'a> {
    /// The `<title>` after "Idempotency review: ".
    pub title: String,
    /// The header's line after "Idempotency review", as HTML.
    pub heading: String,
    /// Every operation shown, for the methods and tags the filters offer.
    pub operations: Vec<&'a OperationReview>,
    /// The documents' section ids, titles and files, for a line of links when there are
    /// several (two versions of an API share a title).
    pub documents: Vec<(String, String, String)>,
}

pub fn page(frame: &Frame<'_>, sections: &str) -> String {
    let mut s = String::with_capacity(sections.len() + STYLE.len() + SCRIPT.len() + 4096);
    s.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>Idempotency review: {}</title>\n<style>{STYLE}</style></head>\n<body>\n{ICONS}",
        escape(&frame.title)
    ));
    s.push_str(&format!(
        "<header class=\"top\"><h1>Idempotency review{}</h1>\n{}</header>\n",
        frame.heading,
        filters(&frame.operations)
    ));
    if frame.documents.len() > 1 {
        s.push_str("<nav class=\"docs\" aria-label=\"Documents\">");
        for (id, title, file) in &frame.documents {
            s.push_str(&format!(
                "<a href=\"#{id}\">{} <span>{}</span></a>",
                escape(title),
                escape(file)
            ));
        }
        s.push_str("</nav>\n");
    }
    s.push_str("<main>\n<p class=\"legend\">");
    for v in VERDICTS {
        s.push_str(&format!("<span>{} {}</span>", badge(v), meaning(v)));
    }
    s.push_str("</p>\n");
    s.push_str(sections);
    s.push_str(&format!(
        "</main>\n<script>{SCRIPT}</script>\n</body></html>\n"
    ));
    s
}

/// The filters, hidden until the script shows them: without it they would do nothing.
fn filters(operations: &[&OperationReview]) -> String {
    let methods: BTreeSet<&str> = operations.iter().map(|op| op.method.as_str()).collect();
    let tags: BTreeSet<&str> = operations
        .iter()
        .flat_map(|op| op.tags.iter().map(String::as_str))
        .collect();
    let mut s = String::from(
        "<form id=\"filters\" class=\"filters\" hidden aria-label=\"Filter the operations\">\
         <fieldset><legend>Answers</legend>",
    );
    for v in VERDICTS {
        s.push_str(&format!(
            "<label class=\"chip\" title=\"operations with an answer that is {}\">\
             <input type=\"checkbox\" name=\"v\" value=\"{}\" checked>{}</label>",
            meaning(v),
            class(v),
            badge(v)
        ));
    }
    s.push_str("</fieldset>");
    s.push_str(&select("Method", "m", &methods));
    if !tags.is_empty() {
        s.push_str(&select("Tag", "t", &tags));
    }
    s.push_str(
        "<label>Find <input type=\"search\" name=\"q\" placeholder=\"path, id or answer\"></label>\
         <button type=\"button\" id=\"pick\" hidden></button><output id=\"shown\"></output></form>\n",
    );
    s
}

fn select(label: &str, name: &str, values: &BTreeSet<&str>) -> String {
    let mut s = format!("<label>{label} <select name=\"{name}\"><option value=\"\">any</option>");
    for v in values {
        let v = escape(v);
        s.push_str(&format!("<option value=\"{v}\">{v}</option>"));
    }
    s.push_str("</select></label>");
    s
}
