//! `idempotency-key-made-optional`: a change lets clients leave out the idempotency key an
//! operation required, so a client that stops sending it loses its retry protection unwarned.

use super::{Context, Rule, RuleId, Version};
use crate::diagnostic::{Diagnostic, Severity};
use crate::resolve::Location;

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeyMadeOptional,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // The operations whose key was made optional, by the place it was: a shared key parameter
    // changed once is one finding, however many operations use it.
    let mut found: Vec<(Location, Vec<&Version<'_>>)> = Vec::new();
    for v in cx.versions() {
        let (Some(was), Some(now)) = (&v.was.key, &v.now.key) else {
            continue;
        };
        if was.required != Some(true) || now.required != Some(false) || !v.now.duplicates_matter {
            continue;
        }
        match found.iter_mut().find(|(at, _)| *at == now.required_at) {
            Some((_, users)) => users.push(v),
            None => found.push((now.required_at, vec![v])),
        }
    }
    for (at, mut users) in found {
        // The operation that moves money is named first: it is why the finding is an error.
        users.sort_by_key(|v| v.now.moves_money.is_none());
        let first = users[0];
        let (Some(was), Some(now)) = (&first.was.key, &first.now.key) else {
            continue;
        };
        let mut whose = first.op.display();
        if let Some(why) = &first.now.moves_money {
            whose.push_str(&format!(", which moves money ({why}),"));
        }
        let (whose, its) = match users.len() {
            1 => (whose, "its"),
            2 => (format!("{whose} and {}", users[1].op.display()), "their"),
            n => (format!("{whose} and {} other operations", n - 1), "their"),
        };
        let verb = if users.len() == 1 {
            "requires"
        } else {
            "require"
        };
        // The key renamed in the same change is said, so the two places read as one key.
        let after = if now.describe == was.describe {
            "optional".to_string()
        } else {
            format!("{}, optional", now.describe)
        };
        let severity = match first.now.moves_money {
            Some(_) => Severity::Error,
            None => RULE.id.meta().severity,
        };
        out.push(
            cx.diagnostic(
                &RULE,
                at,
                format!(
                    "{whose} no longer {verb} {its} idempotency key: before, {}, required ({}) → \
                     after, {after} ({}): a request sent without it is not recognised when \
                     retried, and runs again",
                    was.describe,
                    was.required_at,
                    cx.place(at),
                ),
            )
            .with_operation(first.op)
            .with_before(&was.required_at)
            .with_help("keep `required: true` on the key")
            .with_severity(severity),
        );
    }
}
