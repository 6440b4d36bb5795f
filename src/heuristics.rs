//! Wording and naming heuristics: does a request body express a change relative to the current
//! state (`add_balance`, `delta`, "added to the balance")? Such a body applied twice is a
//! different result, so retries need a key or a precondition.

use std::sync::LazyLock;

use regex::Regex;

use crate::resolve::{At, Location};
use crate::source::Node;
use crate::vocabulary::{DESCRIPTORS, PREDICATES};

/// What made a body look relative, quoted in the finding so a reader can judge it.
#[derive(Debug, Clone)]
pub struct Evidence {
    pub what: String,
    pub at: Location,
}

/// Wording of a relative change. "Added to" alone is too common ("a snippet added to the page
/// head"), so it must be added to something that holds a quantity or the current state; an
/// append must go onto what exists or at the end.
static RELATIVE_WORDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix-u)(?-u:\b)(
            (added\ to|subtracted\ from|deducted\ from|relative\ to)
              \ (the\ |its\ |their\ |a\ )?
              (current|existing|previous|remaining|balance|total|count|quantity|amount|value|stock|inventory|counter|score|points)
          | (?:increment(?:ed|s)?|decrement(?:ed|s)?|increase[sd]?|decrease[sd]?)\ (?:(?-u:[a-z])+\ ){0,4}?by
            # Extends the trial by 7 days: a retry extends it again.
          | extends?\ (?:(?-u:[a-z])+\ ){0,10}?by\ (?:[0-9]+|an?|one|another)\ (?:more\ )?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|units?|seats?|credits?|points?)
          | increase[sd]?\ or\ decrease[sd]?
          | append(?:s|ed)?\ (?u:[^.]){0,60}?(?-u:\b)(?:to|onto)\ (?:the\ )?(?:existing|current|end)
          | add(?:s|ed)?\ (?u:[^.]){0,60}?(?-u:\b)to\ the\ end
        )(?-u:\b)",
    )
    .expect("valid regex")
});

/// Property names that name a relative amount, word by word: `delta` and `by`, a last word
/// `delta` or `change` (`quantity_delta`, `balanceChange`), a first word `increment`,
/// `decrement`, `adjust(ment)` or a verb `add` with its object (`add_funds`, `addFunds`). Not a
/// noun that starts with those letters (`incrementalSeats`, `addIns`, `addOns`, `address`), a
/// flag (`isMajorChange`), or a name that describes the change (`adjustAuthType`).
pub fn relative_property_name(name: &str) -> bool {
    let w = words(name);
    let (Some(first), Some(last)) = (w.first(), w.last()) else {
        return false;
    };
    if PREDICATES.contains(&first.as_str()) || (w.len() > 1 && DESCRIPTORS.contains(&last.as_str()))
    {
        return false;
    }
    if w.len() == 1 {
        return matches!(
            first.as_str(),
            "delta" | "by" | "increment" | "decrement" | "adjustment" | "adjustments"
        );
    }
    // `add` heads a verb phrase only when an object follows that is not `-ins`/`-ons` of a
    // noun (add-ins, add-ons).
    let add_phrase = first == "add" && !matches!(w[1].as_str(), "in" | "ins" | "on" | "ons");
    matches!(last.as_str(), "delta" | "change")
        || matches!(
            first.as_str(),
            "increment" | "decrement" | "adjust" | "adjustment"
        )
        || add_phrase
}

/// `addFunds`: a lower-case verb followed by an upper-case letter.
fn camel_prefix(name: &str, verb: &str) -> bool {
    name.strip_prefix(verb)
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c.is_ascii_uppercase())
}

/// Verbs that, as the value of an `action`/`op`/`operation` field, mean "change by". A bare
/// `add` is left out: that is JSON Patch, where `add` on an object member sets a value.
pub fn relative_verb(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    relative_kind(value) || lower.starts_with("append") || lower.starts_with("push")
}

/// Values that, even as a `type` (a ledger entry's kind), mean "change by". `push` and `append`
/// are not among them: as a type they are more often a channel (`push` notifications).
pub fn relative_kind(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    lower.starts_with("add_")
        || (camel_prefix(value, "add") && !value.starts_with("addOn"))
        || lower.starts_with("increment")
        || lower.starts_with("decrement")
        || lower.starts_with("adjust")
        || matches!(lower.as_str(), "credit" | "debit")
}

const VERB_FIELDS: [&str; 3] = ["action", "op", "operation"];

/// The first sign, among a body's top-level properties, that it describes a relative change.
/// With `verbs_only`, only an explicit verb (`action: increment`) counts: in a body that
/// creates something, `add_invoice_items` names what the new thing starts with.
pub fn relative_change(properties: &[Property<'_>], verbs_only: bool) -> Option<Evidence> {
    for p in properties {
        // A flag or a choice among settings is never an amount.
        let ty = p.schema.node.get("type").and_then(Node::as_str);
        let amount_like = ty != Some("boolean") && p.schema.node.get("enum").is_none();
        if !verbs_only && amount_like && relative_property_name(p.name) {
            return Some(Evidence {
                what: format!("property `{}`", p.name),
                at: p.key,
            });
        }
        let verb_field = VERB_FIELDS.iter().any(|f| p.name.eq_ignore_ascii_case(f));
        // In a create, a `type: credit` is the kind of thing made, not a change to one.
        if verb_field || (!verbs_only && p.name.eq_ignore_ascii_case("type")) {
            let relative = if verb_field {
                relative_verb
            } else {
                relative_kind
            };
            let enum_values = p.schema.node.get("enum").map(Node::items).unwrap_or(&[]);
            let values = enum_values
                .iter()
                .map(|v| ("enum value", v))
                .chain(p.schema.node.get("const").map(|v| ("const", v)));
            for (kind, v) in values {
                if let Some(text) = v.as_str().filter(|t| relative(t)) {
                    return Some(Evidence {
                        what: format!("{kind} `{text}` of `{}`", p.name),
                        at: Location {
                            file: p.schema.file,
                            span: v.span,
                        },
                    });
                }
            }
        }
        if let Some(desc) = p.schema.node.get("description").and_then(Node::as_str)
            && let Some(m) = relative_wording_match(desc)
        {
            return Some(Evidence {
                what: format!("`{}` is described as \"{}\"", p.name, m.as_str()),
                at: p.key,
            });
        }
    }
    None
}

/// Relative wording in a schema's own description.
pub fn relative_wording(description: &str) -> Option<&str> {
    relative_wording_match(description).map(|m| m.as_str())
}

/// [`RELATIVE_WORDING`] in `text`, searched only when a word it needs is there: the long
/// descriptions of a large spec's bodies rarely hold one, and the full search of them costs more
/// than one pass for the stems it needs.
fn relative_wording_match(text: &str) -> Option<regex::Match<'_>> {
    // ("add" alone is in every "address" and "additional": the wording needs "added to" or
    // "to the end". One pass over the text, with no lower-cased copy.)
    static STEMS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i-u)added to|to the end|subtract|deduct|relative to|crement|crease|append|xtend",
        )
        .expect("valid regex")
    });
    STEMS
        .is_match(text)
        .then(|| RELATIVE_WORDING.find(text))
        .flatten()
}

/// A top-level property of a request body.
#[derive(Debug, Clone)]
pub struct Property<'a> {
    pub name: &'a str,
    /// The property's key in its `properties` map (or the 2.0 form parameter).
    pub key: Location,
    /// The property's schema, resolved.
    pub schema: At<'a>,
    /// Listed in its object's `required` (a required form parameter in Swagger 2.0).
    pub required: bool,
    /// For a key one level down (a multipart part, a bulk item), the top-level property holding it.
    pub parent: Option<&'a str>,
    /// The description written beside a `$ref` (OpenAPI 3.1, and many 3.0 specs in practice),
    /// which says what the property is here rather than what its schema is everywhere.
    pub beside_ref: Option<&'a str>,
}

/// A carrier name as compared: lower case, without `_`, `-` and `.`. `Idempotency_Key`,
/// `IdempotencyKey`, `idempotency-key` and `idempotency_key` are one name.
pub fn squash(name: &str) -> String {
    squashed(name).collect()
}

fn squashed(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.' | ' '))
        .flat_map(char::to_lowercase)
}

/// [`squashed`] of an ASCII name, byte by byte.
fn squashed_bytes(name: &str) -> impl Iterator<Item = u8> + '_ {
    name.bytes()
        .filter(|c| !matches!(c, b'_' | b'-' | b'.' | b' '))
        .map(|c| c.to_ascii_lowercase())
}

/// `squash(a) == squash(b)` without building either: this runs for every property of every
/// body against every configured key name.
pub fn squash_eq(a: &str, b: &str) -> bool {
    // Names are ASCII nearly always, and bytes compare faster than lower-cased chars.
    if a.is_ascii() && b.is_ascii() {
        return squashed_bytes(a).eq(squashed_bytes(b));
    }
    squashed(a).eq(squashed(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_relative() {
        for n in [
            "delta",
            "increment",
            "incrementBy",
            "adjustment",
            "balance_change",
            "add_funds",
            "addFunds",
            "by",
            "balanceChange",
            "quantity_delta",
        ] {
            assert!(relative_property_name(n), "{n}");
        }
    }

    #[test]
    fn camel_case_prefixes_and_suffixes_are_words_not_letters() {
        // From real specs: a flag, a noun, a setting and a count that look relative.
        for n in [
            "isMajorChange",
            "addIns",
            "addOns",
            "addToCalendarAction",
            "incrementalSeats",
            "adjustAuthType",
            "adjustment_reason",
            "hasChanges",
            "changeDate",
            "adjustAuthorisationData",
        ] {
            assert!(!relative_property_name(n), "{n}");
        }
        for n in [
            "add_to_balance",
            "addPoints",
            "stockChange",
            "increment_by",
            "adjust_quantity",
        ] {
            assert!(relative_property_name(n), "{n}");
        }
    }

    #[test]
    fn names_that_are_absolute() {
        for n in [
            "amount",
            "balance",
            "address",
            "additional_info",
            "exchange",
            "change",
            "byte",
        ] {
            assert!(!relative_property_name(n), "{n}");
        }
    }

    #[test]
    fn verbs() {
        for v in [
            "add_balance",
            "addBalance",
            "increment",
            "credit",
            "DEBIT",
            "append",
            "push",
        ] {
            assert!(relative_verb(v), "{v}");
        }
        for v in [
            "add",
            "replace",
            "remove",
            "set",
            "set_balance",
            "create",
            "address",
        ] {
            assert!(!relative_verb(v), "{v}");
        }
    }

    #[test]
    fn wording() {
        assert_eq!(
            relative_wording("The amount is added to the balance."),
            Some("added to the balance")
        );
        assert_eq!(
            relative_wording("Points added to the current balance."),
            Some("added to the current")
        );
        assert_eq!(
            relative_wording("Code added to the head element of the page."),
            None
        );
        assert_eq!(relative_wording("Dates are relative to UTC."), None);
        assert_eq!(
            relative_wording("Incremented by one per call"),
            Some("Incremented by")
        );
        assert_eq!(relative_wording("The new balance."), None);
        assert_eq!(
            relative_wording("Appends the given lines onto the existing note."),
            Some("Appends the given lines onto the existing")
        );
        assert_eq!(
            relative_wording("Adds the items to the end of the list."),
            Some("Adds the items to the end")
        );
        assert_eq!(
            relative_wording("Increments the counter by the given value."),
            Some("Increments the counter by")
        );
        assert_eq!(
            relative_wording("Positive values increase or decrease the balance."),
            Some("increase or decrease")
        );
        assert_eq!(relative_wording("Appends a footer to every page."), None);
        assert_eq!(relative_wording("Adds a new user to the team."), None);
    }
}

/// The first `max` bytes of `text`, cut back to the start of a character: the opening words a
/// summary or description is judged by.
pub fn opening(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The words of an identifier or path: split on punctuation and camelCase, lower-cased.
/// `createRefund` → [create, refund]; `/v1/payment_intents` → [v1, payment, intents].
pub fn words(s: &str) -> Vec<String> {
    if s.is_ascii() {
        return ascii_words(s.as_bytes());
    }
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// [`words`] of ASCII text (nearly every name and description), byte by byte: the same words,
/// without a Unicode case mapping per character. Each word is sliced once, not grown.
fn ascii_words(s: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut prev_lower = false;
    let push = |out: &mut Vec<String>, from: usize, to: usize| {
        let mut w = String::with_capacity(to - from);
        w.extend(s[from..to].iter().map(|b| b.to_ascii_lowercase() as char));
        out.push(w);
    };
    for (i, &b) in s.iter().enumerate() {
        if !b.is_ascii_alphanumeric() {
            if let Some(from) = start.take() {
                push(&mut out, from, i);
            }
            prev_lower = false;
            continue;
        }
        if b.is_ascii_uppercase()
            && prev_lower
            && let Some(from) = start.take()
        {
            push(&mut out, from, i);
        }
        if start.is_none() {
            start = Some(i);
        }
        prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
    }
    if let Some(from) = start {
        push(&mut out, from, s.len());
    }
    out
}

/// The first of [`words`], without splitting the rest.
pub fn first_word(s: &str) -> Option<String> {
    let start = s.find(char::is_alphanumeric)?;
    let rest = &s[start..];
    let mut end = rest.len();
    let mut prev_lower = false;
    for (i, c) in rest.char_indices() {
        if !c.is_alphanumeric() || (c.is_uppercase() && prev_lower) {
            end = i;
            break;
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    Some(rest[..end].chars().flat_map(char::to_lowercase).collect())
}

/// The money word among `words`, if any, `money_words` being the configured list.
pub fn money_word<'w>(words: &'w [String], money_words: &[String]) -> Option<&'w str> {
    words
        .iter()
        .find(|w| money_words.iter().any(|m| m.eq_ignore_ascii_case(w)))
        .map(String::as_str)
}

/// A key lifetime stated in prose: the words that state it and its length in seconds (`None`
/// for "forever").
#[derive(Debug, Clone, PartialEq)]
pub struct Lifetime {
    pub text: String,
    pub seconds: Option<u64>,
}

static LIFETIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix-u)
        (?-u:\b)(?P<n>[0-9]+(?:\.[0-9]+)?|an?|one|two|three|seven|thirty)[\ \-]?
          (?P<unit>s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|months?)(?-u:\b)
        | (?-u:\b)(?P<forever>forever|indefinitely|never\ expires?)(?-u:\b)",
    )
    .expect("valid regex")
});

/// The first lifetime stated in `text`.
pub fn lifetime(text: &str) -> Option<Lifetime> {
    for c in LIFETIME.captures_iter(text) {
        let whole = c.get(0)?.as_str().to_string();
        if c.name("forever").is_some() {
            return Some(Lifetime {
                text: whole,
                seconds: None,
            });
        }
        let n = match c["n"].to_ascii_lowercase().as_str() {
            "a" | "an" | "one" => 1.0,
            "two" => 2.0,
            "three" => 3.0,
            "seven" => 7.0,
            "thirty" => 30.0,
            digits => digits.parse::<f64>().ok()?,
        };
        let raw_unit = &c["unit"];
        let unit = raw_unit.to_ascii_lowercase();
        // Single letters are abbreviations only after digits and in lower case: "24h" is a
        // lifetime, "an d..." and "3D Secure" are not.
        if unit.len() == 1
            && (!c["n"].starts_with(|ch: char| ch.is_ascii_digit())
                || raw_unit.chars().any(|ch| ch.is_ascii_uppercase()))
        {
            continue;
        }
        // "A second order" and "one second request" are ordinals, not a lifetime.
        if unit == "second"
            && !c["n"].starts_with(|ch: char| ch.is_ascii_digit())
            && text[c.get(0)?.end()..]
                .trim_start()
                .starts_with(|ch: char| ch.is_alphabetic())
        {
            continue;
        }
        let per = match unit.trim_end_matches('s') {
            "" | "sec" | "second" => 1.0,
            "m" | "min" | "minute" => 60.0,
            "h" | "hr" | "hour" => 3600.0,
            "d" | "day" => 86_400.0,
            "w" | "week" => 604_800.0,
            "month" => 2_592_000.0,
            _ => continue,
        };
        return Some(Lifetime {
            text: whole,
            seconds: Some((n * per) as u64),
        });
    }
    None
}

/// `86400` → `24 hours`, for messages.
pub fn human_duration(seconds: u64) -> String {
    let (n, unit) = if seconds.is_multiple_of(86_400) && seconds >= 2 * 86_400 {
        (seconds / 86_400, "day")
    } else if seconds.is_multiple_of(3600) && seconds >= 3600 {
        (seconds / 3600, "hour")
    } else if seconds.is_multiple_of(60) && seconds >= 60 {
        (seconds / 60, "minute")
    } else {
        (seconds, "second")
    };
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;

    #[test]
    fn words_split_identifiers_and_paths() {
        assert_eq!(words("createRefund"), ["create", "refund"]);
        assert_eq!(
            words("/v1/payment_intents/{id}"),
            ["v1", "payment", "intents", "id"]
        );
        assert_eq!(
            words("post-validateShopperId"),
            ["post", "validate", "shopper", "id"]
        );
        let money: Vec<String> = crate::vocabulary::MONEY_WORDS
            .iter()
            .map(|w| w.to_string())
            .collect();
        assert_eq!(money_word(&words("uploadPayload"), &money), None);
        assert_eq!(
            money_word(&words("/payments/{id}/captures"), &money),
            Some("payments")
        );
    }

    #[test]
    fn lifetimes() {
        let secs = |t: &str| lifetime(t).and_then(|l| l.seconds);
        assert_eq!(secs("Keys are kept for 24 hours."), Some(86_400));
        assert_eq!(secs("valid for 24h"), Some(86_400));
        assert_eq!(secs("kept at least 31 days"), Some(31 * 86_400));
        assert_eq!(secs("expire after one hour"), Some(3600));
        assert_eq!(secs("a 30-minute window"), Some(1800));
        assert_eq!(lifetime("keys never expire").unwrap().seconds, None);
        assert_eq!(lifetime("A client-generated UUID."), None);
        assert_eq!(lifetime("See section 5 of the guide"), None);
        assert_eq!(lifetime("cards (including 3D Secure) and wallets"), None);
        assert_eq!(
            lifetime("If omitted, a retry may create a second order."),
            None
        );
        assert_eq!(secs("a second order, or keys kept 24 hours"), Some(86_400));
        assert_eq!(secs("wait a second."), Some(1));
        assert_eq!(human_duration(86_400), "24 hours");
        assert_eq!(human_duration(31 * 86_400), "31 days");
        assert_eq!(human_duration(3600), "1 hour");
        assert_eq!(human_duration(300), "5 minutes");
    }

    #[test]
    fn first_word_is_the_first_of_words() {
        for s in [
            "Get a list",
            "createRefund now",
            "  /v1/payment_intents",
            "ÄndereDaten",
            "",
            "--",
        ] {
            assert_eq!(first_word(s), words(s).into_iter().next(), "{s:?}");
        }
    }
}
