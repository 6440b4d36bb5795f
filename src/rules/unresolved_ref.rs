//! `unresolved-ref`: a `$ref` whose target cannot be followed.

use super::{Context, Rule};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: "unresolved-ref",
    doc: include_str!("../../rules/unresolved-ref.md"),
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for problem in &cx.bundle.ref_problems {
        out.push(cx.diagnostic(&RULE, problem.at, problem.message.clone()));
    }
}
