//! `json-patch-without-precondition`: a JSON Patch body, whose `add`/`move`/`copy` operations
//! are not idempotent, with nothing that makes a retry safe.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::is_json_patch;
use crate::model::{Method, Operation, media_essence};
use crate::resolve::Bundle;
use crate::source::Node;

pub const RULE: Rule = Rule {
    id: RuleId::JsonPatchWithoutPrecondition,
    check,
};

const UNSAFE_OPS: [&str; 3] = ["add", "move", "copy"];

/// The operations a JSON Patch body's `op` allows, when it is a JSON Patch whose `op` is an
/// `enum` or a `const`; `None` otherwise (not a JSON Patch, or any operation allowed).
pub fn allowed_ops(bundle: &Bundle, op: &Operation<'_>) -> Option<Vec<String>> {
    if !is_json_patch(bundle, op) {
        return None;
    }
    let body = op.request_body.as_ref()?;
    body.content.iter().find_map(|media| {
        let items = media
            .schema
            .map(|s| bundle.deref(s))
            .filter(|s| s.node.get("type").and_then(Node::as_str) == Some("array"))
            .and_then(|s| s.get("items"))
            .map(|i| bundle.deref(i))?;
        let o = items
            .get("properties")?
            .get("op")
            .map(|o| bundle.deref(o))?;
        o.node
            .get("enum")
            .map(|e| {
                e.items()
                    .iter()
                    .filter_map(Node::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .or_else(|| {
                o.node
                    .get("const")
                    .and_then(Node::as_str)
                    .map(|c| vec![c.to_string()])
            })
    })
}

/// The non-idempotent JSON Patch operations the body allows, if it is a JSON Patch.
pub fn json_patch_ops(bundle: &Bundle, op: &Operation<'_>) -> Option<Vec<String>> {
    let body = op.request_body.as_ref()?;
    for media in &body.content {
        let declared_patch = media_essence(media.media_type) == "application/json-patch+json";
        let items = media
            .schema
            .map(|s| bundle.deref(s))
            .filter(|s| s.node.get("type").and_then(Node::as_str) == Some("array"))
            .and_then(|s| s.get("items"))
            .map(|i| bundle.deref(i));
        let props = items.and_then(|i| i.get("properties"));
        let shaped_like_patch =
            props.is_some_and(|p| p.node.get("op").is_some() && p.node.get("path").is_some());
        if !declared_patch && !shaped_like_patch {
            continue;
        }
        let op_schema = props.and_then(|p| p.get("op")).map(|o| bundle.deref(o));
        let allowed: Option<Vec<&str>> = op_schema.and_then(|o| {
            o.node
                .get("enum")
                .map(|e| e.items().iter().filter_map(Node::as_str).collect())
                .or_else(|| o.node.get("const").and_then(Node::as_str).map(|c| vec![c]))
        });
        let unsafe_ops: Vec<String> = match allowed {
            Some(values) => values
                .into_iter()
                .filter(|v| UNSAFE_OPS.contains(v))
                .map(str::to_string)
                .collect(),
            None => UNSAFE_OPS.iter().map(|s| s.to_string()).collect(),
        };
        if !unsafe_ops.is_empty() {
            return Some(unsafe_ops);
        }
    }
    None
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
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
        out.push(
            cx.diagnostic(
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
            ),
        );
    }
}
