//! `retry-after-removed`: a change takes away the `Retry-After` a 409, 429 or 503 told clients
//! when to try again with.

use super::{Context, Rule, RuleId};
use crate::diagnostic::{Diagnostic, Place};
use crate::model::Operation;
use crate::resolve::Location;

pub const RULE: Rule = Rule {
    id: RuleId::RetryAfterRemoved,
    check,
};

/// A `Retry-After` of the base that is gone: where it was, where to put it back, and the
/// operations that lost it.
struct Lost<'a> {
    before: &'a Place,
    at: Location,
    status: &'a str,
    /// The whole response is gone, not only its header.
    gone: bool,
    /// The response is a component several operations may share.
    shared: bool,
    users: Vec<&'a Operation<'a>>,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut lost: Vec<Lost<'_>> = Vec::new();
    for v in cx.versions() {
        for r in &v.was.responses {
            if !matches!(r.status.as_str(), "409" | "429" | "503") {
                continue;
            }
            let Some(before) = &r.retry_after else {
                continue;
            };
            let (at, gone, shared) = match v.op.response(&r.status) {
                Some(now) if now.header("Retry-After").is_some() => continue,
                Some(now) => {
                    // A shared response is fixed once, where it is defined.
                    let shared = now.node.location() != now.declared;
                    let at = if shared {
                        cx.bundle
                            .defining_key(now.node)
                            .unwrap_or(now.node.location())
                    } else {
                        v.op.anchor(now.key)
                    };
                    (at, false, shared)
                }
                // A 409 gone entirely is `conflict-response-removed`'s.
                None if r.status == "409" => continue,
                None => (v.op.key, true, false),
            };
            // A response component changed once is one finding, however many operations use it.
            match lost.iter_mut().find(|l| l.before == before && l.at == at) {
                Some(l) => {
                    if !l.users.iter().any(|u| u.index == v.op.index) {
                        l.users.push(v.op);
                    }
                }
                None => lost.push(Lost {
                    before,
                    at,
                    status: &r.status,
                    gone,
                    shared,
                    users: vec![v.op],
                }),
            }
        }
    }
    for l in lost {
        let first = l.users[0];
        let status = l.status;
        let message = if l.gone {
            format!(
                "{} no longer declares its {status} response, which sent Retry-After: before, \
                 {status} with Retry-After ({}) → after, none ({}): clients no longer learn how \
                 long to wait before trying again",
                first.display(),
                l.before,
                cx.place(l.at),
            )
        } else {
            let whose = match l.users.len() {
                _ if !l.shared => format!("of {}", first.display()),
                1 => format!("used by {}", first.display()),
                2 => format!("used by {} and {}", first.display(), l.users[1].display()),
                n => format!("used by {} and {} other operations", first.display(), n - 1),
            };
            format!(
                "{status} response {whose} no longer sends Retry-After: before, Retry-After ({}) \
                 → after, none ({}): clients no longer learn how long to wait, and may retry at \
                 once or give up",
                l.before,
                cx.place(l.at),
            )
        };
        out.push(
            cx.diagnostic(&RULE, l.at, message)
                .with_operation(first)
                .with_before(l.before)
                .with_help(
                    "keep `headers: { Retry-After: { schema: { type: integer } } }` on the response \
                     (RFC 9110 §10.2.3)",
                ),
        );
    }
}
