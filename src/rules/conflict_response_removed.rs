//! `conflict-response-removed`: a change takes away the 409 a keyed operation answered a
//! request still in progress with, so clients can no longer tell it from a failure.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::ConflictResponseRemoved,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for v in cx.versions() {
        // An operation that lost its key too is `idempotency-key-removed`'s.
        if v.was.key.is_none() || v.now.key.is_none() || !v.now.duplicates_matter {
            continue;
        }
        let (Some(was), None) = (v.was.response("409"), v.now.response("409")) else {
            continue;
        };
        out.push(
            cx.diagnostic(
                &RULE,
                v.op.key,
                format!(
                    "{} no longer declares a 409 response: before, 409 ({}) → after, none ({}): \
                     clients are no longer told that a request with the same key is still being \
                     processed, and may take it for a failure: give up, or resend with a new key \
                     and run it twice",
                    v.op.display(),
                    was.at,
                    cx.place(v.op.key),
                ),
            )
            .with_operation(v.op)
            .with_before(&was.at)
            .with_help("keep the 409 response for a request whose key is still being processed"),
        );
    }
}
