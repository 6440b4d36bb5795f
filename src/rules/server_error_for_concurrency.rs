//! `server-error-for-concurrency`: a concurrent request is answered with a 5xx, which clients
//! retry at once.

use std::sync::LazyLock;

use regex::Regex;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::ServerErrorForConcurrency,
    check,
};

static CONCURRENCY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)(?-u:\b)(in progress|locked|lock|concurren(?:t|cy)|duplicate key|already in use)(?-u:\b)")
        .expect("valid regex")
});

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in &cx.api.operations {
        for r in &op.responses {
            if !r.status.starts_with('5') {
                continue;
            }
            let Some(m) = r.description.and_then(|d| CONCURRENCY.find(d)) else {
                continue;
            };
            out.push(
                cx.diagnostic(
                    &RULE,
                    op.anchor(r.key),
                    format!(
                        "{} response of {} mentions \"{}\": a concurrent request must get 409, \
                         not a server error that clients retry at once",
                        r.status,
                        op.display(),
                        m.as_str()
                    ),
                )
                .with_operation(op)
                .with_help("answer a request that collides with one in progress with 409 and `Retry-After`"),
            );
        }
    }
}
