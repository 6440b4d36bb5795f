//! `missing-conflict-response`: a keyed operation that does not say what a concurrent request
//! with the same key gets.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::fix::response::{Answer, Declare};
use crate::idempotency::{Declared, KeyCarrier, declared, policy_status};
use crate::model::Operation;

pub const RULE: Rule = Rule {
    id: RuleId::MissingConflictResponse,
    check,
};

/// What the rule finds on a keyed operation, with what it reads of the API built once: used by
/// the rule, and by a fix that adds a key (the 409 the key brings, declared with it).
pub(super) struct Keyed<'c, 'a> {
    cx: &'c Context<'a>,
    api: crate::retry::ApiErrorCodes<'a>,
    declare: Declare<'c, 'a>,
}

impl<'c, 'a> Keyed<'c, 'a> {
    pub(super) fn new(cx: &'c Context<'a>) -> Self {
        Keyed {
            cx,
            api: crate::retry::ApiErrorCodes::new(cx.bundle),
            declare: Declare::new(&cx.editor, cx.api, Answer::InProgress),
        }
    }

    /// The finding of `op` taking `carrier` (`None`: the key a fix is adding), and whether it
    /// is of the usual 409 (which a whole API may lack as one gap) rather than a status its
    /// `x-idempotency` names.
    pub(super) fn gap(
        &self,
        op: &Operation<'a>,
        carrier: Option<&KeyCarrier<'_>>,
    ) -> Option<(Diagnostic, bool)> {
        let cx = self.cx;
        if crate::retry::concurrency_harmless(cx.bundle, op, || {
            cx.relative_change(op).is_some() || cx.moves_money(op).is_some()
        }) {
            return None;
        }
        // `x-idempotency: { concurrency: 425 }` documents another status; it must be declared.
        let policy_status = match declared(cx.bundle, op) {
            Some(Declared::Policy(policy)) => policy_status(policy, "concurrency"),
            _ => None,
        };
        let status = policy_status.unwrap_or("409");
        if crate::retry::conflict_answered(cx.bundle, op, status, &self.api).is_some() {
            return None;
        }
        let what = if status == "409" {
            "no 409 response".to_string()
        } else {
            format!("no {status} response (the status its `x-idempotency` gives for concurrency)")
        };
        let key = carrier.map_or_else(|| "the key its fix adds".to_string(), |c| c.describe());
        let d = cx
            .diagnostic(
                &RULE,
                op.responses_key.map_or(op.key, |k| op.anchor(k)),
                format!(
                    "{} takes an idempotency key ({key}) but declares {what} for a concurrent \
                     request with the same key",
                    op.display(),
                ),
            )
            .with_operation(op)
            .with_help(
                "declare a `409` response, with a `Retry-After` header, for a request that \
                 arrives while the first one with the same key is still in progress",
            )
            .with_fix_or(self.declare.fix(op, status));
        Some((d, status == "409"))
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let keyed = Keyed::new(cx);
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        let Some(carrier) = carriers.first() else {
            continue;
        };
        if let Some((d, usual)) = keyed.gap(op, Some(carrier)) {
            // (A 409 missing on every operation is one gap; another status is this one's.)
            if usual {
                found.push(d);
            } else {
                out.push(d);
            }
        }
    }
    let api = &keyed.api;
    cx.once_if_undeclared(
        "409",
        |op| crate::retry::conflict_answered(cx.bundle, op, "409", api).is_some(),
        found,
        out,
    );
}
