//! `incremental-update`: a body that changes state relative to its current value, with nothing
//! that makes a retry safe.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::heuristics::{Evidence, relative_change, relative_wording, words};
use crate::idempotency::{Declared, body_properties, declared, has_if_match, schema_properties};
use crate::model::{Method, Operation};
use crate::resolve::Bundle;
use crate::source::Node;

pub const RULE: Rule = Rule {
    id: RuleId::IncrementalUpdate,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in &cx.api.operations {
        let applies =
            op.method == Method::Patch || (op.method == Method::Post && op.path.contains('{'));
        if !applies
            || matches!(declared(cx.bundle, op), Some(Declared::NotNeeded))
            || has_if_match(op)
            || !cx.carriers(op).is_empty()
            // Test data changed twice is no harm (Stripe's test-mode `…/increment`).
            || crate::classify::test_mode(op).is_some()
        {
            continue;
        }
        let Some(evidence) = cx.relative_change(op) else {
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
        // On a POST, `missing-idempotency-key` reports the same relative change as an error (a
        // retry applies it twice); this rule speaks when that one is off or says nothing.
        if op.method == Method::Post {
            d = d.shadowed_by(&[RuleId::MissingIdempotencyKey]);
        }
        out.push(d);
    }
}

/// Evidence from the body's properties, from the descriptions of their own properties one
/// level down (`amount.value` "positive values increase the balance, negative decrease it"),
/// from the body schema's own description, then from the operation's summary.
/// A POST that creates something counts only explicit verbs.
pub fn evidence(bundle: &Bundle, op: &Operation<'_>) -> Option<Evidence> {
    let verbs_only = op.method == Method::Post && creates(op);
    let props = body_properties(bundle, op);
    if let Some(e) = relative_change(&props, verbs_only) {
        return Some(e);
    }
    if verbs_only {
        return None;
    }
    for p in &props {
        let mut inner = Vec::new();
        schema_properties(bundle, p.schema, 0, &mut inner);
        for q in &inner {
            if let Some(w) = q
                .schema
                .node
                .get("description")
                .and_then(Node::as_str)
                .and_then(relative_wording)
            {
                return Some(Evidence {
                    what: format!("`{}.{}` is described as \"{w}\"", p.name, q.name),
                    at: q.key,
                });
            }
        }
    }
    let body = op.request_body.as_ref();
    let from_body = body.and_then(|b| {
        b.content.iter().find_map(|m| {
            let schema = bundle.deref(m.schema?);
            let desc = schema.node.get("description").and_then(Node::as_str)?;
            relative_wording(desc).map(|w| Evidence {
                what: format!("the body is described as \"{w}\""),
                at: schema.location(),
            })
        })
    });
    // The summary says what the operation does ("Append text to the existing note"); a long
    // description also says where things go ("the snippet is appended to the end of the head
    // element"), which is no relative change, so it is not read.
    from_body.or_else(|| {
        let summary = op.node.node.get("summary").and_then(Node::as_str)?;
        relative_wording(summary).map(|w| Evidence {
            what: format!("the operation's summary says \"{w}\""),
            at: op.node.key_location("summary").unwrap_or(op.key),
        })
    })
}

/// An operation that says it creates something: its summary or description opens with
/// "Create", or its operationId starts with `create`.
fn creates(op: &Operation<'_>) -> bool {
    let opens_with_create = |key: &str| {
        op.node
            .node
            .get(key)
            .and_then(Node::as_str)
            .and_then(|t| words(strip_tags(t)).into_iter().next())
            .is_some_and(|w| w == "create" || w == "creates")
    };
    opens_with_create("summary")
        || opens_with_create("description")
        || op
            .operation_id
            .and_then(|id| words(id).into_iter().next())
            .is_some_and(|w| w == "create")
}

/// Text without a leading HTML tag (Stripe's descriptions open with `<p>`).
fn strip_tags(text: &str) -> &str {
    let mut t = text.trim_start();
    while let Some(rest) = t.strip_prefix('<') {
        match rest.find('>') {
            Some(end) => t = rest[end + 1..].trim_start(),
            None => break,
        }
    }
    t
}
