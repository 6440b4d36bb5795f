//! `unprotected-patch`: a PATCH with neither an idempotency key nor an `If-Match` precondition.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::model::Method;

pub const RULE: Rule = Rule {
    id: RuleId::UnprotectedPatch,
    check,
};

/// The rules whose finding on a PATCH says more than this one's.
const SAY_MORE: &[RuleId] = &[
    RuleId::IncrementalUpdate,
    RuleId::JsonPatchWithoutPrecondition,
];

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let keys = super::KeyFix::new(cx);
    for op in cx
        .api
        .operations
        .iter()
        .filter(|o| o.method == Method::Patch)
    {
        // Passed through or `x-idempotency: false`: not this operation's to protect.
        let facts = cx.facts.of(op);
        if !facts.duplicates_matter() || facts.protected() {
            continue;
        }
        if crate::retry::harmless_patch_retry(
            cx.bundle,
            op,
            cx.moves_money(op).is_some(),
            cx.relative_change(op).is_some(),
        )
        .is_some()
        {
            continue;
        }
        let diagnostic = cx.diagnostic(
            &RULE,
            op.key,
            format!(
                "{} has neither an idempotency key nor an If-Match precondition: a retry can \
                 overwrite a concurrent change or apply twice",
                op.display()
            ),
        );
        // The specific rules say more when they speak: a relative body, a JSON Patch.
        let diagnostic = diagnostic
            .with_operation(op)
            .with_help(
                "require an `If-Match` header with the resource's ETag (answer 412 on a \
                 mismatch), or an `Idempotency-Key` header",
            )
            .shadowed_by(SAY_MORE);
        out.push(keys.attach(diagnostic, op));
    }
}
