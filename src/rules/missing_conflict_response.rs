//! `missing-conflict-response`: a keyed operation that does not say what a concurrent request
//! with the same key gets.

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;
use crate::idempotency::{Declared, declared, key_carriers};
use crate::source::Node;

pub const RULE: Rule = Rule {
    id: "missing-conflict-response",
    doc: include_str!("../../rules/missing-conflict-response.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in &cx.api.operations {
        let carriers = key_carriers(cx.bundle, op, cx.settings);
        let Some(carrier) = carriers.first() else {
            continue;
        };
        if op.response("409").is_some() {
            continue;
        }
        // `x-idempotency: { concurrency: 425 }` documents another status; it must be declared.
        if let Some(Declared::Policy(policy)) = declared(cx.bundle, op) {
            let status = policy.node.get("concurrency").and_then(Node::scalar_text);
            if status.is_some_and(|s| op.response(s).is_some()) {
                continue;
            }
        }
        out.push(
            cx.diagnostic(
                &RULE,
                op.responses_key.unwrap_or(op.key),
                format!(
                    "{} takes an idempotency key ({}) but declares no 409 response for a \
                     concurrent request with the same key",
                    op.display(),
                    carrier.describe()
                ),
            )
            .with_operation(op)
            .with_help(
                "declare a `409` response, with a `Retry-After` header, for a request that \
                 arrives while the first one with the same key is still in progress",
            ),
        );
    }
}
