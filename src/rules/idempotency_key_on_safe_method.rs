//! `idempotency-key-on-safe-method`: a key on GET, HEAD or OPTIONS, which are idempotent already.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::model::Method;

pub const RULE: Rule = Rule {
    id: RuleId::IdempotencyKeyOnSafeMethod,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for op in &cx.api.operations {
        if !matches!(op.method, Method::Get | Method::Head | Method::Options) {
            continue;
        }
        let Some(carrier) = cx.carriers(op).first() else {
            continue;
        };
        out.push(
            cx.diagnostic(
                &RULE,
                op.key,
                format!(
                    "{} declares an idempotency key ({}) although {} is already idempotent",
                    op.display(),
                    carrier.describe(),
                    op.method.upper()
                ),
            )
            .with_operation(op)
            .with_help("remove the key from safe methods; keep it on POST and PATCH"),
        );
    }
}
