//! What the scalar settings of `.idemlint.yaml` may be, said once for the loader (file.rs) and
//! the schema (schema.rs): a duration's grammar as one pattern both use, an HTTP status's range,
//! the globs that match nothing, and numbers read as YAML 1.2 (the core schema an editor's YAML
//! language server reads with) reads them, so that `0422` is the integer 422 to both.

use std::sync::LazyLock;

use regex::Regex;

use crate::source::{Node, ScalarKind};

/// Each unit a duration may be written in, with its length in seconds. Words in any case
/// (`1 Day`), single letters in lower case only (`24h`, not `24H`: `M` would read as months), as
/// idemlint reads lifetimes in a spec's prose.
const UNITS: &[(&[&str], u64)] = &[
    (&["s", "sec", "secs", "second", "seconds"], 1),
    (&["m", "min", "mins", "minute", "minutes"], 60),
    (&["h", "hr", "hrs", "hour", "hours"], 3600),
    (&["d", "day", "days"], 86_400),
    (&["w", "week", "weeks"], 604_800),
    // 30 days, as `short-key-ttl` counts "kept for a month" in a spec.
    (&["month", "months"], 2_592_000),
];

/// A count of a unit: `24`, `1.5`.
const COUNT: &str = "[0-9]+(?:\\.[0-9]+)?";

/// The units as one alternation, longest first (so `1min` is a minute, not `1m` and `in`), words
/// spelt out in any case with character classes: an ECMA-262 pattern has no flag for it.
fn units_alternation() -> String {
    let mut names: Vec<&str> = UNITS
        .iter()
        .flat_map(|(names, _)| names.iter().copied())
        .collect();
    names.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    let alternatives: Vec<String> = names
        .iter()
        .map(|name| {
            if name.len() == 1 {
                name.to_string()
            } else {
                name.chars()
                    .map(|c| format!("[{}{}]", c.to_ascii_uppercase(), c))
                    .collect()
            }
        })
        .collect();
    format!("(?:{})", alternatives.join("|"))
}

/// What `min-ttl` takes as a string, for the schema and the loader alike (the syntax is common
/// to ECMA-262 and the `regex` crate): whole seconds (`3600`), or one or more counts of a unit,
/// spaces allowed between them (`24h`, `1 day`, `90m`, `1.5 hours`, `1d 12h`, `1h30m`).
pub(super) fn duration_pattern() -> String {
    let component = format!("{COUNT} *{}", units_alternation());
    format!("^(?:[0-9]+|{component}(?: *{component})*)$")
}

static DURATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&duration_pattern()).expect("the duration pattern is valid"));

static COMPONENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!("({COUNT}) *({})", units_alternation()))
        .expect("the component pattern is valid")
});

/// The seconds a duration string stands for, when it matches [`duration_pattern`] as a whole;
/// too many for a `u64` is the most there is.
pub(super) fn parse_duration(text: &str) -> Option<u64> {
    if !DURATION.is_match(text) {
        return None;
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return Some(text.parse::<u64>().unwrap_or(u64::MAX));
    }
    let mut seconds = 0.0f64;
    for c in COMPONENT.captures_iter(text) {
        let count: f64 = c[1].parse().ok()?;
        let unit = c[2].to_ascii_lowercase();
        let per = UNITS
            .iter()
            .find(|(names, _)| names.contains(&unit.as_str()))
            .map(|&(_, per)| per)?;
        seconds += count * per as f64;
    }
    // `as` saturates: a thousand years of seconds still fits, more is "the most there is".
    Some(seconds as u64)
}

/// The statuses HTTP defines (RFC 9110, section 15): three digits, 100 to 599.
pub(super) const STATUS_MIN: i64 = 100;
pub(super) const STATUS_MAX: i64 = 599;
/// A status written as a string: `'422'`, not `'0422'` or `'4xx'`.
pub(super) const STATUS_PATTERN: &str = "^[1-5][0-9]{2}$";

/// A glob that is nothing once `./` and trailing slashes are dropped (`''`, `./`, `/`): it
/// matches no file.
pub(super) const EMPTY_GLOB_PATTERN: &str = "^(?:\\./)?/*$";

pub(super) fn is_empty_glob(glob: &str) -> bool {
    glob.strip_prefix("./")
        .unwrap_or(glob)
        .trim_end_matches('/')
        .is_empty()
}

/// A YAML number: an integer (saturating past `i128`) or a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    /// The whole number it is, if it is one (`3600`, `3600.0`, `1e3`), saturating.
    pub(super) fn whole(self) -> Option<i128> {
        match self {
            Number::Int(n) => Some(n),
            Number::Float(f) if f.is_finite() && f.fract() == 0.0 => Some(f as i128),
            Number::Float(_) => None,
        }
    }
}

/// The number a plain scalar is in YAML 1.2's core schema: `0422` is 422, `0x1A6` and `0o646`
/// are too, `422.0` and `4.22e2` are 422.0; `None` for anything that is not a number.
pub(super) fn number(node: &Node) -> Option<Number> {
    let scalar = node.as_scalar()?;
    let text = &*scalar.text;
    match scalar.kind {
        ScalarKind::Int => Some(Number::Int(int_value(text))),
        ScalarKind::Float => {
            let lower = text.to_ascii_lowercase();
            Some(Number::Float(match lower.trim_start_matches('+') {
                ".inf" => f64::INFINITY,
                "-.inf" => f64::NEG_INFINITY,
                ".nan" => f64::NAN,
                other => other.parse().unwrap_or(f64::NAN),
            }))
        }
        _ => None,
    }
}

/// The value of a YAML integer (`[-+]?[0-9]+`, `0x[0-9a-fA-F]+`, `0o[0-7]+`), saturating.
fn int_value(text: &str) -> i128 {
    let (negative, digits, radix) = if let Some(hex) = text.strip_prefix("0x") {
        (false, hex, 16)
    } else if let Some(octal) = text.strip_prefix("0o") {
        (false, octal, 8)
    } else if let Some(rest) = text.strip_prefix('-') {
        (true, rest, 10)
    } else {
        (false, text.strip_prefix('+').unwrap_or(text), 10)
    };
    let mut value: i128 = 0;
    for c in digits.chars() {
        let digit = c.to_digit(radix).unwrap_or(0) as i128;
        value = value.saturating_mul(radix as i128).saturating_add(digit);
    }
    if negative { -value } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_whole() {
        for (text, seconds) in [
            ("0", Some(0)),
            ("3600", Some(3600)),
            ("24h", Some(86_400)),
            ("24 h", Some(86_400)),
            ("1 day", Some(86_400)),
            ("1 Day", Some(86_400)),
            ("2 DAYS", Some(172_800)),
            ("90m", Some(5400)),
            ("90min", Some(5400)),
            ("90 minutes", Some(5400)),
            ("1.5h", Some(5400)),
            ("1d 12h", Some(129_600)),
            ("1h30m", Some(5400)),
            ("1w", Some(604_800)),
            ("1 month", Some(2_592_000)),
            ("30s", Some(30)),
            ("99999999999999999999", Some(u64::MAX)),
            ("24H", None),
            ("24", Some(24)),
            ("", None),
            ("h", None),
            ("24 hours or so", None),
            ("about 24h", None),
            ("1ms", None),
            ("1d, 12h", None),
            ("a day", None),
            ("-1h", None),
            ("1.h", None),
            (" 24h", None),
            ("forever", None),
        ] {
            assert_eq!(parse_duration(text), seconds, "{text:?}");
        }
    }

    #[test]
    fn yaml_integers_in_every_base() {
        for (text, value) in [
            ("422", 422),
            ("0422", 422),
            ("+422", 422),
            ("-5", -5),
            ("0x1A6", 422),
            ("0o646", 422),
        ] {
            assert_eq!(int_value(text), value, "{text}");
        }
        assert_eq!(int_value(&"9".repeat(60)), i128::MAX);
    }

    #[test]
    fn empty_globs_are_what_the_schema_pattern_says() {
        let pattern = Regex::new(EMPTY_GLOB_PATTERN).unwrap();
        for glob in ["", "./", "/", ".//"] {
            assert!(is_empty_glob(glob), "{glob:?}");
            assert!(pattern.is_match(glob), "{glob:?}");
        }
        for glob in ["*", "./a", ".", "legacy/"] {
            assert!(!is_empty_glob(glob), "{glob:?}");
            assert!(!pattern.is_match(glob), "{glob:?}");
        }
    }
}
