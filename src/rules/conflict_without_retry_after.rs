//! `conflict-without-retry-after`: the 409 of a keyed operation does not tell clients when to
//! retry.

use super::{Context, Rule, RuleId};
use crate::diagnostic::{Diagnostic, Severity};
use crate::heuristics::words;

pub const RULE: Rule = Rule {
    id: RuleId::ConflictWithoutRetryAfter,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in cx.operations_whose_duplicates_matter() {
        let Some(conflict) = op.response("409") else {
            continue;
        };
        // A 409 on an unkeyed operation is a business conflict, not a retry signal.
        if conflict.header("Retry-After").is_some() || cx.carriers(op).is_empty() {
            continue;
        }
        // What the 409 says it answers: a request still in progress needs Retry-After; a
        // resource in the wrong state ("Order already captured") does not; a bare "Conflict"
        // may be either.
        let said = conflict
            .description
            .map(|d| words(crate::idempotency::short(d)))
            .unwrap_or_default();
        let has = |w: &str| said.iter().any(|x| x == w);
        let in_progress = crate::idempotency::speaks_of_progress(&said);
        // (RFC 9110's stock "conflicts with the current state of the target resource" says
        // nothing of which: a generic 409.)
        let business = ["already", "exists", "status", "duplicate"]
            .iter()
            .any(|w| has(w));
        if business && !in_progress {
            continue;
        }
        let (message, severity) = if in_progress {
            (
                format!(
                    "409 response of {} has no Retry-After header: clients cannot tell when to \
                     retry the in-progress request",
                    op.display()
                ),
                None,
            )
        } else {
            (
                format!(
                    "409 response of {} has no Retry-After header and does not say what it \
                     answers: if it answers a retry while the first request is in progress, \
                     clients cannot tell when to try again",
                    op.display()
                ),
                Some(Severity::Info),
            )
        };
        let mut d = cx
            .diagnostic(&RULE, op.anchor(conflict.key), message)
            .with_operation(op)
            .with_help(
                "add `headers: { Retry-After: { schema: { type: integer, minimum: 1 } } }` to \
                 the 409 response",
            );
        // Shared through `$ref`: show where the response itself is.
        if conflict.node.location() != conflict.declared {
            d = d.with_label(
                conflict.node.location(),
                "this 409 response has no Retry-After",
            );
        }
        // The header goes into the response itself: the shared component when it is a `$ref`.
        d = d.with_fix_or(crate::fix::response::retry_after_fix(
            &cx.editor,
            cx.api.version,
            "409",
            conflict.node,
        ));
        if let Some(severity) = severity {
            d = d.with_severity(severity);
        }
        out.push(d);
    }
}
