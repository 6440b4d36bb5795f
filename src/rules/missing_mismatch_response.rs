//! `missing-mismatch-response`: a keyed operation does not say what a key reused with another
//! payload gets.

use super::{Context, Rule, RuleId};
use crate::diagnostic::Diagnostic;
use crate::fix::response::{Answer, Declare};
use crate::idempotency::{
    Declared, KeyCarrier, declared, mismatch_wording, policy_status, responses_location,
};
use crate::model::Operation;

pub const RULE: Rule = Rule {
    id: RuleId::MissingMismatchResponse,
    check,
};

/// Wording that a request with a key used before gets the first one's response: Lob's "When a
/// request is sent with an idempotency key for an already created resource, the response object
/// for the existing resource will be returned".
static REPLAY_SAID: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(?:(?:existing|original|first|same)(?u:\s)+(?:resource|response|result|object)s?(?u:\s)+(?:(?:object(?u:\s)+)?(?:for|of)(?u:\s)+the(?u:\s)+existing(?u:\s)+resource(?u:\s)+)?(?:will(?u:\s)+be|is)(?u:\s)+returned|response(?u:\s)+object(?u:\s)+for(?u:\s)+the(?u:\s)+existing(?u:\s)+resource|returns?(?u:\s)+the(?u:\s)+(?:same|original|first|existing)(?u:\s)+(?:response|result|resource|object))(?-u:\b)",
    )
    .expect("valid regex")
});

/// What a spec says a request with a used key gets, when it says it gets the first response.
/// Ordered by how plainly it is said: an explicit sentence decides over a bare one wherever
/// each stands (the API's description, a tag, the operation, the key's own description).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Replay {
    /// Said of a request with a used key, with no word on what it sends (Lob's "When a request
    /// is sent with an idempotency key for an already created resource, the response object
    /// for the existing resource will be returned"): read as written, one with another payload
    /// is answered as the first too.
    Unqualified,
    /// Said of a retry of the same request ("retry the same request with the same key"):
    /// nothing is said of a key reused with another payload.
    OfTheSame,
    /// Said of any request with the key, in so many words ("regardless of the request body",
    /// "even if the parameters differ"): one with another payload is answered as the first,
    /// silently.
    Whatever,
    /// Said beside it: a key reused with another payload is refused ("a different payload gets
    /// an error"), and only the response for it is undeclared.
    Refused,
}

/// What a request sends, as a sentence names it.
const PAYLOAD: &[&str] = &[
    "body",
    "bodies",
    "payload",
    "payloads",
    "parameters",
    "params",
    "request",
    "requests",
    "content",
    "data",
    "arguments",
];

/// Whether `text` says a reused key gets the first response: [`REPLAY_SAID`] in a sentence that
/// speaks of a key ("The search endpoint returns the same results as the dashboard" does not);
/// and how that sentence bounds it.
fn replay_said(text: &str) -> Option<Replay> {
    REPLAY_SAID
        .find_iter(text)
        .filter_map(|m| {
            let start = text[..m.start()].rfind('.').map_or(0, |at| at + 1);
            let end = text[m.end()..]
                .find('.')
                .map_or(text.len(), |at| m.end() + at);
            let sentence = text[start..end].to_ascii_lowercase();
            if !(sentence.contains("key") || sentence.contains("idempoten")) {
                return None;
            }
            let w = crate::heuristics::words(&sentence);
            // A word of what is sent within `k` words after position `i`.
            let payload_after = |i: usize, k: usize| {
                w.iter()
                    .skip(i + 1)
                    .take(k)
                    .any(|x| PAYLOAD.contains(&x.as_str()))
            };
            let differ = |x: &str| {
                matches!(
                    x,
                    "different" | "differ" | "differs" | "differing" | "mismatch" | "mismatched"
                )
            };
            // Another payload named: "a different payload", "if the body differs", "another
            // request body".
            let another_payload = w.iter().enumerate().any(|(i, x)| {
                (differ(x) || x == "another")
                    && (payload_after(i, 2)
                        || w[i.saturating_sub(3)..i]
                            .iter()
                            .any(|y| PAYLOAD.contains(&y.as_str())))
            });
            let refused = another_payload
                && w.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "error"
                            | "errors"
                            | "reject"
                            | "rejected"
                            | "rejects"
                            | "refuse"
                            | "refused"
                            | "refuses"
                            | "fail"
                            | "fails"
                            | "failed"
                            | "invalid"
                            | "conflict"
                            | "409"
                            | "422"
                            | "400"
                    )
                });
            if refused {
                return Some(Replay::Refused);
            }
            // Any payload answered as the first: "regardless of the body", "whatever the
            // payload", "even if the parameters differ", "any request body", or another payload
            // named and not refused.
            let any = another_payload
                || w.iter().enumerate().any(|(i, x)| {
                    matches!(
                        x.as_str(),
                        "regardless" | "irrespective" | "whatever" | "any"
                    ) && payload_after(i, 3)
                })
                || w.windows(2).enumerate().any(|(i, p)| {
                    p[0] == "even"
                        && matches!(p[1].as_str(), "if" | "when" | "though")
                        && w.iter().skip(i + 2).take(5).any(|x| differ(x))
                });
            if any {
                return Some(Replay::Whatever);
            }
            let of_the_same = w.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "identical" | "retry" | "retries" | "retried" | "retrying"
                )
            }) || w
                .windows(2)
                .any(|p| p[0] == "same" && PAYLOAD.contains(&p[1].as_str()));
            Some(if of_the_same {
                Replay::OfTheSame
            } else {
                Replay::Unqualified
            })
        })
        .max()
}

/// What the rule finds on a keyed operation, with what it reads of the API built once: used by
/// the rule, and by a fix that adds a key (the mismatch status the key brings, declared with
/// it).
pub(super) struct Keyed<'c, 'a> {
    cx: &'c Context<'a>,
    declare: Declare<'c, 'a>,
    /// Whether the API's own description, or a tag's (Lob documents its idempotency in a
    /// tag's text), says a reused key gets the first response: the finding then says what is
    /// still missing.
    replay_said_for_api: Option<Replay>,
    /// Whether the API's own list of the error codes every operation may answer names the one
    /// for a key reused with another payload (Square's `info.x-square-generic-error-codes`
    /// lists `IDEMPOTENCY_KEY_REUSED`): every keyed operation answers it, by its code.
    code_for_api: bool,
}

impl<'c, 'a> Keyed<'c, 'a> {
    pub(super) fn new(cx: &'c Context<'a>) -> Self {
        let root = cx.api.root.node;
        let info = root.get("info").and_then(|i| i.get("description"));
        let tags = root
            .get("tags")
            .into_iter()
            .flat_map(crate::source::Node::items)
            .filter_map(|t| t.get("description"));
        Keyed {
            cx,
            declare: Declare::new(&cx.editor, cx.api, Answer::Mismatch),
            replay_said_for_api: info
                .into_iter()
                .chain(tags)
                .filter_map(crate::source::Node::as_str)
                .filter_map(replay_said)
                .max(),
            code_for_api: [Some(root), root.get("info")]
                .into_iter()
                .flatten()
                .any(|n| crate::idempotency::extension_names_code(n, MISMATCH_CODES)),
        }
    }

    /// The finding of `op` taking the keys `carriers` (none: the key a fix is adding), and
    /// whether it is of the configured mismatch status (which a whole API may lack as one gap)
    /// rather than a status its `x-idempotency` names.
    pub(super) fn gap(
        &self,
        op: &Operation<'a>,
        carriers: &[KeyCarrier<'_>],
    ) -> Option<(Diagnostic, bool)> {
        let cx = self.cx;
        let from_policy = match declared(cx.bundle, op) {
            Some(Declared::Policy(p)) => policy_status(p, "mismatch"),
            _ => None,
        };
        // A request that cannot differ has no "other payload": no body (Lithic's secret
        // rotation), or a body whose every field takes one value (Xero's `Status: DELETED`).
        // (Query and form parameters are payload too.)
        let parameters_differ = op
            .parameters
            .iter()
            .any(|p| p.location == "query" || p.location == "formData");
        let fixed_body = op.request_body.is_none()
            || crate::idempotency::fixed_value_body(cx.bundle, op).is_some();
        if fixed_body && !parameters_differ {
            return None;
        }
        let status = from_policy.unwrap_or(&cx.settings.mismatch_status);
        if answered(op, status) || (self.code_for_api && from_policy.is_none()) {
            return None;
        }
        let replayed = ["description", "summary"]
            .iter()
            .filter_map(|k| op.node.node.get(k).and_then(crate::source::Node::as_str))
            .chain(carriers.iter().filter_map(|c| c.description()))
            .filter_map(replay_said)
            .chain(self.replay_said_for_api)
            .max();
        let said = match replayed {
            Some(Replay::OfTheSame) => {
                " (the spec says a reused key gets the first response, not whether one sent \
                 with another payload is refused)"
            }
            Some(Replay::Refused) => {
                " (the spec says a key reused with another payload is refused, but not with \
                 which response)"
            }
            // A design gap, not only a missing line: the client never learns that its second
            // request was not the one answered.
            Some(Replay::Whatever | Replay::Unqualified) => {
                " (the spec says any request with a used key gets the first response: one \
                 sent with another payload is answered as the first, and its client never \
                 learns that what it sent was ignored)"
            }
            None => "",
        };
        let d = cx
            .diagnostic(
                &RULE,
                responses_location(op),
                format!(
                    "{} declares no {status} response for an idempotency key reused with a \
                     different payload{said}",
                    op.display()
                ),
            )
            .with_operation(op)
            .with_help(format!(
                "declare `{status}` for a key that was used before with another request body \
                 (draft §2.7)"
            ))
            .with_fix_or(self.declare.fix(op, status));
        Some((d, status == cx.settings.mismatch_status))
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    let keyed = Keyed::new(cx);
    for op in cx.operations_whose_duplicates_matter() {
        let carriers = cx.carriers(op);
        if carriers.is_empty() {
            continue;
        }
        if let Some((d, usual)) = keyed.gap(op, carriers) {
            // (One asking for another status than the API's usual is its own gap.)
            if usual {
                found.push(d);
            } else {
                out.push(d);
            }
        }
    }
    let status = cx.settings.mismatch_status.as_str();
    cx.once_if_undeclared(status, |op| answered(op, status), found, out);
}

/// Whether `op` says what a key reused with another payload gets: a `status` response, a 4xx
/// of any status that says so (many APIs answer a reused key with 409 or 400), or an error code
/// for it listed in an extension of the operation (Square's `x-endpoint-errors` with
/// `IDEMPOTENCY_KEY_REUSED`, AWS's `IdempotentParameterMismatch`).
fn answered(op: &crate::model::Operation<'_>, status: &str) -> bool {
    op.response(status).is_some()
        || op.responses.iter().any(|r| {
            r.status.starts_with('4') && r.description.and_then(mismatch_wording).is_some()
        })
        || crate::idempotency::extension_names_code(op.node.node, MISMATCH_CODES)
}

/// Error codes for a key reused with another payload, compared without case and separators.
const MISMATCH_CODES: &[&str] = &["idempotencykeyreused", "idempotentparametermismatch"];
