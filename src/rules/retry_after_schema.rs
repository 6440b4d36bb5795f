//! `retry-after-schema`: a Retry-After header that is neither delay-seconds nor an HTTP-date.

use std::collections::HashSet;

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: "retry-after-schema",
    doc: include_str!("../../rules/retry-after-schema.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::new();
    for op in &cx.api.operations {
        for r in &op.responses {
            let Some(header) = r.header("Retry-After") else {
                continue;
            };
            let Some(schema) = header.schema.map(|s| cx.bundle.deref(s)) else {
                continue;
            };
            let Some(ty) = schema.node.get("type") else {
                continue;
            };
            let ty_text = ty.scalar_text().unwrap_or("(not a name)");
            if matches!(ty_text, "integer" | "string") || !seen.insert(schema.location()) {
                continue;
            }
            let Some(at) = schema.key_location("type") else {
                continue;
            };
            out.push(
                cx.diagnostic(
                    &RULE,
                    at,
                    format!(
                        "Retry-After header schema is `{ty_text}`: the header is delay-seconds \
                         (an integer) or an HTTP-date (a string)"
                    ),
                )
                .with_operation(op)
                .with_help(
                    "use `type: integer` (seconds to wait), or `type: string` for an HTTP-date",
                ),
            );
        }
    }
}
