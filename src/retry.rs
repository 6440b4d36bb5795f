//! What a retry of an operation does: the answers the rules and `review` share, so that both say
//! the same, and no rule file exports judgements to another. `retry_effect` judges what a repeat
//! of a state-changing POST does (creates, updates, transitions, joins a set, sends, generates,
//! exports, links, invites), `repeat_answered` and `protected_alias` what else protects a POST
//! without a key; `keyless_retry_harmless` says why an optional key loses nothing,
//! `harmless_patch_retry` why a PATCH is harmless to repeat, `conflict_answered` and
//! `concurrency_harmless` how a concurrent request with the same key is answered, and whether
//! that matters.

use crate::classify::{Effect, effect};
use crate::idempotency::fixed_value_body;
use crate::idempotency::{moves_money, natural_key};
use crate::model::{Operation, media_essence};

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
pub(crate) fn effect_given(
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
fn only_identifies(bundle: &crate::resolve::Bundle, op: &Operation<'_>) -> bool {
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

// An optional key: when the clients that omit it lose nothing (`idempotency-key-optional`).
/// Why a client that leaves an optional key out loses nothing, if it does not; `check` stays
/// quiet then and `review` answers the same.
pub fn keyless_retry_harmless(
    bundle: &crate::resolve::Bundle,
    op: &crate::model::Operation<'_>,
    carrier: &crate::idempotency::KeyCarrier<'_>,
    moves_money: bool,
    relative: bool,
) -> Option<&'static str> {
    // A POST that sets its resource's fields again on a retry ("Updates attachments by file
    // name"), or makes something short-lived (Adyen's checkout `/sessions`: a keyless
    // duplicate expires unused).
    if op.method == crate::model::Method::Post && !moves_money && !relative {
        match crate::classify::effect(op) {
            crate::classify::Effect::Updates => {
                return Some("a keyless retry sets the same values");
            }
            crate::classify::Effect::ShortLived(_) => {
                return Some("a keyless duplicate expires unused");
            }
            // As `missing-idempotency-key` judges it: a resend exists to send once more.
            crate::classify::Effect::Sends(verb) if crate::retry::resends(op, &verb) => {
                return Some("a keyless retry sends once more, which a resend is for");
            }
            // A cancel, an approval of the resource its path names, or its body names by
            // reference (Adyen's `/cancels` with a required `paymentReference`): repeated, it
            // reaches the state the first reached (Square's booking `cancel`); what a repeat
            // answers is `missing-idempotency-key`'s question where no key is taken at all.
            // ("Release a new version" at `/releases` names no resource to move, and may make
            // one each time.)
            crate::classify::Effect::Transitions(_)
                if op.path.contains('{') || names_its_target(bundle, op) =>
            {
                return Some("a keyless retry repeats a transition to the same state");
            }
            _ => {}
        }
    }
    // A natural key refuses a keyless retry as a duplicate (Square's custom attribute
    // definition `key`, "must be unique per application, seller, and resource type").
    if crate::idempotency::natural_key(bundle, op, &|| moves_money || relative).is_some() {
        return Some("a natural key refuses a keyless duplicate");
    }
    // Optional by design, and the key says what a request without it gets.
    if carrier
        .description()
        .is_some_and(|d| crate::idempotency::OPTIONAL_EXPLAINED.is_match(d))
    {
        return Some("the key says what a request without it gets");
    }
    None
}

/// Whether a body names the existing thing a transition acts on: a required field that refers
/// to another by its reference or id (`paymentReference`, `pspReference`, `order_id`), at the
/// top or in a required object (Adyen's `order: {pspReference, orderData}`). A bare `reference`
/// or `id` is the request's own.
fn names_its_target(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    // What the reference names must be what the call acts on: `paymentReference` of "Cancel
    // an authorised payment", `order.pspReference` at `/orders/cancel`; not the `project_id`
    // a new release belongs to.
    let named: Vec<String> = crate::heuristics::words(op.path)
        .into_iter()
        .chain(
            crate::classify::lead_text(op)
                .map(|(_, t)| crate::heuristics::words(&t))
                .unwrap_or_default(),
        )
        .map(|w| w.strip_suffix('s').map(str::to_string).unwrap_or(w))
        .collect();
    let acts_on = |stem: &str| {
        !stem.is_empty()
            && named
                .iter()
                .any(|w| stem.ends_with(w.as_str()) && w.len() > 2)
    };
    let refers_to = |name: &str, parent: Option<&str>| {
        let name = crate::idempotency::squash(name);
        ["reference", "id"].iter().any(|e| {
            name.len() > e.len()
                && name.ends_with(e)
                && (acts_on(&name[..name.len() - e.len()])
                    || parent.is_some_and(|p| acts_on(&crate::idempotency::squash(p))))
        })
    };
    crate::idempotency::body_properties(bundle, op)
        .iter()
        .filter(|p| p.required)
        .any(|p| {
            refers_to(p.name, None) || {
                let mut inner = Vec::new();
                crate::idempotency::schema_properties(bundle, p.schema, 1, &mut inner);
                inner.iter().any(|q| refers_to(q.name, Some(p.name)))
            }
        })
}

// A concurrent request with the same key: how the spec answers it, and when the answer does not
// matter (`missing-conflict-response`).
/// Whether `op` says what a concurrent request with the same key gets, in any way
/// `missing-conflict-response` takes an answer: the `status`, or for a 409 an answer under
/// another status or by an error code. `review` answers its fourth question with the same test.
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
        || crate::idempotency::extension_has_code(op.node.node, &conflict_code)
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
                .any(|n| crate::idempotency::extension_has_code(n, &conflict_code))
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
        Effect::Transitions(_) => crate::retry::only_identifies_or_bodiless(bundle, op),
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

// A PATCH without a key: when repeating it is harmless (`unprotected-patch`).
/// Why a retry of an unprotected PATCH is harmless, if it is; `check` stays quiet then and
/// `review` answers the same.
pub fn harmless_patch_retry(
    bundle: &crate::resolve::Bundle,
    op: &crate::model::Operation<'_>,
    moves_money: bool,
    relative: bool,
) -> Option<&'static str> {
    // A body that can change nothing has nothing to lose on a retry; nor one whose every field
    // takes one value (Adyen's `status: {enum: [expired]}`), a move to a target state that a
    // retry sets again, unless that moves money (`status: [approved]` of a payout).
    if nothing_writable(bundle, op) {
        return Some("its body can set nothing");
    }
    if fixed_value_body(bundle, op).is_some() && !moves_money {
        return Some("its body moves to one target state, which a retry sets again");
    }
    // No body: the PATCH makes one fixed change (GitHub's "Mark a thread as read"), which a
    // retry makes again.
    if op.request_body.is_none() {
        return Some("it has no body: a retry makes the same change again");
    }
    if moves_money || relative {
        return None;
    }
    // The resource carries its version for optimistic concurrency (Kubernetes'
    // `metadata.resourceVersion`), and the patch can send it back: it refuses a stale retry as
    // If-Match would.
    if crate::idempotency::resource_version_sendable(bundle, op) {
        return Some("the resource carries its version for optimistic concurrency");
    }
    // A body of absolute values (a merge patch, or an object of described fields: a merge
    // patch in all but its media type, or a JSON Patch of `replace`, `remove` and `test` only:
    // Okta's app group assignments) is idempotent: a retry sets the same values again. What is
    // left is a change made in between being overwritten, which
    // `missing-precondition-on-update` reports where the resource offers an ETag to send back;
    // reviewers of real specs judged that advice on every PATCH noise.
    let merge_patch_only = op.request_body.as_ref().is_some_and(|b| {
        !b.content.is_empty()
            && b.content
                .iter()
                .all(|m| media_essence(m.media_type) == "application/merge-patch+json")
    });
    // (A retried `remove` of a member fails, as its target must exist (RFC 6902 §4.2), rather
    // than removing twice: a patch of attributes, Okta's app group profile, is harmless. An
    // array index shifts, though: `remove /tracks/0` retried takes the next track, so `remove`
    // counts as safe only where the resource the PATCH answers with holds no list.)
    let safe_json_patch = crate::idempotency::allowed_ops(bundle, op).is_some_and(|ops| {
        ops.iter().all(|o| matches!(o.as_str(), "replace" | "test"))
            || (ops
                .iter()
                .all(|o| matches!(o.as_str(), "replace" | "remove" | "test"))
                && !answers_with_a_list(bundle, op))
    });
    (merge_patch_only || safe_json_patch || sets_fields(bundle, op))
        .then_some("its body sets absolute values, which a retry sets again")
}

/// Whether the resource a PATCH answers with may hold a list (a playlist's `tracks`, at any of
/// its first three levels, or a JSON:API `data.attributes.tracks`), what a JSON Patch may
/// address by index. A PATCH that describes no response body (a `204`) says nothing of its
/// resource, which may then hold one.
fn answers_with_a_list(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    use crate::source::Node;
    let is_list = |s: crate::resolve::At<'_>| {
        let s = bundle.deref(s);
        s.node.get("type").and_then(Node::as_str) == Some("array") || s.node.get("items").is_some()
    };
    let schemas: Vec<crate::resolve::At<'_>> = op
        .responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .flat_map(|r| crate::idempotency::response_schemas(bundle, r))
        .collect();
    if schemas.is_empty() {
        return true;
    }
    fn holds_list(
        bundle: &crate::resolve::Bundle,
        schema: crate::resolve::At<'_>,
        depth: usize,
        is_list: &dyn Fn(crate::resolve::At<'_>) -> bool,
    ) -> bool {
        if is_list(schema) {
            return true;
        }
        if depth >= 3 {
            return false;
        }
        let mut props = Vec::new();
        crate::idempotency::schema_properties(bundle, schema, depth, &mut props);
        props
            .iter()
            .any(|p| holds_list(bundle, p.schema, depth + 1, is_list))
    }
    schemas
        .into_iter()
        .any(|schema| holds_list(bundle, schema, 0, &is_list))
}

/// Whether the PATCH body can set nothing: every property is `readOnly`, or the schema is an
/// object closed to any property (`properties: {}` with `additionalProperties: false`).
fn nothing_writable(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    use crate::source::Node;
    let Some(body) = &op.request_body else {
        return false;
    };
    let props = crate::idempotency::body_properties(bundle, op);
    if !props.is_empty() {
        return props
            .iter()
            .all(|p| p.schema.node.get("readOnly").and_then(Node::as_bool) == Some(true));
    }
    !body.content.is_empty()
        && body.content.iter().all(|m| {
            m.schema.map(|s| bundle.deref(s)).is_some_and(|s| {
                s.node.get("additionalProperties").and_then(Node::as_bool) == Some(false)
                    && s.node.get("properties").is_some()
            })
        })
}

/// Whether the PATCH body is an object of fields to set, as any body with properties is when it
/// is not a JSON Patch: a merge patch in all but its media type, which a retry sets again (unless
/// a field is a relative change, which the caller asks apart).
fn sets_fields(bundle: &crate::resolve::Bundle, op: &crate::model::Operation<'_>) -> bool {
    op.request_body.as_ref().is_some_and(|b| {
        b.content
            .iter()
            .all(|m| media_essence(m.media_type) != "application/json-patch+json")
    }) && !crate::idempotency::body_properties(bundle, op).is_empty()
}
