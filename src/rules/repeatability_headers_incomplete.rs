//! `repeatability-headers-incomplete`: OASIS Repeatable Requests used by halves.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::RepeatabilityHeadersIncomplete,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in &cx.api.operations {
        let Some(id) = op.header_param("Repeatability-Request-ID") else {
            continue;
        };
        if op.header_param("Repeatability-First-Sent").is_none() {
            out.push(
                cx.diagnostic(
                    &RULE,
                    id.node.key_location("name").unwrap_or(id.declared),
                    format!(
                        "{} sends Repeatability-Request-ID without Repeatability-First-Sent \
                         (OASIS Repeatable Requests)",
                        op.display()
                    ),
                )
                .with_operation(op)
                .with_help("add a `Repeatability-First-Sent` header parameter (an HTTP-date): the server uses it to tell a retry from a request outside its window"),
            );
        }
        if !op
            .responses
            .iter()
            .any(|r| r.header("Repeatability-Result").is_some())
        {
            out.push(
                cx.diagnostic(
                    &RULE,
                    op.key,
                    format!(
                        "{} takes Repeatability-Request-ID but no response declares \
                         Repeatability-Result",
                        op.display()
                    ),
                )
                .with_operation(op)
                .with_help("declare a `Repeatability-Result` header (`accepted` or `rejected`) on the responses"),
            );
        }
    }
}
