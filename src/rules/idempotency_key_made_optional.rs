//! `idempotency-key-made-optional`: a change lets clients leave out the idempotency key an
//! operation required, so a client that stops sending it loses its retry protection unwarned.

use super::{Context, Rule, RuleId};
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeyMadeOptional,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for v in cx.versions() {
        let (Some(was), Some(now)) = (&v.was.key, &v.now.key) else {
            continue;
        };
        if was.required != Some(true) || now.required != Some(false) || !v.now.duplicates_matter {
            continue;
        }
        // The key renamed in the same change is said, so the two places read as one key.
        let after = if now.describe == was.describe {
            "optional".to_string()
        } else {
            format!("{}, optional", now.describe)
        };
        let money = match &v.now.moves_money {
            Some(why) => format!(", which moves money ({why}),"),
            None => String::new(),
        };
        let severity = match v.now.moves_money {
            Some(_) => Severity::Error,
            None => RULE.id.meta().severity,
        };
        out.push(
            cx.diagnostic(
                &RULE,
                now.required_at,
                format!(
                    "{}{money} no longer requires its idempotency key: before, {}, required ({}) → \
                     after, {after} ({}): a request sent without it is not recognised when \
                     retried, and runs again",
                    v.op.display(),
                    was.describe,
                    was.required_at,
                    cx.place(now.required_at),
                ),
            )
            .with_operation(v.op)
            .with_before(&was.required_at)
            .with_help("keep `required: true` on the key")
            .with_severity(severity),
        );
    }
}
