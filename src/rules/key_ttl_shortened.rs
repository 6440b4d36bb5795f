//! `key-ttl-shortened`: a change keeps idempotency keys for a shorter time than before, so
//! retries that used to be recognised now run again.

use super::{Context, Rule, RuleId};
use crate::diagnostic::{Diagnostic, Place};
use crate::heuristics::human_duration;
use crate::model::Operation;
use crate::resolve::Location;

pub const RULE: Rule = Rule {
    id: RuleId::KeyTtlShortened,
    check,
};

/// A lifetime that got shorter: both statements, where, and the operations whose keys it is.
struct Shortened<'a> {
    before: (&'a str, u64, &'a Place),
    after: (&'a str, u64, Location),
    users: Vec<&'a Operation<'a>>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found: Vec<Shortened<'_>> = Vec::new();
    for v in cx.versions() {
        let (Some((was, Some(was_s), was_at)), Some((now, Some(now_s), now_at))) =
            (&v.was.lifetime, &v.now.lifetime)
        else {
            continue;
        };
        if now_s >= was_s {
            continue;
        }
        // A lifetime stated once for many operations (the key component, the API's
        // description) is one finding.
        match found
            .iter_mut()
            .find(|f| f.before.2 == was_at && f.after.2 == *now_at)
        {
            Some(f) => f.users.push(v.op),
            None => found.push(Shortened {
                before: (was, *was_s, was_at),
                after: (now, *now_s, *now_at),
                users: vec![v.op],
            }),
        }
    }
    for f in found {
        let first = f.users[0];
        let whose = match f.users.len() {
            1 => first.display(),
            2 => format!("{} and {}", first.display(), f.users[1].display()),
            n => format!("{} and {} other operations", first.display(), n - 1),
        };
        let (was, _, was_at) = f.before;
        let (now, now_s, now_at) = f.after;
        out.push(
            cx.diagnostic(
                &RULE,
                now_at,
                format!(
                    "idempotency keys of {whose} are kept for less time: before, \"{was}\" \
                     ({was_at}) → after, \"{now}\" ({}): a retry sent more than {} after the \
                     first request is no longer recognised, and runs again",
                    cx.place(now_at),
                    human_duration(now_s),
                ),
            )
            .with_operation(first)
            .with_before(was_at)
            .with_help(
                "keep keys at least as long as before; if the lifetime must shrink, announce it \
                 so clients shorten their retry window first",
            ),
        );
    }
}
