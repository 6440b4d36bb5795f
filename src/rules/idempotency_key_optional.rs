//! `idempotency-key-optional`: a key clients may leave out (advice: legitimate in some styles).

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: "idempotency-key-optional",
    doc: include_str!("../../rules/idempotency-key-optional.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        if carriers.is_empty() || carriers.iter().any(|c| c.required() != Some(false)) {
            continue;
        }
        let carrier = &carriers[0];
        // A POST that sets its resource's fields again on a retry ("Updates attachments by file
        // name") loses nothing to a client that leaves the key out.
        // Nor does one that makes something short-lived (Adyen's checkout `/sessions`): a
        // keyless duplicate expires unused.
        if op.method == crate::model::Method::Post
            && matches!(
                crate::classify::effect(op),
                crate::classify::Effect::Updates | crate::classify::Effect::ShortLived(_)
            )
            && cx.relative_change(op).is_none()
            && cx.moves_money(op).is_none()
        {
            continue;
        }
        // A natural key refuses a keyless retry as a duplicate (Square's custom attribute
        // definition `key`, "must be unique per application, seller, and resource type").
        if crate::idempotency::natural_key(cx.bundle, op).is_some() {
            continue;
        }
        // Optional by design, and the key says what a request without it gets.
        if carrier
            .description()
            .is_some_and(|d| crate::idempotency::OPTIONAL_EXPLAINED.is_match(d))
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
            // Money movement makes it an error, which money-movement-optional-key reports.
            .shadowed_by(&["money-movement-optional-key"]),
        );
    }
}
