//! `invalid-structure`: a part of the document with another type than OpenAPI requires, which
//! every other rule has to skip.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;

pub const RULE: Rule = Rule {
    id: RuleId::InvalidStructure,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for problem in &cx.api.problems {
        let message = format!("{}; idemlint skips it", problem.message);
        out.push(cx.diagnostic(&RULE, problem.at, message));
    }
}
