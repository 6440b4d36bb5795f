//! `json-patch-without-precondition`: a JSON Patch body, whose `add`/`move`/`copy` operations
//! are not idempotent, with nothing that makes a retry safe.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::json_patch_ops;
use crate::model::Method;

pub const RULE: Rule = Rule {
    id: RuleId::JsonPatchWithoutPrecondition,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let keys = super::KeyFix::new(cx);
    for op in &cx.api.operations {
        if !matches!(op.method, Method::Patch | Method::Post) || cx.facts.of(op).protected() {
            continue;
        }
        let Some(ops) = json_patch_ops(cx.bundle, op) else {
            continue;
        };
        // The resource carries its version for optimistic concurrency: a `test` of it in the
        // patch is the precondition (Kubernetes' `metadata.resourceVersion`).
        if crate::idempotency::resource_version_sendable(cx.bundle, op) {
            continue;
        }
        let d = cx
            .diagnostic(
                &RULE,
                op.key,
                format!(
                    "{} takes a JSON Patch ({}: `add` to an array index or `-` inserts again on \
                     retry) without If-Match or an idempotency key",
                    op.display(),
                    ops.iter()
                        .map(|o| format!("`{o}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
            .with_operation(op)
            .with_help(
                "require `If-Match` with the resource's ETag, or an `Idempotency-Key` header",
            );
        out.push(keys.attach(d, op));
    }
}
