//! What an operation says about retries: its idempotency key carriers, its preconditions, the
//! `x-idempotency` extension, and the request-body properties the heuristics look at.

use crate::config::Settings;
use crate::heuristics::{
    Evidence, Lifetime, human_duration, lifetime, money_word, relative_change, relative_wording,
    words,
};
pub use crate::heuristics::{Property, squash, squash_eq};
use crate::model::{Method, Operation, Parameter, media_essence};
use crate::resolve::{At, Bundle, Location};
use crate::source::{Node, ScalarKind, Value};
use crate::vocabulary::{
    AMBIGUOUS_FIELDS, AMBIGUOUS_MONEY_VERBS, DELIVERY_HEADER_ENDINGS, MONEY_OBJECTS, MONEY_VERBS,
    ONE_PAYMENT_VERBS, ONE_SHOT_MONEY_VERBS, PREPOSITIONS, PRICING_NOUNS, SWITCHING_VERBS,
    UNDOING_VERBS, UPDATE_VERBS,
};

/// How an operation lets a client make a retry safe.
#[derive(Debug, Clone)]
pub enum KeyCarrier<'a> {
    Header(&'a Parameter<'a>),
    BodyField(Property<'a>),
    /// `x-idempotency: { key: ... }`: a key idemlint does not know by name.
    Extension {
        key: &'a str,
        at: At<'a>,
        /// The `key` entry of the extension.
        key_at: Location,
    },
}

impl<'a> KeyCarrier<'a> {
    /// The carrier's name: header name, field name or the extension's key.
    pub fn name(&self) -> &'a str {
        match self {
            KeyCarrier::Header(p) => p.name,
            KeyCarrier::BodyField(p) => p.name,
            KeyCarrier::Extension { key, .. } => key,
        }
    }

    /// Whether a request without the key is refused. An extension says nothing on this.
    pub fn required(&self) -> Option<bool> {
        match self {
            KeyCarrier::Header(p) => Some(p.required),
            KeyCarrier::BodyField(p) => Some(p.required),
            KeyCarrier::Extension { .. } => None,
        }
    }

    /// Where the carrier is defined: a header's `name` key, a body field's property key, the
    /// extension's value. Shared definitions are one location for every operation using them.
    pub fn location(&self) -> Location {
        match self {
            KeyCarrier::Header(p) => p.node.key_location("name").unwrap_or(p.declared),
            KeyCarrier::BodyField(p) => p.key,
            KeyCarrier::Extension { key_at, .. } => *key_at,
        }
    }

    /// Whether the carrier is known by its name (a key header or key field name, or the
    /// extension's), not only by a description that calls it a key (Square's `customers` map,
    /// keyed by idempotency keys).
    pub fn named(&self, settings: &Settings) -> bool {
        match self {
            KeyCarrier::Header(p) => settings
                .key_headers
                .iter()
                .any(|h| h.eq_ignore_ascii_case(p.name)),
            KeyCarrier::BodyField(p) => settings.key_fields.iter().any(|f| squash_eq(f, p.name)),
            KeyCarrier::Extension { .. } => true,
        }
    }

    /// The carrier's own description: a header's, or a body field's schema's.
    pub fn description(&self) -> Option<&'a str> {
        match self {
            KeyCarrier::Header(p) => p.description,
            KeyCarrier::BodyField(p) => description_of(&p.schema),
            KeyCarrier::Extension { .. } => None,
        }
    }

    /// Where "this key is optional" is best shown: the `required` key when written.
    pub fn required_location(&self) -> Location {
        match self {
            KeyCarrier::Header(p) => p.node.key_location("required").unwrap_or(self.location()),
            _ => self.location(),
        }
    }

    /// `header `Idempotency-Key``, `body field `idempotency_key``.
    pub fn describe(&self) -> String {
        match self {
            KeyCarrier::Header(p) => format!("header `{}`", p.name),
            KeyCarrier::BodyField(p) => match p.parent {
                Some(parent) => format!("body field `{}` (in `{parent}`)", p.name),
                None => format!("body field `{}`", p.name),
            },
            KeyCarrier::Extension { key, .. } => format!("`x-idempotency` key `{key}`"),
        }
    }
}

/// The `x-idempotency` operation extension.
#[derive(Debug, Clone, Copy)]
pub enum Declared<'a> {
    /// `x-idempotency: false`: duplicates are harmless by design.
    NotNeeded,
    Policy(At<'a>),
}

/// The keys an `x-idempotency` mapping may hold (besides `x-` extensions of its own).
pub const POLICY_KEYS: [&str; 4] = ["key", "ttl", "concurrency", "mismatch"];

pub fn declared<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Option<Declared<'a>> {
    let ext = bundle.deref(op.extension("x-idempotency")?);
    match ext.node.as_bool() {
        Some(false) => Some(Declared::NotNeeded),
        Some(true) => None,
        None => ext.node.as_map().map(|_| Declared::Policy(ext)),
    }
}

/// Key wording that an ambiguous name (`request_id`) needs: "the unique ID of the access
/// request" names a resource, "a unique id for this request, to prevent duplicates" a key.
static STRONG_KEY_WORDING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)
        idempoten
        | (?-u:\b)(retr(y|ies|ied|ying)|duplicat(?-u:\w)*|de-?dup(?-u:\w)*|replay(?-u:\w)*|more\ than\ once|only\ once)(?-u:\b)
        | (?-u:\b)(client[-\ ]generated|generated\ by\ the\ client|chosen\ by\ the\ client)(?-u:\b)
        | (?-u:\b)unique(?-u:\b)(?u:[^.]){0,40}(?-u:\b)(this|each|every|the)\ (request|call|submission|attempt)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Description wording of a client's idempotency key: idempotency itself, retries, duplicates,
/// a unique client-made id for the request.
static KEY_WORDING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)
        idempoten
        | (?-u:\b)(retr(y|ies|ied|ying)|duplicat(?-u:\w)*|de-?dup(?-u:\w)*|replay(?-u:\w)*|more\ than\ once|only\ once)(?-u:\b)
        | (?-u:\b)unique(?-u:\b)(?u:[^.]){0,60}(?-u:\b)(request|call|submission|operation|attempt)s?(?-u:\b)
        | (?-u:\b)(client[-\ ]generated|generated\ by\ the\ client|chosen\ by\ the\ client)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Wording of a key field that names another request, as a lookup does: "identifying the
/// payment to be canceled".
static OTHER_REQUEST: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)identif(?:y|ying|ies)(?u:\s)+the(?u:\s)+(?:(?-u:\w)+(?u:\s)+){0,2}?(?:to(?u:\s)+be|that|which)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Wording that names a field or header an idempotency key outright, whatever its name: "will
/// serve as an idempotency token".
static IDEMPOTENCY_WORD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(?i-u)(?-u:\b)idempoten(t|cy)(?-u:\b)").expect("valid regex")
});

/// Wording that calls a header or field an idempotency key or token outright ("will serve as
/// an idempotency token"), not one that denies it ("This is not an idempotency key") or says
/// what something else makes idempotent ("makes the update idempotent").
fn described_as_key(description: &str) -> bool {
    static AS_KEY: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i-u)(?-u:\b)idempotency(?u:[\s-])+(?:key|token)s?(?-u:\b)")
            .expect("valid regex")
    });
    static DENIED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i-u)(?-u:\b)not(?u:\s)+(?:an?(?u:\s)+|the(?u:\s)+)?idempotency")
            .expect("valid regex")
    });
    AS_KEY.is_match(description) && !DENIED.is_match(description)
}

/// Whether a map's description says its keys are the idempotency keys of its items: "Each key
/// is the `idempotency_key` that maps to …", "keyed by idempotency key".
fn map_keyed_by_key(description: &str) -> bool {
    static KEYED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i-u)(?-u:\b)(?:each(?u:\s)+key(?u:\s)+is(?u:\s)+the|keyed(?u:\s)+by(?:(?u:\s)+the|(?u:\s)+an?|(?u:\s)+its)?)(?u:\s)+`?idempotency(?u:[\s_-])+(?:key|token)",
        )
        .expect("valid regex")
    });
    KEYED.is_match(description)
}

pub fn description_of<'a>(node: &At<'a>) -> Option<&'a str> {
    node.node.get("description").and_then(Node::as_str)
}

/// Whether a request-body property carries a key: a key-field name (case and separators aside),
/// unless the name is ambiguous and its description speaks of something else; any property
/// described as an idempotency key or token; a `nonce` that guards against replays (described
/// so, or switched on by an `enforce_nonce` beside it).
pub fn carries_key(settings: &Settings, p: &Property<'_>, siblings: &[Property<'_>]) -> bool {
    let description = description_of(&p.schema);
    let by_wording = || {
        if settings.key_fields.iter().any(|f| squash_eq(f, p.name)) {
            return !AMBIGUOUS_FIELDS.iter().any(|a| squash_eq(a, p.name))
                || description.is_none_or(|d| STRONG_KEY_WORDING.is_match(d));
        }
        if description.is_some_and(described_as_key) {
            return true;
        }
        squash_eq(p.name, "nonce")
            && (description.is_some_and(|d| KEY_WORDING.is_match(d))
                || siblings.iter().any(|s| squash_eq(s.name, "enforcenonce")))
    };
    // "The `idempotency_key` identifying the payment to be canceled": another request's key.
    // Asked last: most properties are no key at all.
    by_wording() && !description.is_some_and(|d| OTHER_REQUEST.is_match(d))
}

/// Whether a parameter outside the headers (query, path, cookie) is named as a key and meant as
/// one: a key-header or key-field name, unless the name is ambiguous (`request_id`, a resource id
/// in `/requests/{request_id}`) and its description does not speak of keys.
pub fn parameter_named_like_a_key(settings: &Settings, p: &Parameter<'_>) -> bool {
    let named = settings.key_headers.iter().any(|h| squash_eq(h, p.name))
        || settings.key_fields.iter().any(|f| squash_eq(f, p.name));
    let ambiguous = AMBIGUOUS_FIELDS.iter().any(|a| squash_eq(a, p.name));
    // `/requests/{request_id}` names a resource: a path parameter is never a key.
    named
        && !(ambiguous && p.location == "path")
        && (!ambiguous
            || p.description
                .is_some_and(|d| STRONG_KEY_WORDING.is_match(d)))
}

/// Whether a header parameter carries a key: a key-header name, or a description that calls it
/// an idempotency key or token.
pub fn header_carries_key(settings: &Settings, p: &Parameter<'_>) -> bool {
    p.location == "header"
        && (settings
            .key_headers
            .iter()
            .any(|h| h.eq_ignore_ascii_case(p.name))
            || (!p.name.eq_ignore_ascii_case("If-Match")
                && !p.name.eq_ignore_ascii_case("If-None-Match")
                && p.description.is_some_and(described_as_key)))
}

/// An event's text that it announces a thing made or removed, which happens once to it, and
/// the thing: "Triggers whenever a named version is created".
static EVENT_OF_A_CREATE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)([a-z_]+)(?u:\s)+(?:is|are|was|were|gets?|has(?u:\s)+been|have(?u:\s)+been)(?u:\s)+(?:created|added|deleted|removed)(?-u:\b)",
    )
        .expect("valid regex")
});

/// What a webhook or callback delivery carries for its receiver to dedupe on: a delivery or
/// event id header, a top-level `event_id` or `delivery_id`, or an `id` described as unique or as
/// what to dedupe on. A delivery is retried by the sender, and the receiver, not the sender, needs the key.
pub fn delivery_ids<'a>(bundle: &'a Bundle, op: &'a Operation<'a>) -> Vec<KeyCarrier<'a>> {
    use crate::model::Site;
    if matches!(op.site, Site::Path) {
        return Vec::new();
    }
    let mut out: Vec<KeyCarrier<'a>> = op
        .parameters
        .iter()
        .filter(|p| {
            p.location == "header" && {
                let name = squash(p.name);
                DELIVERY_HEADER_ENDINGS.iter().any(|e| name.ends_with(e))
            }
        })
        .map(KeyCarrier::Header)
        .collect();
    static UNIQUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i-u)(?-u:\b)unique(?-u:\b)").expect("valid regex")
    });
    // The event's name (`fileComment`, `paymentSucceeded`): a unique id of the thing the event
    // is about, one event per thing, identifies the event too (Figma's `comment_id` of a
    // comment event).
    let event_words = match &op.site {
        Site::Callback(cb) => words(&cb.name),
        _ => words(op.path),
    };
    // The things its text announces made or removed: `version` of "Triggers whenever a named
    // version is created" (not of "Triggers whenever a file saves or is deleted", which
    // announces saves too).
    let announced: Vec<String> = ["summary", "description"]
        .iter()
        .filter_map(|k| op.node.node.get(k).and_then(Node::as_str))
        .filter(|t| {
            !words(t).iter().any(|w| {
                matches!(
                    w.as_str(),
                    "update"
                        | "updated"
                        | "updates"
                        | "save"
                        | "saves"
                        | "saved"
                        | "change"
                        | "changed"
                        | "changes"
                        | "edit"
                        | "edited"
                        | "edits"
                        | "modified"
                )
            })
        })
        .flat_map(|t| {
            EVENT_OF_A_CREATE.captures_iter(t).filter(move |c| {
                // ("… is created or moved", "deleted or restored": another event too.)
                let rest = &t[c.get(0).map_or(0, |m| m.end())..];
                let next = words(rest);
                !(next
                    .first()
                    .is_some_and(|w| matches!(w.as_str(), "or" | "and"))
                    && next.get(1).is_some_and(|w| w.ends_with("ed")))
            })
        })
        .map(|c| squash(&c[1]))
        .collect();
    out.extend(
        body_properties(bundle, op)
            .into_iter()
            .filter(|p| {
                let name = squash(p.name);
                let unique = || {
                    description_of(&p.schema)
                        .is_some_and(|d| KEY_WORDING.is_match(d) || UNIQUE.is_match(d))
                };
                // Not `webhook_id`: in a body that names the subscription ("the id of the
                // webhook that caused the callback"), the same for every delivery.
                // (Or its key: Figma's `file_key` of `fileDelete`.)
                let of_the_event = || {
                    name.strip_suffix("id")
                        .or_else(|| name.strip_suffix("key"))
                        .is_some_and(|noun| {
                            !noun.is_empty() && event_words.iter().any(|w| w == noun)
                        })
                        && p.required
                };
                // What a creation or deletion event announces happens once to its thing (the
                // OpenAPI example's `newPet` sends the new Pet, Figma's `fileDelete` the deleted
                // file's key): the thing's required id is one event's.
                // (Or as its text says: Figma's `fileVersionUpdate` "Triggers whenever a named
                // version is created", and sends the required `version_id`.)
                let once_per_thing = event_words.iter().any(|w| {
                    matches!(
                        w.as_str(),
                        "new" | "created" | "create" | "added" | "deleted" | "delete" | "removed"
                    )
                });
                let made = || p.required && once_per_thing;
                let announced_thing = || {
                    p.required
                        && name
                            .strip_suffix("id")
                            .or_else(|| name.strip_suffix("key"))
                            .is_some_and(|noun| {
                                !noun.is_empty() && announced.iter().any(|a| a == noun)
                            })
                };
                matches!(name.as_str(), "eventid" | "deliveryid")
                    || (name == "id" && (unique() || made()))
                    || (of_the_event() && (unique() || once_per_thing))
                    || announced_thing()
            })
            .map(KeyCarrier::BodyField),
    );
    out
}

/// A delivery's field that says when its event happened (Figma's required `timestamp`, "UTC
/// ISO 8601 timestamp of when the event was triggered"), the same on every redelivery of that
/// event: with the subscription's id, something a receiver can dedupe on, though no id.
pub fn event_time<'a>(bundle: &'a Bundle, op: &'a Operation<'a>) -> Option<&'a str> {
    body_properties(bundle, op)
        .into_iter()
        .find(|p| {
            let name = squash(p.name);
            let named = matches!(
                name.as_str(),
                "occurredat" | "triggeredat" | "eventtime" | "eventtimestamp" | "eventdate"
            );
            // (When the event happened, not when the delivery went out: "Time the webhook was
            // sent after the event occurred" differs on every redelivery.)
            let said = || {
                description_of(&p.schema).is_some_and(|d| {
                    let w = words(d);
                    w.iter().any(|x| x == "event")
                        && w.iter().any(|x| {
                            matches!(
                                x.as_str(),
                                "triggered" | "occurred" | "happened" | "fired" | "raised"
                            )
                        })
                        && !w.windows(2).any(|x| {
                            matches!(x[0].as_str(), "was" | "is" | "were")
                                && matches!(x[1].as_str(), "sent" | "delivered" | "dispatched")
                        })
                })
            };
            // A time by its words (`timestamp`, `created_at`, `eventDate`), not inside other
            // words (`mandate`, `updated_fields`, `format`), or by its format; and a string or
            // a number, not a list or an object.
            let words_of_name = words(p.name);
            let kind = p.schema.node.get("type").and_then(Node::as_str);
            let time = (words_of_name.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "time" | "timestamp" | "date" | "datetime" | "ts" | "unixtime" | "epoch"
                )
            }) || words_of_name.last().is_some_and(|x| x == "at")
                || p.schema.node.get("format").and_then(Node::as_str) == Some("date-time"))
                && kind.is_none_or(|k| matches!(k, "string" | "integer" | "number"));
            p.required && time && (named || said())
        })
        .map(|p| p.name)
}

/// Every key carrier the operation declares, headers first.
pub fn key_carriers<'a>(
    bundle: &'a Bundle,
    op: &'a Operation<'a>,
    settings: &Settings,
) -> Vec<KeyCarrier<'a>> {
    let mut out: Vec<KeyCarrier<'a>> = op
        .parameters
        .iter()
        .filter(|p| header_carries_key(settings, p))
        .map(KeyCarrier::Header)
        .collect();
    let top = body_properties(bundle, op);
    out.extend(
        top.iter()
            .filter(|p| carries_key(settings, p, &top))
            .cloned()
            .map(KeyCarrier::BodyField),
    );
    // One level down, when nothing else carries a key: the JSON part of a multipart body
    // (Square's `request`), or each item of a bulk request (`items: [{idempotency_key}]`,
    // `values: {<id>: {idempotency_key}}`). A key inside plain nested data (`metadata`) is not.
    if out.is_empty() {
        let multipart = op.request_body.as_ref().is_some_and(|b| {
            b.content
                .iter()
                .any(|m| crate::model::media_essence(m.media_type).starts_with("multipart/"))
        });
        for parent in &top {
            let part = multipart.then_some(parent.schema);
            let mut inner = Vec::new();
            for container in [
                part,
                parent.schema.get("items"),
                parent.schema.get("additionalProperties"),
            ]
            .into_iter()
            .flatten()
            {
                schema_properties(bundle, container, MAX_COMPOSITION_DEPTH, &mut inner);
            }
            let found = inner.iter().position(|p| carries_key(settings, p, &inner));
            if let Some(mut p) = found.map(|i| inner.swap_remove(i)) {
                p.parent = Some(parent.name);
                // A map whose keys are the items' keys (Square's bulk-create `team_members`:
                // "Each key is the `idempotency_key` that maps to the `CreateTeamMemberRequest`")
                // carries one for every item, whatever the inner field says.
                if parent
                    .schema
                    .get("additionalProperties")
                    .is_some_and(|a| a.node.as_bool().is_none())
                    && description_of(&parent.schema).is_some_and(map_keyed_by_key)
                {
                    p.required = true;
                }
                out.push(KeyCarrier::BodyField(p));
                break;
            }
        }
    }
    // A JSON:API document (Unit's `data.attributes.idempotencyKey`): the request's own fields
    // sit in `attributes` of `data`, whatever resource type `data` is (a `oneOf` of them).
    if out.is_empty()
        && let Some(data) = top.iter().find(|p| p.name == "data")
    {
        let mut data_props = Vec::new();
        schema_properties(bundle, data.schema, 0, &mut data_props);
        for attributes in data_props.iter().filter(|p| p.name == "attributes") {
            let mut inner = Vec::new();
            schema_properties(bundle, attributes.schema, 0, &mut inner);
            let found = inner.iter().position(|p| carries_key(settings, p, &inner));
            if let Some(mut p) = found.map(|i| inner.swap_remove(i)) {
                p.parent = Some("data.attributes");
                out.push(KeyCarrier::BodyField(p));
                break;
            }
        }
    }
    // A policy without `key` (`{ ttl: 24h }`) documents behaviour but names no key.
    if let Some(Declared::Policy(at)) = declared(bundle, op)
        && let Some(key) = at
            .node
            .get("key")
            .and_then(Node::as_str)
            .filter(|k| !k.trim().is_empty())
    {
        let key_at = at.key_location("key").unwrap_or(at.location());
        out.push(KeyCarrier::Extension { key, at, key_at });
    }
    out
}

/// The operation declares an `If-Match` header parameter.
pub fn has_if_match(op: &Operation<'_>) -> bool {
    op.header_param("If-Match").is_some()
}

/// [`crate::classify::exemption`], unless the body says otherwise: a "delete" that moves money
/// ("Remove funds from the account" with an amount) or sends a relative change ("Subtracted
/// from the current stock") does matter twice. (A read may filter by an amount: Adyen's "Get a
/// list of payment methods" for an amount and currency.)
pub fn exemption(
    bundle: &Bundle,
    op: &Operation<'_>,
    settings: &Settings,
) -> Option<crate::classify::Exemption> {
    use crate::classify::Exemption;
    let Some(e) = crate::classify::exemption(op, settings) else {
        return forwards_to(bundle, op).map(Exemption::PassesThrough);
    };
    // A test mode read from wording ("for testing only") is weaker than a `sandbox` path: a
    // body that moves money outweighs it, as it outweighs a delete verb.
    let by_words = matches!(e, Exemption::Deletes(_))
        || matches!(&e, Exemption::TestMode(why) if why.starts_with('"'));
    if by_words && (body_moves_money(bundle, op) || relative_change_evidence(bundle, op).is_some())
    {
        return None;
    }
    Some(e)
}

/// Whether a POST forwards what it is sent to a URL the client gives (Adyen's `/forward`,
/// "Forward stored payment details", with a `baseUrl` and the request to make there): what a
/// repeat does is the target's, as behind a proxy. Not a message forwarded to people (Microsoft
/// Graph's `forward` of a message, whose body names recipients). The reason, for quoting.
fn forwards_to(bundle: &Bundle, op: &Operation<'_>) -> Option<String> {
    // (The word must be somewhere before its place in the names is worth judging.)
    let mentions = |t: &str| t.contains("orward");
    if op.method != crate::model::Method::Post
        || !(mentions(op.path)
            || op.operation_id.is_some_and(|id| mentions(id))
            || op
                .node
                .node
                .get("summary")
                .and_then(Node::as_str)
                .is_some_and(mentions))
        || !crate::classify::head_verbs(op)
            .iter()
            .any(|h| h == "forward")
    {
        return None;
    }
    // The target is a request's: a `baseUrl` or `targetUrl`, or a `url` beside the method,
    // headers or body of the request to make there (not a `url` notified of the outcome).
    let props = body_properties(bundle, op);
    let request_shaped = || {
        props.iter().any(|p| {
            matches!(
                squash(p.name).as_str(),
                "method" | "httpmethod" | "headers" | "body" | "request"
            )
        })
    };
    let url = props.iter().find(|p| {
        let name = squash(p.name);
        name == "baseurl" || name == "targeturl" || (name == "url" && request_shaped())
    })?;
    Some(format!("forward to `{}`", url.name))
}

/// The status of a response the spec describes as answering a resource already in the state
/// `verb` moves it to ("400 The application is already inactive" of `deactivate`, "200 if
/// already unlocked" of `unlock`), errors first: what a repeat of the transition answers.
pub fn repeat_answer<'a>(op: &Operation<'a>, verb: &str) -> Option<&'a str> {
    let stem = verb.trim_end_matches('e');
    // `deactivate` reaches "inactive", `activate` "active", `disable` "disabled".
    let stem = stem.strip_prefix("de").unwrap_or(stem);
    let stem = stem.strip_suffix("at").unwrap_or(stem);
    let says = |r: &crate::model::Response<'a>| {
        r.description.is_some_and(|d| {
            let w = words(short(d));
            w.windows(2).enumerate().any(|(i, pair)| {
                pair[0] == "already"
                    && [Some(&pair[1]), w.get(i + 2).filter(|_| pair[1] == "been")]
                        .into_iter()
                        .flatten()
                        .any(|state| state.contains(stem))
            })
        })
    };
    // A 304 "already stopped" (Docker) answers a repeat as a success does.
    let (ok, errors): (Vec<_>, Vec<_>) = op
        .responses
        .iter()
        .partition(|r| r.status.starts_with('2') || r.status.starts_with('3'));
    errors
        .into_iter()
        .chain(ok.iter().copied())
        .find(|r| says(r))
        .map(|r| r.status)
        .or_else(|| {
            // The operation's own words that a repeat succeeds: Netlify's branch reset, "If the
            // target branch is already in sync with the source, returns the existing connection
            // string without performing a reset".
            let text = op.node.node.get("description").and_then(Node::as_str)?;
            let lower = text.to_ascii_lowercase();
            if !lower.contains("already") {
                return None;
            }
            let harmless = lower.split(['.', ';']).any(|sentence| {
                let w = words(sentence);
                let has = |x: &str| w.iter().any(|y| y == x);
                has("already")
                    && w.iter()
                        .take_while(|x| *x != "already")
                        .any(|x| matches!(x.as_str(), "if" | "when" | "where"))
                    && ![
                        "error", "errors", "fail", "fails", "reject", "rejects", "conflict",
                    ]
                    .iter()
                    .any(|x| has(x))
                    && (w
                        .windows(2)
                        .any(|p| p[0] == "without" && p[1] == "performing")
                        || w.windows(2)
                            .any(|p| p[0] == "no" && matches!(p[1].as_str(), "op" | "effect"))
                        || has("ignored")
                        || w.windows(2).any(|p| p[0] == "does" && p[1] == "nothing"))
            });
            harmless.then(|| ok.first().map(|r| r.status)).flatten()
        })
}

/// What a repeat of a transition answers, as the spec says: [`repeat_answer`] of its verb, or
/// of `mark` (a mark quoted by its state is answered "already marked"), or
/// [`repeat_flagged`].
pub fn transition_repeat_answer<'a>(
    bundle: &'a Bundle,
    op: &Operation<'a>,
    verb: &str,
) -> Option<&'a str> {
    repeat_answer(op, verb)
        .or_else(|| repeat_answer(op, "mark"))
        .or_else(|| repeat_flagged(bundle, op))
        .or_else(|| repeat_refused_by_code(bundle, op, verb))
}

/// The error code, among those an error response lists, that refuses a repeat of `verb`:
/// `already_archived` of Slack's `conversations.archive` (its `default` response's `error`
/// enum). A client retrying after a lost response is told the call failed when it worked.
fn repeat_refused_by_code<'a>(
    bundle: &'a Bundle,
    op: &Operation<'a>,
    verb: &str,
) -> Option<&'a str> {
    // (`already_cancelled`, `ALREADY_STOPPED`: a doubled last letter before the ending.)
    let of_the_verb = |state: &str| {
        crate::classify::inflects(state, verb) || (verb.len() >= 4 && state.starts_with(verb))
    };
    op.responses
        .iter()
        .filter(|r| !r.status.starts_with('2') && !r.status.starts_with('3'))
        .flat_map(|r| response_schemas(bundle, r))
        .find_map(|schema| {
            let mut props = Vec::new();
            schema_properties(bundle, schema, 0, &mut props);
            // (Or under an `error` object: `error.code`.)
            let mut inner = Vec::new();
            for p in props.iter().filter(|p| squash(p.name) == "error") {
                schema_properties(bundle, p.schema, 0, &mut inner);
            }
            props.extend(inner);
            props
                .iter()
                .filter(|p| matches!(squash(p.name).as_str(), "error" | "code" | "errorcode"))
                // Written in the operation itself, as Slack lists each method's codes: a list
                // every operation shares says nothing of this one's repeat.
                .filter(|p| op.owns(p.schema.location()))
                .filter_map(|p| p.schema.node.get("enum"))
                .flat_map(|values| values.items().iter().filter_map(Node::as_str))
                .find(|code| {
                    matches!(words(code).as_slice(),
                        [already, state, ..] if already == "already" && of_the_verb(state))
                })
        })
}

/// The success whose schema has a flag for a state already reached, which answers a repeat
/// whatever else the request sends: Slack's `conversations.leave`, whose 200 has a boolean
/// `not_in_channel`; `already_in_channel` of `conversations.join`.
pub fn repeat_flagged<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Option<&'a str> {
    let flag = |p: &Property<'_>| {
        let w = words(p.name);
        p.schema.node.get("type").and_then(Node::as_str) == Some("boolean")
            && (matches!(w.as_slice(), [already, _, ..] if already == "already")
                || matches!(w.as_slice(), [not, at, _, ..] if not == "not" && at == "in"))
    };
    op.responses
        .iter()
        .filter(|r| r.status.starts_with('2'))
        .find(|r| {
            response_schemas(bundle, r).into_iter().any(|schema| {
                let mut props = Vec::new();
                schema_properties(bundle, schema, 0, &mut props);
                props.iter().any(flag)
            })
        })
        .map(|r| r.status)
}

/// Whether a required body field carries the version the client last read (Square's
/// `version`: "The version of the invoice to cancel"): the server refuses a stale one, so a
/// retry of an update or transition that already applied is refused rather than applied twice.
pub fn version_precondition(bundle: &Bundle, op: &Operation<'_>) -> bool {
    body_properties(bundle, op).into_iter().any(|p| {
        let name = squash(p.name);
        // The resource's own version, not the version of something else (`appVersion`).
        let versioned = matches!(name.as_str(), "version" | "etag" | "revision");
        let w = words(description_of(&p.schema).unwrap_or_default());
        let phrase = |a: &str, b: &str| w.windows(2).any(|x| x[0] == a && x[1] == b);
        // "The version of the invoice to cancel", "the current version", optimistic concurrency;
        // not "the latest version of the firmware to install".
        let of_what_was_read = (w.windows(3).any(|x| x == ["version", "of", "the"])
            && !w
                .iter()
                .any(|x| x == "latest" || x == "install" || x == "deploy"))
            || phrase("current", "version")
            || phrase("must", "match")
            || w.iter().any(|x| x == "optimistic" || x == "concurrency");
        // The value being replaced, sent to be checked (Okta's `oldPassword`): a retry of a
        // change that applied sends a value that no longer holds, and is refused.
        let old_value = ["old", "current", "previous"]
            .iter()
            .any(|w| name.starts_with(w) && name.len() > w.len());
        p.required && ((versioned && of_what_was_read) || old_value)
    })
}

/// The body schemas a response declares: Swagger 2.0's `schema`, or the `schema` of each of
/// OpenAPI 3's `content` media types.
pub fn response_schemas<'a>(
    bundle: &'a Bundle,
    response: &crate::model::Response<'a>,
) -> Vec<At<'a>> {
    let mut schemas: Vec<At<'a>> = response.node.get("schema").into_iter().collect();
    if let Some(content) = response.node.get("content").map(|c| bundle.deref(c)) {
        for e in content.node.entries() {
            schemas.extend(bundle.deref(content.with(&e.value)).get("schema"));
        }
    }
    schemas
}

/// The resource's own version for optimistic concurrency, as the operation's success response
/// shows it (Kubernetes' `metadata.resourceVersion`, "May be used for optimistic concurrency"):
/// a client sends it back in a merge patch or `test`s it in a JSON Patch, and a stale retry is
/// refused as If-Match would refuse it. Where it is, as `metadata.resourceVersion`.
pub fn resource_version(bundle: &Bundle, op: &Operation<'_>) -> Option<String> {
    let response = op.responses.iter().find(|r| r.status == "200")?;
    let schemas = response_schemas(bundle, response);
    let versions = |p: &Property<'_>| {
        let name = squash(p.name);
        (name.ends_with("version") || name.ends_with("etag") || name == "revision")
            && description_of(&p.schema).is_some_and(|d| {
                let w = words(d);
                w.windows(2).any(|x| {
                    x[1] == "concurrency" && matches!(x[0].as_str(), "optimistic" | "for")
                        || (x[0] == "concurrency" && x[1] == "control")
                })
            })
    };
    for schema in schemas {
        let mut props = Vec::new();
        schema_properties(bundle, schema, 0, &mut props);
        if let Some(p) = props.iter().find(|p| versions(p)) {
            return Some(p.name.to_string());
        }
        for outer in &props {
            let mut inner = Vec::new();
            schema_properties(bundle, outer.schema, 0, &mut inner);
            if let Some(p) = inner.iter().find(|p| versions(p)) {
                return Some(format!("{}.{}", outer.name, p.name));
            }
        }
    }
    None
}

/// The field that says when a token a POST issues expires, if it issues one: the last word of
/// its last segment or operationId is `token`, and a 2xx response holds, up to three levels
/// down, an `expires_in` (OAuth's token response, Unit's customer token
/// `data.attributes.expiresIn`). A token a retry issues again expires unused.
pub fn expiring_token(bundle: &Bundle, op: &Operation<'_>) -> Option<String> {
    let last = |s: &str| words(s).pop();
    let named_token = [
        op.path
            .split('?')
            .next()
            .unwrap_or(op.path)
            .rsplit('/')
            .find(|s| !s.is_empty() && !s.starts_with('{'))
            .and_then(last),
        op.operation_id.and_then(|id| last(id)),
    ]
    .into_iter()
    .flatten()
    .any(|w| w == "token" || w == "tokens");
    if !named_token {
        return None;
    }
    let expires = |p: &Property<'_>| {
        matches!(
            squash(p.name).as_str(),
            // Seconds from now, as OAuth's `expires_in`: a session credential. An API token's
            // `expiration` date may be a year away, and a spare one is a live credential.
            "expiresin" | "expiresinseconds"
        )
    };
    for response in op.responses.iter().filter(|r| r.status.starts_with('2')) {
        for schema in response_schemas(bundle, response) {
            let mut level = Vec::new();
            schema_properties(bundle, schema, 0, &mut level);
            for _ in 0..3 {
                if let Some(p) = level.iter().find(|p| expires(p)) {
                    return Some(p.name.to_string());
                }
                let mut next = Vec::new();
                for p in &level {
                    schema_properties(bundle, p.schema, 0, &mut next);
                }
                level = next;
            }
        }
    }
    None
}

/// Wording that says a link stops working within a day: "this URL is only valid for a few
/// seconds", "expires after 15 minutes", "valid for 24 hours"; not "valid for 168 hours".
static VALID_BRIEFLY: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)(?-u:\b)(?:
            (?:valid|usable)(?u:\s)+(?:only(?u:\s)+)?for(?u:\s)+(?:only(?u:\s)+)?
          | expires?(?u:\s)+(?:after|in|within)(?u:\s)+
        )(?:
            (?:an?|one|a(?u:\s)+few|[0-9]+)(?u:\s)+(?:seconds?|minutes?)
          | (?:an?|one|a(?u:\s)+few|[1-9]|1[0-9]|2[0-4])(?u:\s)+hours?
        )(?-u:\b)",
    )
    .expect("valid regex")
});

/// A create that answers with nothing but links that stop working within a day, and no id of
/// anything kept (`id`, `export_id`, `uuid`): Box's `POST /zip_downloads`, a `download_url`
/// "only valid for a few seconds". What a retry makes again is a link left to expire. The
/// link's field.
pub fn expiring_link(bundle: &Bundle, op: &Operation<'_>) -> Option<String> {
    let mut link = None;
    for response in op.responses.iter().filter(|r| r.status.starts_with('2')) {
        for schema in response_schemas(bundle, response) {
            let mut props = Vec::new();
            schema_properties(bundle, schema, 0, &mut props);
            // (An id says something is kept that a duplicate would stand beside.)
            if props.is_empty()
                || props.iter().any(|p| {
                    words(p.name)
                        .last()
                        .is_some_and(|w| matches!(w.as_str(), "id" | "uuid"))
                })
            {
                return None;
            }
            link = link.or_else(|| {
                props.iter().find_map(|p| {
                    let is_link = words(p.name)
                        .last()
                        .is_some_and(|w| matches!(w.as_str(), "url" | "uri" | "link" | "href"));
                    let said = p.beside_ref.or_else(|| description_of(&p.schema))?;
                    (is_link && VALID_BRIEFLY.is_match(said)).then(|| p.name.to_string())
                })
            });
        }
    }
    link
}

/// [`resource_version`], when the request can send it back: a JSON Patch (a `test` of it), a
/// merge patch of the resource (`application/merge-patch+json`, Kubernetes' strategic merge and
/// apply patches: any field of the resource), or a body that has the field itself.
pub fn resource_version_sendable(bundle: &Bundle, op: &Operation<'_>) -> bool {
    let Some(field) = resource_version(bundle, op) else {
        return false;
    };
    let merge_of_the_resource = op.request_body.as_ref().is_some_and(|b| {
        b.content.iter().any(|m| {
            let media = crate::model::media_essence(m.media_type);
            media.contains("merge-patch") || media.contains("apply-patch")
        })
    });
    if merge_of_the_resource || is_json_patch(bundle, op) {
        return true;
    }
    let props = body_properties(bundle, op);
    match field.split_once('.') {
        None => props.iter().any(|p| p.name == field),
        Some((outer, inner)) => props.iter().filter(|p| p.name == outer).any(|p| {
            let mut nested = Vec::new();
            schema_properties(bundle, p.schema, 0, &mut nested);
            nested.iter().any(|q| q.name == inner)
        }),
    }
}

/// How deep `allOf`/`oneOf`/`anyOf` composition is followed for top-level properties.
const MAX_COMPOSITION_DEPTH: usize = 8;

/// The top-level properties of every request-body schema of `op` (composition followed), and
/// Swagger 2.0 form fields.
pub fn body_properties<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Vec<Property<'a>> {
    let mut out = Vec::new();
    let Some(body) = &op.request_body else {
        return out;
    };
    for field in &body.form_fields {
        out.push(Property {
            name: field.name,
            key: field.node.key_location("name").unwrap_or(field.declared),
            schema: field.node,
            required: field.required,
            parent: None,
            beside_ref: None,
        });
    }
    let mut seen_schemas = Vec::new();
    for media in &body.content {
        if let Some(schema) = media.schema {
            if seen_schemas.contains(&schema.location()) {
                continue;
            }
            seen_schemas.push(schema.location());
            schema_properties(bundle, schema, 0, &mut out);
        }
    }
    out
}

/// The properties of the elements of a request body that is an array.
fn array_element_properties<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Vec<Property<'a>> {
    let mut out = Vec::new();
    for media in op.request_body.iter().flat_map(|b| &b.content) {
        if let Some(items) = media
            .schema
            .map(|s| bundle.deref(s))
            .and_then(|s| s.get("items"))
        {
            schema_properties(bundle, items, 0, &mut out);
        }
    }
    out
}

/// Top-level properties of one schema, through composition keywords.
pub fn schema_properties<'a>(
    bundle: &'a Bundle,
    schema: At<'a>,
    depth: usize,
    out: &mut Vec<Property<'a>>,
) {
    let schema = bundle.deref(schema);
    if let Some(props) = schema.node.get("properties") {
        let required = schema.node.get("required").map(Node::items).unwrap_or(&[]);
        for e in props.entries() {
            out.push(Property {
                required: required.iter().any(|r| r.as_str() == Some(&*e.key.text)),
                parent: None,
                name: &e.key.text,
                key: Location {
                    file: schema.file,
                    span: e.key.span,
                },
                schema: bundle.deref(schema.with(&e.value)),
                beside_ref: e
                    .value
                    .get("$ref")
                    .and(e.value.get("description"))
                    .and_then(Node::as_str),
            });
        }
    }
    if depth >= MAX_COMPOSITION_DEPTH {
        return;
    }
    for keyword in ["allOf", "oneOf", "anyOf"] {
        for member in schema.node.get(keyword).map(Node::items).unwrap_or(&[]) {
            let member = schema.with(member);
            schema_properties(bundle, member, depth + 1, out);
        }
    }
}

/// Why an operation moves money, in words a finding can quote; `None` when it does not.
///
/// - The body holds an amount of money: top-level `amount` and `currency`, or an `amount` that
///   is itself money (`{value, currency}`, `{currency_code, value}`), at the top or in the items
///   of a top-level list (`transactions[].amount`, `purchase_units[].amount`).
/// - A name's head noun, its last word, is a money word: `/payments/{id}/refunds` and
///   `createRefund` move money, `/payment-links` and `payment_intents` are about something else.
/// - The summary (else the description's first sentence) opens with a money verb ("Capture a
///   payment", "Disburse funds"), or the noun phrase after its verb ends in a money word ("Create
///   a payout", "Execute payment"), or it speaks of funds moving ("Request a return of funds").
pub fn moves_money(bundle: &Bundle, op: &Operation<'_>, settings: &Settings) -> Option<String> {
    let why = money_evidence(bundle, op, settings)?;
    // A create whose item is confirmed by a call of its own (Unit's check deposit, made
    // `AwaitingImages` and moving money only at `/check-deposits/{id}/confirm`) makes a draft:
    // a retry leaves a spare draft that is never confirmed. Not one that can confirm on create
    // (Stripe's `confirm` of a PaymentIntent). (Asked last: it reads every path of the API.)
    // (Nor one whose words say it charges at once.)
    let at_once = || {
        ["summary", "description"]
            .iter()
            .filter_map(|k| op.node.node.get(k).and_then(Node::as_str))
            .any(|t| {
                let t = t.to_ascii_lowercase();
                t.contains("at once") || t.contains("immediately")
            })
    };
    if confirmed_by_its_own_call(op)
        && !body_properties(bundle, op).iter().any(|p| {
            matches!(
                squash(p.name).as_str(),
                "confirm" | "autoconfirm" | "confirmed" | "capture"
            )
        })
        && !at_once()
    {
        return None;
    }
    Some(why)
}

/// [`moves_money`] before a later confirmation is asked about.
fn money_evidence(bundle: &Bundle, op: &Operation<'_>, settings: &Settings) -> Option<String> {
    let head = |s: &str| words(s).pop();
    let last_segment = op
        .path
        .rsplit('/')
        .find(|s| !s.is_empty() && !s.starts_with('{'));
    // An amount in the body of something that only prices a later payment (a payment link, a
    // checkout session, an order, a quote) moves no money yet.
    let prices_only = [last_segment, op.operation_id.map(|id| id.as_str())]
        .into_iter()
        .flatten()
        .filter_map(head)
        .any(|w| PRICING_NOUNS.contains(&w.as_str()));
    // Deleting or voiding a record moves no money (`deleteBankTransfers`, "Cancel an authorised
    // payment"), whatever its path says.
    let lead = crate::classify::lead_text(op);
    // The first word of the operationId and the verb that opens the summary: what the call does.
    let first_verbs: Vec<String> = [
        op.operation_id.and_then(|id| words(id).into_iter().next()),
        lead.as_ref()
            .and_then(|(_, t)| words(t).into_iter().next())
            .map(|w| crate::classify::base_verb(&w)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let undoes = first_verbs
        .iter()
        // Setting an amount ("Update an authorised amount": "the amount you specify is the updated
        // amount") sets it again on a retry; it does not move it twice.
        // Only of an instance: "Set up a recurring payment" on a collection makes one.
        .any(|w| {
            UNDOING_VERBS.contains(&w.as_str())
                || ((UPDATE_VERBS.contains(&w.as_str()) || SWITCHING_VERBS.contains(&w.as_str()))
                    && op.path.contains('{'))
        });
    // "Remove funds from the account": removing money is moving it.
    let of_funds = lead.as_ref().is_some_and(|(_, t)| {
        words(t)
            .iter()
            .take(8)
            .any(|w| matches!(w.as_str(), "funds" | "money"))
    });
    if undoes && !of_funds {
        return None;
    }
    let props = body_properties(bundle, op);
    // What the body sends, a JSON:API document's resource included.
    let fields = sent_fields(bundle, &props);
    let sends_any_amount = fields.iter().any(|p| squash(p.name).contains("amount"));
    // Reversing a whole thing the request names, sent no amount (Unit's `reverseFee`, "Reverse
    // Fee", naming the fee's transaction): it is undone once, and a repeat finds it undone. A
    // reversal of an amount may reverse more each time.
    if first_verbs.iter().any(|w| w == "reverse") && !sends_any_amount {
        return None;
    }
    let has = |name: &str| props.iter().any(|p| p.name.eq_ignore_ascii_case(name));
    // The amount of a charge still to come ("Amount of the charge that you will create when
    // authentication completes": Stripe's 3D Secure) moves nothing now.
    let to_come = props
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case("amount"))
        .and_then(|p| description_of(&p.schema))
        .is_some_and(|d| {
            let d = d.to_ascii_lowercase();
            [
                "that you will create when",
                "will be created later",
                "will be charged later",
            ]
            .iter()
            .any(|w| d.contains(w))
        });
    // Settling the one resource the path names (`/orders/{id}/capture`, `/invoices/{invoice}/pay`)
    // with no amount of its own to send: it happens once, and a repeat is refused as already
    // done (PayPal's ORDER_ALREADY_CAPTURED). It is a transition of that resource, not money
    // moved again; a refund or a transfer makes another each time.
    // So does any other single action word under the one payment the path names (Unit's
    // `/received-payments/{paymentId}/advance`): not a money noun (`/refunds`, `/refund`), it
    // acts on that payment, once.
    let is_money = |w: &str| money_word(&[w.to_string()], &settings.money_words).is_some();
    // A fee is money charged only when the request says how much, or from whom (Unit's
    // `createFee`: an `amount` and the `account` debited); a fee *configured* on a plan, a
    // product or a merchant (`/plans/{id}/fees` with a `name` and a `percentage`) charges no one
    // yet, and neither does a fee with nothing in the body to charge.
    // The fields a fee is charged with: an `amount` (not a `max_amount` or an `amount_type`),
    // an account by itself or its id (not a `gl_account_code`).
    let amount_field = |p: &Property<'_>| {
        let w = words(p.name);
        w.last().is_some_and(|x| x == "amount")
            && !w.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "max" | "maximum" | "min" | "minimum" | "threshold"
                )
            })
    };
    let account_field = |p: &Property<'_>| {
        let w = words(p.name);
        matches!(w.as_slice(), [.., a] if a == "account")
            || matches!(w.as_slice(), [.., a, id] if a == "account" && id == "id")
    };
    let fee_charged = || {
        let segments: Vec<&str> = op
            .path
            .split('/')
            .filter(|s| !s.is_empty() && !s.starts_with('{'))
            .collect();
        // Under what prices or configures something: a plan's, product's or merchant's fee
        // schedule (`/plans/{id}/fees`), unless an account to debit is sent.
        let configured = segments.iter().rev().skip(1).any(|s| {
            words(s).pop().is_some_and(|w| {
                matches!(
                    w.as_str(),
                    "plan"
                        | "plans"
                        | "product"
                        | "products"
                        | "price"
                        | "prices"
                        | "merchant"
                        | "merchants"
                        | "schedule"
                        | "schedules"
                        | "setting"
                        | "settings"
                        | "config"
                        | "configs"
                        | "configuration"
                        | "configurations"
                        | "template"
                        | "templates"
                        | "tier"
                        | "tiers"
                )
            })
        });
        let debits = fields.iter().any(account_field);
        debits || (!configured && fields.iter().any(amount_field))
    };
    // A check for an `amount` (Lob's `/checks`), not a qualified one (`/credit_checks` with a
    // `loan_amount`).
    let check_mailed = || {
        words(last_segment.unwrap_or_default()).len() <= 1
            && fields.iter().any(|p| squash_eq(p.name, "amount"))
    };
    // A money word as this operation uses it: a fee charged, a check for an amount.
    let moves = |w: &str| {
        is_money(w)
            && match w {
                "fee" | "fees" => fee_charged(),
                "check" | "checks" | "cheque" | "cheques" => check_mailed(),
                _ => true,
            }
    };
    let segments: Vec<&str> = op.path.split('/').filter(|s| !s.is_empty()).collect();
    let settles_once = matches!(segments.as_slice(), [.., collection, parent, last]
    if parent.starts_with('{') && {
        let w = words(last);
        // Under one payment or one thing to be paid (`/received-payments/{paymentId}`,
        // `/payouts/{payout}`, `/orders/{id}`, `/invoices/{invoice}`): not an account's
        // or a wallet's `/pay`, which pays someone.
        let head = words(collection).pop().unwrap_or_default();
        let of_a_payment = is_money(&head)
            || PRICING_NOUNS.contains(&head.as_str())
            || matches!(
                head.as_str(),
                "invoice" | "invoices" | "bill" | "bills" | "intent" | "intents"
                    | "authorization" | "authorizations" | "transaction" | "transactions"
            );
        w.len() == 1
            && of_a_payment
            && (ONE_SHOT_MONEY_VERBS.contains(&w[0].as_str())
                || ONE_PAYMENT_VERBS.contains(&w[0].as_str())
                || crate::vocabulary::TRANSITION_VERBS.contains(&w[0].as_str())
                || crate::vocabulary::INSTANCE_TRANSITION_VERBS.contains(&w[0].as_str()))
    });
    // What it sends must not be an amount of its own: a required one may move more; an optional
    // one only where the verb settles (a capture of part of an authorization is still once).
    let amount = |p: &Property<'_>| squash(p.name).contains("amount") || squash(p.name) == "value";
    let verb_settles = op
        .path
        .rsplit('/')
        .next()
        .is_some_and(|s| ONE_SHOT_MONEY_VERBS.contains(&s.to_ascii_lowercase().as_str()));
    let sends_amount = props
        .iter()
        .any(|p| amount(p) && (p.required || !verb_settles));
    if settles_once && !sends_amount {
        return None;
    }
    // A reversal of part of one money movement, sent the amount to reverse (Stripe's
    // `/v1/transfers/{id}/reversals`: "reverse part of the transfer … as many times as you
    // wish"): each one moves that amount back again.
    if let [.., collection, parent, last] = segments.as_slice()
        && parent.starts_with('{')
        && words(collection).pop().is_some_and(|w| is_money(&w))
        && words(last)
            .last()
            .is_some_and(|w| matches!(w.as_str(), "reversal" | "reversals"))
        && sends_any_amount
    {
        return Some(format!("path `{collection}/…/{last}` with an amount"));
    }
    if !prices_only && !to_come {
        if has("amount") && has("currency") {
            return Some("body has `amount` and `currency`".to_string());
        }
        // `unit_amount` and `currency` (Recurly's line items), `total_amount`: an amount of
        // money all the same; not a `threshold_amount` or an `application_fee_amount`, which
        // set a limit or a share.
        if has("currency")
            && let Some(p) = props
                .iter()
                .find(|p| matches!(squash(p.name).as_str(), "unitamount" | "totalamount"))
        {
            return Some(format!("body has `{}` and `currency`", p.name));
        }
        if let Some(at) = money_amount(bundle, &props) {
            return Some(format!("body has a money amount ({at})"));
        }
        if let Some(said) = amount_between_accounts(bundle, op, &props) {
            return Some(said);
        }
    }
    // A segment that stops or cancels payments (`/stop-payments`, a stop order on a check)
    // names an order not to pay.
    let stopping = |w: &String| {
        UNDOING_VERBS.contains(&w.as_str())
            || matches!(w.as_str(), "stop" | "block" | "hold" | "freeze")
    };
    let stops = last_segment.is_some_and(|s| words(s).first().is_some_and(stopping))
        // `createStopPayment`: the word before the money word stops it.
        || op.operation_id.is_some_and(|id| {
            words(id).windows(2).any(|pair| stopping(&pair[0]) && is_money(&pair[1]))
        });
    if let Some(w) = last_segment.and_then(head).filter(|w| moves(w) && !stops) {
        return Some(format!("path word `{w}`"));
    }
    if let Some(w) = op
        .operation_id
        .and_then(|id| head(id))
        .filter(|w| moves(w) && !stops)
    {
        return Some(format!("operationId word `{w}`"));
    }
    let (kind, text) = crate::classify::lead_text(op)?;
    let lead = words(&text);
    let quote = || {
        format!(
            "{kind} \"{}\"",
            text.split_whitespace()
                .take(5)
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    let verb = lead.first()?;
    // The noun phrase after the verb, up to a preposition: "a payout" of "Create a payout for an
    // account", "payment method" of "Update a payment method" (whose head is `method`).
    let phrase: Vec<&str> = lead[1..]
        .iter()
        .map(String::as_str)
        .skip_while(|w| matches!(*w, "a" | "an" | "the" | "new" | "one" | "or" | "more"))
        // A noun phrase is short and ends before a clause ("Stripe automatically finalizes
        // drafts before sending and attempting payment on invoices" names no payment made).
        .take_while(|w| {
            !PREPOSITIONS.contains(w)
                && !matches!(
                    *w,
                    "and" | "before" | "after" | "when" | "while" | "if" | "that"
                )
        })
        .take(5)
        .collect();
    let verb = crate::classify::base_verb(verb);
    if MONEY_VERBS.contains(&verb.as_str()) {
        // `transfer`, `capture` and `charge` also move calls, repositories, screenshots and
        // batteries: they need money in what they act on ("Transfer an active SIP call" moves
        // none), or nothing named at all ("Capture").
        let ambiguous = AMBIGUOUS_MONEY_VERBS.contains(&verb.as_str());
        let money_object = || {
            phrase.is_empty()
                || phrase.iter().any(|w| {
                    is_money(w)
                        || MONEY_OBJECTS
                            .iter()
                            .any(|n| crate::classify::inflects(w, n))
                })
        };
        if !ambiguous || money_object() {
            return Some(quote());
        }
    }
    let funds = lead.windows(2).any(|p| p[0] == "of" && p[1] == "funds");
    // "Create Stop Payment": the word before the money word stops it.
    let stopped = phrase.len() >= 2 && stopping(&phrase[phrase.len() - 2].to_string());
    ((phrase.last().is_some_and(|w| moves(w)) && !stopped) || funds).then(quote)
}

/// Where the body holds an `amount` that is money, one level into composition: the top level, or
/// the items of a top-level list.
/// Whether the body holds an amount of money (`amount` and `currency`, or an `amount` that is
/// money), whatever the operation's names say.
fn body_moves_money(bundle: &Bundle, op: &Operation<'_>) -> bool {
    let props = body_properties(bundle, op);
    let has = |name: &str| props.iter().any(|p| p.name.eq_ignore_ascii_case(name));
    (has("amount") && has("currency")) || money_amount(bundle, &props).is_some()
}

fn money_amount(bundle: &Bundle, props: &[Property<'_>]) -> Option<String> {
    let is_money = |schema: At<'_>| {
        let mut inner = Vec::new();
        schema_properties(bundle, schema, 0, &mut inner);
        let has = |names: &[&str]| {
            inner
                .iter()
                .any(|p| names.iter().any(|n| squash_eq(p.name, n)))
        };
        has(&["value", "amount", "units"]) && has(&["currency", "currency_code"])
    };
    if let Some(amount) = props.iter().find(|p| squash_eq(p.name, "amount"))
        && is_money(amount.schema)
    {
        return Some("`amount`".to_string());
    }
    for list in props {
        let Some(items) = list.schema.get("items").map(|i| bundle.deref(i)) else {
            continue;
        };
        let mut inner = Vec::new();
        schema_properties(bundle, items, 0, &mut inner);
        if let Some(amount) = inner.iter().find(|p| squash_eq(p.name, "amount"))
            && is_money(amount.schema)
        {
            return Some(format!("`{}[].amount`", list.name));
        }
        // Postings of a ledger (Formance's `postings[]`: `amount` and `asset`).
        let has_inner = |n: &str| inner.iter().any(|p| squash_eq(p.name, n));
        if has_inner("amount") && (has_inner("currency") || has_inner("asset")) {
            return Some(format!("`{}[].amount`", list.name));
        }
    }
    None
}

/// The fields a request body sends, `props` its top-level properties: those, and in a JSON:API
/// document those of the resource it sends (`data.attributes`, `data.relationships`).
pub fn sent_fields<'a>(bundle: &'a Bundle, props: &[Property<'a>]) -> Vec<Property<'a>> {
    let mut fields = props.to_vec();
    if let Some(data) = props.iter().find(|p| p.name == "data") {
        let mut resource = Vec::new();
        schema_properties(bundle, data.schema, 0, &mut resource);
        for part in resource
            .iter()
            .filter(|p| matches!(p.name, "attributes" | "relationships"))
        {
            schema_properties(bundle, part.schema, 0, &mut fields);
        }
    }
    fields
}

/// An amount sent with the two accounts it moves between, a source and a destination: Unit's
/// reward, `data.attributes.amount` from `relationships.fundingAccount` to `receivingAccount`;
/// a `from_account_id`, `to_account_id` and `amount`. No currency is needed: the accounts
/// hold money. Read at the top of the body and in a JSON:API document's resource. The
/// direction word comes first or right before `account` (`to_account_id`, `transferToAccount`),
/// or is the one word after it (`accountFrom`, `account_to_id`; not `account_to_watch`), with
/// only an id after the account; the two are different fields, and the amount is no bound (a
/// limit's "Maximum per day", a call whose head noun is a limit, rule, alert or threshold).
fn amount_between_accounts(
    bundle: &Bundle,
    op: &Operation<'_>,
    props: &[Property<'_>],
) -> Option<String> {
    let fields = sent_fields(bundle, props);
    let amount = fields.iter().find(|p| {
        squash_eq(p.name, "amount")
            && matches!(
                p.schema.node.get("type").and_then(Node::as_str),
                Some("integer" | "number" | "string")
            )
    })?;
    // "Maximum amount …", "A positive integer representing the maximum amount swept per day":
    // a bound, said in the description's first clause; a limit only where it opens (not "The
    // amount to sweep, up to the daily limit of the account").
    let bounds = description_of(&amount.schema).is_some_and(|d| {
        let clause = d.split([',', '.', ';', '(']).next().unwrap_or_default();
        let w = words(clause);
        w.iter().any(|w| {
            matches!(
                w.as_str(),
                "maximum" | "max" | "minimum" | "min" | "threshold"
            )
        }) || w.iter().take(3).any(|w| w == "limit")
    }) || [
        crate::classify::last_literal_segment(op.path),
        op.operation_id.map_or("", |id| id.as_str()),
    ]
    .iter()
    .filter_map(|name| words(name).pop())
    .any(|w| {
        matches!(
            crate::classify::base_verb(&w).as_str(),
            "limit" | "rule" | "alert" | "threshold" | "cap" | "budget"
        )
    });
    if bounds {
        return None;
    }
    // An account named with its direction: before it (`from_account`, `source_bank_account`,
    // `debtor_account_id`) or as the one word after it (`accountFrom`, `account_to`); not a
    // direction of something else (`account_to_watch`).
    let account_towards = |p: &&Property<'_>, ends: &[&str]| {
        let w = words(p.name);
        let id = |x: &String| matches!(x.as_str(), "id" | "ids" | "number" | "no" | "uid");
        w.iter().enumerate().any(|(i, x)| {
            // (Only ids after it: not `to_account_type` or `from_account_name`.)
            let before = i > 0
                && (ends.contains(&w[i - 1].as_str()) || ends.contains(&w[0].as_str()))
                && w[i + 1..].iter().all(id);
            let after = w.get(i + 1).is_some_and(|d| ends.contains(&d.as_str()))
                && w[(i + 2).min(w.len())..].iter().all(id);
            matches!(x.as_str(), "account" | "wallet") && (before || after)
        })
    };
    let from = fields.iter().find(|p| {
        account_towards(
            p,
            &[
                "from",
                "source",
                "funding",
                "debit",
                "debtor",
                "sender",
                "payer",
                "origin",
                "originating",
            ],
        )
    })?;
    let to = fields.iter().find(|p| {
        !std::ptr::eq(*p, from)
            && account_towards(
                p,
                &[
                    "to",
                    "receiving",
                    "destination",
                    "credit",
                    "creditor",
                    "recipient",
                    "receiver",
                    "payee",
                    "beneficiary",
                ],
            )
    })?;
    Some(format!(
        "body sends `{}` from `{}` to `{}`",
        amount.name, from.name, to.name
    ))
}

/// The short strings of a response's own examples (`content.*.example`, inline
/// `content.*.examples.*.value`, Swagger 2.0's `examples`), where an error's message is. An
/// example reached by `$ref` may be shared with other calls, and is not read. The walk visits a
/// bounded number of nodes, so a huge example costs no more than a small one.
fn example_messages<'a>(response: &crate::model::Response<'a>) -> Vec<&'a str> {
    const MAX_NODES: usize = 256;
    fn strings<'a>(node: &'a Node, depth: usize, budget: &mut usize, out: &mut Vec<&'a str>) {
        if *budget == 0 || depth > 8 || node.get("$ref").is_some() {
            return;
        }
        *budget -= 1;
        if let Some(s) = node.as_str() {
            if s.len() <= 500 {
                out.push(s);
            }
            return;
        }
        for e in node.entries() {
            strings(&e.value, depth + 1, budget, out);
        }
        for i in node.items() {
            strings(i, depth + 1, budget, out);
        }
    }
    let mut out = Vec::new();
    let mut budget = MAX_NODES;
    let mut examples: Vec<&'a Node> = response
        .node
        .get("examples")
        .map(|e| e.node)
        .into_iter()
        .collect();
    if let Some(content) = response
        .node
        .node
        .get("content")
        .filter(|c| c.get("$ref").is_none())
    {
        for e in content.entries() {
            let media = &e.value;
            examples.extend(media.get("example"));
            if let Some(named) = media.get("examples") {
                for x in named.entries() {
                    examples.extend(x.value.get("value"));
                }
            }
        }
    }
    for example in examples {
        strings(example, 0, &mut budget, &mut out);
    }
    out
}

/// Whether an error message names what is refused by a word that names a thing: "The contact
/// name … must be unique", "Linked object identifier … is already in use"; not "The voucher is
/// already assigned to another order", which speaks of an input.
fn names_what_is_refused(message: &str) -> bool {
    words(message).iter().any(|w| {
        crate::vocabulary::NAMING_WORDS.contains(&w.as_str())
            || matches!(w.as_str(), "identifier" | "title" | "label")
    })
}

/// Wording of a natural key that refuses a second create: "names must be unique", "a webhook
/// with this URL already exists".
// (Words may be split across lines: `\s+`, not a space.)
static NATURAL_KEY: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(must(?u:\s)+be(?u:\s)+unique|is(?u:\s)+not(?u:\s)+unique|unique(?u:\s)+(across|within|per|among)|already(?u:\s)+exists?|already(?u:\s)+(?:been(?u:\s)+)?(taken|in(?u:\s)+use|registered|present|part(?u:\s)+of|a(?u:\s)+member|mapped|associated|connected|installed|enrolled|reserved|assigned|added|linked|attached)|name(?u:[\s_])in(?u:[\s_])use|conflicts?(?u:\s)+with(?u:\s)+(?:an?(?u:\s)+)?existing|duplicate(?u:\s)+(name|email|entry|resource))(?-u:\b)",
    )
    .expect("valid regex")
});

/// Whether a text may say "unique" at all: the regexes that need the word are not run on one
/// that lacks it (large specs describe thousands of properties).
fn says_unique(text: &str) -> bool {
    let t = text.as_bytes();
    ["nique", "NIQUE"]
        .iter()
        .any(|w| memchr::memmem::find(t, w.as_bytes()).is_some())
}

/// [`UNIQUE_FIELD`], asked only of a text that says "unique".
fn unique_field_said(text: &str) -> bool {
    says_unique(text) && UNIQUE_FIELD.is_match(text)
}

/// [`NATURAL_KEY`], asked only of a text with one of the words it needs.
fn natural_key_said(text: &str) -> bool {
    let t = text.as_bytes();
    [
        "nique", "NIQUE", "lready", "LREADY", "use", "USE", "onflict", "ONFLICT", "uplicate",
        "UPLICATE",
    ]
    .iter()
    .any(|w| memchr::memmem::find(t, w.as_bytes()).is_some())
        && NATURAL_KEY.is_match(text)
}

/// A property's description that says its value must be unique (not "is not unique").
static UNIQUE_FIELD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(must(?u:\s)+be(?u:\s)+unique|(?:is|are|'s)(?u:\s)+unique(?u:\s)+(across|within|per|among))(?-u:\b)|^(?u:\s)*(?:an?(?u:\s)+|the(?u:\s)+)?unique(?u:\s)+(?:name|title|slug|handle|label|login|username|reference|code|key)(?-u:\b)",
    )
    .expect("valid regex")
});

/// A key's description that says what a request without it gets: "If you do not provide a
/// unique string, the endpoint treats each request as independent."
pub static OPTIONAL_EXPLAINED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(if\ you\ (do\ not|don't)\ (provide|send|include|specify)|if\ (it\ is\ |the\ key\ is\ )?(omitted|not\ provided|absent|missing)|treats?\ each\ request\ as\ (independent|new|unique))",
    )
    .expect("valid regex")
});

/// Wording that declares an operation idempotent: "calls to this endpoint are idempotent".
static IDEMPOTENT_BY_DESIGN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)(?-u:\b)(
            (?:this(?u:\s)+(?:endpoint|operation|call|request|method)|calls?(?u:\s)+to(?u:\s)+(?:this(?u:\s)+endpoint|`?[0-9A-Za-z_.]+`?)|(?:the(?u:\s)+)?(?:endpoint|operation|call|request)s?)(?u:\s)+(?:is|are)(?u:\s)+idempotent
            # Netlify: 'If a database already exists, returns the existing connection string'
          | already(?u:\s)+exists?,?(?u:\s)+(?:it(?u:\s)+|this(?u:\s)+endpoint(?u:\s)+|the(?u:\s)+(?-u:\w)+(?u:\s)+)?returns?(?u:\s)+the(?u:\s)+existing
            # Square: 'If the payment is already canceled, no action is taken'
          | no(?u:\s)+action(?u:\s)+is(?u:\s)+taken
            # Slack: 'Opens or resumes a direct message'; 'Get or create a session'
          | (?:opens?|starts?)(?u:\s)+or(?u:\s)+(?:resumes?|reopens?|returns?(?u:\s)+the(?u:\s)+existing)
          | (?:gets?|finds?|fetch(?:es)?|retrieves?)(?u:\s)+or(?u:\s)+creates?
            # Asana: 'this replaces an existing goal metric if one already exists'
          | (?:replaces?|overwrites?)(?u:\s)+(?:an?|the|any)(?u:\s)+existing(?u:\s)+(?:[a-z0-9_-]+(?u:\s)+){0,3}?if(?u:\s)+(?:one|it)(?u:\s)+(?:already(?u:\s)+)?exists

        )(?-u:\b)",
    )
    .expect("valid regex")
});

/// Wording that the call itself overwrites the one existing thing of what it makes: Recurly's
/// `POST /subscriptions/{id}/change`, "Calling this will overwrite an existing, pending
/// subscription change". The call is its subject ("Calling this", "This endpoint"), so "Adds a
/// card and replaces the existing default" and "If `default` is true, it replaces the existing
/// default payment method" are not read; the head noun after "existing" must be what the
/// operation makes.
static OVERWRITES_THE_EXISTING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(
    || {
        regex::Regex::new(
        r"(?ix-u)(?-u:\b)(?:calling(?u:\s)+this|this(?u:\s)+(?:endpoint|call|operation|request|method))(?u:\s)+(?:will(?u:\s)+)?
          (?:replaces?|overwrites?)(?u:\s)+(?:an?|the|any)(?u:\s)+(?:currently(?u:\s)+)?existing,?(?u:\s)+
          ((?:[a-z0-9_-]+,?(?u:\s)+){0,3}[a-z0-9_-]+)",
    )
    .expect("valid regex")
    },
);

/// Wording that a repeat of the call is refused because what it makes is already there: "If the
/// key is already present in the list of key credentials for the target IdP, you receive a 400
/// error response".
static ALREADY_REFUSED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(?:if|when)(?-u:\b)(?u:[^.]){0,120}(?-u:\b)already(?u:\s)+(?:been(?u:\s)+)?(?:present|exists?|assigned|added|registered|in(?u:\s)+use|taken|linked|attached|a(?u:\s)+member)(?-u:\b)(?u:[^.]){0,120}(?-u:\b)(?:400|409|422|error|fails?|refused|rejected)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Wording that what is made may not overlap another of its kind (a timecard, a booking, a
/// shift): one made again by a retry overlaps the first.
static OVERLAP: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(?:overlaps?|overlapping)(?u:\s)+(?:with(?u:\s)+)?(?:another|an?(?u:\s)+existing|existing|any(?u:\s)+other)(?u:\s)+`?(?-u:\w)+`?",
    )
    .expect("valid regex")
});

/// An operation's wording that what it makes must be unique by a value the client sends.
static UNIQUE_PROSE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)must(?u:\s)+have(?u:\s)+a(?u:\s)+unique(?u:\s)+`?(?-u:\w)+`?(?:(?u:\s)+for(?u:\s)+(?:a|its|the)(?u:\s)+(?-u:\w)+)?",
    )
    .expect("valid regex")
});

/// One of a kind per owner: "Okta only allows one principal rate limit entity per org and
/// principal", "Only one webhook per URL is allowed", "at most one … per …", "each connected
/// account can only have one FinancialAccount" (Stripe), "an org can only configure a single
/// CAPTCHA instance" (Okta).
static ONE_PER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(?:(?:only(?u:\s)+allows?(?u:\s)+one|allows?(?u:\s)+only(?u:\s)+one|only(?u:\s)+one|at(?u:\s)+most(?u:\s)+one)(?u:\s)+(?:[a-z0-9_-]+(?u:\s)+){0,4}?(?:is(?u:\s)+allowed(?u:\s)+)?per(?u:\s)+(?-u:\w)+|(?:each|every|an?)(?u:\s)+(?:[a-z0-9_-]+(?u:\s)+){1,3}?(?:can|may)(?u:\s)+(?:only(?u:\s)+(?:have|configure|create)|have(?u:\s)+only)(?u:\s)+(?:one|a(?u:\s)+single)(?u:\s)+(?-u:\w)+)",
    )
    .expect("valid regex")
});

/// A second request for the same thing refused: "Concurrent verifications to the same number
/// are not allowed".
static SAME_REFUSED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)(?:concurrent|duplicate|multiple)(?u:\s)+(?:[a-z]+(?u:\s)+){0,2}?(?:to|for|with|on)(?u:\s)+the(?u:\s)+same(?u:\s)+([a-z_]+)(?u:\s)+(?:are|is)(?u:\s)+not(?u:\s)+(?:allowed|permitted)",
    )
    .expect("valid regex")
});

/// What is refused because another of its kind has the same value: "Some reasons a dev resource
/// cannot be created include: … Another dev resource for the node has the same url" (Figma).
static SAME_AS_ANOTHER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)(?-u:\b)another(?u:\s)+(?:[a-z_-]+(?u:\s)+){0,5}?(?:has|have|uses?|with)(?u:\s)+the(?u:\s)+same(?u:\s)+([a-z_]+)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Whether the request body has a field named `name` (squashed), at its top or up to two levels
/// down, through objects and the items of lists (Figma's `dev_resources[].url`).
fn body_field_named(bundle: &Bundle, op: &Operation<'_>, name: &str) -> bool {
    let mut level = body_properties(bundle, op);
    for _ in 0..3 {
        if level.iter().any(|p| squash(p.name) == name) {
            return true;
        }
        let mut next = Vec::new();
        for p in level.iter().take(200) {
            let schema = match p.schema.node.get("items") {
                Some(items) => bundle.deref(p.schema.with(items)),
                None => p.schema,
            };
            schema_properties(bundle, schema, 0, &mut next);
        }
        level = next;
    }
    false
}

/// Whether a text says something is refused: an error, a rejection, a failure, what "cannot" be
/// done or is "not allowed".
fn says_refused(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "error",
        "reject",
        "refuse",
        "fail",
        "cannot",
        "can't",
        "bad_request",
        "conflict",
        "not allowed",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// Whether what stands at `at..end` in `text` is said to be refused: by its own sentence ("Fails
/// if another … has the same url"), or by the lead-in of the list it is an item of ("Some
/// reasons a dev resource cannot be created include:" above "- Another dev resource for the
/// node has the same url."), and not allowed by the rest of its sentence ("… may already exist;
/// duplicates are kept").
fn refused_at(text: &str, at: usize, end: usize) -> bool {
    let rest = &text[end..];
    let rest = &rest[..rest.find(['.', '\n']).unwrap_or(rest.len())];
    // ("… may already exist; duplicates are kept", "… creates a second message"; not "was
    // already created".)
    if words(rest).iter().any(|w| {
        matches!(
            w.as_str(),
            "may" | "kept" | "allowed" | "permitted" | "creates"
        )
    }) {
        return false;
    }
    let before = &text[..at];
    let sentence = &before[before.rfind(['.', '\n']).map_or(0, |i| i + 1)..];
    if says_refused(sentence) || says_refused(rest) {
        return true;
    }
    // A list item: every line between the lead-in's colon and the item is an item too.
    let Some(colon) = before.rfind(':') else {
        return false;
    };
    let items = &before[colon + 1..];
    let in_list = items.len() <= 1_000
        && items.lines().all(|l| {
            let l = l.trim_start();
            l.is_empty()
                || l.starts_with(['-', '*', '•'])
                || l.starts_with(|c: char| c.is_ascii_digit())
        });
    let lead = &before[..colon];
    let lead = &lead[lead.rfind(['.', '\n']).map_or(0, |i| i + 1)..];
    in_list && says_refused(lead)
}

/// The descriptions of a schema and of its properties, `depth` levels down (Vonage's error
/// statuses are described in a property of one `oneOf` branch of its response).
fn schema_descriptions<'a>(bundle: &'a Bundle, schema: At<'a>, depth: usize) -> Vec<&'a str> {
    let mut out = Vec::new();
    breadth_first(bundle, vec![schema], depth, 64, |s| {
        out.extend(description_of(&s));
        false
    });
    out
}

/// Visits schemas from `roots` breadth first, `$ref`s followed, each once and at most `budget`
/// of them however wide or linked the schemas are, down to `depth` levels of properties, until
/// `visit` says to stop.
fn breadth_first<'a>(
    bundle: &'a Bundle,
    roots: Vec<At<'a>>,
    depth: usize,
    budget: usize,
    mut visit: impl FnMut(At<'a>) -> bool,
) {
    let mut seen = std::collections::HashSet::new();
    let mut level = roots;
    for at in 0..=depth {
        let mut next = Vec::new();
        for schema in level {
            let schema = bundle.deref(schema);
            if !seen.insert(schema.location()) || seen.len() > budget {
                continue;
            }
            if visit(schema) {
                return;
            }
            if at < depth {
                let mut props = Vec::new();
                schema_properties(bundle, schema, 0, &mut props);
                next.extend(props.into_iter().map(|p| p.schema));
            }
        }
        level = next;
    }
}

/// Whether a one-per wording's words name what `op` makes: a noun a create verb heads or the
/// collection's, singular ("one principal rate limit entity per org" of
/// `createPrincipalRateLimitEntity` at `/principal-rate-limits`), and not a request or a time.
fn names_what_it_makes(op: &Operation<'_>, said: &str) -> bool {
    let w = words(said);
    let one = w
        .iter()
        .position(|x| x == "one" || x == "single")
        .unwrap_or(0);
    // (The "per" of the one thing, after it: in "An app per workspace can only configure a
    // single webhook" the first "per" is the subject's.)
    let per = w[one..].iter().position(|x| x == "per").map(|at| one + at);
    let after = per.and_then(|i| w.get(i + 1));
    let limits = |x: &String| {
        matches!(
            x.as_str(),
            "request"
                | "requests"
                | "call"
                | "calls"
                | "batch"
                | "page"
                | "second"
                | "minute"
                | "hour"
                | "day"
                | "message"
        )
    };
    // A limit of one call, not of the thing: "only one task per request", "Each request can
    // only create a single contact".
    // (A call that can only *create* one is a request: "Each API call can only create one
    // contact"; one that can only *have* one is a thing, a telephone call's recording.)
    let before = &w[..one];
    let creates = before.iter().any(|x| x == "create");
    if after.is_some_and(limits)
        || before.iter().any(|x| {
            matches!(x.as_str(), "request" | "requests" | "batch")
                || (creates && matches!(x.as_str(), "call" | "calls"))
        })
    {
        return false;
    }
    let mut nouns = crate::classify::created_nouns(op);
    nouns.extend(
        last_literal_words(op.path)
            .last()
            .map(|c| crate::classify::base_verb(c)),
    );
    let phrase = w.get(one + 1..per.unwrap_or(w.len())).unwrap_or_default();
    phrase.iter().any(|x| {
        nouns
            .iter()
            .any(|n| crate::classify::base_verb(x) == *n || x == n)
    })
}

/// Whether the noun of `phrase` (its last word before a preposition or article: "pending
/// subscription change", not "report settings of the workspace") is what `op` makes.
fn overwritten_is_what_it_makes(op: &Operation<'_>, phrase: &str) -> bool {
    let w = words(phrase);
    let Some(noun) = w
        .iter()
        .take_while(|x| {
            !crate::vocabulary::PREPOSITIONS.contains(&x.as_str())
                && !matches!(
                    x.as_str(),
                    "a" | "an" | "the" | "if" | "with" | "and" | "or"
                )
        })
        .last()
    else {
        return false;
    };
    let noun = crate::classify::base_verb(noun);
    let mut nouns = crate::classify::created_nouns(op);
    nouns.extend(
        last_literal_words(op.path)
            .last()
            .map(|c| crate::classify::base_verb(c)),
    );
    nouns.contains(&noun)
}

/// The first tag of `op` whose description says its operations are idempotent, and the words.
fn tag_says_idempotent<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Option<(&'a str, &'a str)> {
    let names = op.node.node.get("tags")?;
    let tags = bundle.root().get("tags").map(|t| bundle.deref(t))?;
    for name in names.items().iter().filter_map(Node::as_str) {
        let Some(tag) = tags
            .node
            .items()
            .iter()
            .map(|t| bundle.deref(tags.with(t)))
            .find(|t| t.node.get("name").and_then(Node::as_str) == Some(name))
        else {
            continue;
        };
        // The sentence must say it of all of them: not "GET, PUT and DELETE requests are
        // idempotent; POST requests are not", "None of the operations are idempotent without a
        // key".
        if let Some(text) = tag.node.get("description").and_then(Node::as_str)
            && text.contains("dempotent")
            && let Some(m) = IDEMPOTENT_BY_DESIGN.find(text)
            && m.as_str().to_ascii_lowercase().contains("idempotent")
        {
            let start = text[..m.start()]
                .rfind(['.', '\n', ';'])
                .map_or(0, |i| i + 1);
            let end = text[m.end()..]
                .find(['.', '\n', ';'])
                .map_or(text.len(), |i| m.end() + i);
            let sentence = words(&text[start..end]);
            let hedged = sentence.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "not"
                        | "none"
                        | "no"
                        | "unless"
                        | "only"
                        | "without"
                        | "key"
                        | "get"
                        | "put"
                        | "post"
                        | "delete"
                        | "patch"
                )
            });
            if !hedged {
                return Some((name, m.as_str()));
            }
        }
    }
    None
}

/// How a create is protected by a natural key, if it is: a `409` (or `400`/`422`) that answers a
/// second create as a duplicate ("already exists"), or a body property whose value must be
/// unique. A retry is then refused instead of creating twice.
///
/// `harms_twice`: the operation moves money or makes a relative change. What its error
/// responses say is then no evidence: "The payment method is already associated with another
/// customer" speaks of an input, not of the payment made; only a value the client sends, or the
/// operation's own words, protect it.
/// (Asked only when the evidence needs it: judging a body costs.)
pub fn natural_key(
    bundle: &Bundle,
    op: &Operation<'_>,
    harms_twice: &dyn Fn() -> bool,
) -> Option<String> {
    // A Security Event Token pushed to a receiver (RFC 8935, `application/secevent+jwt`) carries
    // a unique `jti` (RFC 8417) that the receiver dedupes on: a retried push is the same event.
    if op.request_body.as_ref().is_some_and(|b| {
        !b.content.is_empty()
            && b.content.iter().all(|m| {
                m.media_type.contains("secevent")
                    && crate::model::media_essence(m.media_type) == "application/secevent+jwt"
            })
    }) {
        return Some("the `jti` of the Security Event Token it carries (RFC 8417)".to_string());
    }
    // "Duplicates are allowed" (the OpenAPI petstore): whatever its fields, nothing refuses a
    // second create.
    // A 409 that says a duplicate is refused ("already exists", "name taken"), or says nothing
    // but "Conflict"; not one about the key's concurrency or the state of stock.
    let conflict_declared = op.response("409").is_some_and(|r| {
        let w = r.description.map(|d| words(short(d))).unwrap_or_default();
        let bare = w.iter().all(|x| matches!(x.as_str(), "conflict" | "409"));
        let in_use = w.windows(2).any(|p| {
            (p[0] == "in" && p[1] == "use")
                || (p[0] == "being" && matches!(p[1].as_str(), "used" | "taken"))
        });
        // ("A tag with this key already exists": a natural key's name, not the idempotency key;
        // "already being used": taken, not in progress.)
        let about: Vec<String> = w
            .iter()
            .enumerate()
            .filter(|(i, x)| {
                *x != "key"
                    // ("This key is already being used by another request" is in progress.)
                    && !(*x == "being"
                        && w.get(i + 1)
                            .is_some_and(|n| matches!(n.as_str(), "used" | "taken"))
                        && !w.iter().any(|n| n == "key" || n == "request"))
            })
            .map(|(_, x)| x.clone())
            .collect();
        !speaks_of_progress(&about)
            && (bare
                || in_use
                || w.iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "exist" | "exists" | "already" | "duplicate" | "unique" | "taken"
                    )
                }))
    });
    // The regexes below read long descriptions; a lower-cased copy tells cheaply which of them
    // can match at all.
    let texts: Vec<(&str, &str, String)> = ["summary", "description"]
        .iter()
        .filter_map(|k| {
            let t = op.node.node.get(k).and_then(Node::as_str)?;
            // (Whitespace collapsed: the regexes allow a line break between words, "Gets or\n
            // creates", and the cheap checks on this copy must see what they see.)
            let lower = if t.contains(['\n', '\r', '\t']) || t.contains("  ") {
                t.split_whitespace().collect::<Vec<_>>().join(" ")
            } else {
                t.to_string()
            };
            Some((*k, t, lower.to_ascii_lowercase()))
        })
        .collect();
    if texts.iter().any(|(_, _, lower)| duplicates_allowed(lower)) {
        return None;
    }
    // "Calls to this endpoint are idempotent": the spec says a repeat is safe. "Each Push
    // Provider must have a unique `name`", "Every user … must have a unique identifier for a
    // login": the thing made is unique by something the client sends.
    for (key, text, lower) in &texts {
        let unique = || {
            UNIQUE_PROSE.find(text).filter(|m| {
                let lower = m.as_str().to_ascii_lowercase();
                !lower.contains("idempotency") && !lower.contains("request")
            })
        };
        // (The regex runs only on a text with the words one of its wordings needs: "existing"
        // alone is in many long descriptions.)
        let by_design = || {
            [
                "idempotent",
                "no action",
                "or resume",
                "or reopen",
                "or creat",
                "or return",
                "already exist",
                " exists",
            ]
            .iter()
            .any(|w| lower.contains(w))
            .then(|| IDEMPOTENT_BY_DESIGN.find(text))
            .flatten()
            // A replace not said of another call nor denied before it in its sentence: "Unlike
            // PUT, which replaces the existing document if it exists, POST always creates a new
            // document", "This does not overwrite an existing file if one exists".
            .filter(|m| {
                let said = m.as_str().to_ascii_lowercase();
                if !(said.starts_with("replace") || said.starts_with("overwrite")) {
                    return true;
                }
                let start = text[..m.start()]
                    .rfind(['.', '\n', ';'])
                    .map_or(0, |i| i + 1);
                !words(&text[start..m.start()]).iter().any(|x| {
                    matches!(
                        x.as_str(),
                        "not" | "never" | "unlike" | "instead" | "rather" | "put" | "doesn" | "don"
                    )
                })
            })
        };
        let unique_said = || lower.contains("unique").then(unique).flatten();
        // "Okta only allows one principal rate limit entity per org and principal": a second
        // is refused.
        // (The one thing must be what the call makes: "one request per second", "one file per
        // request" limit something else.)
        let one_per = || {
            ((lower.contains(" one ") || lower.starts_with("one ") || lower.contains(" single "))
                && (lower.contains(" per ") || lower.contains("only")))
            .then(|| ONE_PER.find(text))
            .flatten()
            // (One at a time is a limit on running ones, not a key: "A workspace can only
            // create a single import at a time".)
            .filter(|m| {
                let rest = text[m.end()..].trim_start().as_bytes();
                !["at a time", "at once"].iter().any(|w| {
                    rest.get(..w.len())
                        .is_some_and(|r| r.eq_ignore_ascii_case(w.as_bytes()))
                })
            })
            .filter(|m| !harms_twice() && names_what_it_makes(op, m.as_str()))
        };
        // "An attempt to create a new `Timecard` can result in a `BAD_REQUEST` error when … the
        // `start_at` or `end_at` date overlaps another timecard for the same team member"
        // (Square): a retry overlaps the first, and is refused.
        // (The refusal comes first, within a few sentences, as a list of what is refused does;
        // "Bookings may overlap existing bookings" allows it.)
        let overlap_refused = || {
            if !lower.contains("overlap") {
                return None;
            }
            let m = OVERLAP.find(text)?;
            let before = &text[..m.start()];
            // "may overlap", "can overlap", "overlapping … is allowed".
            let lead = words(&before[before.rfind(['.', ';', ':']).map_or(0, |at| at + 1)..]);
            let rest = &text[m.end()..];
            let after = &rest[..rest.find(['.', ';']).unwrap_or(rest.len())];
            let allowed = lead
                .iter()
                .rev()
                .take(2)
                .any(|w| matches!(w.as_str(), "may" | "can"))
                || words(after)
                    .iter()
                    .any(|w| matches!(w.as_str(), "allowed" | "permitted"));
            let mut from = before.len().saturating_sub(400);
            while !before.is_char_boundary(from) {
                from += 1;
            }
            let window = &before[from..];
            (says_refused(window) && !allowed).then_some(m)
        };
        // "If the key is already present in the list of key credentials for the target IdP,
        // you receive a 400 error response" (Okta's key clone): a repeat is refused. Not of a
        // call that moves money: "if the payment has already been captured, the refund fails"
        // speaks of another thing's state.
        let already_refused = || {
            lower
                .contains("already")
                .then(|| ALREADY_REFUSED.find(text))
                .flatten()
                .filter(|_| !harms_twice())
        };
        // "Some reasons a dev resource cannot be created include: … Another dev resource for
        // the node has the same url" (Figma): the value the client sends, `url`, is unique
        // among its kind, and a repeat is refused.
        let same_as_another_refused = || {
            (lower.contains("another") && lower.contains("same"))
                .then(|| {
                    SAME_AS_ANOTHER.captures_iter(text).find(|c| {
                        let (at, end) = c.get(0).map_or((0, 0), |m| (m.start(), m.end()));
                        refused_at(text, at, end) && body_field_named(bundle, op, &squash(&c[1]))
                    })
                })
                .flatten()
                .and_then(|c| c.get(0))
                .filter(|_| !harms_twice())
        };
        // "When an enterprise does not yet have any classifications, this API call initializes
        // the classification template" (Box): a call made once, while there is none; a retry
        // finds the one the first made.
        // (What there is none of must be what it initializes: not "Initializes a new cart for
        // a visitor who does not have any saved addresses".)
        let first_only = || {
            if !lower.contains("initiali") {
                return None;
            }
            // (Quoted as written, its line breaks collapsed.)
            // (A sentence, not a wall of text: each "have any" is weighed against its words.)
            text.split(['.', ';'])
                .filter(|sentence| sentence.len() <= 1000)
                .map(|sentence| sentence.split_whitespace().collect::<Vec<_>>().join(" "))
                .find(|sentence| {
                    let w = words(sentence);
                    let initializes = w.iter().any(|x| x.starts_with("initiali"));
                    initializes
                        && (0..w.len().saturating_sub(2)).any(|k| {
                            if w[k] != "have" || w[k + 1] != "any" {
                                return false;
                            }
                            let denied = w[k.saturating_sub(3)..k]
                                .iter()
                                .any(|x| matches!(x.as_str(), "not" | "t" | "nt"));
                            let none_of = crate::classify::base_verb(&w[k + 2]);
                            denied
                                && w.iter().enumerate().any(|(i, x)| {
                                    (i + 3 < k || i > k + 2)
                                        && crate::classify::base_verb(x) == none_of
                                })
                        })
                })
        };
        if let Some(sentence) = first_only().filter(|_| !harms_twice()) {
            return Some(format!("its {key}: \"{}\"", shortened_to(&sentence, 160)));
        }
        // "Calling this will overwrite an existing, pending subscription change": there is one
        // at a time, and a retry overwrites the first one's own.
        let overwrites_its_own = || {
            (lower.contains("existing")
                && (lower.contains("overwrite") || lower.contains("replace")))
            .then(|| {
                OVERWRITES_THE_EXISTING.captures_iter(text).find(|c| {
                    let start = c.get(0).map_or(0, |m| m.start());
                    let lead = text[..start].rfind(['.', '\n', ';']).map_or(0, |i| i + 1);
                    !words(&text[lead..start])
                        .iter()
                        .any(|x| matches!(x.as_str(), "not" | "never" | "unlike" | "doesn" | "don"))
                        && overwritten_is_what_it_makes(op, &c[1])
                })
            })
            .flatten()
            .and_then(|c| c.get(0))
            .filter(|_| !harms_twice())
        };
        if let Some(m) = by_design()
            .or_else(overwrites_its_own)
            .or_else(unique_said)
            .or_else(one_per)
            .or_else(overlap_refused)
            .or_else(already_refused)
            .or_else(same_as_another_refused)
        {
            return Some(format!("its {key}: \"{}\"", m.as_str()));
        }
    }
    // A tag of the operation that says its operations are idempotent (Okta's DisasterRecovery:
    // "Disaster Recovery operations are idempotent, which means that if you attempt multiple
    // failovers … the outcome remains the same").
    if let Some((name, said)) = tag_says_idempotent(bundle, op)
        && !harms_twice()
    {
        return Some(format!("its tag `{name}`: \"{said}\""));
    }
    // A second one for the same thing is refused, as its responses' schemas say: Vonage's
    // verify request answers status 10, "Concurrent verifications to the same number are not
    // allowed" (in a 200, as Vonage answers its errors).
    // (The same what must be a field the request sends, `number`; "multiple values for the
    // same parameter" speaks of the request's form.)
    // (Read in a response that is one of several shapes, a success or an error, as Vonage's;
    // and cheaply: the words are looked for before any regex runs.)
    if let Some(said) = op
        .responses
        .iter()
        .flat_map(|r| response_schemas(bundle, r))
        .map(|s| bundle.deref(s))
        .filter(|s| s.node.get("oneOf").is_some() || s.node.get("anyOf").is_some())
        .flat_map(|s| schema_descriptions(bundle, s, 1))
        .filter(|t| t.contains("same") && t.contains("not"))
        .flat_map(|t| SAME_REFUSED.captures_iter(t))
        .find(|c| {
            let same = squash(&c[1]);
            body_properties(bundle, op)
                .iter()
                .any(|p| squash(p.name) == same)
        })
        && !harms_twice()
    {
        return Some(format!("its response's words: \"{}\"", &said[0]));
    }
    let answered = op.responses.iter().find(|r| {
        (matches!(r.status, "409" | "400" | "422" | "403" | "503"))
            && r.description.is_some_and(natural_key_said)
            && !harms_twice()
    });
    if let Some(r) = answered {
        return Some(format!("the {} response", r.status));
    }
    // The same said by the name of an error example the spec gives: Okta's 400 example
    // `ErrorJsonWebKeyNonUniqueKid`, a `DuplicateName`. The name says what is duplicated: a
    // naming word or a plain field of the body (`kid`), not a list's items (`ItemsNotUnique`)
    // nor a part of the request (`DuplicateQueryParameter`).
    let props = body_properties(bundle, op);
    let body_fields: Vec<String> = props
        .iter()
        .filter(|p| scalar_value(p.name, &p.schema))
        .map(|p| squash(p.name))
        .collect();
    let names_a_duplicate = |name: &str| {
        let w = words(name);
        let said = w.iter().any(|x| x == "duplicate")
            || w.windows(2).any(|p| {
                (matches!(p[0].as_str(), "non" | "not") && p[1] == "unique")
                    || (p[0] == "already" && matches!(p[1].as_str(), "exists" | "exist"))
            });
        let of_the_request = w.iter().any(|x| {
            matches!(
                x.as_str(),
                "request"
                    | "requests"
                    | "parameter"
                    | "parameters"
                    | "query"
                    | "header"
                    | "headers"
                    | "idempotency"
                    | "transaction"
                    | "transactions"
                    | "payment"
            )
        });
        let what = w.iter().any(|x| {
            crate::vocabulary::NAMING_WORDS.contains(&x.as_str()) || body_fields.contains(x)
        });
        said && what && !of_the_request
    };
    let example_says = |r: &&crate::model::Response<'_>| {
        let Some(content) = r.node.get("content").map(|c| bundle.deref(c)) else {
            return false;
        };
        content.node.entries().iter().any(|e| {
            bundle
                .deref(content.with(&e.value))
                .get("examples")
                .is_some_and(|examples| {
                    examples
                        .node
                        .entries()
                        .iter()
                        .any(|x| names_a_duplicate(&x.key.text))
                })
        })
    };
    if let Some(r) = op
        .responses
        .iter()
        .filter(|r| matches!(r.status, "409" | "400" | "422"))
        .find(|r| example_says(r) && !harms_twice())
    {
        return Some(format!("the {} response's example", r.status));
    }
    // The same said by the error message of an example the operation's own 409, 400 or 422
    // gives (Xero's `POST /Contacts`: "The contact name Buzz Lightyear is already assigned to
    // another contact. The contact name must be unique across all active contacts."). Not a
    // response shared by `$ref`, whose examples may speak of another call.
    if let Some((r, m)) = op
        .responses
        .iter()
        .filter(|r| matches!(r.status, "409" | "400" | "422"))
        .filter(|r| r.node.file == r.declared.file && r.node.node.span == r.declared.span)
        .find_map(|r| {
            example_messages(r)
                .into_iter()
                .find(|m| names_what_is_refused(m) && natural_key_said(m))
                .map(|m| (r, m))
        })
        && !harms_twice()
    {
        return Some(format!(
            "the {} response's example: \"{}\"",
            r.status,
            shortened_to(m, 160)
        ));
    }
    // An error code the spec lists for the call that says the thing is already there (Slack's
    // `already_reacted` of `reactions.add`, `already_in_channel`, a `NAME_TAKEN`), on a call that
    // makes or joins something: a repeat is refused. (On a transition, "already archived"
    // answers a repeat, which `missing-idempotency-key` reports as such.)
    if let Some(code) = duplicate_error_code(bundle, op)
        && !harms_twice()
        && matches!(
            crate::classify::effect(op),
            crate::classify::Effect::Creates | crate::classify::Effect::JoinsSet(_)
        )
    {
        return Some(format!("the error code `{code}` it lists"));
    }
    // A success that answers a repeat beside the one that answers a create: GitHub's 200
    // "Reaction exists" beside 201 "Reaction created", 204 "Response when already merged".
    let created = op.responses.iter().any(|r| r.status == "201");
    let repeat_answered = op.responses.iter().find(|r| {
        r.status.starts_with('2')
            && r.description.is_some_and(|d| {
                retry_answered(d)
                    || (r.status != "201"
                        && (repeat_found(d)
                            || (created && words(short(d)).iter().any(|x| x == "exists"))))
            })
    });
    if let Some(r) = repeat_answered {
        return Some(format!("the {} response answers a repeat", r.status));
    }
    // The path names one resource (a `PUT` or `DELETE` beside the POST) and a second create is
    // answered 409: GitHub's one Pages site per repository, "409 Conflict".
    if op.neighbours.contains(&crate::model::Method::Put)
        && conflict_declared
        && crate::classify::head_verbs(op)
            .iter()
            .any(|h| matches!(h.as_str(), "create" | "add" | "enable" | "post"))
    {
        return Some("the 409 of the one resource its path names".to_string());
    }
    // In an API of dotted methods, a sibling method removes or reads one by the fields this
    // one requires (Slack's `admin.emoji.remove` by `name`, which `admin.emoji.add` requires):
    // the client names what it makes, and a second of the same name is refused.
    // (Values that name, not references to other things: `pins.remove` by `channel` says
    // nothing of which pin.)
    if let Some((sibling, fields)) = op
        .addressed_as
        .iter()
        .find(|(_, fields)| fields.iter().all(|f| naming_field(f)))
        && !harms_twice()
    {
        let fields: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
        return Some(format!(
            "the {} that `{}` addresses it by",
            fields.join(" and "),
            sibling.trim_start_matches('/')
        ));
    }
    // The client names what it creates in the path it creates it at: a create whose path ends
    // in the new item's parameter, which the same path also reads or deletes (Moov's "Create
    // File" at `/files/{fileID}`, Formance's `v2CreateLedger` at `/v2/{ledger}`). A retry names
    // the same item, and is refused or finds it made.
    if let Some(param) = created_at_its_own_path(op) {
        return Some(format!("the `{{{param}}}` its path names the new item by"));
    }
    let writable =
        |p: &&Property<'_>| p.schema.node.get("readOnly").and_then(Node::as_bool) != Some(true);
    // The client names what it creates: the body carries the value that names the new item in
    // the path under this one (Twilio's `Identity` of `/Entities/{Identity}`, a label's `name`
    // of `/labels/{name}`, Kubernetes' `metadata.name` of `/pods/{name}`). A second create of
    // the same name is refused.
    // The item path's parameter, or, for the one thing of its kind under the resource the path
    // names (Kubernetes' `/pods/{name}/eviction`, whose body's `metadata.name` is the pod's),
    // the parameter before the last segment.
    let parent_parameter = || {
        let segments: Vec<&str> = op.path.split('/').filter(|s| !s.is_empty()).collect();
        match segments.as_slice() {
            [.., parent, last] if !last.starts_with('{') && !last.ends_with('s') => {
                parent.strip_prefix('{')?.strip_suffix('}')
            }
            _ => None,
        }
    };
    if let Some(param) = op.item_parameter.or_else(parent_parameter) {
        let collection = last_literal_words(op.path);
        let names_item = |name: &str| names_item(param, name, &collection);
        // Required, or a value only the client can choose: a name, a slug, an external id
        // (Okta's `externalId` of `/users/{externalId}`). An optional plain `id` is usually
        // made by the server when left out (the petstore's pet `id`).
        let chosen = |p: &Property<'_>| {
            p.required
                || ((naming_field(p.name) || squash(p.name).starts_with("external"))
                    && !made_when_omitted(&p.schema))
        };
        // A body that is a list makes one item per element, each named by its own field
        // (Netlify's `POST …/env`, an array of `{key, values}` under `…/env/{key}`).
        let elements = if props.is_empty() {
            array_element_properties(bundle, op)
        } else {
            Vec::new()
        };
        if let Some(p) = props
            .iter()
            .chain(&elements)
            .filter(writable)
            .find(|p| chosen(p) && names_item(p.name) && scalar_value(p.name, &p.schema))
        {
            return Some(format!(
                "the `{}` it sends names the new item (`{{{param}}}`)",
                p.name
            ));
        }
        // The item is addressed by another thing's id, which the body sends as that thing and
        // describes as unique (Okta's role binding at `/bindings/{roleIdOrLabel}`, whose `role`
        // is "Unique key for the role"): one item per role. (A required `product` of a cart's
        // `/items/{productId}` may add to the quantity instead.)
        if let Some(p) = props.iter().filter(writable).find(|p| {
            description_of(&p.schema).is_some_and(unique_field_said)
                && !made_when_omitted(&p.schema)
                && addressed_through(param, p.name, &collection)
                && scalar_value(p.name, &p.schema)
        }) {
            return Some(format!(
                "the `{}` it sends addresses the new item (`{{{param}}}`)",
                p.name
            ));
        }
        // The item parameter takes the field as well as the id (Recurly's `{shipping_method_id}`,
        // "Shipping Method ID or code"): what the client names its item by is unique.
        let addressed_by = |name: &str| {
            op.item_parameter
                .zip(op.item_parameter_description)
                .is_some_and(|(_, d)| id_or(short(d), name))
        };
        if let Some(p) = props.iter().filter(writable).find(|p| {
            (p.required || (naming_field(p.name) && !made_when_omitted(&p.schema)))
                && addressed_by(p.name)
                && scalar_value(p.name, &p.schema)
        }) {
            return Some(format!(
                "the `{}` it sends also names the new item (`{{{param}}}`)",
                p.name
            ));
        }
        // One level down, when its description says it is unique (`metadata.name`: "Name must
        // be unique within a namespace").
        for outer in props.iter().filter(writable) {
            let mut inner = Vec::new();
            schema_properties(bundle, outer.schema, 0, &mut inner);
            if let Some(p) = inner.iter().find(|p| {
                names_item(p.name) && description_of(&p.schema).is_some_and(unique_field_said)
            }) {
                return Some(format!(
                    "the `{}.{}` it sends names the new item (`{{{param}}}`)",
                    outer.name, p.name
                ));
            }
        }
    }
    // The client sends the very value the collection holds, by the collection's name: a
    // `domain` registered at `/domains` (Okta's custom domains), a `tag` at `/tags`, an `email`
    // at `/emails`, or named so (Square's `domain_name` at `/apple-pay/domains`). The same
    // value is not registered twice. (Content is no such value: a `message` at `/messages` is
    // one of many.)
    let collection_words = last_literal_words(op.path);
    let collection = collection_words.last().cloned().unwrap_or_default();
    let held = |name: &str| {
        [collection.strip_suffix('s'), collection.strip_suffix("es")]
            .into_iter()
            .flatten()
            .any(|singular| !singular.is_empty() && singular == name)
    };
    // (A value unique by its nature: a `deductionName` at `/Deductions` names one of many.)
    let registered = |name: &str| {
        matches!(
            name,
            "domain" | "hostname" | "subdomain" | "host" | "origin" | "tag" | "label" | "alias"
        )
    };
    if let Some(p) = props
        .iter()
        .filter(|p| p.required)
        .filter(writable)
        .find(|p| {
            let name = squash(p.name);
            ((held(&name) && (naming_field(p.name) || registered(&name)))
                || name
                    .strip_suffix("name")
                    .is_some_and(|value| held(value) && registered(value))
                // A collection of registered values named by what they are (Box's
                // `/users/{user_id}/email_aliases`, sent an `email`): the value it holds.
                || (["alias", "aliase"].iter().any(|a| held(a))
                    && collection_words[..collection_words.len().saturating_sub(1)]
                        .contains(&name)))
            && scalar_value(p.name, &p.schema)
            // ("Send a transactional email" to `/emails` sends one each time.)
            && matches!(
                crate::classify::effect(op),
                crate::classify::Effect::Creates | crate::classify::Effect::JoinsSet(_)
            )
        })
    {
        return Some(format!(
            "the `{}` it registers, which the collection holds",
            p.name
        ));
    }
    // A required name or identity described as unique: "A unique and addressable name to be
    // assigned to this Rate Limit", "The unique external identifier for the Entity".
    // A required name with a conflict declared: the 409 is what a second create with that name
    // gets (Gitea's tags). A name whose description says a missing one is made ("The name of
    // the tag, which will be created if not found"): get or create.
    // (A 409 for a request still in progress with the same key answers concurrency, not a
    // second create.)
    if let Some(p) = props.iter().filter(writable).find(|p| {
        p.required
            && naming_field(p.name)
            && (conflict_declared
                || description_of(&p.schema).is_some_and(|d| {
                    (says_unique(d) && UNIQUE_NAMING.is_match(d)) || made_if_missing(d)
                }))
    }) {
        return Some(format!("the unique `{}`", p.name));
    }
    // A unique field is a natural key when every request must carry it (Stripe's required
    // `reference`, "Must be unique across all transactions"), when a conflict is declared
    // for it, or when it names the thing (Okta's trusted origin `name`, "Unique name for the
    // trusted origin"): a client that names what it makes names it again on a retry.
    let conflict = conflict_declared;
    let unique = |p: &&Property<'_>| {
        description_of(&p.schema).is_some_and(unique_field_said)
            && (p.required || ((conflict || naming_field(p.name)) && !made_when_omitted(&p.schema)))
    };
    if let Some(p) = props.iter().filter(writable).find(unique) {
        return Some(format!("the unique `{}`", p.name));
    }
    // One level down, in the required object that is the thing made (Square's
    // `custom_attribute_definition.key`, "must be unique per application, seller, and resource
    // type").
    for outer in props.iter().filter(writable).filter(|p| p.required) {
        let mut inner = Vec::new();
        schema_properties(bundle, outer.schema, 0, &mut inner);
        if let Some(p) = inner.iter().filter(writable).find(unique) {
            return Some(format!("the unique `{}.{}`", outer.name, p.name));
        }
    }
    // Or the object that is the thing made says which of its fields is unique (Square's
    // `location`: "The `name` field is required and must be unique within a seller account").
    for outer in props.iter().filter(writable) {
        let Some(field) = outer
            .beside_ref
            .or_else(|| description_of(&outer.schema))
            .filter(|d| says_unique(d))
            .and_then(|d| UNIQUE_NAMED_FIELD.captures(d))
            .and_then(|c| c.get(1))
        else {
            continue;
        };
        let mut inner = Vec::new();
        schema_properties(bundle, outer.schema, 0, &mut inner);
        // (A field the client always sends, or names the thing by; not one "when given".)
        if let Some(p) = inner.iter().filter(writable).find(|p| {
            p.name == field.as_str()
                && (p.required || (naming_field(p.name) && !made_when_omitted(&p.schema)))
        }) {
            return Some(format!("the unique `{}.{}`", outer.name, p.name));
        }
    }
    None
}

/// An object's description that names one of its fields as unique: "The `name` field is
/// required and must be unique within a seller account".
static UNIQUE_NAMED_FIELD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)`((?-u:\w)+)`(?:(?u:\s)+field)?(?:(?u:\s)+is(?u:\s)+required(?u:\s)+and)?(?u:\s)+must(?u:\s)+be(?u:\s)+unique(?-u:\b)",
    )
    .expect("valid regex")
});

/// An error code an error response of `op` lists (an `enum` of its `error`, `code` or
/// `error_code`) that says what the call makes is already there: `already_reacted`,
/// `ALREADY_EXISTS`, `name_taken`, `duplicate_name`. Not one of a request in progress
/// (`already_processing`), nor of something missing (`does_not_exist`). The enum must be the
/// operation's own, written in it as Slack writes each method's errors: a list shared through
/// a `$ref` (Formance's `V2ErrorsEnum`) holds every code of the API, not what this call
/// answers.
fn duplicate_error_code(bundle: &Bundle, op: &Operation<'_>) -> Option<String> {
    // The code is written in the operation's own text: one that spells none of the words has
    // none, and its error schemas are not worth walking.
    let own = op.node.location();
    let text = bundle
        .files
        .get(own.file.0 as usize)
        .and_then(|f| {
            f.source
                .text
                .get(own.span.start as usize..own.span.end as usize)
        })
        .unwrap_or_default();
    static WORDS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i-u)already|duplicat|exists|taken").expect("valid regex")
    });
    if !WORDS.is_match(text) {
        return None;
    }
    // ("Already" followed by a state speaks of the parent's state, not of a second one:
    // `conversation_already_closed`.)
    let says = |code: &str| {
        let w = words(code);
        let of_a_state = w.windows(2).any(|p| {
            p[0] == "already" && crate::vocabulary::REACHED_STATES.contains(&p[1].as_str())
        });
        !w.iter().any(|x| x == "not" || x == "no")
            && !speaks_of_progress(&w)
            && !of_a_state
            && w.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "already" | "duplicate" | "duplicated" | "exists" | "taken"
                )
            })
    };
    error_codes(bundle, op, false)
        .find(|(p, c)| op.owns(p.schema.location()) && says(c))
        .map(|(_, c)| c.to_string())
}

/// The error codes `op`'s error responses (4xx and `default`) list: each value of the `enum` of
/// a field named `error`, `code`, `error_code` or `type` of their body, with that field; with
/// `nested`, also of such a field under an `error` object (Lob's `error.code`).
pub fn error_codes<'a>(
    bundle: &'a Bundle,
    op: &'a Operation<'a>,
    nested: bool,
) -> impl Iterator<Item = (Property<'a>, &'a str)> + 'a {
    op.responses
        .iter()
        .filter(|r| r.status.starts_with('4') || r.status == "default")
        .flat_map(move |r| response_schemas(bundle, r))
        .flat_map(move |schema| {
            let mut props = Vec::new();
            schema_properties(bundle, schema, 0, &mut props);
            if nested {
                let mut inner = Vec::new();
                for p in props.iter().filter(|p| squash(p.name) == "error") {
                    schema_properties(bundle, p.schema, 0, &mut inner);
                }
                props.extend(inner);
            }
            props
        })
        .filter(|p| {
            matches!(
                squash(p.name).as_str(),
                "error" | "code" | "errorcode" | "type"
            )
        })
        .flat_map(|p| {
            p.schema
                .node
                .get("enum")
                .into_iter()
                .flat_map(Node::items)
                .filter_map(Node::as_str)
                .map(move |c| (p.clone(), c))
        })
}

/// The path parameter a create names its new item by, when the create's path ends in it and
/// the same path reads or deletes that item, and the parameter is the created noun's (`ledger`
/// of `createLedger`, `fileID` of "Create File", `permissionType` of Okta's
/// `createRolePermission`). A POST to an item path with no create verb
/// updates (Stripe's `/v1/customers/{customer}`).
fn created_at_its_own_path<'a>(op: &Operation<'a>) -> Option<&'a str> {
    let path = op
        .path
        .split('?')
        .next()
        .unwrap_or(op.path)
        .trim_end_matches('/');
    let (_, last) = path.rsplit_once('/')?;
    let param = last.strip_prefix('{')?.strip_suffix('}')?;
    if !op
        .neighbours
        .iter()
        .any(|m| matches!(m, crate::model::Method::Get | crate::model::Method::Delete))
    {
        return None;
    }
    let created = crate::classify::created_nouns(op);
    if created.is_empty() {
        return None;
    }
    // (What names an item of its kind: `ledgerId`, `fileName`, Okta's `permissionType` and
    // `roleIdOrLabel`.)
    // (A type names one item only under a parent: Okta's permission of a role by its type;
    // `/events/{eventType}` lists the events of a type. A code names one: `{currencyCode}`.)
    let under_a_parent = path.matches('{').count() >= 2;
    let squashed = squash(param);
    let bare = [
        "idorlabel",
        "idorname",
        "idorkey",
        "id",
        "name",
        "key",
        "type",
        "code",
        "slug",
    ]
    .iter()
    .filter(|s| under_a_parent || **s != "type")
    .find_map(|s| squashed.strip_suffix(s).filter(|b| !b.is_empty()))
    .unwrap_or(&squashed)
    .to_string();
    // (Or the collection the parameter names one of: Formance's "Insert a schema" at
    // `/schemas/{version}`.)
    let collection = path[..path.len() - last.len()]
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|c| !c.starts_with('{'))
        .map(|c| crate::classify::base_verb(&squash(c)));
    (created.contains(&bare) || collection.is_some_and(|c| created.contains(&c))).then_some(param)
}

/// Whether a create at a collection has its new item confirmed by another POST, the item path
/// of the collection followed by `confirm` (`/check-deposits` and
/// `/check-deposits/{checkDepositId}/confirm`), as the model found it.
fn confirmed_by_its_own_call(op: &Operation<'_>) -> bool {
    op.method == crate::model::Method::Post && !op.path.ends_with('}') && op.item_confirmed
}

/// What in a description shows its API takes an idempotency key when no operation declares
/// one, in words a finding can quote: an error code or type of its schemas that names
/// idempotency (Stripe's `idempotency_error`, a `IDEMPOTENCY_KEY_REUSED`), or a field of them
/// that holds the key a request was sent with (Stripe's event `request.idempotency_key`, "The
/// idempotency key transmitted during the request"), wherever in its files they are.
pub fn undeclared_key_evidence(bundle: &Bundle) -> Option<String> {
    // Only where a file's text names idempotency can such a sign be: each place it does is
    // looked up in the tree (Stripe's 2023 spec names it four times in 4 MB), rather than every
    // schema walked.
    // (An error code says it plainest: it is preferred to a field met first.)
    let mut field = None;
    for file in &bundle.files {
        let text = file.source.text.as_bytes();
        let places = memchr::memmem::find_iter(text, b"dempoten")
            .chain(memchr::memmem::find_iter(text, b"DEMPOTEN"))
            .take(10_000);
        for at in places {
            let at = u32::try_from(at).unwrap_or(u32::MAX);
            let inside = |span: crate::source::Span| span.start <= at && at < span.end;
            // Down to the innermost node the place is in, remembering the key each node is
            // under (`[]` for an item of a list).
            let mut chain: Vec<(&str, &Node)> = Vec::new();
            let (mut key, mut node) = ("", &file.root);
            let mut in_key = None;
            loop {
                chain.push((key, node));
                if let Some(e) = node.entries().iter().find(|e| inside(e.key.span)) {
                    in_key = Some(e);
                    break;
                }
                if let Some(e) = node.entries().iter().find(|e| inside(e.value.span)) {
                    (key, node) = (&e.key.text, &e.value);
                } else if let Some(item) = node.items().iter().find(|i| inside(i.span)) {
                    (key, node) = ("[]", item);
                } else {
                    break;
                }
            }
            let n = chain.len();
            // An enum's value: Stripe's error type `idempotency_error`.
            if in_key.is_none()
                && key == "[]"
                && n >= 2
                && chain[n - 2].0 == "enum"
                && let Some(c) = node.as_str()
                && words(c).iter().any(|w| w == "idempotency")
            {
                return Some(format!("the error `{c}`"));
            }
            // A property that holds the key a request was sent with, optional: Stripe's event
            // `request.idempotency_key`.
            if field.is_none()
                && let Some(e) = in_key
                && squash(&e.key.text) == "idempotencykey"
                && chain[n - 1].0 == "properties"
                && n >= 2
            {
                let required = chain[n - 2]
                    .1
                    .get("required")
                    .map(Node::items)
                    .unwrap_or(&[])
                    .iter()
                    .any(|r| r.as_str() == Some(&*e.key.text));
                if !required {
                    field = Some(format!("a field `{}` that holds the key sent", e.key.text));
                }
            }
        }
    }
    field
}

/// Whether a field's name says it holds an id: its last word is `id`, `ids`, `gid`, `sid` or
/// `uuid` (`customer_id`, `externalId`, `BatchPaymentID`; not `paid`, `valid`, `android`).
pub fn names_an_id(name: &str) -> bool {
    words(name)
        .last()
        .is_some_and(|w| matches!(w.as_str(), "id" | "ids" | "gid" | "gids" | "sid" | "uuid"))
}

/// Whether a field holds a plain value, a name or a number: not a file's bytes (Stripe's
/// `file` of `/v1/files/{file}` is the upload), an object or a list.
fn scalar_value(name: &str, schema: &At<'_>) -> bool {
    let node = schema.node;
    // An upload's content is no name, typed or not (Stripe's 2022 `file` is a plain string).
    !matches!(
        squash(name).as_str(),
        "file" | "content" | "data" | "body" | "image" | "attachment"
    ) && !matches!(
        node.get("format").and_then(Node::as_str),
        Some("binary" | "byte" | "base64")
    ) && !matches!(
        node.get("type").and_then(Node::as_str),
        Some("object" | "array" | "file")
    ) && node.get("properties").is_none()
}

/// The words of a path's last literal segment: `entities` of `/Services/{Sid}/Entities`.
fn last_literal_words(path: &str) -> Vec<String> {
    path.split('/')
        .rev()
        .find(|s| !s.is_empty() && !s.starts_with('{'))
        .map(words)
        .unwrap_or_default()
}

/// Whether a body field `name` is what the item parameter `param` of the collection holds:
/// the same name (`Identity`, `name`), or the collection's noun and the name (`petId` of
/// `/pets` for `id`).
fn names_item(param: &str, name: &str, collection: &[String]) -> bool {
    if squash_eq(param, name) {
        return true;
    }
    // One of a parameter's alternatives (Okta's `{groupOrExternalId}` and `externalId`); not a
    // bare `id`, which the server assigns.
    let param_words = words(param);
    if param_words.iter().any(|w| w == "or")
        && !matches!(squash(name).as_str(), "id" | "uuid" | "")
        && param_words
            .split(|w| w == "or")
            .any(|alternative| alternative.concat() == squash(name))
    {
        return true;
    }
    let param = squash(param);
    let name = squash(name);
    collection.last().is_some_and(|noun| {
        let singular = noun.strip_suffix('s').unwrap_or(noun);
        param.strip_suffix(name.as_str()) == Some(singular) && !name.is_empty()
    })
}

/// Whether an item parameter is the id of another thing that `name` sends: `{roleIdOrLabel}`
/// (or `{roleId}`) and `role`. Not the collection's own noun, however its plural is spelled: an
/// `entry` sent to `/entries/{entryId}`, a `phone_number` to `/phone_numbers/{phoneNumberId}`.
fn addressed_through(param: &str, name: &str, collection: &[String]) -> bool {
    let name = squash(name);
    let own = crate::classify::base_verb(&collection.concat());
    !name.is_empty()
        && name != own
        && words(param).split(|w| w == "or").any(|alternative| {
            matches!(alternative, [.., id] if id == "id")
                && alternative[..alternative.len() - 1].concat() == name
        })
}

/// Whether a path parameter's description says it holds an id or the field `name` ("Coupon ID
/// or code", "the slug or ID"); a `uuid` or a `number` the server assigns is no such field.
fn id_or(description: &str, name: &str) -> bool {
    let name = squash(name);
    if matches!(name.as_str(), "id" | "uuid" | "number" | "") {
        return false;
    }
    words(description).windows(3).any(|w| {
        w[1] == "or"
            && ((w[0] == "id" && squash(&w[2]) == name) || (w[2] == "id" && squash(&w[0]) == name))
    })
}

/// Fields that name or identify what holds them: `UniqueName`, `Identity`, `slug`, `username`.
fn naming_field(name: &str) -> bool {
    let name = squash(name);
    // Not a person's names, which many share: `first_name`, `display_name`.
    let personal = [
        "first", "last", "given", "family", "middle", "full", "display", "nick", "legal",
        "company", "business", "friendly",
    ]
    .iter()
    .any(|p| name.starts_with(p));
    (name.ends_with("name") && !personal)
        || matches!(
            name.as_str(),
            "identity" | "slug" | "handle" | "login" | "email" | "key" | "code" | "externalid"
        )
}

/// Whether a response's description (its words) speaks of a request still in progress, a lock
/// or the key ("A request with this key is still in progress", "already being processed"): a
/// concurrency answer, not a business conflict.
pub fn speaks_of_progress(said: &[String]) -> bool {
    said.iter().any(|w| {
        matches!(
            w.as_str(),
            "progress"
                | "processing"
                | "concurrent"
                | "concurrently"
                | "simultaneous"
                | "lock"
                | "locked"
                | "idempotency"
                | "key"
                | "retry"
                | "retried"
                | "pending"
                | "being"
                | "busy"
        )
    })
}

/// The head of a response's description, which says what the response is: a spec may share one
/// long description among thousands of operations, and its words are read per operation.
pub fn short(description: &str) -> &str {
    match description.char_indices().nth(400) {
        Some((at, _)) => &description[..at],
        None => description,
    }
}

/// Whether an optional field's description says the server makes a value when the client sends
/// none (Stripe's promotion `code`, "If left blank, we will generate one automatically"): a
/// client that leaves it out names nothing, and a retry gets a second one.
fn made_when_omitted(schema: &At<'_>) -> bool {
    static MADE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?ix-u)(?-u:\b)(
                (if|when)\ (it\ is\ |it's\ )?(left\ blank|blank|omitted|empty|absent|missing|unset
                  |not\ (provided|specified|set|given|supplied|sent|included))(?-u:\b)(?u:[^.]){0,60}
                  (?-u:\b)(generat|assign|creat|default|pick|choose)
              | (auto|automatically|randomly|server)[-\ ]?generated
              | (is|are|will\ be)\ generated\ (if|when|unless|by\ default)
            )",
        )
        .expect("valid regex")
    });
    description_of(schema).is_some_and(|d| MADE.is_match(short(d)))
}

/// Whether a name's description says a missing one is made (Intercom's "The name of the tag,
/// which will be created if not found"): get or create by that name. Read of the name only: "The
/// customer is created if it does not exist" in an operation's prose is about another thing.
fn made_if_missing(description: &str) -> bool {
    let w = words(short(description));
    w.windows(3).any(|x| {
        x[0] == "created"
            && x[1] == "if"
            && matches!(x[2].as_str(), "not" | "missing" | "it" | "absent")
    })
}

/// Whether a text says duplicates are accepted: "Duplicates are allowed" (lower-cased text).
fn duplicates_allowed(lower: &str) -> bool {
    if !lower.contains("duplicate") {
        return false;
    }
    let w = words(lower);
    w.windows(3).any(|x| {
        matches!(x[0].as_str(), "duplicate" | "duplicates")
            && matches!(x[1].as_str(), "are" | "is")
            && matches!(x[2].as_str(), "allowed" | "permitted" | "accepted")
    })
}

/// Whether a success's description says the thing was found done ("Response when already
/// merged", "the user is already a member"), not that something else was ("Jobs that have
/// already finished cannot be cancelled").
fn repeat_found(description: &str) -> bool {
    let w = words(short(description));
    w.iter().enumerate().any(|(i, x)| {
        x == "already" && {
            let next = w.get(i + 1).map(String::as_str);
            let next = if next == Some("been") {
                w.get(i + 2).map(String::as_str)
            } else {
                next
            };
            matches!(
                next,
                Some(
                    "exist"
                        | "exists"
                        | "added"
                        | "merged"
                        | "created"
                        | "present"
                        | "subscribed"
                        | "applied"
                        | "registered"
                        | "linked"
                        | "assigned"
                        | "attached"
                        | "granted"
                )
            ) || (next == Some("a") && w.get(i + 2).is_some_and(|m| m == "member"))
        }
    })
}

/// Whether a success's description says what a retried duplicate gets: PayPal's "If a duplicate
/// response is retried, returns the HTTP `200 OK` status code".
fn retry_answered(description: &str) -> bool {
    // (In one sentence, the "returns" after the retry: not "A duplicate invoice is created when
    // the request is retried. Returns the invoice.", nor an earlier "A successful request
    // returns the HTTP `201 Created` status code".)
    short(description).split(['.', ';']).any(|sentence| {
        let w = words(sentence);
        let at = |word: &str| w.iter().position(|x| x == word);
        let (Some(d), Some(r)) = (at("duplicate"), at("retried")) else {
            return false;
        };
        d < r
            && w[r..]
                .iter()
                .position(|x| x == "returns" || x == "return")
                .is_some_and(|t| r + t - d <= 16)
    })
}

/// A field's description that says its value is unique to what it names: "A unique and
/// addressable name", "Provides a unique name", "uniquely identifies the resource".
static UNIQUE_NAMING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i-u)^(?u:\s)*(?:[a-z]+(?u:\s)+)?(?:an?|the)(?u:\s)+unique(?-u:\b)|(?-u:\b)uniquely(?u:\s)+identif",
    )
    .expect("valid regex")
});

/// Where a status is missing: the operation's `responses` key when it has one of its own, else
/// the method key.
pub fn responses_location(op: &Operation<'_>) -> Location {
    op.responses_key.map_or(op.key, |k| op.anchor(k))
}

/// The key lifetime an operation documents and where: `x-idempotency.ttl`, the key's
/// description (or its schema's), the operation's summary or description, then the API's
/// `info.description` or `externalDocs.description`, in that order.
pub fn stated_lifetime<'a>(
    bundle: &'a Bundle,
    api_root: At<'a>,
    op: &Operation<'a>,
    carrier: &KeyCarrier<'a>,
) -> Option<(Lifetime, Location)> {
    if let Some(Declared::Policy(policy)) = declared(bundle, op)
        && let Some(ttl) = policy.node.get("ttl")
    {
        let at = policy.key_location("ttl").unwrap_or(policy.location());
        let text = ttl.scalar_text().unwrap_or_default();
        // A bare number is seconds.
        if let Ok(seconds) = text.parse::<u64>() {
            return Some((
                Lifetime {
                    text: format!("{seconds} seconds"),
                    seconds: Some(seconds),
                },
                at,
            ));
        }
        if let Some(l) = lifetime(text) {
            return Some((l, at));
        }
    }
    let mut places: Vec<At<'a>> = Vec::new();
    match carrier {
        KeyCarrier::Header(p) => {
            places.push(p.node);
            if let Some(s) = p.schema {
                places.push(bundle.deref(s));
            }
        }
        KeyCarrier::BodyField(p) => places.push(p.schema),
        KeyCarrier::Extension { .. } => {}
    }
    places.push(op.node);
    for at in places {
        for key in ["description", "summary"] {
            if let Some(text) = at.node.get(key).and_then(Node::as_str)
                && let Some(l) = lifetime(text)
            {
                return Some((l, at.key_location(key).expect("present")));
            }
        }
    }
    for parent in ["info", "externalDocs"] {
        if let Some(p) = api_root.get(parent).map(|p| bundle.deref(p))
            && let Some(text) = p.node.get("description").and_then(Node::as_str)
            && let Some(l) = lifetime(text)
        {
            return Some((l, p.key_location("description").expect("present")));
        }
    }
    // A tag that documents the API's conventions (Lob's "Requests and Responses": "keys expire
    // after 24 hours"), when it speaks of idempotency.
    let tags = api_root.get("tags").map(|t| bundle.deref(t));
    for tag in tags
        .iter()
        .flat_map(|t| t.node.items().iter().map(|i| t.with(i)))
    {
        let tag = bundle.deref(tag);
        // The sentence that speaks of keys: "Rate limits reset every 60 seconds" is no lifetime.
        if let Some(text) = tag.node.get("description").and_then(Node::as_str)
            && IDEMPOTENCY_WORD.is_match(text)
            && let Some(l) = text
                .split(['.', ';'])
                .filter(|s| IDEMPOTENCY_WORD.is_match(s) || s.to_ascii_lowercase().contains("key"))
                .find_map(lifetime)
        {
            return Some((l, tag.key_location("description").expect("present")));
        }
    }
    None
}

/// The body's fields when every one can take a single value only (`status: {enum: [expired]}`):
/// a retry of such a body repeats the same change.
pub fn fixed_value_body<'a>(bundle: &'a Bundle, op: &Operation<'a>) -> Option<Vec<&'a str>> {
    let props = body_properties(bundle, op);
    let fixed = !props.is_empty()
        && props.iter().all(|p| {
            p.schema.node.get("const").is_some()
                || p.schema
                    .node
                    .get("enum")
                    .is_some_and(|e| e.items().len() == 1)
        });
    fixed.then(|| props.iter().map(|p| p.name).collect())
}

/// What is wrong with an `x-idempotency` value as written, each at the key or value to fix.
/// Anything reported here is read as if absent by the other rules (a string `"false"` declares
/// nothing, `keyy` names no key), except a bare-number `ttl`, which they read as seconds.
pub fn policy_problems(bundle: &Bundle, ext: At<'_>) -> Vec<(Location, String)> {
    let mut out = Vec::new();
    let node = ext.node;
    match &node.value {
        Value::Map(entries) => {
            for e in entries.iter() {
                let key_at = Location {
                    file: ext.file,
                    span: e.key.span,
                };
                let name = &*e.key.text;
                if !POLICY_KEYS.contains(&name) {
                    // A `$ref` that led nowhere is `unresolved-ref`'s to report.
                    if !name.starts_with("x-") && name != "$ref" {
                        out.push((key_at, unknown_policy_key(name)));
                    }
                    continue;
                }
                // A null value has no span worth pointing at: its key is the place to fix.
                let value_at = if e.value.is_null() {
                    key_at
                } else {
                    ext.with(&e.value).location()
                };
                let written = written(bundle, ext.with(&e.value));
                if let Some(message) = policy_value_problem(name, &e.value, &written) {
                    out.push((value_at, message));
                }
            }
        }
        Value::Scalar(s) => match s.kind {
            ScalarKind::Bool | ScalarKind::Null => {}
            ScalarKind::Str => {
                let written = written(bundle, ext);
                let text = s.text.trim();
                let message = if ["false", "no", "off"]
                    .iter()
                    .any(|w| text.eq_ignore_ascii_case(w))
                {
                    format!(
                        "`x-idempotency: {written}` is a string; write `false` (a boolean) to \
                         say duplicates are harmless"
                    )
                } else if ["true", "yes", "on"]
                    .iter()
                    .any(|w| text.eq_ignore_ascii_case(w))
                {
                    format!(
                        "`x-idempotency: {written}` is a string, not a boolean; write `false` \
                         to say duplicates are harmless, or a mapping such as `{{ key: \
                         Idempotency-Key, ttl: 24h }}` to describe the key"
                    )
                } else if !text.is_empty()
                    && text.len() <= 64
                    && !text.contains(char::is_whitespace)
                {
                    // A bare name is most likely the key: `x-idempotency: Order-Token`.
                    format!(
                        "`x-idempotency: {written}` is a string; to name the key, write \
                         `x-idempotency: {{ key: {text} }}`"
                    )
                } else {
                    not_a_policy("a string")
                };
                out.push((ext.location(), message));
            }
            ScalarKind::Int | ScalarKind::Float => {
                out.push((ext.location(), not_a_policy("a number")));
            }
        },
        Value::Seq(_) => out.push((ext.location(), not_a_policy("a list"))),
    }
    out
}

fn not_a_policy(kind: &str) -> String {
    format!(
        "`x-idempotency` takes `false` or a mapping of key, ttl, concurrency and mismatch, not \
         {kind}"
    )
}

fn unknown_policy_key(name: &str) -> String {
    // `TTL` and `Key` are the same typo as `keyy`: compare in lower case.
    let near = crate::suggest::closest(&name.to_ascii_lowercase(), POLICY_KEYS);
    let name = shortened(name);
    match near {
        Some(near) => format!("unknown key `{name}` in `x-idempotency`; did you mean `{near}`?"),
        None => format!(
            "unknown key `{name}` in `x-idempotency`; it takes key, ttl, concurrency and mismatch"
        ),
    }
}

/// What is wrong with the value of policy key `name`, if anything. `written` is the value as
/// it appears in the source.
fn policy_value_problem(name: &str, value: &Node, written: &str) -> Option<String> {
    let kind = kind_name(value);
    let scalar = value.as_scalar();
    let text = scalar.map_or("", |s| s.text.trim());
    let empty = value.is_null() || (value.as_str().is_some() && text.is_empty());
    match name {
        "key" => {
            if empty {
                return Some(
                    "`key` in `x-idempotency` is empty; name the header or body field that \
                     carries the key"
                        .to_string(),
                );
            }
            match value.as_scalar().map(|s| s.kind) {
                Some(ScalarKind::Str) => None,
                Some(_) => Some(format!(
                    "`key: {written}` in `x-idempotency` is {kind}; write the name of the header \
                     or body field that carries the key"
                )),
                None => Some(format!(
                    "`key` in `x-idempotency` takes the name of one header or body field, not \
                     {kind}"
                )),
            }
        }
        "ttl" => {
            if empty {
                return Some(
                    "`ttl` in `x-idempotency` is empty; write how long keys are kept, such as \
                     `24h` or `7 days`"
                        .to_string(),
                );
            }
            let scalar_kind = scalar.map(|s| s.kind);
            if let Ok(n) = text.parse::<u64>()
                && matches!(scalar_kind, Some(ScalarKind::Int | ScalarKind::Str))
            {
                return Some(unitless_ttl(written, n));
            }
            match scalar_kind {
                Some(ScalarKind::Float) => Some(format!(
                    "`ttl: {written}` in `x-idempotency` has no unit; write a duration with its \
                     unit, such as `24h` or `7 days`"
                )),
                Some(ScalarKind::Str) if lifetime(text).is_none() => Some(format!(
                    "`ttl: {written}` in `x-idempotency` is not a duration idemlint can read; \
                     write one such as `24h`, `7 days` or `forever`"
                )),
                Some(ScalarKind::Str) => None,
                _ => Some(format!(
                    "`ttl` in `x-idempotency` takes a duration such as `24h`, not {kind}"
                )),
            }
        }
        "concurrency" | "mismatch" => {
            let what = if name == "concurrency" {
                "the status a concurrent request with the same key gets, such as `409`"
            } else {
                "the status a key reused with another payload gets, such as `422`"
            };
            if empty {
                return Some(format!(
                    "`{name}` in `x-idempotency` is empty; write {what}"
                ));
            }
            if status_text(value).is_some() {
                return None;
            }
            Some(match scalar {
                Some(_) => format!(
                    "`{name}: {written}` in `x-idempotency` is not an HTTP status; write {what}"
                ),
                None if value.as_seq().is_some() => format!(
                    "`{name}` in `x-idempotency` takes one HTTP status, not a list; write {what}"
                ),
                None => format!(
                    "`{name}` in `x-idempotency` takes one HTTP status, not {kind}; write {what}"
                ),
            })
        }
        _ => None,
    }
}

/// Wording of the mismatch case, a key reused with another payload: "different request body",
/// "does not match the original request", "parameters mismatch".
static MISMATCH: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?ix-u)(?-u:\b)(
            different\ (request\ )?(payload|body|parameters|params|request|arguments|data)
          | (another|other)\ (request\ )?(payload|body|parameters|params|arguments|data)
          | (does\ not|doesn't|do\ not|did\ not)\ match
          | mismatch(es|ed)?
        )(?-u:\b)",
    )
    .expect("valid regex")
});

/// The words of a response description that say it answers the mismatch case. A bare "does not
/// match" or "mismatch" counts only beside a word of keys or of the first request ("does not
/// match the schema" is validation).
pub fn mismatch_wording(description: &str) -> Option<&str> {
    let m = MISMATCH.find(description)?;
    let phrase = m.as_str().to_ascii_lowercase();
    let about_payload = [
        "payload",
        "body",
        "parameter",
        "param",
        "request",
        "argument",
        "data",
    ]
    .iter()
    .any(|w| phrase.contains(w));
    let lower = description.to_ascii_lowercase();
    let about_key = [
        "key",
        "idempoten",
        "original",
        "previous",
        "earlier",
        "first",
    ]
    .iter()
    .any(|w| lower.contains(w));
    (about_payload || about_key).then_some(m.as_str())
}

/// The HTTP status `policy` (an `x-idempotency` mapping) gives under `name` (`concurrency`,
/// `mismatch`), when it is one: anything else is `invalid-extension`'s to report, and no status.
pub fn policy_status<'a>(policy: At<'a>, name: &str) -> Option<&'a str> {
    status_text(policy.node.get(name)?)
}

/// The text of a node that is one HTTP status code: `409` or `"409"`.
fn status_text(node: &Node) -> Option<&str> {
    let s = node.as_scalar()?;
    let text = s.text.trim();
    let status = matches!(s.kind, ScalarKind::Int | ScalarKind::Str)
        && text.len() == 3
        && text.parse::<u16>().is_ok_and(|n| (100..=599).contains(&n));
    status.then_some(text)
}

/// A `ttl` written as a bare number: idemlint reads seconds, a reader might read hours (a small
/// number) or milliseconds (a large one).
fn unitless_ttl(written: &str, n: u64) -> String {
    if n < 1000 {
        format!(
            "`ttl: {written}` in `x-idempotency` has no unit: idemlint reads {n} seconds, a \
             reader may read hours; write `{n}s`, or `{n}h` if hours are meant"
        )
    } else {
        let human = human_duration(n);
        let also = if human.ends_with("seconds") {
            String::new()
        } else {
            format!(" or `{human}`")
        };
        format!(
            "`ttl: {written}` in `x-idempotency` has no unit: idemlint reads {n} seconds, a \
             reader may read milliseconds; write `{n}s`{also}"
        )
    }
}

/// `a string`, `a number`, ...: a node's type, for messages.
pub fn kind_name(node: &Node) -> &'static str {
    match &node.value {
        Value::Map(_) => "a mapping",
        Value::Seq(_) => "a list",
        Value::Scalar(s) => match s.kind {
            ScalarKind::Str => "a string",
            ScalarKind::Int | ScalarKind::Float => "a number",
            ScalarKind::Bool => "a boolean",
            ScalarKind::Null => "empty",
        },
    }
}

/// A scalar as written in its file, quotes included (`"false"`, `'24'`), so a message shows
/// what the user typed; the bare text when that is long or spans lines.
pub fn written(bundle: &Bundle, at: At<'_>) -> String {
    let text = &bundle.file(at.file).source.text;
    let raw = text.get(at.node.span.range()).unwrap_or("");
    if !raw.is_empty() && raw.len() <= 60 && !raw.contains(['\n', '\r']) {
        return raw.to_string();
    }
    shortened(at.node.scalar_text().unwrap_or(""))
}

/// `text`, cut after 40 characters: a message quotes what it is about, not a whole paragraph.
pub fn shortened(text: &str) -> String {
    shortened_to(text, 40)
}

/// `text` cut to at most `max` characters, with "..." where it was cut.
pub fn shortened_to(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Evidence from the body's properties, from the descriptions of their own properties one
/// level down (`amount.value` "positive values increase the balance, negative decrease it"),
/// from the body schema's own description, then from the operation's summary.
/// A POST that creates something counts only explicit verbs.
pub fn relative_change_evidence(bundle: &Bundle, op: &Operation<'_>) -> Option<Evidence> {
    let verbs_only = op.method == Method::Post && creates(op);
    let props = body_properties(bundle, op);
    if let Some(e) = relative_change(&props, verbs_only) {
        return Some(e);
    }
    if verbs_only {
        return None;
    }
    for p in &props {
        let mut inner = Vec::new();
        schema_properties(bundle, p.schema, 0, &mut inner);
        for q in &inner {
            if let Some(w) = q
                .schema
                .node
                .get("description")
                .and_then(Node::as_str)
                .and_then(relative_wording)
            {
                return Some(Evidence {
                    what: format!("`{}.{}` is described as \"{w}\"", p.name, q.name),
                    at: q.key,
                });
            }
        }
    }
    let body = op.request_body.as_ref();
    let from_body = body.and_then(|b| {
        b.content.iter().find_map(|m| {
            let schema = bundle.deref(m.schema?);
            let desc = schema.node.get("description").and_then(Node::as_str)?;
            relative_wording(desc).map(|w| Evidence {
                what: format!("the body is described as \"{w}\""),
                at: schema.location(),
            })
        })
    });
    // The summary says what the operation does ("Append text to the existing note"); a long
    // description also says where things go ("the snippet is appended to the end of the head
    // element"), which is no relative change, so it is not read.
    from_body.or_else(|| {
        let summary = op.node.node.get("summary").and_then(Node::as_str)?;
        relative_wording(summary).map(|w| Evidence {
            what: format!("the operation's summary says \"{w}\""),
            at: op.node.key_location("summary").unwrap_or(op.key),
        })
    })
}

/// An operation that says it creates something: its summary or description opens with
/// "Create", or its operationId starts with `create`.
fn creates(op: &Operation<'_>) -> bool {
    let opens_with_create = |key: &str| {
        op.node
            .node
            .get(key)
            .and_then(Node::as_str)
            .and_then(|t| words(strip_tags(t)).into_iter().next())
            .is_some_and(|w| w == "create" || w == "creates")
    };
    opens_with_create("summary")
        || opens_with_create("description")
        || op
            .operation_id
            .and_then(|id| words(id).into_iter().next())
            .is_some_and(|w| w == "create")
}

/// Text without a leading HTML tag (Stripe's descriptions open with `<p>`).
fn strip_tags(text: &str) -> &str {
    let mut t = text.trim_start();
    while let Some(rest) = t.strip_prefix('<') {
        match rest.find('>') {
            Some(end) => t = rest[end + 1..].trim_start(),
            None => break,
        }
    }
    t
}

/// Whether the body is a JSON Patch (its media type, or an array of `{op, path}`), whatever
/// operations it allows.
pub fn is_json_patch(bundle: &Bundle, op: &Operation<'_>) -> bool {
    op.request_body.as_ref().is_some_and(|body| {
        body.content.iter().any(|media| {
            media_essence(media.media_type) == "application/json-patch+json"
                || media
                    .schema
                    .map(|s| bundle.deref(s))
                    .filter(|s| s.node.get("type").and_then(Node::as_str) == Some("array"))
                    .and_then(|s| s.get("items"))
                    .map(|i| bundle.deref(i))
                    .and_then(|i| i.get("properties"))
                    .is_some_and(|p| p.node.get("op").is_some() && p.node.get("path").is_some())
        })
    })
}

pub(crate) const UNSAFE_OPS: [&str; 3] = ["add", "move", "copy"];

/// The operations a JSON Patch body's `op` allows, when it is a JSON Patch whose `op` is an
/// `enum` or a `const`; `None` otherwise (not a JSON Patch, or any operation allowed).
pub fn allowed_ops(bundle: &Bundle, op: &Operation<'_>) -> Option<Vec<String>> {
    if !is_json_patch(bundle, op) {
        return None;
    }
    let body = op.request_body.as_ref()?;
    body.content.iter().find_map(|media| {
        let items = media
            .schema
            .map(|s| bundle.deref(s))
            .filter(|s| s.node.get("type").and_then(Node::as_str) == Some("array"))
            .and_then(|s| s.get("items"))
            .map(|i| bundle.deref(i))?;
        let o = items
            .get("properties")?
            .get("op")
            .map(|o| bundle.deref(o))?;
        o.node
            .get("enum")
            .map(|e| {
                e.items()
                    .iter()
                    .filter_map(Node::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .or_else(|| {
                o.node
                    .get("const")
                    .and_then(Node::as_str)
                    .map(|c| vec![c.to_string()])
            })
    })
}

/// The non-idempotent JSON Patch operations the body allows, if it is a JSON Patch.
pub fn json_patch_ops(bundle: &Bundle, op: &Operation<'_>) -> Option<Vec<String>> {
    let body = op.request_body.as_ref()?;
    for media in &body.content {
        let declared_patch = media_essence(media.media_type) == "application/json-patch+json";
        let items = media
            .schema
            .map(|s| bundle.deref(s))
            .filter(|s| s.node.get("type").and_then(Node::as_str) == Some("array"))
            .and_then(|s| s.get("items"))
            .map(|i| bundle.deref(i));
        let props = items.and_then(|i| i.get("properties"));
        let shaped_like_patch =
            props.is_some_and(|p| p.node.get("op").is_some() && p.node.get("path").is_some());
        if !declared_patch && !shaped_like_patch {
            continue;
        }
        let op_schema = props.and_then(|p| p.get("op")).map(|o| bundle.deref(o));
        let allowed: Option<Vec<&str>> = op_schema.and_then(|o| {
            o.node
                .get("enum")
                .map(|e| e.items().iter().filter_map(Node::as_str).collect())
                .or_else(|| o.node.get("const").and_then(Node::as_str).map(|c| vec![c]))
        });
        let unsafe_ops: Vec<String> = match allowed {
            Some(values) => values
                .into_iter()
                .filter(|v| UNSAFE_OPS.contains(v))
                .map(str::to_string)
                .collect(),
            None => UNSAFE_OPS.iter().map(|s| s.to_string()).collect(),
        };
        if !unsafe_ops.is_empty() {
            return Some(unsafe_ops);
        }
    }
    None
}

/// Whether an `x-` extension of an operation names one of `codes` (compared without case and
/// separators) as an error code: Square lists its errors in `x-endpoint-errors`
/// (`IDEMPOTENCY_KEY_REUSED`, `BAD_REQUEST`), AWS names `IdempotentParameterMismatch`.
pub fn extension_names_code(op: &Node, codes: &[&str]) -> bool {
    extension_has_code(op, &|code| {
        let squashed = crate::idempotency::squash(code);
        codes.iter().any(|c| squashed == *c)
    })
}

/// Whether an `x-…error…` extension of `node` lists a code that `is` accepts (the whole string
/// of a value: `BAD_REQUEST`, not a word inside a code sample, nor a description: a code has no
/// spaces).
pub fn extension_has_code(node: &Node, is: &dyn Fn(&str) -> bool) -> bool {
    fn walk(node: &Node, is: &dyn Fn(&str) -> bool, depth: usize) -> bool {
        if let Some(text) = node.as_str() {
            return text.len() <= 80 && !text.contains(char::is_whitespace) && is(text);
        }
        depth < 6
            && (node.entries().iter().any(|e| walk(&e.value, is, depth + 1))
                || node.items().iter().any(|i| walk(i, is, depth + 1)))
    }
    node.entries()
        .iter()
        .filter(|e| e.key.text.starts_with("x-") && e.key.text.contains("error"))
        .any(|e| walk(&e.value, is, 0))
}

#[cfg(test)]
mod mismatch_tests {
    use super::mismatch_wording;

    #[test]
    fn mismatch_wording_needs_a_payload_or_a_key() {
        for d in [
            "The idempotency key was reused with a different request body.",
            "Idempotency-Key reused with different parameters",
            "The request does not match the original request for this key",
            "Key mismatch: the payload differs from the first request",
            "Another payload was sent with this Idempotency-Key",
        ] {
            assert!(mismatch_wording(d).is_some(), "{d}");
        }
        for d in [
            "The request does not match the schema",
            "Conflict: the resource already exists",
            "A different user owns this resource",
            "Validation failed",
        ] {
            assert_eq!(mismatch_wording(d), None, "{d}");
        }
    }
}
