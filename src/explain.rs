//! `idemlint rules` and `idemlint explain`: the rule docs, for a terminal or a program.

use serde::Serialize;

use crate::rules::{RULES, RuleMeta};

/// The `rules` table: id, default severity, category, summary.
pub fn rules_table() -> String {
    let metas: Vec<&RuleMeta> = RULES.iter().map(|r| r.id.meta()).collect();
    let w_id = metas.iter().map(|m| m.id.len()).max().unwrap_or(2).max(2);
    let w_cat = metas
        .iter()
        .map(|m| m.category.len())
        .max()
        .unwrap_or(8)
        .max(8);
    let mut out = format!(
        "{:w_id$}  {:8}  {:w_cat$}  summary\n",
        "id", "severity", "category"
    );
    for m in metas {
        out.push_str(&format!(
            "{:w_id$}  {:8}  {:w_cat$}  {}\n",
            m.id,
            m.severity.as_str(),
            m.category,
            m.summary
        ));
    }
    out
}

#[derive(Serialize)]
struct JsonRule<'a> {
    id: &'a str,
    severity: &'a str,
    category: &'a str,
    since: &'a str,
    summary: &'a str,
    sources: &'a [String],
}

pub fn rules_json() -> String {
    let list: Vec<JsonRule<'_>> = RULES
        .iter()
        .map(|r| {
            let m = r.id.meta();
            JsonRule {
                id: m.id,
                severity: m.severity.as_str(),
                category: &m.category,
                since: &m.since,
                summary: &m.summary,
                sources: &m.sources,
            }
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&list).expect("serialises");
    s.push('\n');
    s
}

/// A rule's doc rendered for a terminal: headings stand out, code blocks are indented.
pub fn explain(m: &RuleMeta, color: bool) -> String {
    let bold = |s: &str| {
        if color {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let dim = |s: &str| {
        if color {
            format!("\x1b[2m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let mut out = format!(
        "{} ({}, {}, since {})\n{}\n",
        bold(m.id),
        m.severity.as_str(),
        m.category,
        m.since,
        m.summary
    );
    let mut in_code = false;
    for line in m.body.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            out.push_str(&format!("    {}\n", dim(line)));
        } else if let Some(h) = line.strip_prefix("# ") {
            // The doc's title repeats the id, already shown.
            if h.trim() != m.id {
                out.push_str(&format!("{}\n", bold(h)));
            }
        } else if let Some(h) = line.strip_prefix("## ") {
            out.push_str(&format!("\n{}\n", bold(&h.to_uppercase())));
        } else if let Some(h) = line.strip_prefix("### ") {
            out.push_str(&format!("{}\n", bold(h)));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    // Headings add their own spacing: never more than one blank line in a row.
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    out
}

/// The README's rule table, in Markdown, generated from the docs.
pub fn readme_table() -> String {
    let mut out =
        String::from("| rule | default severity | category | reports |\n|---|---|---|---|\n");
    for r in RULES {
        let m = r.id.meta();
        out.push_str(&format!(
            "| [`{id}`](rules/{id}.md) | {} | {} | {} |\n",
            m.severity.as_str(),
            m.category,
            m.summary,
            id = m.id
        ));
    }
    out
}
