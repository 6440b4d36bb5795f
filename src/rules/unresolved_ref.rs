//! `unresolved-ref`: a `$ref` whose target cannot be followed.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::UnresolvedRef,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for problem in &cx.bundle.ref_problems {
        out.push(cx.diagnostic(&RULE, problem.at, problem.message.clone()));
    }
}
