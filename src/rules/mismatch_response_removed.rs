//! `mismatch-response-removed`: a change takes away the response a keyed operation gave a key
//! reused with another payload (the profile's mismatch status, 422 by default).

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::MismatchResponseRemoved,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let status = cx.settings.mismatch_status.as_str();
    // A profile that answers a mismatch with a 409 says so with the conflict response, whose
    // removal `conflict-response-removed` reports.
    if status.is_empty() || status == "409" {
        return;
    }
    for v in cx.versions() {
        // An operation that lost its key too is `idempotency-key-removed`'s; one whose
        // duplicates do no harm has no contract to keep here.
        if v.was.key.is_none() || v.now.key.is_none() || !v.now.duplicates_matter {
            continue;
        }
        let (Some(was), None) = (v.was.response(status), v.now.response(status)) else {
            continue;
        };
        out.push(
            cx.diagnostic(
                &RULE,
                v.op.key,
                format!(
                    "{} no longer declares a {status} response: before, {status} ({}) → after, \
                     none ({}): clients can no longer tell an idempotency key reused with a \
                     different request from other errors, and may resend it unchanged",
                    v.op.display(),
                    was.at,
                    cx.place(v.op.key),
                ),
            )
            .with_operation(v.op)
            .with_before(&was.at)
            .with_help(format!(
                "keep the {status} response for a key reused with a different request body"
            )),
        );
    }
}
