//! `money-movement-optional-key`: an operation that moves money lets clients leave the key out.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::fix::key_details;

pub const RULE: Rule = Rule {
    id: RuleId::MoneyMovementOptionalKey,
    check,
};

/// The rules that report an operation with no key at all.
const UNKEYED: &[RuleId] = &[
    RuleId::MissingIdempotencyKey,
    RuleId::UnprotectedPatch,
    RuleId::IncrementalUpdate,
    RuleId::JsonPatchWithoutPrecondition,
];

/// Why an operation without a key has no fix here: the key must be declared first, which is
/// what the fix of `missing-idempotency-key` does.
const NO_KEY_TO_REQUIRE: &str = "there is no key to require: declare one (the fix of \
                                 `missing-idempotency-key` adds a required `Idempotency-Key` \
                                 header)";

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in &cx.api.operations {
        if !cx.duplicates_matter(op) {
            continue;
        }
        let carriers = cx.carriers(op);
        if carriers.iter().any(|c| c.required() != Some(false)) {
            continue;
        }
        let Some(evidence) = cx.moves_money(op) else {
            continue;
        };
        // With no key at all, the rules about a missing key speak when they are on; and say
        // nothing, as this rule then does, of a create a natural key protects or a delivery its
        // receiver dedupes on a delivery id.
        if carriers.is_empty()
            && (crate::idempotency::natural_key(cx.bundle, op, &|| true).is_some()
                || (!matches!(op.site, crate::model::Site::Path)
                    && !crate::idempotency::delivery_ids(cx.bundle, op).is_empty()))
        {
            continue;
        }
        let Some(carrier) = carriers.first() else {
            out.push(
                cx.diagnostic(
                    &RULE,
                    op.key,
                    format!(
                        "{} moves money ({evidence}) but has no idempotency key: a retried \
                         request can move (or record) the money twice",
                        op.display()
                    ),
                )
                .with_operation(op)
                .with_help(
                    "require an `Idempotency-Key` header (a client-generated UUID) and answer 400 \
                     when it is missing",
                )
                .shadowed_by(UNKEYED)
                .with_fix_or(Err(NO_KEY_TO_REQUIRE.into())),
            );
            continue;
        };
        out.push(
            cx.diagnostic(
                &RULE,
                carrier.required_location(),
                format!(
                    "{} moves money ({evidence}) but its idempotency key ({}) is optional: a \
                     retry from a client that omits it can move (or record) the money twice",
                    op.display(),
                    carrier.describe()
                ),
            )
            .with_operation(op)
            .with_help("declare the key `required: true` and answer 400 when it is missing")
            .with_fix_or(key_details::require_key(&cx.editor, carrier)),
        );
    }
}
