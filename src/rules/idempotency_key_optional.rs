//! `idempotency-key-optional`: a key clients may leave out (advice: legitimate in some styles).

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::fix::key_details;

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeyOptional,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        if carriers.is_empty() || carriers.iter().any(|c| c.required() != Some(false)) {
            continue;
        }
        let carrier = &carriers[0];
        if crate::retry::keyless_retry_harmless(
            cx.bundle,
            op,
            carrier,
            cx.moves_money(op).is_some(),
            cx.relative_change(op).is_some(),
        )
        .is_some()
        {
            continue;
        }
        out.push(
            cx.diagnostic(
                &RULE,
                carrier.required_location(),
                format!(
                    "idempotency key {} of {} is optional: clients that omit it get no retry \
                     protection",
                    carrier.describe(),
                    op.display()
                ),
            )
            .with_operation(op)
            .with_help("declare the key `required: true`, or document why sending it is optional")
            .with_fix_or(key_details::require_key(&cx.editor, carrier))
            // Money movement makes it an error, which money-movement-optional-key reports.
            .shadowed_by(&[RuleId::MoneyMovementOptionalKey]),
        );
    }
}
