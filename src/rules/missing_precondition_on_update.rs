//! `missing-precondition-on-update`: the resource has ETags, but its updates do not use them.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::has_if_match;
use crate::model::{Method, Site};

pub const RULE: Rule = Rule {
    id: RuleId::MissingPreconditionOnUpdate,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let ops = &cx.api.operations;
    for get in ops
        .iter()
        .filter(|o| o.method == Method::Get && o.site == Site::Path)
    {
        let etag = get
            .responses
            .iter()
            .any(|r| r.status.starts_with('2') && r.header("ETag").is_some());
        if !etag {
            continue;
        }
        let updates = ops.iter().filter(|o| {
            matches!(o.method, Method::Put | Method::Patch)
                && o.site == Site::Path
                && o.path == get.path
        });
        for op in updates {
            let message = if !has_if_match(op) {
                format!(
                    "{} takes no If-Match although {} returns an ETag: concurrent updates \
                     overwrite each other",
                    op.display(),
                    get.display()
                )
            } else if op.response("412").is_none() && op.response("428").is_none() {
                format!(
                    "{} takes If-Match but declares no 412 response for a failed precondition",
                    op.display()
                )
            } else {
                continue;
            };
            out.push(
                cx.diagnostic(&RULE, op.key, message)
                    .with_operation(op)
                    .with_help(
                        "take an `If-Match` header with the ETag from GET and answer 412 when it \
                         no longer matches (RFC 9110 §13.1.1)",
                    ),
            );
        }
    }
}
