//! `non-idempotent-put`: a PUT that changes state relative to its current value.

use std::sync::LazyLock;

use regex::Regex;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::heuristics::Evidence;
use crate::model::Method;
use crate::source::Node;

/// A call described as appending or incrementing, in the third person: what it does.
static RELATIVE_CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)(?-u:\b)(appends|increments|decrements)(?-u:\b)").expect("valid regex")
});

pub const RULE: Rule = Rule {
    id: RuleId::NonIdempotentPut,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in cx.api.operations.iter().filter(|o| o.method == Method::Put) {
        // The body, its descriptions and the summary, then the description when it says the
        // call appends or increments: a PUT should replace. Not "add to", which prose uses for
        // what a resource holds ("IPs that you add to this zone").
        let evidence = cx.relative_change(op).cloned().or_else(|| {
            let text = op.node.node.get("description").and_then(Node::as_str)?;
            let m = RELATIVE_CALL.find(text)?;
            Some(Evidence {
                what: format!("its description says \"{}\"", m.as_str()),
                at: op.node.key_location("description")?,
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
