//! `idemlint review`: the five review questions answered for every operation, from the spec,
//! each answer citing where in the spec it comes from, plus an API-level summary. Markdown for a
//! pull-request comment, or one self-contained HTML page.

use std::collections::HashMap;
use std::path::Path;

use crate::catalogue::RuleId;
use crate::diagnostic::Severity;
use crate::engine::Linted;
use crate::idempotency::json_patch_ops;
use crate::idempotency::{fixed_value_body, stated_lifetime};
use crate::model::{Method, Operation};
use crate::resolve::{Bundle, Location};
use crate::source::{Node, Span};

/// How an answer reads for a reviewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Safe as specified.
    Good,
    /// Works, but the contract is incomplete or undocumented.
    Gap,
    /// Wrong results under retry.
    Risk,
    /// The question does not arise (no key, no state change).
    NotApplicable,
}

impl Verdict {
    fn mark(self) -> &'static str {
        match self {
            Verdict::Good => "✅",
            Verdict::Gap => "⚠️",
            Verdict::Risk => "❌",
            Verdict::NotApplicable => "—",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Answer {
    pub verdict: Verdict,
    pub text: String,
    /// `file:line:col` of the spec construct the answer rests on.
    pub at: Option<String>,
}

/// The five questions, in the order of DEVELOPERS.md.
pub const QUESTIONS: [&str; 5] = [
    "Same request twice?",
    "Retry gets the original response?",
    "Key lifetime",
    "Concurrent request with the same key",
    "Relative changes",
];

#[derive(Debug, Clone)]
pub struct OperationReview {
    /// `POST /payments`, with ` (deprecated)` when it is.
    pub operation: String,
    /// Its method in capitals (`POST`), for filters.
    pub method: String,
    /// Its `tags`, for filters.
    pub tags: Vec<String>,
    /// Its `operationId`, which pairs it with itself in another version of the spec.
    pub operation_id: Option<String>,
    /// How another version of the spec names the same operation: method and path template
    /// (or callback expression, or webhook name).
    pub identity: String,
    /// `file:line:col` of its method key.
    pub at: String,
    pub answers: [Answer; 5],
    /// What the contract-change rules say of it, in a run against a base.
    pub contract: Vec<change::ChangeNote>,
}

#[derive(Debug, Clone)]
pub struct ApiReview {
    /// The document's path in its project (its name of now, in the run at a base), which pairs
    /// it with its other version in the review of a change; empty elsewhere.
    pub key: String,
    pub title: String,
    pub file: String,
    pub operations: Vec<OperationReview>,
    /// Operations whose duplicates matter (POST/PATCH that do not only read).
    pub unsafe_operations: usize,
    /// Of those, the ones with a required key or an If-Match precondition.
    pub protected: usize,
    /// Of those, the ones whose only protection is an optional key.
    pub optional_keys: usize,
    /// Key carriers in use, most used first.
    pub carriers: Vec<(String, usize)>,
    /// Key lifetimes stated, with where.
    pub lifetimes: Vec<(String, String)>,
    /// Rules with findings: id, severity, count, summary; worst first.
    pub gaps: Vec<(String, Severity, usize, String)>,
}

fn answer(verdict: Verdict, text: impl Into<String>, at: Option<String>) -> Answer {
    Answer {
        verdict,
        text: text.into(),
        at,
    }
}

/// Reviews one linted document: its model and its findings, as `check` reports them.
pub fn review_document(d: &Linted<'_>) -> ApiReview {
    let (bundle, api, settings, facts) = (d.bundle, d.api, &d.config.settings, d.facts);
    let name = bundle.file(Bundle::ROOT).source.name.clone();
    let place = |loc: Location| {
        let f = bundle.file(loc.file);
        let lc = f.source.line_col(loc.span.start as usize);
        format!("{}:{}:{}", f.source.name, lc.line, lc.column)
    };
    let findings_of = |op: &Operation<'_>, rule: RuleId| {
        let path = &bundle.file(op.key.file).source.path;
        d.findings.iter().find(|f| {
            f.rule == rule
                && f.operation_at
                    .as_ref()
                    .is_some_and(|(p, span)| **p == **path && *span == op.key.span)
        })
    };

    let mut out = ApiReview {
        key: String::new(),
        title: api
            .root
            .get("info")
            .and_then(|i| i.node.get("title"))
            .and_then(Node::as_str)
            .unwrap_or("API")
            .to_string(),
        file: name.clone(),
        operations: Vec::new(),
        unsafe_operations: 0,
        protected: 0,
        optional_keys: 0,
        carriers: Vec::new(),
        lifetimes: Vec::new(),
        gaps: Vec::new(),
    };
    let api_codes = crate::retry::ApiErrorCodes::new(bundle);
    let mut contract = contract_notes(d);
    for op in &api.operations {
        let of = facts.of(op);
        let carrier = of.carriers.first();
        let not_needed = of.declared_harmless();
        let exemption = facts.exemption(op);
        let reads = exemption.is_some();
        let mutating = of.duplicates_matter();
        if mutating {
            out.unsafe_operations += 1;
            // An optional key protects only the clients that send it.
            if carrier.is_some_and(|c| c.required() != Some(false)) || of.if_match {
                out.protected += 1;
            } else if carrier.is_some() {
                out.optional_keys += 1;
            }
        }
        if let Some(c) = carrier {
            let d = c.describe();
            match out.carriers.iter_mut().find(|(n, _)| *n == d) {
                Some((_, n)) => *n += 1,
                None => out.carriers.push((d, 1)),
            }
        }

        // 1. The same request twice.
        let q1 = if let Some(f) = findings_of(op, RuleId::NonIdempotentPut) {
            answer(
                Verdict::Risk,
                f.message.clone(),
                Some(format!("{}:{}:{}", f.file(), f.line, f.column)),
            )
        } else if matches!(
            op.method,
            Method::Get | Method::Head | Method::Options | Method::Trace
        ) {
            answer(Verdict::Good, "safe method: no state change", None)
        } else if matches!(op.method, Method::Put | Method::Delete) {
            answer(
                Verdict::Good,
                "idempotent by method (RFC 9110 §9.2.2)",
                None,
            )
        } else if not_needed {
            answer(
                Verdict::Good,
                "declared harmless (`x-idempotency: false`)",
                op.node.key_location("x-idempotency").map(place),
            )
        } else if let Some(exemption) = &exemption {
            let text = match exemption {
                crate::classify::Exemption::Reads(why) => format!("only reads (`{why}`)"),
                crate::classify::Exemption::PassesThrough(why) => format!(
                    "passes the request through (`{why}`): a retry does what the target does"
                ),
                crate::classify::Exemption::Deletes(verb) => {
                    format!("only deletes (`{verb}`): a repeat leaves the same state")
                }
                crate::classify::Exemption::TestMode(why) => {
                    format!("only runs in a test mode (`{why}`): duplicates are test data")
                }
                crate::classify::Exemption::Redelivers(verb) => format!(
                    "delivers an event again (`{verb}`): receivers dedupe on the event's id"
                ),
            };
            answer(Verdict::Good, text, None)
        } else if let Some(c) = carrier {
            // As `idempotency-key-optional` judges it: an optional key is a gap only where a
            // keyless retry loses something.
            let optional = c.required() == Some(false)
                && crate::retry::keyless_retry_harmless(
                    bundle,
                    op,
                    c,
                    facts.moves_money(op).is_some(),
                    facts.relative_change(op).is_some(),
                )
                .is_none();
            answer(
                if optional {
                    Verdict::Gap
                } else {
                    Verdict::Good
                },
                format!(
                    "keyed by {}{}",
                    c.describe(),
                    if optional {
                        ", optional: clients that omit it are unprotected"
                    } else {
                        ""
                    }
                ),
                Some(place(c.location())),
            )
        } else if of.if_match {
            let at = op.header_param("If-Match").map(|p| place(p.declared));
            answer(Verdict::Good, "protected by an If-Match precondition", at)
        } else if let Some(fields) = fixed_value_body(bundle, op)
            .filter(|_| op.method == Method::Patch && facts.moves_money(op).is_none())
        {
            answer(
                Verdict::Good,
                format!(
                    "repeats the same change (the body can only set fixed values: {})",
                    fields.join(", ")
                ),
                Some(place(op.key)),
            )
        } else if !matches!(op.site, crate::model::Site::Path) {
            // A delivery the API sends: its receiver dedupes, on a delivery or event id.
            match crate::idempotency::delivery_ids(bundle, op).first() {
                Some(id) => answer(
                    Verdict::Good,
                    format!("receivers dedupe on {}", id.describe()),
                    Some(place(id.location())),
                ),
                None => answer(
                    Verdict::Risk,
                    "a redelivery looks new to the receiver: no delivery or event id",
                    Some(place(op.key)),
                ),
            }
        } else if let Some(why) = crate::idempotency::natural_key(bundle, op, &|| {
            facts.moves_money(op).is_some() || facts.relative_change(op).is_some()
        })
        .filter(|_| op.method == Method::Post)
        {
            answer(
                Verdict::Good,
                format!("a natural key refuses a second create ({why})"),
                Some(place(op.key)),
            )
        } else if let Some(other) =
            crate::retry::protected_alias(bundle, &api.operations, op, settings)
        {
            answer(
                Verdict::Good,
                format!("the same call as {}, which is protected", other.display()),
                Some(place(op.key)),
            )
        } else if let Some(why) = (op.method == Method::Patch)
            .then(|| {
                crate::retry::harmless_patch_retry(
                    bundle,
                    op,
                    facts.moves_money(op).is_some(),
                    facts.relative_change(op).is_some(),
                )
            })
            .flatten()
        {
            // As `unprotected-patch` judges it.
            answer(
                Verdict::Good,
                format!("harmless to repeat: {why}"),
                Some(place(op.key)),
            )
        } else if op.method == Method::Patch {
            answer(
                Verdict::Risk,
                "a retry can apply twice or overwrite a concurrent change: no key, no If-Match",
                Some(place(op.key)),
            )
        } else {
            use crate::classify::Effect;
            let (verdict, text) = match crate::retry::retry_effect(bundle, op, settings) {
                Effect::Creates => (Verdict::Risk, "processed twice: no idempotency key".into()),
                Effect::Updates | Effect::Transitions(_)
                    if crate::idempotency::version_precondition(bundle, op) =>
                {
                    (
                        Verdict::Good,
                        "a stale retry is refused: the body requires the version it was read at"
                            .to_string(),
                    )
                }
                // As `missing-idempotency-key` judges it: absolute values set again.
                Effect::Updates => (
                    Verdict::Good,
                    "a retry sets the same values again (an update of absolute values)".to_string(),
                ),
                Effect::Transitions(verb) => {
                    match crate::retry::repeat_answered(bundle, op, &verb) {
                        Some(status) if status.starts_with('2') || status.starts_with('3') => (
                            Verdict::Good,
                            format!("a repeat is answered {status}, as the first (`{verb}`)"),
                        ),
                        // As `missing-idempotency-key` judges it: a switch repeated with the same
                        // request stays where it is, unless a repeat is documented as refused.
                        None if crate::classify::is_switch(op, &verb)
                            && crate::retry::only_identifies_or_bodiless(bundle, op) =>
                        {
                            (
                                Verdict::Good,
                                format!("a switch (`{verb}`) repeated stays where it is"),
                            )
                        }
                        // An error code the spec lists for a repeat (`already_archived`).
                        Some(code) if code.contains('_') => (
                            Verdict::Gap,
                            format!(
                                "a retry of the transition (`{verb}`) is refused with \
                                 `{code}` for a call that worked: no key"
                            ),
                        ),
                        _ => (
                            Verdict::Gap,
                            format!("a retry repeats the transition (`{verb}`): no key"),
                        ),
                    }
                }
                // As `missing-idempotency-key` judges it: a resend exists to send once more.
                Effect::Sends(verb) if crate::retry::resends(op, &verb) => (
                    Verdict::Good,
                    format!("a retry sends once more, which a resend is for (`{verb}`)"),
                ),
                Effect::Sends(verb) => (
                    Verdict::Gap,
                    format!("a retry sends it again (`{verb}`): no key"),
                ),
                Effect::ShortLived(words) => (
                    Verdict::Good,
                    format!("a retry can leave a duplicate, which expires unused (\"{words}\")"),
                ),
                Effect::Generates(model) => (
                    Verdict::Gap,
                    format!("a retry runs the model (`{model}`) again, billed again: no key"),
                ),
                Effect::Exports => (
                    Verdict::Gap,
                    "a retry exports the same data again (a spare copy): no key".to_string(),
                ),
                Effect::JoinsSet(noun) => (
                    Verdict::Gap,
                    format!("a retry adds the same member again (`{noun}`): no key"),
                ),
            };
            answer(verdict, text, Some(place(op.key)))
        };

        // 2. A completed retry gets the first response.
        let not_applicable = |what: &str| {
            if carrier.is_some() && reads {
                answer(
                    Verdict::NotApplicable,
                    "only reads: the key's contract does not matter",
                    None,
                )
            } else {
                answer(Verdict::NotApplicable, what, None)
            }
        };
        let q2 = if carrier.is_none() || !mutating {
            not_applicable("no key, no replay")
        } else if let Some(f) = findings_of(op, RuleId::ReplayReportedAsError) {
            answer(
                Verdict::Risk,
                f.message.clone(),
                Some(format!("{}:{}:{}", f.file(), f.line, f.column)),
            )
        } else if let Some((status, at)) = replay_documented(op) {
            answer(
                Verdict::Good,
                format!("documented on the {status} response"),
                Some(place(at)),
            )
        } else {
            answer(
                Verdict::Gap,
                "not documented: say that a retry gets the first response",
                None,
            )
        };

        // 3. How long keys are kept.
        let q3 = match carrier {
            Some(c) if mutating => match stated_lifetime(bundle, api.root, op, c) {
                Some((l, at)) => {
                    let short = l.seconds.is_some_and(|s| s < settings.min_ttl_seconds);
                    let at = place(at);
                    if !out.lifetimes.iter().any(|(t, _)| *t == l.text) {
                        out.lifetimes.push((l.text.clone(), at.clone()));
                    }
                    answer(
                        if short { Verdict::Gap } else { Verdict::Good },
                        if short {
                            format!("{}: shorter than clients retry", l.text)
                        } else {
                            l.text
                        },
                        Some(at),
                    )
                }
                None => answer(Verdict::Gap, "not documented", Some(place(c.location()))),
            },
            _ => not_applicable("no key"),
        };

        // 4. A concurrent request with the same key.
        let q4 = if let Some(f) = findings_of(op, RuleId::ServerErrorForConcurrency) {
            answer(
                Verdict::Risk,
                f.message.clone(),
                Some(format!("{}:{}:{}", f.file(), f.line, f.column)),
            )
        } else if carrier.is_none() || !mutating {
            not_applicable("no key")
        } else if op.response("409").is_none()
            && let Some(how) = crate::retry::conflict_answered(bundle, op, "409", &api_codes)
        {
            answer(Verdict::Good, format!("answered by {how}"), None)
        } else {
            match op.response("409") {
                Some(r) if r.header("Retry-After").is_some() => answer(
                    Verdict::Good,
                    "409 with Retry-After",
                    Some(place(op.anchor(r.key))),
                ),
                Some(r) => answer(
                    Verdict::Gap,
                    "409, but no Retry-After",
                    Some(place(op.anchor(r.key))),
                ),
                None if crate::retry::concurrency_harmless(bundle, op, || {
                    facts.relative_change(op).is_some() || facts.moves_money(op).is_some()
                }) =>
                {
                    answer(
                        Verdict::Good,
                        "no 409 needed: concurrent copies set the same values or reach the same state",
                        None,
                    )
                }
                None => answer(Verdict::Gap, "not documented: no 409 response", None),
            }
        };

        // 5. Relative changes.
        let evidence = match op.method {
            Method::Put | Method::Patch | Method::Post => facts.relative_change(op),
            _ => None,
        };
        let patch_ops = json_patch_ops(bundle, op);
        let protected = of.protected();
        let q5 = match (evidence, patch_ops) {
            (Some(e), _) if op.method == Method::Put => answer(
                Verdict::Risk,
                format!("relative ({}) on a PUT, which must be idempotent", e.what),
                Some(place(e.at)),
            ),
            (Some(e), _) => answer(
                if protected {
                    Verdict::Good
                } else {
                    Verdict::Risk
                },
                format!(
                    "relative ({}): {}",
                    e.what,
                    if protected {
                        "protected by the key or If-Match"
                    } else {
                        "unprotected, a retry applies it twice"
                    }
                ),
                Some(place(e.at)),
            ),
            (None, Some(ops)) => answer(
                if protected {
                    Verdict::Good
                } else {
                    Verdict::Risk
                },
                format!(
                    "JSON Patch with {}: {}",
                    ops.join("/"),
                    if protected {
                        "protected"
                    } else {
                        "unprotected"
                    }
                ),
                None,
            ),
            (None, None) if mutating || op.method == Method::Put => answer(
                Verdict::Good,
                "absolute values (no relative change found)",
                None,
            ),
            (None, None) => answer(Verdict::NotApplicable, "no change", None),
        };

        // Marked, as `check` marks its findings there (and leaves its advice out): the answers
        // are for the clients still calling it.
        let deprecated = op.node.node.get("deprecated").and_then(Node::as_bool) == Some(true);
        out.operations.push(OperationReview {
            operation: if deprecated {
                format!("{} (deprecated)", op.display())
            } else {
                op.display()
            },
            method: op.method.key().to_ascii_uppercase(),
            tags: op
                .node
                .get("tags")
                .and_then(|t| t.node.as_seq())
                .map(|seq| {
                    seq.iter()
                        .filter_map(|t| t.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            operation_id: op.operation_id.map(|id| id.to_string()),
            identity: op.display(),
            at: place(op.key),
            answers: [q1, q2, q3, q4, q5],
            contract: contract
                .remove(&(bundle.file(op.key.file).source.path.as_path(), op.key.span))
                .unwrap_or_default(),
        });
    }
    out.carriers.sort_by_key(|c| std::cmp::Reverse(c.1));
    let mut gaps: Vec<(String, Severity, usize, String)> = Vec::new();
    for f in d.findings {
        match gaps.iter_mut().find(|g| g.0 == f.rule.as_str()) {
            Some(g) => {
                g.1 = g.1.max(f.severity);
                g.2 += 1;
            }
            None => gaps.push((
                f.rule.to_string(),
                f.severity,
                1,
                f.rule.meta().summary.clone(),
            )),
        }
    }
    gaps.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)));
    out.gaps = gaps;
    out
}

/// The contract-change findings of a document (in a run against a base), by the method key of
/// the operation each is about: gathered once, not searched for each operation.
fn contract_notes<'a>(d: &Linted<'a>) -> HashMap<(&'a Path, Span), Vec<change::ChangeNote>> {
    let mut notes: HashMap<(&'a Path, Span), Vec<change::ChangeNote>> = HashMap::new();
    for f in d.findings {
        if f.rule.meta().category != crate::filter::CONTRACT_CHANGE {
            continue;
        }
        let Some((path, span)) = &f.operation_at else {
            continue;
        };
        notes
            .entry((&**path, *span))
            .or_default()
            .push(change::ChangeNote {
                rule: f.rule.to_string(),
                severity: f.severity,
                message: f.message.clone(),
                at: format!("{}:{}:{}", f.file(), f.line, f.column),
            });
    }
    notes
}

/// A 2xx response that says a retry gets the first result (or declares `Idempotent-Replayed`).
fn replay_documented(op: &Operation<'_>) -> Option<(String, Location)> {
    use std::sync::LazyLock;
    static REPLAY: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i-u)(?-u:\b)(same (?:response|result)|original (?:response|result)|first (?:response|result)|replay(?:ed|s)?|gets? this response again)(?-u:\b)",
        )
        .expect("valid regex")
    });
    op.responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .find(|r| {
            r.header("Idempotent-Replayed").is_some()
                || r.description.is_some_and(|d| REPLAY.is_match(d))
        })
        .map(|r| (r.status.to_string(), op.anchor(r.key)))
}

/// An input that could not be reviewed: where, and why.
#[derive(Debug, Clone)]
pub struct NotReviewed {
    /// `file:line:column`, or the file alone.
    pub place: String,
    pub reason: String,
}

pub mod change;
mod html;
mod markdown;

pub use html::{Links, html, html_change};
pub use markdown::{MAX_CHARS, MarkdownOptions, markdown, markdown_change};
