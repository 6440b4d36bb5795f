//! `replay-reported-as-error`: a retry of a completed request gets an error instead of the
//! original response.

use std::sync::LazyLock;

use regex::Regex;

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::ReplayReportedAsError,
    check,
};

static DUPLICATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i-u)(?-u:\b)(duplicate (?:request|transaction|submission|payment|operation)s?|already (?:been )?processed|already submitted|already exists|(?:key )?(?:has been |was )?already used)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Words that make it the mismatch case (a key reused with another payload), which is an error.
static DIFFERENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i-u)(?-u:\b)(different|does not match|doesn't match|mismatch|another request|other parameters)(?-u:\b)")
        .expect("valid regex")
});

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in cx.operations_whose_duplicates_matter() {
        if cx.carriers(op).is_empty() {
            continue;
        }
        for r in &op.responses {
            // A 429 says "not now" (Checkout's "duplicate request detected" for a concurrent
            // copy): it is the concurrency answer, not an error for a completed replay.
            if !r.status.starts_with('4') || r.status == "429" {
                continue;
            }
            let Some(desc) = r.description else { continue };
            let Some(m) = DUPLICATE.find(desc) else {
                continue;
            };
            if DIFFERENT.is_match(desc) {
                continue;
            }
            out.push(
                cx.diagnostic(
                    &RULE,
                    op.anchor(r.key),
                    format!(
                        "{} response of {} says \"{}\": a retry must get the original response, \
                         not an error (draft §2.6)",
                        r.status,
                        op.display(),
                        m.as_str()
                    ),
                )
                .with_operation(op)
                .with_help(
                    "answer a completed retry with the saved status and body of the first request",
                ),
            );
        }
    }
}
