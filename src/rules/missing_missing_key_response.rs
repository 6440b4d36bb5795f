//! `missing-missing-key-response`: a required key, but no answer for a request without one.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::fix::response::{Answer, Declare};
use crate::idempotency::responses_location;
use crate::model::Operation;

pub const RULE: Rule = Rule {
    id: RuleId::MissingMissingKeyResponse,
    check,
};

/// What the rule finds on an operation that requires a key: used by the rule, and by a fix that
/// adds a required key (the 400 it brings, declared with it).
pub(super) struct Keyed<'c, 'a> {
    cx: &'c Context<'a>,
    declare: Declare<'c, 'a>,
}

impl<'c, 'a> Keyed<'c, 'a> {
    pub(super) fn new(cx: &'c Context<'a>) -> Self {
        Keyed {
            cx,
            declare: Declare::new(&cx.editor, cx.api, Answer::MissingKey),
        }
    }

    /// The finding of `op`, which requires a key the rule knows by name.
    pub(super) fn gap(&self, op: &Operation<'a>) -> Option<Diagnostic> {
        if answered(op) {
            return None;
        }
        let d = self
            .cx
            .diagnostic(
                &RULE,
                responses_location(op),
                format!(
                    "{} requires an idempotency key but declares no 400 response for a request \
                     without one",
                    op.display()
                ),
            )
            .with_operation(op)
            .with_help("declare `400` for a request whose key is missing or malformed (draft §2.7)")
            .with_fix_or(self.declare.fix(op, "400"));
        Some(d)
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let keyed = Keyed::new(cx);
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        // A key known only by its description (the keys of a required map) cannot be left
        // out on its own: no "request without one" to answer.
        // A required body field is validated as the schema says, as every required field is:
        // what a request without it gets is the API's validation error, not a contract of the
        // key's (reviewers judged the 400 asked of Unit's and Square's body keys noise).
        if !carriers.iter().any(|c| {
            c.required() == Some(true)
                && c.named(cx.settings)
                && !matches!(c, crate::idempotency::KeyCarrier::BodyField(_))
        }) {
            continue;
        }
        found.extend(keyed.gap(op));
    }
    cx.once_if_undeclared("400", answered, found, out);
}

/// Whether `op` says what a request without its key gets: a `400`, a `default` or `4XX`
/// response, or the error code listed in an extension (Square's `x-endpoint-errors` with
/// `BAD_REQUEST`: the 400 is documented, in the vendor's way).
fn answered(op: &crate::model::Operation<'_>) -> bool {
    op.response("400").is_some()
        || op.response("default").is_some()
        || op.response("4XX").is_some()
        || crate::idempotency::extension_names_code(
            op.node.node,
            &[
                "badrequest",
                "missingrequiredparameter",
                "invalidrequesterror",
            ],
        )
}
