//! `non-idempotent-put`: a PUT that changes state relative to its current value.

use std::sync::LazyLock;

use regex::Regex;

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;
use crate::heuristics::Evidence;
use crate::model::Method;
use crate::source::Node;

pub const RULE: Rule = Rule {
    id: "non-idempotent-put",
    doc: include_str!("../../rules/non-idempotent-put.md"),
    check,
};

/// An operation described as adding to, appending or incrementing.
static RELATIVE_OPERATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(adds? to|appends?|increments?|decrements?)\b").expect("valid regex")
});

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in cx.api.operations.iter().filter(|o| o.method == Method::Put) {
        let evidence = super::incremental_update::evidence(cx.bundle, op).or_else(|| {
            ["summary", "description"].into_iter().find_map(|key| {
                let text = op.node.node.get(key).and_then(Node::as_str)?;
                let m = RELATIVE_OPERATION.find(text)?;
                Some(Evidence {
                    what: format!("its {key} says \"{}\"", m.as_str()),
                    at: op.node.key_location(key)?,
                })
            })
        });
        let Some(evidence) = evidence else { continue };
        out.push(
            cx.diagnostic(
                &RULE,
                op.key,
                format!(
                    "{} sends a relative change ({}): PUT must be idempotent, a retry applies it \
                     twice",
                    op.display(),
                    evidence.what
                ),
            )
            .with_operation(op)
            .with_label(evidence.at, "relative change")
            .with_help(
                "make the PUT send the complete new state (the absolute value), or turn the \
                 relative change into a keyed POST",
            ),
        );
    }
}
