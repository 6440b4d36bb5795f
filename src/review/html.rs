//! The review as one self-contained HTML page.

use super::markdown::optional_note;
use super::{ApiReview, NotReviewed, QUESTIONS, Verdict};

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One self-contained HTML page, a section a document and one for what could not be
/// reviewed: no external assets.
pub fn html(reviews: &[ApiReview], not_reviewed: &[NotReviewed]) -> String {
    let title = match reviews {
        [one] => html_escape(&one.title),
        [] => "nothing reviewed".to_string(),
        many => format!("{} documents", many.len()),
    };
    let mut sections: String = reviews.iter().map(html_section).collect();
    if !not_reviewed.is_empty() {
        sections.push_str("<section>\n<h1>Not reviewed</h1>\n<ul>\n");
        for n in not_reviewed {
            sections.push_str(&format!(
                "<li><code>{}</code>: {}</li>\n",
                html_escape(&n.place),
                html_escape(&n.reason)
            ));
        }
        sections.push_str("</ul>\n</section>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Idempotency review: {title}</title>\n<style>\nbody{{font:14px/1.4 system-ui,sans-serif;margin:2em}}table{{border-collapse:collapse}}\nth,td{{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}}\n.good{{background:#eaf7ea}}.gap{{background:#fff6dd}}.risk{{background:#fde8e8}}.na{{color:#777}}\nsmall{{color:#555}}section+section{{margin-top:3em}}\n</style></head><body>\n{sections}</body></html>\n"
    )
}

fn html_section(r: &ApiReview) -> String {
    let mut rows = String::new();
    for op in &r.operations {
        rows.push_str(&format!(
            "<tr class=\"operation\"><th scope=\"row\"><code>{}</code><br><small>{}</small></th>",
            html_escape(&op.operation),
            html_escape(&op.at)
        ));
        for a in &op.answers {
            let class = match a.verdict {
                Verdict::Good => "good",
                Verdict::Gap => "gap",
                Verdict::Risk => "risk",
                Verdict::NotApplicable => "na",
            };
            let at =
                a.at.as_ref()
                    .map(|at| format!("<br><small>{}</small>", html_escape(at)))
                    .unwrap_or_default();
            rows.push_str(&format!(
                "<td class=\"{class}\">{} {}{at}</td>",
                a.verdict.mark(),
                html_escape(&a.text)
            ));
        }
        rows.push_str("</tr>\n");
    }
    let mut gaps = String::new();
    for (rule, sev, n, summary) in &r.gaps {
        gaps.push_str(&format!(
            "<li><code>{}</code> ({sev}, {n}): {}</li>\n",
            html_escape(rule),
            html_escape(summary)
        ));
    }
    let headers: String = QUESTIONS
        .iter()
        .map(|q| format!("<th scope=\"col\">{q}</th>"))
        .collect();
    let carriers = if r.carriers.is_empty() {
        "none declared".to_string()
    } else {
        r.carriers
            .iter()
            .map(|(c, n)| format!("{} ({n})", html_escape(c)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let lifetimes = if r.lifetimes.is_empty() {
        "not documented".to_string()
    } else {
        r.lifetimes
            .iter()
            .map(|(t, at)| format!("{} ({})", html_escape(t), html_escape(at)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "<section>\n<h1>Idempotency review: {title}</h1>\n<p><code>{file}</code></p>\n<ul><li><b>{protected} of {unsafe_ops}</b> operations whose duplicates matter are protected (a required key or If-Match){optional}.</li>\n<li><b>Key carrier:</b> {carriers}</li><li><b>Key lifetime:</b> {lifetimes}</li></ul>\n<h2>Gaps, worst first</h2>\n<ul>\n{gaps}</ul>\n<h2>Operations</h2>\n<table class=\"operations\"><thead><tr><th scope=\"col\">Operation</th>{headers}</tr></thead>\n<tbody>\n{rows}</tbody></table>\n</section>\n",
        title = html_escape(&r.title),
        file = html_escape(&r.file),
        protected = r.protected,
        unsafe_ops = r.unsafe_operations,
        optional = optional_note(r),
    )
}
