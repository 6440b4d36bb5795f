//! `incremental-update`: a body that changes state relative to its current value, with nothing
//! that makes a retry safe.

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;
use crate::heuristics::{Evidence, relative_change, relative_wording};
use crate::idempotency::{Declared, body_properties, declared, has_if_match, key_carriers};
use crate::model::{Method, Operation};
use crate::resolve::Bundle;
use crate::source::Node;

pub const RULE: Rule = Rule {
    id: "incremental-update",
    doc: include_str!("../../rules/incremental-update.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in &cx.api.operations {
        let applies =
            op.method == Method::Patch || (op.method == Method::Post && op.path.contains('{'));
        if !applies
            || matches!(declared(cx.bundle, op), Some(Declared::NotNeeded))
            || has_if_match(op)
            || !key_carriers(cx.bundle, op, cx.settings).is_empty()
        {
            continue;
        }
        let Some(evidence) = evidence(cx.bundle, op) else {
            continue;
        };
        let mut d = cx
            .diagnostic(
                &RULE,
                op.key,
                format!(
                    "{} sends a relative change ({}) without an idempotency key or If-Match: a \
                     retry applies it twice",
                    op.display(),
                    evidence.what
                ),
            )
            .with_operation(op)
            .with_help(
                "send the absolute target value instead (e.g. the new balance), or require an \
                 `Idempotency-Key` header, or an `If-Match` precondition",
            );
        d = d.with_label(evidence.at, "relative change");
        out.push(d);
    }
}

/// Evidence from the body's properties, then from the body schema's own description.
pub fn evidence(bundle: &Bundle, op: &Operation<'_>) -> Option<Evidence> {
    if let Some(e) = relative_change(&body_properties(bundle, op)) {
        return Some(e);
    }
    let body = op.request_body.as_ref()?;
    body.content.iter().find_map(|m| {
        let schema = bundle.deref(m.schema?);
        let desc = schema.node.get("description").and_then(Node::as_str)?;
        relative_wording(desc).map(|w| Evidence {
            what: format!("the body is described as \"{w}\""),
            at: schema.location(),
        })
    })
}
