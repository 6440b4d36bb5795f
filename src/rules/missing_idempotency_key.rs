//! `missing-idempotency-key`: a state-changing POST with no idempotency key.

use super::{Context, Rule, RuleId};
use crate::classify::{Effect, effect};
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Severity;
use crate::idempotency::{delivery_ids, moves_money, natural_key};
use crate::model::{Method, Operation, Site};

pub const RULE: Rule = Rule {
    id: RuleId::MissingIdempotencyKey,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
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
        if let Some(severity) = severity {
            d = d.with_severity(severity);
        }
        out.push(d);
    }
}

/// What a retry of an unkeyed POST does, which decides how bad it is (see [`Effect`]). Money and
/// relative changes count as creates whatever their names say: repeating them is the harm.
pub fn retry_effect(
    bundle: &crate::resolve::Bundle,
    op: &Operation<'_>,
    settings: &crate::config::Settings,
) -> Effect {
    effect_given(
        bundle,
        op,
        || moves_money(bundle, op, settings).is_some(),
        || crate::idempotency::relative_change_evidence(bundle, op).is_some(),
    )
}

/// [`retry_effect`], asking whether `op` moves money or changes something relatively only
/// when its words say it does not create.
fn effect_given(
    bundle: &crate::resolve::Bundle,
    op: &Operation<'_>,
    moves_money: impl Fn() -> bool,
    relative: impl Fn() -> bool,
) -> Effect {
    let by_words = effect(op);
    if by_words != Effect::Creates
        && (moves_money() || relative() || ships_a_replacement(bundle, op))
    {
        Effect::Creates
    } else if by_words == Effect::Creates
        && let Some(verb) = bulk_transition(bundle, op)
        && !moves_money()
        && !relative()
    {
        Effect::Transitions(verb)
    } else if let Effect::JoinsSet(noun) = &by_words
        && crate::vocabulary::EXISTING_THING_NOUNS
            .iter()
            .any(|n| crate::classify::inflects(noun, n))
        && makes_a_record(bundle, op)
    {
        // "Add a contact to an account" with a first name and a phone makes a contact; adding
        // users or organizations by id, gid or email joins a set.
        Effect::Creates
    } else if by_words == Effect::Creates
        && only_identifies(bundle, op)
        && !moves_money()
        && !relative()
        && let Some(verb) = crate::classify::head_verbs(op)
            .into_iter()
            .find(|h| crate::vocabulary::TRANSITION_VERBS.contains(&h.as_str()))
    {
        // A transition of things the body names by id ("Merge a lead and a user": `from`,
        // `into`): it happens once, whatever the path.
        Effect::Transitions(verb)
    } else if by_words == Effect::Creates
        && crate::classify::gated_on_state(op)
        && !moves_money()
        && !relative()
        && let Some(verb) = crate::classify::head_verbs(op).into_iter().next()
    {
        // Accepted only while its resource is in one state (OpenAI's tool outputs, sent
        // "when a run has the status requires_action", all "in a single request"): the call
        // moves it on, so a retry meets another state. What matters is what a repeat answers.
        Effect::Transitions(verb)
    } else if by_words == Effect::Creates
        && let Some(field) = crate::idempotency::expiring_token(bundle, op)
        && !moves_money()
        && !relative()
    {
        // A bearer token that expires (Unit's customer token, `expiresIn`): one a retry issues
        // again is left to expire unused.
        Effect::ShortLived(format!("a token that expires (`{field}`)"))
    } else if by_words == Effect::Creates && answers_an_sdp_offer(op) && !moves_money() {
        // A WebRTC offer answered with the SDP answer for one connection (OpenAI's
        // `/realtime/calls`): a connection whose answer is lost never completes, and lapses.
        Effect::ShortLived("an SDP answer (`application/sdp`) for one connection".to_string())
    } else if by_words == Effect::Creates
        && let Some(field) = crate::idempotency::expiring_link(bundle, op)
        && !moves_money()
        && !relative()
    {
        // What it makes is a link that stops working within hours (Box's zip download): one a
        // retry makes again is left to expire unused.
        Effect::ShortLived(format!("a link that expires (`{field}`)"))
    } else if by_words == Effect::Creates
        && let Some(model) = generation(bundle, op)
        && !moves_money()
        && !relative()
    {
        Effect::Generates(model)
    } else if by_words == Effect::Creates
        && crate::classify::makes_an_export(op)
        && !moves_money()
        && !relative()
    {
        // An export of data that exists: a retry makes a spare copy (reviewers judged a
        // duplicate's warning too much for "a harmless extra export file").
        Effect::Exports
    } else if by_words == Effect::Creates && links(bundle, op) && !moves_money() && !relative() {
        // It links things that exist: adding the same link twice leaves one. (The set is the
        // last word that is no verb: `conversations` of Slack's `admin.conversations.invite`.)
        let noun = op
            .path
            .split('/')
            .rev()
            .find(|s| !s.is_empty() && !s.starts_with('{'))
            .map(crate::heuristics::words)
            .and_then(|w| {
                w.iter()
                    .rev()
                    .find(|x| {
                        !crate::vocabulary::WRITE_VERBS
                            .contains(&crate::classify::base_verb(x).as_str())
                    })
                    .or(w.last())
                    .cloned()
            })
            .unwrap_or_default();
        Effect::JoinsSet(noun)
    } else {
        by_words
    }
}

/// Whether a replace or reissue sends where to ship what it makes: Unit's "Replace a Card" at
/// `/cards/{cardId}/replace` with a required `shippingAddress` orders a new physical card, and
/// a retry orders (and ships) another; it sets nothing on the old one.
fn ships_a_replacement(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    // An action under the one thing replaced (`/cards/{cardId}/replace`, `…/replacement`,
    // `…/actions/reissue`, `/cards/{id}:replace`), and that thing no shipment or address, whose
    // replacement with a new address is an update.
    let path = op.path.as_str().replace(':', "/");
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let replaces = segments
        .iter()
        .rposition(|s| s.starts_with('{'))
        .filter(|&at| at > 0 && segments.len() - at <= 3)
        .is_some_and(|at| {
            let acts = segments[at + 1..].iter().any(|s| {
                crate::heuristics::words(s).iter().any(|w| {
                    matches!(
                        w.as_str(),
                        "replace" | "replacement" | "reissue" | "reissuance"
                    )
                })
            });
            let noun = crate::heuristics::words(segments[at - 1]).pop();
            acts && noun.is_none_or(|n| {
                !matches!(
                    n.as_str(),
                    "shipment"
                        | "shipments"
                        | "address"
                        | "addresses"
                        | "label"
                        | "labels"
                        | "delivery"
                        | "deliveries"
                        | "shipping"
                        | "parcel"
                        | "parcels"
                        | "package"
                        | "packages"
                )
            })
        });
    replaces && {
        let props = crate::idempotency::body_properties(bundle, op);
        crate::idempotency::sent_fields(bundle, &props)
            .iter()
            .any(|p| {
                let w = crate::heuristics::words(p.name);
                w.iter().any(|x| x == "shipping")
                    || w.windows(2).any(|x| x[0] == "ship" && x[1] == "to")
            })
    }
}

/// Whether a success answers with an SDP answer (RFC 8866, `application/sdp`): the call
/// negotiates one WebRTC connection, which the client completes with that answer.
fn answers_an_sdp_offer(op: &Operation<'_>) -> bool {
    op.responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .filter_map(|r| r.node.get("content"))
        .any(|c| {
            c.node
                .entries()
                .iter()
                .any(|e| crate::model::media_essence(&e.key.text) == "application/sdp")
        })
}

/// The body field that names the model, when a POST runs one on what it is sent and keeps
/// nothing: a `model` (or Box's `ai_agent` under an `/ai` path) beside what the model reads
/// (`prompt`, `messages`, `input`, `items`, a `file`), and no item path under it to fetch what
/// it made (OpenAI's `/chat/completions/{completion_id}` keeps completions, `/videos/{id}` its
/// videos: those are creates).
fn generation(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> Option<String> {
    if op.item_parameter.is_some() || op.path.contains('{') {
        return None;
    }
    let props = crate::idempotency::body_properties(bundle, op);
    let has = |names: &[&str]| {
        props
            .iter()
            .find(|p| names.contains(&crate::idempotency::squash(p.name).as_str()))
            .map(|p| p.name.to_string())
    };
    let under_ai = op.path.split('/').any(|s| s.eq_ignore_ascii_case("ai"));
    let model = has(&["model"]).or_else(|| under_ai.then(|| has(&["aiagent"])).flatten())?;
    // What only a model reads (a prompt, chat messages, an input), or a file, an image or items
    // at a path that names what a model does (`/audio/transcriptions`, `/images/variations`,
    // `/ai/extract`): a 3D print's `model` and `file`, an order's car `model` and `items`, are
    // creates.
    let model_work = || {
        under_ai
            || crate::heuristics::words(op.path).iter().any(|w| {
                crate::vocabulary::MODEL_WORK_NOUNS
                    .contains(&crate::classify::base_verb(w).as_str())
            })
    };
    if has(&["prompt", "messages", "input"]).is_none()
        && !(has(&["items", "file", "image"]).is_some() && model_work())
    {
        return None;
    }
    Some(model)
}

/// The verb of a transition of many things at once, named by a `bulk` or `batch` segment and
/// sent only the ids of what it moves (Square's `/labor/scheduled-shifts/bulk-publish`, a map
/// whose "key is the ID of a scheduled shift", beside an enum of who is notified): each one
/// reaches the state, and a repeat finds it there. Not a batch of new content (`batch-publish`
/// of `messages` to a topic sends them). `publish` counts here, where what is published
/// exists.
fn bulk_transition(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> Option<String> {
    use crate::vocabulary::{NEW_UNLESS_NAMED_VERBS, TRANSITION_VERBS};
    let segment = crate::heuristics::words(crate::classify::last_literal_segment(op.path));
    let [qualifier, verb] = segment.as_slice() else {
        return None;
    };
    if !matches!(qualifier.as_str(), "bulk" | "batch")
        || !(verb == "publish"
            || (TRANSITION_VERBS.contains(&verb.as_str())
                && !NEW_UNLESS_NAMED_VERBS.contains(&verb.as_str())))
    {
        return None;
    }
    let props = crate::idempotency::body_properties(bundle, op);
    // A map keyed by the ids of what it moves, as its description says.
    let keyed_by_ids = |p: &crate::idempotency::Property<'_>| {
        p.schema.node.get("additionalProperties").is_some()
            && crate::idempotency::description_of(&p.schema).is_some_and(|d| {
                let w = crate::heuristics::words(d);
                w.windows(2).any(|x| x[0] == "key" && x[1] == "is")
                    && w.iter().any(|x| x == "id" || x == "ids")
            })
    };
    let ids = |p: &crate::idempotency::Property<'_>| {
        crate::idempotency::names_an_id(p.name) || keyed_by_ids(p)
    };
    // (An enum, inline or through a `$ref`; not an object beside a description.)
    let setting = |p: &crate::idempotency::Property<'_>| p.schema.node.get("enum").is_some();
    (props.iter().any(ids) && props.iter().all(|p| ids(p) || setting(p))).then(|| verb.clone())
}

/// Whether a create under a resource its path names only links things that exist: its body
/// names them by id and nothing else (Twilio's `PhoneNumberSid` added to a Messaging Service),
/// or its path names both ends and it has no body (`…/Domains/{DomainSid}/MessagingServices/
/// {MessagingServiceSid}`).
fn links(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let path = op.path.trim_end_matches('/');
    let ends_with_parameter = path.rsplit('/').next().is_some_and(|s| s.starts_with('{'));
    let under_instance = path.contains('{');
    match &op.request_body {
        // "Create a link", "Add the service to the domain": the verb must make the link; a
        // bodiless "Review a request" at `/requests/{id}` acts on that request.
        None => {
            ends_with_parameter
                && path.matches('{').count() >= 2
                && crate::classify::head_verbs(op).iter().any(|h| {
                    matches!(
                        h.as_str(),
                        "create" | "add" | "link" | "assign" | "attach" | "associate" | "put"
                    )
                })
        }
        Some(_) => {
            if invites_an_address(bundle, op) {
                return true;
            }
            // A verb that links and what it links, right under the resource the path names
            // (Square's `/gift-cards/{gift_card_id}/link-customer`, sent `customer_id`): the
            // body names the other end by id, and a link made twice is one link.
            if let [.., parent, last] = path.split('/').collect::<Vec<_>>().as_slice()
                && parent.starts_with('{')
                && let [verb, noun @ ..] = crate::heuristics::words(last).as_slice()
                && crate::vocabulary::LINK_VERBS.contains(&verb.as_str())
                && !noun.is_empty()
            {
                let noun = noun.concat();
                let props = crate::idempotency::body_properties(bundle, op);
                if props.iter().any(|p| {
                    crate::idempotency::squash(p.name)
                        .strip_prefix(noun.as_str())
                        .is_some_and(|rest| rest == "id" || rest == "ids")
                }) && only_ids(bundle, op)
                {
                    return true;
                }
            }
            // A segment that adds an existing thing under the resource, sent that thing and
            // where it goes among the others (Asana's `/sections/{section_gid}/addTask`, `{task,
            // insert_before, insert_after}`): a place before or after another makes the
            // collection an ordered set, where the thing added twice is there once. (A
            // `position` alone does not: a playlist may hold a track twice. A field that may
            // also be a new thing, Asana's `custom_field` `oneOf` a gid or a new field, is no
            // reference.)
            if let [.., parent, last] = path.split('/').collect::<Vec<_>>().as_slice()
                && parent.starts_with('{')
                && let [verb, noun @ ..] = crate::heuristics::words(last).as_slice()
                && verb == "add"
                && !noun.is_empty()
            {
                let noun = noun.concat();
                let props = body_properties_unwrapped(bundle, op);
                fn type_of<'p>(p: &crate::idempotency::Property<'p>) -> Option<&'p str> {
                    p.schema
                        .node
                        .get("type")
                        .and_then(crate::source::Node::as_str)
                }
                let names_it = |p: &crate::idempotency::Property<'_>| {
                    crate::idempotency::squash(p.name) == noun && type_of(p) == Some("string")
                };
                let placed = |p: &crate::idempotency::Property<'_>| {
                    matches!(
                        crate::idempotency::squash(p.name).as_str(),
                        "insertbefore" | "insertafter"
                    )
                };
                let flags = props
                    .iter()
                    .filter(|p| type_of(p) == Some("boolean"))
                    .count();
                if props.iter().any(names_it)
                    && props.iter().any(placed)
                    && flags <= 1
                    && props
                        .iter()
                        .all(|p| names_it(p) || placed(p) || type_of(p) == Some("boolean"))
                {
                    return true;
                }
            }
            // Its path names both ends and its verb links them, and the body only names more
            // by id (Okta's "Link a user to IdP" at `/idps/{idpId}/users/{userId}`, sent the
            // user's `externalId`).
            if ends_with_parameter
                && path.matches('{').count() >= 2
                && crate::classify::head_verbs(op)
                    .iter()
                    .any(|h| crate::vocabulary::LINK_VERBS.contains(&h.as_str()))
                && only_ids(bundle, op)
            {
                return true;
            }
            // A collection of links under the resource, sent ids and what kind of thing each
            // names (Okta's `/policies/{policyId}/mappings`, "Map a resource to a policy",
            // `{resourceId, resourceType}`). Not Stripe's `login_links`, sent nothing to link.
            let last_noun = crate::heuristics::words(crate::classify::last_literal_segment(path))
                .pop()
                .unwrap_or_default();
            // (Or two ids or more, the ends of the link, and settings of it: Okta's Cross App
            // Access `/apps/{appId}/cwo/connections`, `{requestingAppInstanceId,
            // resourceAppInstanceId, status}`.)
            if under_instance
                && !ends_with_parameter
                && last_noun
                    .strip_suffix('s')
                    .is_some_and(|n| crate::vocabulary::LINK_NOUNS.contains(&n))
                && (ids_and_their_kinds(bundle, op) || ends_and_settings(bundle, op))
            {
                return true;
            }
            // Nothing but one list of ids of things that exist, sent to a collection of links
            // or grants under the resource (OpenAI's `createFineTuningCheckpointPermission` at
            // `…/permissions`, `{project_ids}`, "The project identifiers to grant access to"):
            // each is attached to it, and attached twice is attached. Sent to another
            // collection, a list of ids makes a thing of its own (a "file batch" of `file_ids`,
            // an export of `document_ids`, a shipment of `item_ids`).
            if under_instance
                && !ends_with_parameter
                && crate::vocabulary::LINK_NOUNS
                    .contains(&crate::classify::base_verb(&last_noun).as_str())
                && only_an_id_list(bundle, op)
            {
                return true;
            }
            // The id names one of what the path collects (`PhoneNumberSid` of `/PhoneNumbers`,
            // `user_id` of `/users`): a pipeline made from a `connectorID` is new.
            let collected: String = path
                .rsplit('/')
                .find(|s| !s.is_empty() && !s.starts_with('{'))
                .map(crate::heuristics::words)
                .unwrap_or_default()
                .concat();
            // A group's `membership` holds members (Okta's `memberExternalId`).
            let (singular, plural) = match collected.strip_suffix("membership") {
                Some(rest) => (format!("{rest}member"), true),
                None => (
                    collected
                        .strip_suffix('s')
                        .unwrap_or(&collected)
                        .to_string(),
                    collected.ends_with('s'),
                ),
            };
            let props = crate::idempotency::body_properties(bundle, op);
            (under_instance
                && !singular.is_empty()
                && plural
                && props.iter().any(|p| {
                    let name = crate::idempotency::squash(p.name);
                    // Intercom's "Attach a contact to a company": `{id}` of the company; Okta's
                    // `trusted` of `/associatedServers`, "A list of the authorization server
                    // IDs".
                    name.starts_with(&singular)
                        || name == "id"
                        || ids_of(p).is_some_and(|what| singular.ends_with(&what))
                })
                && only_ids(bundle, op))
                || (!under_instance && only_references(bundle, op))
        }
    }
}

/// Whether a POST invites a person by address (Box's `/invites` of an `actionable_by.login`,
/// OpenAI's `/organization/invites` of an `email`, Slack's `admin.users.invite`): the invitees
/// are a set keyed by their address, and a second invite to the same one is refused or stands for
/// the first, never a second invitee.
fn invites_an_address(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let invite = |w: &String| {
        matches!(
            w.as_str(),
            "invite" | "invites" | "invitation" | "invitations"
        )
    };
    let named = crate::heuristics::words(crate::classify::last_literal_segment(op.path))
        .iter()
        .any(invite)
        || op
            .operation_id
            .is_some_and(|id| crate::heuristics::words(id).iter().any(invite));
    if !named {
        return false;
    }
    // (Not one whose text says each call makes a new invitation, "Each call sends a new
    // invitation with its own ticket URL". A lifetime of its own says nothing of a repeat: Clerk's
    // invitations expire, and a second one for the same address is refused.)
    // ("Creates a new invitation" alone is how any invite opens: the sentence must say each
    // call makes one.)
    let says_new = op.texts().any(|d| {
        d.split(['.', ';', '\n']).any(|sentence| {
            let w = crate::heuristics::words(sentence);
            w.windows(2).any(|x| x[0] == "new" && invite(&x[1]))
                && (w.iter().any(|x| x == "again")
                    || w.windows(2).any(|x| {
                        matches!(x[0].as_str(), "each" | "every")
                            && matches!(x[1].as_str(), "call" | "request" | "time")
                    }))
        })
    });
    if says_new {
        return false;
    }
    let top = crate::idempotency::body_properties(bundle, op);
    let address = |p: &crate::idempotency::Property<'_>| {
        matches!(
            crate::idempotency::squash(p.name).as_str(),
            "email" | "emailaddress" | "login"
        )
    };
    top.iter().any(|p| {
        (p.required && address(p)) || {
            let mut inner = Vec::new();
            crate::idempotency::schema_properties(bundle, p.schema, 1, &mut inner);
            // (Box requires `actionable_by` and lists `id` as required in it, beside the only
            // property it has, `login`.)
            p.required && inner.iter().any(address)
        }
    })
}

/// Whether a body only refers to things that exist, two or more of them, and so makes a link
/// between them (Box's "Assign storage policy", `{storage_policy: {type, id}, assigned_to:
/// {type, id}}`; a segment restriction between two segments): each field an id, a list of
/// ids, a reference object of an `id` with at most its `type` or `login`, or a one-value
/// discriminator (`type: [segment_restriction]`); in a membership, the member's role or access
/// level too. A date or any other content makes more than a link.
/// The body's top-level properties, or those of its one `data` wrapper (Asana wraps every body
/// in `data`).
fn body_properties_unwrapped<'a>(
    bundle: &'a crate::resolve::Bundle,
    op: &Operation<'a>,
) -> Vec<crate::idempotency::Property<'a>> {
    let props = crate::idempotency::body_properties(bundle, op);
    if let [only] = props.as_slice()
        && only.name == "data"
    {
        let mut inner = Vec::new();
        crate::idempotency::schema_properties(bundle, only.schema, 0, &mut inner);
        return inner;
    }
    props
}

fn only_references(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let props = body_properties_unwrapped(bundle, op);
    let reference = |p: &crate::idempotency::Property<'_>| {
        let name = crate::idempotency::squash(p.name);
        // (Or named for its thing and described as its id: Asana's `member`, "The gid of the
        // user or team".)
        if name.ends_with("id") || name.ends_with("ids") || described_as_id(p) {
            return true;
        }
        let mut inner = Vec::new();
        crate::idempotency::schema_properties(bundle, p.schema, 1, &mut inner);
        inner.iter().any(|q| q.name == "id")
            && inner
                .iter()
                .all(|q| matches!(q.name, "id" | "type" | "login"))
    };
    let discriminator = |p: &crate::idempotency::Property<'_>| {
        p.schema
            .node
            .get("enum")
            .is_some_and(|e| e.items().len() == 1)
    };
    // What is made is a link by name: an assignment, a membership, … or by its verb ("Assign
    // storage policy"); an add or an invite only as the method's own name (Slack's
    // `restrictAccess.addGroup` of a group and a channel, `admin.conversations.invite` of
    // users to a channel), not "Add an order" at `/orders`, which makes one. Square's
    // `bulk-swap-plan` of ids swaps plans.
    let a_link = || {
        let segment = crate::heuristics::words(crate::classify::last_literal_segment(op.path));
        let noun = segment.last().cloned().unwrap_or_default();
        crate::vocabulary::LINK_NOUNS.contains(&crate::classify::base_verb(&noun).as_str())
            // The status of one thing for another (Box's `/terms_of_service_user_statuses`, a
            // user's acceptance of terms): one for each pair, so the segment names the two
            // things (`document_user_statuses`); `/shipment_statuses` records a status of one
            // thing, each a new entry of its history.
            || (matches!(noun.as_str(), "status" | "statuses") && segment.len() >= 3)
            || crate::classify::head_verbs(op)
                .iter()
                .any(|h| crate::vocabulary::LINK_VERBS.contains(&h.as_str()))
            || segment.iter().any(|w| w == "add" || w == "invite")
    };
    // One flag on the link may come with it (Slack's `admin.usergroups.addTeams`,
    // `auto_provision`); more make a thing with settings of its own.
    let flag = |p: &crate::idempotency::Property<'_>| {
        p.schema
            .node
            .get("type")
            .and_then(crate::source::Node::as_str)
            == Some("boolean")
    };
    // A member's role or access level in a membership (Asana's `access_level`, `role`) is
    // what the link grants: a membership is one a pair, whatever its role.
    let membership = {
        let segment = crate::heuristics::words(crate::classify::last_literal_segment(op.path));
        segment
            .last()
            .is_some_and(|n| matches!(n.as_str(), "membership" | "memberships"))
    };
    let role = |p: &crate::idempotency::Property<'_>| {
        membership
            && matches!(
                crate::idempotency::squash(p.name).as_str(),
                "role" | "accesslevel" | "permissionlevel"
            )
    };
    let references = props.iter().filter(|p| reference(p)).count();
    references >= 2
        && props.iter().filter(|p| flag(p)).count() <= 1
        && props
            .iter()
            // (Slack sends its auth `token` as a form field.)
            .all(|p| reference(p) || discriminator(p) || flag(p) || role(p) || p.name == "token")
        && a_link()
}

/// What the spec says a repeat of a transition by `verb` answers: for a request that only
/// names its target (so a repeat is the very same request), a response described as "already"
/// in that state or a success with a flag for it; otherwise only such a flag, which answers
/// whatever else the body sends.
pub fn repeat_answered<'a>(
    bundle: &'a crate::resolve::Bundle,
    op: &Operation<'a>,
    verb: &str,
) -> Option<&'a str> {
    if only_identifies_or_bodiless(bundle, op) {
        crate::idempotency::transition_repeat_answer(bundle, op, verb)
    } else {
        crate::idempotency::repeat_flagged(bundle, op)
    }
}

/// The operation `op`'s description says it is the same as ([`alias_of`]), when that one is
/// keyed or protected by a natural key: a retry of `op` is as safe as one of it.
pub fn protected_alias<'a, 'b>(
    bundle: &'b crate::resolve::Bundle,
    operations: &'a [Operation<'b>],
    op: &Operation<'_>,
    settings: &crate::config::Settings,
) -> Option<&'a Operation<'b>> {
    alias_of(operations, op).filter(|other| {
        !crate::idempotency::key_carriers(bundle, other, settings).is_empty()
            || natural_key(bundle, other, &|| {
                crate::idempotency::moves_money(bundle, other, settings).is_some()
                    || crate::idempotency::relative_change_evidence(bundle, other).is_some()
            })
            .is_some()
    })
}

/// The other operation of the API that `op`'s description says it is the same as, named by
/// method and path: "This endpoint is the same as POST /files/{fileID}".
fn alias_of<'a, 'b>(
    operations: &'a [Operation<'b>],
    op: &Operation<'_>,
) -> Option<&'a Operation<'b>> {
    let text = op
        .node
        .node
        .get("description")
        .and_then(crate::source::Node::as_str)?;
    let at = text.find("the same as ")? + "the same as ".len();
    let mut said = text[at..].split_whitespace();
    let method = said.next()?.trim_matches('`');
    let path = said
        .next()?
        .trim_matches(|c: char| c == '`' || c == '.' || c == ',' || c == ';');
    operations.iter().find(|o| {
        o.method == op.method
            && method.eq_ignore_ascii_case(o.method.upper())
            && o.path.as_str() == path
            && o.site == crate::model::Site::Path
            && o.index != op.index
    })
}

/// Whether a send by `verb` exists to send once more: a `resend`, or a send whose text says to
/// call it again to resend.
pub fn resends(op: &Operation<'_>, verb: &str) -> bool {
    verb == "resend" || says_call_again(op)
}

/// Whether an operation's description says a resend is this call made again: "To resend the
/// PIN, call this operation again" (Okta's `sendPin`).
fn says_call_again(op: &Operation<'_>) -> bool {
    op.node
        .node
        .get("description")
        .and_then(crate::source::Node::as_str)
        .is_some_and(|d| {
            // (In one sentence, of this call: not "to resend an invite, use `/invites/resend`"
            // beside "try again later".)
            d.to_ascii_lowercase().split(['.', '\n']).any(|sentence| {
                sentence.contains("to resend")
                    && sentence.contains("again")
                    && [
                        "this operation",
                        "this endpoint",
                        "this call",
                        "this method",
                        "this request",
                        "call it again",
                    ]
                    .iter()
                    .any(|w| sentence.contains(w))
            })
        })
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

/// Whether `op` has no request body, or one that only names what it acts on: a retry is the
/// very same request.
pub fn only_identifies_or_bodiless(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    op.request_body.is_none() || only_identifies(bundle, op)
}

/// Whether a body describes a new record (a name, a phone, a title, an address): what an add
/// makes rather than joins.
fn makes_a_record(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    crate::idempotency::body_properties(bundle, op)
        .iter()
        .any(|p| {
            matches!(
                crate::idempotency::squash(p.name).as_str(),
                "name"
                    | "firstname"
                    | "lastname"
                    | "fullname"
                    | "givenname"
                    | "familyname"
                    | "phone"
                    | "phonenumber"
                    | "title"
                    | "description"
                    | "address"
                    | "body"
                    | "text"
                    | "content"
                    | "company"
            )
        })
}

/// Whether a body holds ids and nothing else: what a link sends. (A `comment` or `note` is
/// content of its own: `POST /issues/{id}/comments {comment}` makes one.)
fn only_ids(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let props = crate::idempotency::body_properties(bundle, op);
    !props.is_empty()
        && props.iter().all(|p| {
            let name = crate::idempotency::squash(p.name);
            name == "expand"
                || ["id", "ids", "slug", "slugs", "login", "logins"]
                    .iter()
                    .any(|e| name.ends_with(e))
                || ids_of(p).is_some()
        })
}

/// Whether a body holds two ids or more, the ends of a link, and besides them only settings (an
/// enum or a flag), leaving out what the server writes (`readOnly`).
fn ends_and_settings(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let props = crate::idempotency::body_properties(bundle, op);
    let written: Vec<_> = props
        .iter()
        .filter(|p| {
            p.schema
                .node
                .get("readOnly")
                .and_then(crate::source::Node::as_bool)
                != Some(true)
        })
        .collect();
    // (Ids of things the API holds: not a client's or an external system's, which a thing
    // of its own carries: an SSO connection's `client_id`, `external_id`.)
    let id = |p: &crate::idempotency::Property<'_>| {
        crate::idempotency::names_an_id(p.name)
            && !crate::heuristics::words(p.name)
                .iter()
                .any(|x| matches!(x.as_str(), "client" | "external"))
    };
    let setting = |p: &crate::idempotency::Property<'_>| {
        p.schema.node.get("enum").is_some()
            || p.schema
                .node
                .get("type")
                .and_then(crate::source::Node::as_str)
                == Some("boolean")
    };
    written.iter().filter(|p| id(p)).count() >= 2 && written.iter().all(|p| id(p) || setting(p))
}

/// Whether a body holds one list of ids (an array of strings or numbers named for them,
/// `project_ids`, or described as a list of ids) and nothing else but `expand`. (`kids` and
/// `grids` are no ids.)
fn only_an_id_list(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let props = crate::idempotency::body_properties(bundle, op);
    let mut lists = props.iter().filter(|p| p.name != "expand");
    let scalar_items = |p: &crate::idempotency::Property<'_>| {
        p.schema.node.get("items").is_some_and(|items| {
            let items = bundle.deref(p.schema.with(items));
            matches!(
                items.node.get("type").and_then(crate::source::Node::as_str),
                Some("string" | "integer" | "number")
            )
        })
    };
    lists.next().is_some_and(|p| {
        p.schema
            .node
            .get("type")
            .and_then(crate::source::Node::as_str)
            == Some("array")
            && scalar_items(p)
            && (crate::heuristics::words(p.name)
                .last()
                .is_some_and(|w| w == "ids")
                || ids_of(p).is_some())
    }) && lists.next().is_none()
}

/// Whether a body holds ids, at least one, and what kind of thing they name (an enum ending in
/// `type`: Okta's `resourceType`), and nothing else, of a call that does not say it creates.
fn ids_and_their_kinds(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let props = crate::idempotency::body_properties(bundle, op);
    let kind = |p: &crate::idempotency::Property<'_>| {
        crate::heuristics::words(p.name)
            .last()
            .is_some_and(|w| w == "type")
            && (p.schema.node.get("enum").is_some()
                || p.beside_ref.is_some()
                || p.schema.node.get("$ref").is_some())
    };
    // ("Create a share link for a recipient", "Create an assignment from a template": a
    // create that says so makes a thing of its own.)
    !crate::classify::head_verbs(op)
        .iter()
        .any(|h| h == "create")
        && props
            .iter()
            .any(|p| crate::idempotency::names_an_id(p.name))
        && props.iter().any(kind)
        && props
            .iter()
            .all(|p| crate::idempotency::names_an_id(p.name) || kind(p) || p.name == "expand")
}

/// What a list of ids names, when a property is one by its description ("A list of the
/// authorization server IDs" → `server`): an array of strings whose description's head noun
/// is `IDs`.
fn ids_of(p: &crate::idempotency::Property<'_>) -> Option<String> {
    let node = p.schema.node;
    if node.get("type").and_then(crate::source::Node::as_str) != Some("array") {
        return None;
    }
    let description = node
        .get("description")
        .and_then(crate::source::Node::as_str)?;
    let first = description.split(['.', '\n']).next().unwrap_or_default();
    let words = crate::heuristics::words(first);
    let at = words.iter().position(|w| w == "ids")?;
    (at > 0 && at + 1 == words.len()).then(|| words[at - 1].clone())
}

/// Whether a request body only names what the call acts on (Slack's form `user_id`, Stripe's
/// `expand`, an auth `token`) and notes why (`reason`, `note`): a retry of it is the same
/// request, as a bodiless one is.
pub(super) fn only_identifies(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    let props = crate::idempotency::body_properties(bundle, op);
    if props.is_empty() {
        return empty_object_body(bundle, op);
    }
    props.iter().all(|p| {
        let name = crate::idempotency::squash(p.name);
        name == "expand"
            || name == "token"
            // What the answer includes (Slack's `include_count`): the same on every retry.
            || name.starts_with("include")
            // A field named for its thing and described as its id (Slack's `usergroup`, "The
            // encoded ID of the User Group to enable").
            || described_as_id(p)
            || name.ends_with("id")
            || name.ends_with("ids")
            // (A last word: not `allow_login`, `last_login`, which are flags and dates.)
            || crate::heuristics::words(p.name).last().is_some_and(|w| {
                matches!(w.as_str(), "slug" | "slugs" | "login" | "logins")
                    && !matches!(
                        p.schema.node.get("type").and_then(crate::source::Node::as_str),
                        Some("boolean" | "integer")
                    )
                    && !crate::heuristics::words(p.name)
                        .iter()
                        .any(|w| matches!(w.as_str(), "last" | "allow" | "require" | "disable"))
            })
            // A note on the call (PayPal's suspend `reason`), the same on every retry.
            || name.ends_with("reason")
            || matches!(name.as_str(), "note" | "notes" | "comment" | "memo")
    })
}

/// Whether a scalar field's description opens by calling it an id: "The encoded ID of the User
/// Group to enable", "ID of the channel". Not "The name of the group, unique like an ID".
fn described_as_id(p: &crate::idempotency::Property<'_>) -> bool {
    let scalar = matches!(
        p.schema
            .node
            .get("type")
            .and_then(crate::source::Node::as_str),
        Some("string" | "integer")
    );
    let Some(description) = p
        .schema
        .node
        .get("description")
        .and_then(crate::source::Node::as_str)
    else {
        return false;
    };
    // The opening words only; cut on a character, never inside one ("ID de l’équipe…").
    let opening = description
        .char_indices()
        .nth(80)
        .map_or(description, |(at, _)| &description[..at]);
    let w = crate::heuristics::words(opening);
    // (Asana's global ids: "The gid of the user or team".)
    scalar
        && w.iter()
            .take(4)
            .position(|x| x == "id" || x == "gid")
            .is_some_and(|at| w.get(at + 1).is_some_and(|n| n == "of"))
}

/// Whether every request body is an object that can hold nothing, or is said to be empty
/// (Unit's "Pass empty object in order for content-type to be aquired correctly" on
/// `{type: object}`): it carries no more than no body does. A bare `{type: object}` may hold
/// anything.
fn empty_object_body(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
    use crate::source::Node;
    let Some(body) = &op.request_body else {
        return false;
    };
    let said_empty = |text: Option<&str>| {
        text.is_some_and(|t| crate::heuristics::words(t).iter().any(|w| w == "empty"))
    };
    let body_said_empty = said_empty(
        body.node
            .and_then(|b| b.node.get("description"))
            .and_then(Node::as_str),
    );
    !body.content.is_empty()
        && body.form_fields.is_empty()
        && body.content.iter().all(|m| {
            m.schema.map(|s| bundle.deref(s)).is_some_and(|s| {
                let closed = s.node.get("additionalProperties").and_then(Node::as_bool)
                    == Some(false)
                    || s.node.get("maxProperties").and_then(Node::scalar_text) == Some("0");
                let empty = closed
                    || body_said_empty
                    || said_empty(s.node.get("description").and_then(Node::as_str));
                empty
                    && s.node.get("type").and_then(Node::as_str) == Some("object")
                    && ["properties", "allOf", "oneOf", "anyOf", "patternProperties"]
                        .iter()
                        .all(|k| s.node.get(k).is_none())
                    && s.node
                        .get("additionalProperties")
                        .is_none_or(|a| a.as_bool() == Some(false))
            })
        })
}
