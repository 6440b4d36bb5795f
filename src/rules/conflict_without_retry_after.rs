//! `conflict-without-retry-after`: the 409 of a keyed operation does not tell clients when to
//! retry.

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: "conflict-without-retry-after",
    doc: include_str!("../../rules/conflict-without-retry-after.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in cx.operations_whose_duplicates_matter() {
        let Some(conflict) = op.response("409") else {
            continue;
        };
        // A 409 on an unkeyed operation is a business conflict, not a retry signal.
        if conflict.header("Retry-After").is_some() || cx.carriers(op).is_empty() {
            continue;
        }
        let mut d = cx
            .diagnostic(
                &RULE,
                op.anchor(conflict.key),
                format!(
                    "409 response of {} has no Retry-After header: clients cannot tell when to \
                     retry the in-progress request",
                    op.display()
                ),
            )
            .with_operation(op)
            .with_help(
                "add `headers: { Retry-After: { schema: { type: integer, minimum: 1 } } }` to \
                 the 409 response",
            );
        // Shared through `$ref`: show where the response itself is.
        if conflict.node.location() != conflict.declared {
            d = d.with_label(
                conflict.node.location(),
                "this 409 response has no Retry-After",
            );
        }
        out.push(d);
    }
}
