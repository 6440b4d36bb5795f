//! `undocumented-key-ttl`: nothing says how long idempotency keys are kept.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::stated_lifetime;

pub const RULE: Rule = Rule {
    id: RuleId::UndocumentedKeyTtl,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // One finding per key name: an API that copies `idempotency_key` into sixty request bodies
    // fixes this once (in `info.description`), so it hears of it once, with the count.
    let mut undocumented: Vec<(String, Vec<_>)> = Vec::new();
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        let Some(carrier) = carriers.first() else {
            continue;
        };
        if stated_lifetime(cx.bundle, cx.api.root, op, carrier).is_some() {
            continue;
        }
        let name = carrier.name().to_ascii_lowercase();
        match undocumented.iter_mut().find(|(n, _)| *n == name) {
            Some((_, ops)) => ops.push((op, carrier)),
            None => undocumented.push((name, vec![(op, carrier)])),
        }
    }
    // A field that is a key only by its description (Square's bulk-create maps keyed by
    // idempotency keys) shares the API's lifetime: when a key known by name is reported, that
    // finding covers it.
    let named_reported = undocumented
        .iter()
        .any(|(_, ops)| ops.iter().any(|(_, c)| c.named(cx.settings)));
    for (_, ops) in undocumented {
        if named_reported && !ops.iter().any(|(_, c)| c.named(cx.settings)) {
            continue;
        }
        let (op, carrier) = &ops[0];
        let count = if ops.len() > 1 {
            format!(" ({} operations)", ops.len())
        } else {
            String::new()
        };
        out.push(
            cx.diagnostic(
                &RULE,
                carrier.location(),
                format!(
                    "idempotency key `{}`{count} does not say how long keys are kept: clients \
                     cannot tell whether a late retry is still safe (draft §2.3)",
                    carrier.name()
                ),
            )
            .with_operation(op)
            .with_help(
                "state the lifetime in the key's description (\"Keys are kept for 24 hours.\"), \
                 or once for the API in `info.description`, or as `x-idempotency: { ttl: 24h }`",
            ),
        );
    }
}
