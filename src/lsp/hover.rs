//! Hover on a finding: its rule's documentation, as `idemlint explain RULE` shows it, in
//! Markdown (the rule docs are Markdown already).

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position, Range};

use crate::catalogue::RuleId;

/// Whether `pos` is within `range` (its ends included, so the cursor just past a finding's
/// last character still shows it).
pub fn contains(range: &Range, pos: Position) -> bool {
    range.start <= pos && pos <= range.end
}

/// The hover for the rules of the findings under the cursor (each once), over `range`.
pub fn hover(rules: &[RuleId], range: Range) -> Option<Hover> {
    if rules.is_empty() {
        return None;
    }
    let docs: Vec<String> = rules.iter().map(|r| doc(*r)).collect();
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: docs.join("\n\n---\n\n"),
        }),
        range: Some(range),
    })
}

/// A rule's doc: a line of what it is (severity, category), then the doc's own text, with a
/// link to it on the web.
pub fn doc(rule: RuleId) -> String {
    let m = rule.meta();
    format!(
        "**idemlint** `{}` ({}, {}): {}\n\n{}\n\n[Rule documentation]({})",
        m.id,
        m.severity.as_str(),
        m.category,
        m.summary,
        m.body.trim(),
        rule.doc_url()
    )
}
