//! `missing-idempotency-key`: a state-changing POST with no idempotency key.

use super::{Context, Rule, RuleId};
use crate::classify::Effect;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Severity;
use crate::idempotency::{delivery_ids, natural_key};
use crate::model::{Method, Operation, Site};
use crate::retry::{
    effect_given, only_identifies_or_bodiless, protected_alias, repeat_answered, resends,
};

pub const RULE: Rule = Rule {
    id: RuleId::MissingIdempotencyKey,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let keys = super::KeyFix::new(cx);
    // Every POST that the rule applies to, with the carrier it declares (if any).
    let posts: Vec<(&Operation<'_>, Option<String>)> = cx
        .api
        .operations
        .iter()
        .filter(|op| op.method == Method::Post && cx.duplicates_matter(op))
        .map(|op| {
            let carrier = cx.carriers(op).first().map(|c| c.describe());
            (op, carrier)
        })
        .collect();
    let keyed: Vec<&str> = posts.iter().filter_map(|(_, c)| c.as_deref()).collect();
    let usual = most_common(&keyed);
    // (A key the API takes in the query or a cookie is no carrier, but the API has one.)
    // (Asked only where a message would say that no POST declares one: it reads every
    // parameter of the API.)
    let declares_a_key_somewhere = std::cell::OnceCell::new();
    let declares_a_key_somewhere = || {
        *declares_a_key_somewhere.get_or_init(|| {
            cx.api.operations.iter().any(|o| {
                o.parameters
                    .iter()
                    .any(|p| crate::idempotency::parameter_named_like_a_key(cx.settings, p))
            })
        })
    };
    // What in the spec shows the API takes a key no operation declares (Stripe's error type
    // `idempotency_error`, an event's `idempotency_key`). Asked once, where it matters.
    let undeclared_key = std::cell::OnceCell::new();
    let undeclared_key =
        || undeclared_key.get_or_init(|| crate::idempotency::undeclared_key_evidence(cx.bundle));
    for (op, carrier) in &posts {
        if carrier.is_some() {
            continue;
        }
        // A delivery the API sends: its receiver dedupes, on a delivery or event id.
        if !matches!(op.site, Site::Path) {
            if !delivery_ids(cx.bundle, op).is_empty() {
                continue;
            }
            let help = "send a `webhook-id` header (Standard Webhooks), the same on every \
                        redelivery, or an event `id` the receiver is told to dedupe on; or a key \
                        such as `Idempotency-Key`";
            // The time its event was triggered is the same on every redelivery: a receiver can
            // dedupe on it and the subscription, if less surely than on an id (reviewers judged
            // a warning on Figma's `timestamp` too much). Without it, what a redelivery does is
            // up to the receiver, and the sender's contract is incomplete.
            let (message, severity) = match crate::idempotency::event_time(cx.bundle, op) {
                Some(time) => (
                    format!(
                        "{} carries no delivery or event id, only when its event was triggered \
                         (`{time}`): its receiver can dedupe on that time and the subscription, \
                         less surely than on an id",
                        op.display()
                    ),
                    Severity::Info,
                ),
                None => (
                    format!(
                        "{} carries no delivery or event id: its receiver cannot tell a \
                         redelivery from a new event, and may process it twice",
                        op.display()
                    ),
                    Severity::Warning,
                ),
            };
            out.push(
                cx.diagnostic(&RULE, op.key, message)
                    .with_operation(op)
                    .with_help(help)
                    .with_severity(severity),
            );
            continue;
        }
        let effect = effect_given(
            cx.bundle,
            op,
            || cx.moves_money(op).is_some(),
            || cx.relative_change(op).is_some(),
        );
        // What a create makes expires on its own (a short-lived key, an upload that expires
        // after an hour): a duplicate is left to expire unused.
        if matches!(effect, Effect::ShortLived(_)) {
            continue;
        }
        // An update or transition that sends the version it was read at: a retry that already
        // applied carries a stale version and is refused, not applied twice.
        if matches!(effect, Effect::Updates | Effect::Transitions(_))
            && crate::idempotency::version_precondition(cx.bundle, op)
        {
            continue;
        }
        // An update sets the same absolute values again: a retry is idempotent, as a PUT is.
        // The only harm left is overwriting a change made in between, the lost-update advice
        // `missing-precondition-on-update` gives where the resource offers an ETag; reviewers
        // of real specs judged it noise on every update (Stripe's hundreds of
        // `POST /v1/<resource>/{id}`).
        if effect == Effect::Updates {
            continue;
        }
        // A create that a documented natural key protects: a retry is refused as a duplicate.
        // (Asked after the cheaper exemptions above: it reads the operation's whole text.)
        let harms_twice = || cx.moves_money(op).is_some() || cx.relative_change(op).is_some();
        if natural_key(cx.bundle, op, &harms_twice).is_some() {
            continue;
        }
        // The same call at another path, as its text says ("This endpoint is the same as POST
        // /files/{fileID}": Moov's `/files/{fileID}/new`), is as safe as that one: keyed, or
        // protected by a natural key.
        if protected_alias(cx.bundle, &cx.api.operations, op, cx.settings).is_some() {
            continue;
        }
        // A transition with no body, or one that only names its target, repeats the very same
        // request: it lands in the same state, and what matters is what a repeat answers.
        let target_only =
            matches!(effect, Effect::Transitions(_)) && only_identifies_or_bodiless(cx.bundle, op);
        // What the spec says a repeat answers: a response described as "already" in that state,
        // or a success with a flag for it.
        let repeat = match &effect {
            Effect::Transitions(verb) => repeat_answered(cx.bundle, op, verb),
            _ => None,
        };
        if repeat.is_some_and(|status| status.starts_with('2') || status.starts_with('3')) {
            continue;
        }
        // A switch (enable, deactivate, pause, lock, …) repeated with the same request stays
        // where it is; unless the spec says a repeat is refused, there is nothing to report.
        if target_only
            && repeat.is_none()
            && matches!(&effect, Effect::Transitions(v) if crate::classify::is_switch(op, v))
        {
            continue;
        }
        // A resend exists to send once more (Okta's factor `resend`, Box's "Resends a signature
        // request email", or a send whose text says to call it again to resend: Okta's
        // `sendPin`): a retry's extra message is what the call is for. Reviewers judged a
        // finding that could only say so noise.
        if matches!(&effect, Effect::Sends(verb) if resends(op, verb)) {
            continue;
        }
        let (mut message, severity) = match (&effect, repeat) {
            (Effect::Transitions(verb), Some(status)) => (
                format!(
                    "{} moves its resource to a state (`{verb}`) without an idempotency key, and \
                     answers a repeat with {}: a client retrying after a lost response \
                     sees an error for a call that worked",
                    op.display(),
                    // (A status, or an error code the spec lists: `already_archived`.)
                    if status == "default" || status.starts_with(|c: char| c.is_ascii_digit()) {
                        status.to_string()
                    } else {
                        format!("`{status}`")
                    }
                ),
                Some(Severity::Info),
            ),
            (Effect::Transitions(verb), _) if target_only => (
                format!(
                    "{} moves its resource to a state (`{verb}`) without an idempotency key, and \
                     the spec does not say what a repeat answers: a client retrying after a lost \
                     response needs the current state (2xx), not an error for a call that worked",
                    op.display()
                ),
                Some(Severity::Info),
            ),
            // The damage decides: money moved twice or a relative change applied twice cannot be
            // undone by deleting a duplicate (an error); a duplicate record or a second run of
            // some work can (a warning). Reviewers of real specs judged an error for every
            // unkeyed create too severe for a duplicate comment or label.
            (Effect::Creates, _) if crate::classify::ordinal_delete(op).is_some() => (
                format!(
                    "{} deletes the last (or next) one without an idempotency key: a retry after \
                     a lost response deletes another",
                    op.display()
                ),
                None,
            ),
            (Effect::Creates, _) => match (cx.moves_money(op), cx.relative_change(op)) {
                (Some(money), _) => (
                    format!(
                        "{} moves money ({money}) without an idempotency key: a retry after a \
                         lost response can move (or record) the money twice",
                        op.display()
                    ),
                    None,
                ),
                (None, Some(relative)) => (
                    format!(
                        "{} sends a relative change ({}) without an idempotency key: a retry \
                         after a lost response applies it twice",
                        op.display(),
                        relative.what
                    ),
                    None,
                ),
                (None, None) => (
                    format!(
                        "{} has no idempotency key: a retry after a lost response is processed \
                         again and can leave a duplicate",
                        op.display()
                    ),
                    Some(Severity::Warning),
                ),
            },
            (Effect::Updates, _) => unreachable!("an update is not reported"),
            (Effect::Transitions(verb), _) => (
                format!(
                    "{} moves its resource to a state (`{verb}`) without an idempotency key: a \
                     retry repeats the transition, harmless only if a repeat is answered with \
                     the current state rather than an error",
                    op.display()
                ),
                // A repeat reaches the same state or is refused: what matters is what it
                // answers, as for a bodiless transition.
                Some(Severity::Info),
            ),
            (Effect::Sends(verb), _) => (
                format!(
                    "{} sends a message (`{verb}`) without an idempotency key: a retry sends it \
                     again (a second email, text or notification)",
                    op.display()
                ),
                Some(Severity::Warning),
            ),
            (Effect::ShortLived(_), _) => unreachable!("a short-lived create is not reported"),
            (Effect::Generates(model), _) => (
                format!(
                    "{} runs a model (body field `{model}`) without an idempotency key: a retry \
                     generates again, billed again and perhaps different, though it keeps \
                     nothing to duplicate",
                    op.display()
                ),
                Some(Severity::Info),
            ),
            (Effect::Exports, _) => (
                format!(
                    "{} starts an export without an idempotency key: a retry exports the same \
                     data again, a spare copy and the work repeated, though none of the data is \
                     duplicated",
                    op.display()
                ),
                Some(Severity::Info),
            ),
            (Effect::JoinsSet(noun), _) => (
                format!(
                    "{} adds to a set (`{noun}`) without an idempotency key: a retry adds the \
                     same member again, harmless only if a repeat leaves one member and no \
                     error",
                    op.display()
                ),
                // Adding a member twice leaves one, if the API says so: what a repeat answers.
                Some(Severity::Info),
            ),
        };
        let others = posts.len() - 1;
        let mut severity = severity;
        if let Some(usual) = usual {
            message.push_str(&format!(
                " ({} of {others} other POST operation{} declare{} one, e.g. {usual})",
                keyed.len(),
                if others == 1 { "" } else { "s" },
                if keyed.len() == 1 { "s" } else { "" },
            ));
        } else if others >= 1
            && (severity != Some(Severity::Info) || undeclared_key().is_some())
            && !declares_a_key_somewhere()
        {
            // A gap of the whole description (Stripe's spec declares no key, though its API
            // takes one on every POST): say so, and that declaring it is the fix. Where the
            // spec itself shows the API takes a key, the gap is the description's: clients
            // that follow it send none, those that know the API do; a level lower.
            if let Some(evidence) = undeclared_key() {
                message = message
                    .replacen(" has no idempotency key", " declares no idempotency key", 1)
                    .replacen(
                        " without an idempotency key",
                        " without declaring an idempotency key",
                        1,
                    );
                message.push_str(&format!(
                    " (no operation of this API declares the key it takes, though the spec \
                     names {evidence}: clients that follow the spec send none; declare it)"
                ));
                severity = Some(match severity {
                    None | Some(Severity::Error) => Severity::Warning,
                    Some(_) => Severity::Info,
                });
            } else {
                message.push_str(
                    " (no POST operation of this API declares one: if the API accepts a key, \
                     declare it in the description)",
                );
            }
        }
        let help = if target_only {
            "answer a repeat with 200 and the current state, and say so in the response's \
             description (or add a required `Idempotency-Key` header); if a repeat is harmless \
             here, say so with `x-idempotency: false`"
                .to_string()
        } else if let Some(usual) = usual {
            format!(
                "declare the {usual} the other operations use; if duplicates are harmless here, \
                 say so with `x-idempotency: false`"
            )
        } else {
            "add a required `Idempotency-Key` header parameter (a client-generated UUID) and \
             document how long keys are kept; if duplicates are harmless here, say so with \
             `x-idempotency: false`"
                .to_string()
        };
        let mut d = cx
            .diagnostic(&RULE, op.key, message)
            .with_operation(op)
            .with_help(help);
        // (A target-only transition is better answered by documenting its repeat.)
        if !target_only {
            d = keys.attach(d, op);
        }
        if let Some(severity) = severity {
            d = d.with_severity(severity);
        }
        out.push(d);
    }
}

/// The carrier most operations use (the first met on a tie), so the advice matches the API.
fn most_common<'s>(carriers: &[&'s str]) -> Option<&'s str> {
    let mut counts: std::collections::HashMap<&str, (usize, usize)> = Default::default();
    for (i, c) in carriers.iter().enumerate() {
        counts.entry(c).or_insert((0, i)).0 += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(_, (n, first))| (*n, std::cmp::Reverse(*first)))
        .map(|(c, _)| c)
}
