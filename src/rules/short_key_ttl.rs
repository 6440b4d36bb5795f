//! `short-key-ttl`: keys expire before clients stop retrying.

use std::collections::HashSet;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::heuristics::human_duration;
use crate::idempotency::stated_lifetime;

pub const RULE: Rule = Rule {
    id: RuleId::ShortKeyTtl,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let min = cx.settings.min_ttl_seconds;
    let mut seen = HashSet::new();
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        let Some(carrier) = carriers.first() else {
            continue;
        };
        let Some((lifetime, at)) = stated_lifetime(cx.bundle, cx.api.root, op, carrier) else {
            continue;
        };
        let Some(seconds) = lifetime.seconds else {
            continue;
        };
        if seconds >= min || !seen.insert(at) {
            continue;
        }
        out.push(
            cx.diagnostic(
                &RULE,
                at,
                format!(
                    "idempotency keys are kept {}, less than the {} clients commonly retry within",
                    human_duration(seconds),
                    human_duration(min)
                ),
            )
            .with_operation(op)
            .with_help("keep keys at least 24 hours (Stripe: 24 hours, Adyen: 31 days)"),
        );
    }
}
