//! Values for a probe's requests, from the spec: a parameter's or a media type's example when it
//! has one, else a minimal instance of its schema (required properties, the common formats,
//! `minLength`, enums, the first branch of a `oneOf`); and fresh UUIDv4 keys.

use serde_json::{Map, Number, Value};

use crate::resolve::{At, Bundle};
use crate::source::{Node, ScalarKind};

/// How deep a generated instance may nest (a recursive schema stops here).
const MAX_DEPTH: usize = 8;

/// A node of the spec as JSON: scalars by the type they resolved to.
pub fn json_of(node: &Node) -> Value {
    match &node.value {
        crate::source::Value::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.text.to_string(), json_of(&e.value)))
                .collect(),
        ),
        crate::source::Value::Seq(items) => Value::Array(items.iter().map(json_of).collect()),
        crate::source::Value::Scalar(s) => match s.kind {
            ScalarKind::Null => Value::Null,
            ScalarKind::Bool => Value::Bool(matches!(&*s.text, "true" | "True" | "TRUE")),
            ScalarKind::Int => s
                .text
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or_else(|_| Value::String(s.text.to_string())),
            ScalarKind::Float => s
                .text
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map_or_else(|| Value::String(s.text.to_string()), Value::Number),
            ScalarKind::Str => Value::String(s.text.to_string()),
        },
    }
}

/// The value written beside a schema, a parameter or a media type for clients to copy:
/// `example`, the first of `examples` (a 3.1 schema's list, or a map of Example Objects with a
/// `value`), `default`, `const`, the first `enum` value.
pub fn written_value(bundle: &Bundle, at: At<'_>) -> Option<Value> {
    let at = bundle.deref(at);
    if let Some(example) = at.get("example") {
        return Some(json_of(example.node));
    }
    if let Some(examples) = at.get("examples") {
        if let Some(first) = examples.node.items().first() {
            return Some(json_of(first));
        }
        if let Some(first) = examples.node.entries().first() {
            let example = bundle.deref(examples.with(&first.value));
            if let Some(value) = example.get("value") {
                return Some(json_of(value.node));
            }
        }
    }
    for key in ["default", "const"] {
        if let Some(v) = at.get(key) {
            return Some(json_of(v.node));
        }
    }
    at.get("enum")
        .and_then(|e| e.node.items().first())
        .map(json_of)
}

/// A minimal instance of the schema at `at`: what it shows ([`written_value`]), else one built
/// from its type.
pub fn instance(bundle: &Bundle, at: At<'_>) -> Value {
    instance_at(bundle, at, 0)
}

fn instance_at(bundle: &Bundle, at: At<'_>, depth: usize) -> Value {
    let at = bundle.deref(at);
    if let Some(v) = written_value(bundle, at) {
        return v;
    }
    if depth >= MAX_DEPTH {
        return Value::Null;
    }
    for branches in ["oneOf", "anyOf"] {
        if let Some(first) = at.get(branches).and_then(|b| b.node.items().first()) {
            return instance_at(bundle, at.with(first), depth + 1);
        }
    }
    if let Some(all) = at.get("allOf") {
        // The branches' objects merged; a branch that is not an object is taken as it is.
        let mut merged = Map::new();
        for branch in all.node.items() {
            match instance_at(bundle, all.with(branch), depth + 1) {
                Value::Object(fields) => merged.extend(fields),
                other if merged.is_empty() => return other,
                _ => {}
            }
        }
        if !has_properties(at) {
            return Value::Object(merged);
        }
        if let Value::Object(own) = object(bundle, at, depth) {
            merged.extend(own);
        }
        return Value::Object(merged);
    }
    let ty = at.node.get("type").map(|t| match t.as_seq() {
        // `type: [string, "null"]`: the first that is not null.
        Some(list) => list
            .iter()
            .filter_map(Node::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null")
            .to_string(),
        None => t.scalar_text().unwrap_or("").to_string(),
    });
    match ty.as_deref() {
        Some("string") => Value::String(string(at)),
        Some("integer") => Value::from(number(at).round() as i64),
        Some("number") => Number::from_f64(number(at)).map_or(Value::from(1), Value::Number),
        Some("boolean") => Value::Bool(true),
        Some("null") => Value::Null,
        Some("array") => {
            let n = at
                .node
                .get("minItems")
                .and_then(Node::scalar_text)
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0)
                .min(3);
            let item = at.get("items");
            Value::Array(
                (0..n)
                    .map(|_| item.map_or(Value::Null, |i| instance_at(bundle, i, depth + 1)))
                    .collect(),
            )
        }
        Some("object") | None if has_properties(at) || ty.is_some() => object(bundle, at, depth),
        _ => Value::String(string(at)),
    }
}

fn has_properties(at: At<'_>) -> bool {
    at.node.get("properties").is_some()
}

/// The required properties of an object schema, each a minimal instance.
fn object(bundle: &Bundle, at: At<'_>, depth: usize) -> Value {
    let required: Vec<&str> = at
        .node
        .get("required")
        .map(|r| r.items().iter().filter_map(Node::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    if let Some(props) = at.get("properties") {
        for e in props.node.entries() {
            if required.contains(&e.key.text.as_str()) {
                let value = instance_at(bundle, props.with(&e.value), depth + 1);
                out.insert(e.key.text.to_string(), value);
            }
        }
    }
    Value::Object(out)
}

/// A string of the schema's format, at least `minLength` long and at most `maxLength`.
fn string(at: At<'_>) -> String {
    let format = at.node.get("format").and_then(Node::as_str).unwrap_or("");
    let mut s = match format {
        "uuid" => uuid_v4(),
        "date-time" => "2026-01-01T00:00:00Z".to_string(),
        "date" => "2026-01-01".to_string(),
        "time" => "00:00:00Z".to_string(),
        "email" => "probe@example.com".to_string(),
        "uri" | "url" => "https://example.com/probe".to_string(),
        "hostname" => "example.com".to_string(),
        "ipv4" => "192.0.2.1".to_string(),
        "ipv6" => "2001:db8::1".to_string(),
        "byte" => "cHJvYmU=".to_string(),
        _ => "probe".to_string(),
    };
    if let Some(simple) = at
        .node
        .get("pattern")
        .and_then(Node::as_str)
        .and_then(simple_pattern)
    {
        return simple;
    }
    let bound = |key: &str| {
        at.node
            .get(key)
            .and_then(Node::scalar_text)
            .and_then(|n| n.parse::<usize>().ok())
    };
    if let Some(min) = bound("minLength") {
        while s.chars().count() < min.min(4096) {
            s.push('x');
        }
    }
    if let Some(max) = bound("maxLength")
        && s.chars().count() > max
    {
        s = s.chars().take(max).collect();
    }
    s
}

/// A number within the schema's bounds: its minimum (above an exclusive one), else 1.
fn number(at: At<'_>) -> f64 {
    let bound = |key: &str| {
        at.node
            .get(key)
            .and_then(Node::scalar_text)
            .and_then(|n| n.parse::<f64>().ok())
    };
    let exclusive = at.node.get("exclusiveMinimum");
    let mut n = match (bound("minimum"), exclusive.and_then(Node::as_bool)) {
        (Some(min), Some(true)) => min + 1.0,
        (Some(min), _) => min,
        // 3.1: `exclusiveMinimum: 0` is the bound itself.
        (None, _) => bound("exclusiveMinimum").map_or(1.0, |m| m + 1.0),
    };
    if let Some(max) = bound("maximum")
        && n > max
    {
        n = max;
    }
    n
}

/// A fresh random UUID (version 4, RFC 9562 §5.4), from the operating system's generator.
pub fn uuid_v4() -> String {
    let mut b = [0u8; 16];
    // (Without an OS generator, the clock and a counter still make keys that do not repeat in
    // a run, which is all a probe needs of them.)
    if getrandom::getrandom(&mut b).is_err() {
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        b[..8].copy_from_slice(&(now as u64).to_le_bytes());
        b[8..].copy_from_slice(&n.to_le_bytes());
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// A string matching `pattern` when it is one character class repeated, anchored:
/// `^[A-Z]{3}$`, `^[a-z0-9]+$`, `^[0-9]{4,6}$` (the class's first character, as few times as
/// it allows). Other patterns are not read: a generated string may not match them.
pub fn simple_pattern(pattern: &str) -> Option<String> {
    let inner = pattern.strip_prefix('^')?.strip_suffix('$')?;
    let (class, count) = match inner.strip_prefix("\\d") {
        Some(rest) => ("0-9", rest),
        None => {
            let rest = inner.strip_prefix('[')?;
            let (class, count) = rest.split_once(']')?;
            (class, count)
        }
    };
    if class.is_empty() || class.starts_with('^') {
        return None;
    }
    let first = class.chars().next()?;
    if !first.is_ascii_alphanumeric() {
        return None;
    }
    let n = match count {
        "" => 1,
        "+" => 1,
        "*" => 0,
        c => {
            let c = c.strip_prefix('{')?.strip_suffix('}')?;
            let min = c.split(',').next()?.trim();
            min.parse::<usize>().ok()?.min(4096)
        }
    };
    Some(std::iter::repeat_n(first, n).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_patterns_are_kept() {
        assert_eq!(simple_pattern("^[A-Z]{3}$").as_deref(), Some("AAA"));
        assert_eq!(simple_pattern("^[a-z0-9]+$").as_deref(), Some("a"));
        assert_eq!(simple_pattern("^\\d{4,6}$").as_deref(), Some("0000"));
        assert_eq!(simple_pattern("^[A-Z]{2}-[0-9]+$"), None);
        assert_eq!(simple_pattern("[A-Z]{3}"), None);
    }

    #[test]
    fn uuids_are_version_4_and_fresh() {
        let a = uuid_v4();
        let b = uuid_v4();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");
    }
}
