//! `incremental-update`: a body that changes state relative to its current value, with nothing
//! that makes a retry safe.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::model::Method;

pub const RULE: Rule = Rule {
    id: RuleId::IncrementalUpdate,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let keys = super::KeyFix::new(cx);
    for op in &cx.api.operations {
        let applies =
            op.method == Method::Patch || (op.method == Method::Post && op.path.contains('{'));
        if !applies
            || cx.facts.of(op).declared_harmless()
            || cx.facts.of(op).protected()
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
        d = keys.attach(d.with_label(evidence.at, "relative change"), op);
        // On a POST, `missing-idempotency-key` reports the same relative change as an error (a
        // retry applies it twice); this rule speaks when that one is off or says nothing.
        if op.method == Method::Post {
            d = d.shadowed_by(&[RuleId::MissingIdempotencyKey]);
        }
        out.push(d);
    }
}
