//! `unprotected-patch`: a PATCH with neither an idempotency key nor an `If-Match` precondition.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::fixed_value_body;
use crate::model::{Method, media_essence};

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
        if harmless_retry(
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
        out.push(
            diagnostic
                .with_operation(op)
                .with_help(
                    "require an `If-Match` header with the resource's ETag (answer 412 on a \
                     mismatch), or an `Idempotency-Key` header",
                )
                .shadowed_by(SAY_MORE),
        );
    }
}

/// Why a retry of an unprotected PATCH is harmless, if it is; `check` stays quiet then and
/// `review` answers the same.
pub fn harmless_retry(
    bundle: &crate::resolve::Bundle,
    op: &crate::model::Operation<'_>,
    moves_money: bool,
    relative: bool,
) -> Option<&'static str> {
    // A body that can change nothing has nothing to lose on a retry; nor one whose every field
    // takes one value (Adyen's `status: {enum: [expired]}`), a move to a target state that a
    // retry sets again, unless that moves money (`status: [approved]` of a payout).
    if nothing_writable(bundle, op) {
        return Some("its body can set nothing");
    }
    if fixed_value_body(bundle, op).is_some() && !moves_money {
        return Some("its body moves to one target state, which a retry sets again");
    }
    // No body: the PATCH makes one fixed change (GitHub's "Mark a thread as read"), which a
    // retry makes again.
    if op.request_body.is_none() {
        return Some("it has no body: a retry makes the same change again");
    }
    if moves_money || relative {
        return None;
    }
    // The resource carries its version for optimistic concurrency (Kubernetes'
    // `metadata.resourceVersion`), and the patch can send it back: it refuses a stale retry as
    // If-Match would.
    if crate::idempotency::resource_version_sendable(bundle, op) {
        return Some("the resource carries its version for optimistic concurrency");
    }
    // A body of absolute values (a merge patch, or an object of described fields: a merge
    // patch in all but its media type, or a JSON Patch of `replace`, `remove` and `test` only:
    // Okta's app group assignments) is idempotent: a retry sets the same values again. What is
    // left is a change made in between being overwritten, which
    // `missing-precondition-on-update` reports where the resource offers an ETag to send back;
    // reviewers of real specs judged that advice on every PATCH noise.
    let merge_patch_only = op.request_body.as_ref().is_some_and(|b| {
        !b.content.is_empty()
            && b.content
                .iter()
                .all(|m| media_essence(m.media_type) == "application/merge-patch+json")
    });
    // (A retried `remove` of a member fails, as its target must exist (RFC 6902 §4.2), rather
    // than removing twice: a patch of attributes, Okta's app group profile, is harmless. An
    // array index shifts, though: `remove /tracks/0` retried takes the next track, so `remove`
    // counts as safe only where the resource the PATCH answers with holds no list.)
    let safe_json_patch = super::json_patch_without_precondition::allowed_ops(bundle, op)
        .is_some_and(|ops| {
            ops.iter().all(|o| matches!(o.as_str(), "replace" | "test"))
                || (ops
                    .iter()
                    .all(|o| matches!(o.as_str(), "replace" | "remove" | "test"))
                    && !answers_with_a_list(bundle, op))
        });
    (merge_patch_only || safe_json_patch || sets_fields(bundle, op))
        .then_some("its body sets absolute values, which a retry sets again")
}

/// Whether the resource a PATCH answers with may hold a list (a playlist's `tracks`, at any of
/// its first three levels, or a JSON:API `data.attributes.tracks`), what a JSON Patch may
/// address by index. A PATCH that describes no response body (a `204`) says nothing of its
/// resource, which may then hold one.
fn answers_with_a_list(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    use crate::source::Node;
    let is_list = |s: crate::resolve::At<'_>| {
        let s = bundle.deref(s);
        s.node.get("type").and_then(Node::as_str) == Some("array") || s.node.get("items").is_some()
    };
    let schemas: Vec<crate::resolve::At<'_>> = op
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .flat_map(|r| crate::idempotency::response_schemas(bundle, r))
        .collect();
    if schemas.is_empty() {
        return true;
    }
    fn holds_list(
        bundle: &crate::resolve::Bundle,
        schema: crate::resolve::At<'_>,
        depth: usize,
        is_list: &dyn Fn(crate::resolve::At<'_>) -> bool,
    ) -> bool {
        if is_list(schema) {
            return true;
        }
        if depth >= 3 {
            return false;
        }
        let mut props = Vec::new();
        crate::idempotency::schema_properties(bundle, schema, depth, &mut props);
        props
            .iter()
            .any(|p| holds_list(bundle, p.schema, depth + 1, is_list))
    }
    schemas
        .into_iter()
        .any(|schema| holds_list(bundle, schema, 0, &is_list))
}

/// Whether the PATCH body can set nothing: every property is `readOnly`, or the schema is an
/// object closed to any property (`properties: {}` with `additionalProperties: false`).
fn nothing_writable(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    use crate::source::Node;
    let Some(body) = &op.request_body else {
        return false;
    };
    let props = crate::idempotency::body_properties(bundle, op);
    if !props.is_empty() {
        return props
            .iter()
            .all(|p| p.schema.node.get("readOnly").and_then(Node::as_bool) == Some(true));
    }
    !body.content.is_empty()
        && body.content.iter().all(|m| {
            m.schema.map(|s| bundle.deref(s)).is_some_and(|s| {
                s.node.get("additionalProperties").and_then(Node::as_bool) == Some(false)
                    && s.node.get("properties").is_some()
            })
        })
}

/// Whether the PATCH body is an object of fields to set, as any body with properties is when it
/// is not a JSON Patch: a merge patch in all but its media type, which a retry sets again (unless
/// a field is a relative change, which the caller asks apart).
pub fn sets_fields(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    op.request_body.as_ref().is_some_and(|b| {
        b.content
            .iter()
            .all(|m| media_essence(m.media_type) != "application/json-patch+json")
    }) && !crate::idempotency::body_properties(bundle, op).is_empty()
}
