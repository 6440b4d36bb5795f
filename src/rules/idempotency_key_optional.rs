//! `idempotency-key-optional`: a key clients may leave out (advice: legitimate in some styles).

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

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
        if keyless_retry_harmless(
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
            // Money movement makes it an error, which money-movement-optional-key reports.
            .shadowed_by(&[RuleId::MoneyMovementOptionalKey]),
        );
    }
}

/// Why a client that leaves an optional key out loses nothing, if it does not; `check` stays
/// quiet then and `review` answers the same.
pub fn keyless_retry_harmless(
    bundle: &crate::resolve::Bundle,
    op: &crate::model::Operation<'_>,
    carrier: &crate::idempotency::KeyCarrier<'_>,
    moves_money: bool,
    relative: bool,
) -> Option<&'static str> {
    // A POST that sets its resource's fields again on a retry ("Updates attachments by file
    // name"), or makes something short-lived (Adyen's checkout `/sessions`: a keyless
    // duplicate expires unused).
    if op.method == crate::model::Method::Post && !moves_money && !relative {
        match crate::classify::effect(op) {
            crate::classify::Effect::Updates => {
                return Some("a keyless retry sets the same values");
            }
            crate::classify::Effect::ShortLived(_) => {
                return Some("a keyless duplicate expires unused");
            }
            // As `missing-idempotency-key` judges it: a resend exists to send once more.
            crate::classify::Effect::Sends(verb) if crate::rules::resends(op, &verb) => {
                return Some("a keyless retry sends once more, which a resend is for");
            }
            // A cancel, an approval of the resource its path names, or its body names by
            // reference (Adyen's `/cancels` with a required `paymentReference`): repeated, it
            // reaches the state the first reached (Square's booking `cancel`); what a repeat
            // answers is `missing-idempotency-key`'s question where no key is taken at all.
            // ("Release a new version" at `/releases` names no resource to move, and may make
            // one each time.)
            crate::classify::Effect::Transitions(_)
                if op.path.contains('{') || names_its_target(bundle, op) =>
            {
                return Some("a keyless retry repeats a transition to the same state");
            }
            _ => {}
        }
    }
    // A natural key refuses a keyless retry as a duplicate (Square's custom attribute
    // definition `key`, "must be unique per application, seller, and resource type").
    if crate::idempotency::natural_key(bundle, op, &|| moves_money || relative).is_some() {
        return Some("a natural key refuses a keyless duplicate");
    }
    // Optional by design, and the key says what a request without it gets.
    if carrier
        .description()
        .is_some_and(|d| crate::idempotency::OPTIONAL_EXPLAINED.is_match(d))
    {
        return Some("the key says what a request without it gets");
    }
    None
}

/// Whether a body names the existing thing a transition acts on: a required field that refers
/// to another by its reference or id (`paymentReference`, `pspReference`, `order_id`), at the
/// top or in a required object (Adyen's `order: {pspReference, orderData}`). A bare `reference`
/// or `id` is the request's own.
fn names_its_target(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    // What the reference names must be what the call acts on: `paymentReference` of "Cancel
    // an authorised payment", `order.pspReference` at `/orders/cancel`; not the `project_id`
    // a new release belongs to.
    let named: Vec<String> = crate::heuristics::words(op.path)
        .into_iter()
        .chain(
            crate::classify::lead_text(op)
                .map(|(_, t)| crate::heuristics::words(&t))
                .unwrap_or_default(),
        )
        .map(|w| w.strip_suffix('s').map(str::to_string).unwrap_or(w))
        .collect();
    let acts_on = |stem: &str| {
        !stem.is_empty()
            && named
                .iter()
                .any(|w| stem.ends_with(w.as_str()) && w.len() > 2)
    };
    let refers_to = |name: &str, parent: Option<&str>| {
        let name = crate::idempotency::squash(name);
        ["reference", "id"].iter().any(|e| {
            name.len() > e.len()
                && name.ends_with(e)
                && (acts_on(&name[..name.len() - e.len()])
                    || parent.is_some_and(|p| acts_on(&crate::idempotency::squash(p))))
        })
    };
    crate::idempotency::body_properties(bundle, op)
        .iter()
        .filter(|p| p.required)
        .any(|p| {
            refers_to(p.name, None) || {
                let mut inner = Vec::new();
                crate::idempotency::schema_properties(bundle, p.schema, 1, &mut inner);
                inner.iter().any(|q| refers_to(q.name, Some(p.name)))
            }
        })
}
