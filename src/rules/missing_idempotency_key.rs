//! `missing-idempotency-key`: a state-changing POST with no idempotency key.

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;
use crate::idempotency::delivery_ids;
use crate::model::{Method, Operation, Site};

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
        .filter(|op| op.method == Method::Post && cx.duplicates_matter(op))
        .map(|op| {
            let carrier = cx.carriers(op).first().map(|c| c.describe());
            (op, carrier)
        })
        .collect();
    let keyed: Vec<&str> = posts.iter().filter_map(|(_, c)| c.as_deref()).collect();
    let usual = most_common(&keyed);
    for (op, carrier) in &posts {
        if carrier.is_some() {
            continue;
        }
        // A delivery the API sends: its receiver dedupes, on a delivery or event id.
        if !matches!(op.site, Site::Path) {
            if delivery_ids(cx.bundle, op).is_empty() {
                out.push(
                    cx.diagnostic(
                        &RULE,
                        op.key,
                        format!(
                            "{} carries no delivery or event id: its receiver cannot tell a \
                             redelivery from a new event, and may process it twice",
                            op.display()
                        ),
                    )
                    .with_operation(op)
                    .with_help(
                        "send a `webhook-id` header (Standard Webhooks), the same on every \
                         redelivery, or an event `id` the receiver is told to dedupe on; or a key \
                         such as `Idempotency-Key`",
                    ),
                );
            }
            continue;
        }
        let mut message = format!(
            "{} has no idempotency key: a retried request may be processed twice",
            op.display()
        );
        let others = posts.len() - 1;
        if let Some(usual) = usual {
            message.push_str(&format!(
                " ({} of {others} other POST operation{} declare{} one, e.g. {usual})",
                keyed.len(),
                if others == 1 { "" } else { "s" },
                if keyed.len() == 1 { "s" } else { "" },
            ));
        }
        let help = if let Some(usual) = usual {
            format!(
                "declare the {usual} the other operations use; if duplicates are harmless here, \
                 say so with `x-idempotency: false`"
            )
        } else {
            "add a required `Idempotency-Key` header parameter (a client-generated UUID) and \
             document how long keys are kept; if duplicates are harmless here, say so with \
             `x-idempotency: false`"
                .to_string()
        };
        out.push(
            cx.diagnostic(&RULE, op.key, message)
                .with_operation(op)
                .with_help(help),
        );
    }
}

/// The carrier most operations use (the first met on a tie), so the advice matches the API.
fn most_common<'s>(carriers: &[&'s str]) -> Option<&'s str> {
    let mut counts: std::collections::HashMap<&str, (usize, usize)> = Default::default();
    for (i, c) in carriers.iter().enumerate() {
        counts.entry(c).or_insert((0, i)).0 += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(_, (n, first))| (*n, std::cmp::Reverse(*first)))
        .map(|(c, _)| c)
}
