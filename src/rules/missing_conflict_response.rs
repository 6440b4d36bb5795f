//! `missing-conflict-response`: a keyed operation that does not say what a concurrent request
//! with the same key gets.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::idempotency::{Declared, declared, policy_status};

pub const RULE: Rule = Rule {
    id: RuleId::MissingConflictResponse,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let api = ApiErrorCodes::new(cx.bundle);
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        let Some(carrier) = carriers.first() else {
            continue;
        };
        if concurrency_harmless(cx.bundle, op, || {
            cx.relative_change(op).is_some() || cx.moves_money(op).is_some()
        }) {
            continue;
        }
        // `x-idempotency: { concurrency: 425 }` documents another status; it must be declared.
        let policy_status = match declared(cx.bundle, op) {
            Some(Declared::Policy(policy)) => policy_status(policy, "concurrency"),
            _ => None,
        };
        let status = policy_status.unwrap_or("409");
        if conflict_answered(cx.bundle, op, status, &api).is_some() {
            continue;
        }
        let what = if status == "409" {
            "no 409 response".to_string()
        } else {
            format!("no {status} response (the status its `x-idempotency` gives for concurrency)")
        };
        // (One asking for another status than the API's usual is its own gap.)
        let list = if status == "409" {
            &mut found
        } else {
            &mut *out
        };
        list.push(
            cx.diagnostic(
                &RULE,
                op.responses_key.map_or(op.key, |k| op.anchor(k)),
                format!(
                    "{} takes an idempotency key ({}) but declares {what} for a concurrent \
                     request with the same key",
                    op.display(),
                    carrier.describe()
                ),
            )
            .with_operation(op)
            .with_help(
                "declare a `409` response, with a `Retry-After` header, for a request that \
                 arrives while the first one with the same key is still in progress",
            ),
        );
    }
    cx.once_if_undeclared(
        "409",
        |op| conflict_answered(cx.bundle, op, "409", &api).is_some(),
        found,
        out,
    );
}

/// Whether `op` says what a concurrent request with the same key gets, in any way this rule
/// takes an answer: the `status`, or for a 409 an answer under another status or by an error
/// code. `review` answers its fourth question with the same test.
pub(crate) fn conflict_answered(
    bundle: &crate::resolve::Bundle,
    op: &crate::model::Operation<'_>,
    status: &str,
    api: &ApiErrorCodes<'_>,
) -> Option<&'static str> {
    if op.response(status).is_some() {
        Some("the status")
    } else if status != "409" {
        None
    } else if answered(op, status) {
        Some("a 429 described as answering a duplicate or concurrent request")
    } else if conflict_error_code(bundle, op) || api.conflict() {
        Some("an error code for a conflict or a request in progress")
    } else {
        None
    }
}

/// Whether an error code speaks of the request or its key colliding with another: `CONFLICT`
/// alone (Formance, Lob), a concurrent or simultaneous request, or a conflict, a lock or work in
/// progress of the request or key (`IDEMPOTENCY_KEY_IN_USE`, `REQUEST_IN_PROGRESS`). Not a
/// domain's state (`ACCOUNT_LOCKED`, `VERIFICATION_IN_PROGRESS`, `SCHEDULE_CONFLICT`), nor a bad
/// key (`INVALID_IDEMPOTENCY_KEY`).
fn conflict_code(code: &str) -> bool {
    let w = crate::heuristics::words(code);
    let has = |list: &[&str]| w.iter().any(|x| list.contains(&x.as_str()));
    // (The key is the idempotency key, not an API or licence key; `processing` only as work
    // still going on: `REQUEST_ALREADY_PROCESSING`, not `REQUEST_PROCESSING_ERROR`.)
    let of_the_key = has(&["idempotency"])
        || (has(&["request"]) && !has(&["api", "license", "licence", "access"]));
    let going_on = has(&["conflict", "progress", "locked"])
        || (has(&["use"]) && has(&["in"]))
        || (has(&["processing"]) && has(&["already", "in", "still"]));
    !has(&["not", "no", "invalid", "missing", "error"])
        && (w == ["conflict"]
            || has(&["concurrent", "concurrency", "simultaneous"])
            || (of_the_key && going_on))
}

/// Whether an error response of `op` (a 4xx or the `default` an API answers every error with)
/// lists among its error codes one for a conflict or a request in progress (Formance's
/// `V2ErrorsEnum` holds `CONFLICT`, Lob's `error.code` `conflict`): the client is told what a concurrent request gets, by its
/// code rather than its status. A list shared by every operation counts here, unlike for a
/// duplicate (`duplicate_error_code`): what a conflict gets is the same for every call. So does
/// a list in an `x-…error…` extension of the operation or the API.
fn conflict_error_code(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    // (Or an `x-…error…` list of the operation's own.)
    crate::idempotency::error_codes(bundle, op, true).any(|(_, code)| conflict_code(code))
        || crate::rules::extension_has_code(op.node.node, &conflict_code)
}

/// The error codes a whole API lists for every operation in an `x-…error…` extension at its root
/// or `info` (Square's `info.x-square-generic-error-codes`, which holds `CONFLICT`): read once
/// per document, however many operations ask.
pub(crate) struct ApiErrorCodes<'b> {
    bundle: &'b crate::resolve::Bundle,
    conflict: std::cell::OnceCell<bool>,
}

impl<'b> ApiErrorCodes<'b> {
    pub(crate) fn new(bundle: &'b crate::resolve::Bundle) -> Self {
        ApiErrorCodes {
            bundle,
            conflict: std::cell::OnceCell::new(),
        }
    }

    /// Whether the list names a code for a conflict or a request in progress.
    fn conflict(&self) -> bool {
        *self.conflict.get_or_init(|| {
            let root = self.bundle.root().node;
            [Some(root), root.get("info")]
                .into_iter()
                .flatten()
                .any(|n| crate::rules::extension_has_code(n, &conflict_code))
        })
    }
}

/// Whether `op` says what a concurrent request with the same key gets: a `status` response, or
/// for a 409 a 429 described as answering a concurrent or duplicate request (Checkout's "Too
/// many requests or duplicate request detected"), that answer under another status, which tells
/// clients to come back.
fn answered(op: &crate::model::Operation<'_>, status: &str) -> bool {
    op.response(status).is_some()
        || (status == "409"
            && op.response("429").is_some_and(|r| {
                r.description.is_some_and(|d| {
                    crate::heuristics::words(d).iter().any(|w| {
                        matches!(
                            w.as_str(),
                            "duplicate"
                                | "concurrent"
                                | "concurrently"
                                | "progress"
                                | "idempotency"
                        )
                    })
                })
            }))
}

/// Whether two concurrent copies of `op` can do no harm: an update of one resource sets the same
/// values, a transition with no body (or one that only names its target) reaches the same state,
/// so there is nothing for a 409 to keep from happening twice. Not a batch on a collection
/// ("BatchChangeInventory" applies adjustments), nor what `repeats_harm` says moves money or
/// changes something relatively ("Release the escrowed funds").
pub(crate) fn concurrency_harmless(
    bundle: &crate::resolve::Bundle,
    op: &crate::model::Operation<'_>,
    repeats_harm: impl FnOnce() -> bool,
) -> bool {
    use crate::classify::Effect;
    if op.method != crate::model::Method::Post {
        return false;
    }
    // An update or transition sent with nothing but what names its target and the one value it
    // sets (Xero's `deleteBatchPayment`, "Updates a specific batch payment", `{BatchPaymentID,
    // Status: DELETED}`): two copies at once are the very same request.
    if names_and_fixes(bundle, op)
        && matches!(
            crate::classify::effect(op),
            Effect::Updates | Effect::Transitions(_)
        )
    {
        return !repeats_harm();
    }
    if !op.path.contains('{') {
        return false;
    }
    let harmless = match crate::classify::effect(op) {
        Effect::Updates => true,
        Effect::Transitions(_) => {
            super::missing_idempotency_key::only_identifies_or_bodiless(bundle, op)
        }
        _ => false,
    };
    harmless && !repeats_harm()
}

/// Whether a body is absent, or holds only ids and fields that take one value.
fn names_and_fixes(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    if op.request_body.is_none() {
        return true;
    }
    let props = crate::idempotency::body_properties(bundle, op);
    !props.is_empty()
        && props.iter().all(|p| {
            let name = crate::idempotency::squash(p.name);
            // (The state it is sent to: Xero's `deleteBatchPayment`, `Status` with the default
            // `DELETED`.)
            crate::idempotency::names_an_id(p.name)
                || ((name == "status" || name == "state")
                    && p.schema
                        .node
                        .get("type")
                        .and_then(crate::source::Node::as_str)
                        == Some("string"))
                || p.schema.node.get("const").is_some()
                || p.schema
                    .node
                    .get("enum")
                    .is_some_and(|e| e.items().len() == 1)
        })
}
