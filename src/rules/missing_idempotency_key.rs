//! `missing-idempotency-key`: a state-changing POST with no idempotency key.

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;
use crate::idempotency::{Declared, declared, key_carriers, read_only_word};
use crate::model::{Method, Operation};

pub const RULE: Rule = Rule {
    id: "missing-idempotency-key",
    doc: include_str!("../../rules/missing-idempotency-key.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Every POST that the rule applies to, with the carrier it declares (if any).
    let posts: Vec<(&Operation<'_>, Option<String>)> = cx
        .api
        .operations
        .iter()
        .filter(|op| op.method == Method::Post)
        .filter(|op| !matches!(declared(cx.bundle, op), Some(Declared::NotNeeded)))
        .filter(|op| read_only_word(op, cx.settings).is_none())
        .map(|op| {
            let carrier = key_carriers(cx.bundle, op, cx.settings)
                .first()
                .map(|c| c.describe());
            (op, carrier)
        })
        .collect();
    let keyed: Vec<&str> = posts.iter().filter_map(|(_, c)| c.as_deref()).collect();
    for (op, carrier) in &posts {
        if carrier.is_some() {
            continue;
        }
        let mut message = format!(
            "{} has no idempotency key: a retried request may be processed twice",
            op.display()
        );
        let others = posts.len() - 1;
        if !keyed.is_empty() {
            message.push_str(&format!(
                " ({} of {others} other POST operation{} declare{} one, e.g. {})",
                keyed.len(),
                if others == 1 { "" } else { "s" },
                if keyed.len() == 1 { "s" } else { "" },
                most_common(&keyed)
            ));
        }
        let help = if keyed.is_empty() {
            "add a required `Idempotency-Key` header parameter (a client-generated UUID) and \
             document how long keys are kept; if duplicates are harmless here, say so with \
             `x-idempotency: false`"
                .to_string()
        } else {
            format!(
                "declare the {} the other operations use; if duplicates are harmless here, say \
                 so with `x-idempotency: false`",
                most_common(&keyed)
            )
        };
        out.push(
            cx.diagnostic(&RULE, op.key, message)
                .with_operation(op)
                .with_help(help),
        );
    }
}

/// The carrier most operations use (the first met on a tie), so the advice matches the API.
fn most_common<'s>(carriers: &[&'s str]) -> &'s str {
    let mut best = carriers[0];
    let mut best_count = 0;
    for c in carriers {
        let count = carriers.iter().filter(|d| *d == c).count();
        if count > best_count {
            best = c;
            best_count = count;
        }
    }
    best
}
