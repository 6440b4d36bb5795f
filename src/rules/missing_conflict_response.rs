//! `missing-conflict-response`: a keyed operation that does not say what a concurrent request
//! with the same key gets.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::fix::response::{Answer, Declare};
use crate::idempotency::{Declared, declared, policy_status};

pub const RULE: Rule = Rule {
    id: RuleId::MissingConflictResponse,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let api = crate::retry::ApiErrorCodes::new(cx.bundle);
    let declare = Declare::new(&cx.editor, cx.api, Answer::InProgress);
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        let Some(carrier) = carriers.first() else {
            continue;
        };
        if crate::retry::concurrency_harmless(cx.bundle, op, || {
            cx.relative_change(op).is_some() || cx.moves_money(op).is_some()
        }) {
            continue;
        }
        // `x-idempotency: { concurrency: 425 }` documents another status; it must be declared.
        let policy_status = match declared(cx.bundle, op) {
            Some(Declared::Policy(policy)) => policy_status(policy, "concurrency"),
            _ => None,
        };
        let status = policy_status.unwrap_or("409");
        if crate::retry::conflict_answered(cx.bundle, op, status, &api).is_some() {
            continue;
        }
        let what = if status == "409" {
            "no 409 response".to_string()
        } else {
            format!("no {status} response (the status its `x-idempotency` gives for concurrency)")
        };
        // (One asking for another status than the API's usual is its own gap.)
        let list = if status == "409" {
            &mut found
        } else {
            &mut *out
        };
        list.push(
            cx.diagnostic(
                &RULE,
                op.responses_key.map_or(op.key, |k| op.anchor(k)),
                format!(
                    "{} takes an idempotency key ({}) but declares {what} for a concurrent \
                     request with the same key",
                    op.display(),
                    carrier.describe()
                ),
            )
            .with_operation(op)
            .with_help(
                "declare a `409` response, with a `Retry-After` header, for a request that \
                 arrives while the first one with the same key is still in progress",
            )
            .with_fix_or(declare.fix(op, status)),
        );
    }
    cx.once_if_undeclared(
        "409",
        |op| crate::retry::conflict_answered(cx.bundle, op, "409", &api).is_some(),
        found,
        out,
    );
}
