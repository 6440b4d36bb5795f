//! `retry-after-missing`: a 429 or 503 that does not tell clients when to try again.

use std::collections::HashMap;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::model::Operation;
use crate::resolve::{At, Location};

pub const RULE: Rule = Rule {
    id: RuleId::RetryAfterMissing,
    check,
};

/// Descriptions of a 429 or 503 that waiting does not fix, so a Retry-After could only be a
/// guess: a cap on concurrent work ("the maximum of 5 parallel downloads"), a business quota
/// ("A credit card can only be checked 3 times in 24 hours"), or work that goes on ("The
/// operation will continue after this response has been returned").
static NO_BACKOFF: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)(?-u:\b)(
            (maximum|number)(?u:\s)+of(?u:\s)+([0-9]+(?u:\s)+)?(concurrent|parallel|simultaneous)(?u:\s)+(?:(?-u:\w)|(?u:\s)){1,40}?(has|have)(?u:\s)+been(?u:\s)+(reached|met)
          | can(?u:\s)+only(?u:\s)+be(?u:\s)+(?-u:\w)+(?u:\s)+[0-9]+(?u:\s)+times(?u:\s)+(in|per|every)(?u:\s)+([0-9]+(?u:\s)+)?(hours?|days?|weeks?|months?)
          | the(?u:\s)+(operation|job|task|process|export|import)(?u:\s)+will(?u:\s)+continue
        )(?-u:\b)",
    )
    .expect("valid regex")
});

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Each place to fix, with its status and the operations that answer with it, in the order
    // first met: a shared response is one place, however many operations use it.
    // (With the response itself, resolved: where its fix writes.)
    let mut places: Vec<(Location, &str, bool, At<'_>, Vec<&Operation<'_>>)> = Vec::new();
    let mut index: HashMap<(Location, &str), usize> = HashMap::new();
    for op in &cx.api.operations {
        for r in &op.responses {
            if r.status != "429" && r.status != "503" {
                continue;
            }
            if r.header("Retry-After").is_some() {
                continue;
            }
            // RateLimit headers (IETF draft, and the common X- forms) also say when to retry.
            if r.status == "429"
                && r.headers.iter().any(|h| {
                    let n = h.name.to_ascii_lowercase();
                    n.starts_with("ratelimit") || n.starts_with("x-ratelimit")
                })
            {
                continue;
            }
            if r.description.is_some_and(|d| NO_BACKOFF.is_match(d)) {
                continue;
            }
            // A 503 that names a state rather than unavailability ("node is not part of a
            // swarm", "request timed out") is not a signal to wait: a Retry-After would be a
            // guess. A bare "Service Unavailable", overload or maintenance is.
            if r.status == "503" && r.description.is_some_and(names_a_state) {
                continue;
            }
            // A shared response is fixed once, where it is defined.
            let shared = r.node.location() != r.declared;
            let at = if shared {
                cx.bundle.defining_key(r.node).unwrap_or(r.node.location())
            } else {
                op.anchor(r.key)
            };
            let i = *index.entry((at, r.status)).or_insert_with(|| {
                places.push((at, r.status, shared, r.node, Vec::new()));
                places.len() - 1
            });
            let users = &mut places[i].4;
            if !users.iter().any(|u| u.index == op.index) {
                users.push(op);
            }
        }
    }
    for (at, status, shared, response, users) in places {
        let first = users[0];
        let whose = match users.len() {
            _ if !shared => format!("of {}", first.display()),
            1 => format!("used by {}", first.display()),
            2 => format!("used by {} and {}", first.display(), users[1].display()),
            n => format!("used by {} and {} other operations", first.display(), n - 1),
        };
        out.push(
            cx.diagnostic(
                &RULE,
                at,
                format!(
                    "{status} response {whose} has no Retry-After header: clients cannot tell \
                     when to try again"
                ),
            )
            .with_operation(first)
            .with_help("add `headers: { Retry-After: { schema: { type: integer } } }` (RFC 6585 §4, RFC 9110 §10.2.3)")
            .with_fix_or(crate::fix::response::retry_after_fix(
                &cx.editor,
                cx.api.version,
                status,
                response,
            )),
        );
    }
}

/// Whether a 503's description names a state that waiting does not change ("node is not part
/// of a swarm", "already part of a swarm") or a timeout whose wait nobody knows ("request timed
/// out"), rather than unavailability ("Server is unable to handle the request").
fn names_a_state(description: &str) -> bool {
    let w = crate::heuristics::words(crate::idempotency::short(description));
    let pair = |a: &str, b: &str| w.windows(2).any(|x| x[0] == a && x[1] == b);
    // Membership ("not part of", "isn't part of", "no longer part of", "is not currently part
    // of", "already part of"), not "unavailable as part of a scheduled maintenance window".
    let membership = w.windows(2).enumerate().any(|(i, x)| {
        x[0] == "part"
            && x[1] == "of"
            && w[i.saturating_sub(2)..i].iter().any(|n| {
                matches!(
                    n.as_str(),
                    "not" | "already" | "longer" | "isn" | "t" | "nt"
                )
            })
    });
    membership || pair("timed", "out") || pair("not", "running") || pair("not", "initialized")
}
