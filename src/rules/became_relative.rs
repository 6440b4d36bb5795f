//! `became-relative`: a change makes an operation's body a change relative to the current
//! state (add to a balance, append to a list), so a retry that used to be harmless applies it
//! twice.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::BecameRelative,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for v in cx.versions() {
        let (None, Some((what, at))) = (&v.was.relative, &v.now.relative) else {
            continue;
        };
        // A key or an `If-Match` makes a retry of a relative change safe (`incremental-update`
        // judges the same), and `x-idempotency: false` says duplicates are harmless.
        let of = cx.facts.of(v.op);
        if of.protected() || of.declared_harmless() {
            continue;
        }
        out.push(
            cx.diagnostic(
                &RULE,
                *at,
                format!(
                    "the body of {} is now a change relative to the current state: before, \
                     absolute values ({}) → after, {what} ({}): a retry that used to be harmless \
                     now applies the change twice",
                    v.op.display(),
                    v.was.at,
                    cx.place(*at),
                ),
            )
            .with_operation(v.op)
            .with_before(&v.was.at)
            .with_help(
                "send the absolute target value (e.g. the new balance), or require an \
                 `Idempotency-Key` header or an `If-Match` precondition",
            ),
        );
    }
}
