//! `if-match-removed`: a change takes away the `If-Match` header of a PATCH or PUT, so clients
//! can no longer make an update conditional on the version they read.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::model::Method;

pub const RULE: Rule = Rule {
    id: RuleId::IfMatchRemoved,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for v in cx.versions() {
        if !matches!(v.now.method, Method::Patch | Method::Put) {
            continue;
        }
        let (Some(was), None) = (&v.was.if_match, &v.now.if_match) else {
            continue;
        };
        out.push(
            cx.diagnostic(
                &RULE,
                v.op.key,
                format!(
                    "{} no longer takes an If-Match header: before, If-Match ({was}) → after, \
                     none ({}): clients can no longer make the update conditional on the version \
                     they read, so a retried or concurrent update may overwrite a newer one",
                    v.op.display(),
                    cx.place(v.op.key),
                ),
            )
            .with_operation(v.op)
            .with_before(was)
            .with_help("keep the `If-Match` header parameter (and its 412 response)"),
        );
    }
}
