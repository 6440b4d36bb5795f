//! `retry-after-missing`: a 429 or 503 that does not tell clients when to try again.

use std::collections::HashSet;

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: "retry-after-missing",
    doc: include_str!("../../rules/retry-after-missing.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut shared_seen = HashSet::new();
    for op in &cx.api.operations {
        for r in &op.responses {
            if r.status != "429" && r.status != "503" {
                continue;
            }
            if r.header("Retry-After").is_some() {
                continue;
            }
            // RateLimit headers (IETF draft, and the common X- forms) also say when to retry.
            if r.status == "429"
                && r.headers.iter().any(|h| {
                    let n = h.name.to_ascii_lowercase();
                    n.starts_with("ratelimit") || n.starts_with("x-ratelimit")
                })
            {
                continue;
            }
            // A shared response is fixed once, where it is defined.
            let shared = r.node.location() != r.declared;
            let at = if shared {
                cx.bundle.defining_key(r.node).unwrap_or(r.node.location())
            } else {
                op.anchor(r.key)
            };
            if shared && !shared_seen.insert(at) {
                continue;
            }
            out.push(
                cx.diagnostic(
                    &RULE,
                    at,
                    format!(
                        "{} response has no Retry-After header: clients cannot tell when to try \
                         again",
                        r.status
                    ),
                )
                .with_operation(op)
                .with_help("add `headers: { Retry-After: { schema: { type: integer } } }` (RFC 6585 §4, RFC 9110 §10.2.3)"),
            );
        }
    }
}
