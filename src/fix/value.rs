//! What a fix writes: a small tree of mappings, sequences and scalars, and how it is written in
//! each of the forms a spec may use where it goes: block YAML at a column, flow YAML on one line,
//! JSON spread over lines at an indentation or compact. Keys and strings are quoted only where
//! the form needs it, so that `Idempotency-Key` stays bare in YAML and `'409'` follows the
//! file's habit ([`Style::status_keys`]).

use super::style::Style;

/// A value a fix writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Entries in the order written.
    Map(Vec<(String, Value)>),
    Seq(Vec<Value>),
    Str(String),
    Int(i64),
    Bool(bool),
}

impl Value {
    /// A mapping of `entries`.
    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    pub fn str(text: impl Into<String>) -> Value {
        Value::Str(text.into())
    }

    /// `{$ref: target}`.
    pub fn reference(target: impl Into<String>) -> Value {
        Value::map([("$ref", Value::str(target))])
    }

    fn is_collection(&self) -> bool {
        match self {
            Value::Map(entries) => !entries.is_empty(),
            Value::Seq(items) => !items.is_empty(),
            _ => false,
        }
    }
}

/// Whether `key` is a response status (`409`, `4XX`, `default` is not): a key YAML would read
/// as a number unless quoted, written as the file quotes its statuses.
fn is_status(key: &str) -> bool {
    key.len() == 3
        && key.as_bytes()[0].is_ascii_digit()
        && key[1..]
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'X' || b == b'x')
}

/// `key` as a YAML key in a file of `style`.
pub fn yaml_key(key: &str, style: &Style) -> String {
    if is_status(key) {
        if key.bytes().all(|b| b.is_ascii_digit()) {
            style.status_keys.write(key)
        } else {
            // (`4XX` is a string however it is written; quoted like its siblings.)
            match style.status_keys {
                super::style::KeyQuote::Bare => key.to_string(),
                quote => quote.write(key),
            }
        }
    } else {
        yaml_str(key)
    }
}

/// `text` as a YAML scalar: bare when YAML reads it back as this very string, else single-quoted.
pub fn yaml_str(text: &str) -> String {
    if plain_safe(text) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "''"))
    }
}

/// Whether `text` written bare reads back as the same string in YAML 1.1 and 1.2, in block and
/// flow context alike.
fn plain_safe(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    // An indicator may start a plain scalar only as `-x` (`-` and `- x` are sequence items).
    if "-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !(first == '-' && text.len() > 1 && !text[1..].starts_with(' '))
    {
        return false;
    }
    if text.starts_with(' ') || text.ends_with(' ') || text.ends_with(':') {
        return false;
    }
    if text.contains(": ")
        || text.contains(" #")
        || text.contains(['\n', '\r', '\t', ',', '[', ']', '{', '}'])
    {
        return false;
    }
    // Not a boolean, null or number in YAML 1.1 or 1.2.
    let lower = text.to_ascii_lowercase();
    let words = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", "+.inf",
        ".nan",
    ];
    if words.contains(&lower.as_str()) {
        return false;
    }
    let numeric = text
        .trim_start_matches(['-', '+'])
        .chars()
        .all(|c| c.is_ascii_hexdigit() || "._xXoO".contains(c));
    let starts_like_number = text
        .trim_start_matches(['-', '+', '.'])
        .starts_with(|c: char| c.is_ascii_digit());
    !(numeric && starts_like_number)
}

/// `text` as a JSON string.
pub fn json_str(text: &str) -> String {
    serde_json::to_string(text).expect("a string always serialises")
}

/// `value` as flow YAML on one line: `{name: Idempotency-Key, in: header}`.
pub fn flow(value: &Value, style: &Style) -> String {
    let mut out = String::new();
    write_flow(value, style, &mut out);
    out
}

fn write_flow(value: &Value, style: &Style, out: &mut String) {
    match value {
        Value::Map(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&yaml_key(k, style));
                out.push_str(": ");
                write_flow(v, style, out);
            }
            out.push('}');
        }
        Value::Seq(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_flow(v, style, out);
            }
            out.push(']');
        }
        scalar => write_scalar(scalar, false, out),
    }
}

fn write_scalar(value: &Value, json: bool, out: &mut String) {
    match value {
        Value::Str(s) if json => out.push_str(&json_str(s)),
        Value::Str(s) => out.push_str(&yaml_str(s)),
        Value::Int(n) => out.push_str(&n.to_string()),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Map(_) => out.push_str("{}"),
        Value::Seq(_) => out.push_str("[]"),
    }
}

/// The entry `key: value` as block YAML lines, the first at `column` (which the caller has
/// written already: the text starts with the key), each further line starting with `column`
/// and more; every line but the last ends with the file's line end, the last with none.
pub fn block_entry(key: &str, value: &Value, column: &str, style: &Style) -> String {
    let mut out = yaml_key(key, style);
    out.push(':');
    write_block_value(value, column, style, &mut out);
    out
}

/// A sequence item as block YAML, `- ` at `column` (already written), continuation lines at
/// `column` plus two spaces.
pub fn block_item(value: &Value, column: &str, style: &Style) -> String {
    let mut out = "- ".to_string();
    write_item_body(value, column, style, &mut out);
    out
}

fn write_item_body(value: &Value, column: &str, style: &Style, out: &mut String) {
    let nl = style.line_end.as_str();
    match value {
        Value::Map(entries) if !entries.is_empty() => {
            let inner = format!("{column}  ");
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(nl);
                    out.push_str(&inner);
                }
                out.push_str(&block_entry(k, v, &inner, style));
            }
        }
        Value::Seq(items) if !items.is_empty() => {
            let inner = format!("{column}  ");
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(nl);
                    out.push_str(&inner);
                }
                out.push_str(&block_item(v, &inner, style));
            }
        }
        scalar => write_scalar(scalar, false, out),
    }
}

/// What follows `key:` for `value` whose key sits at `column`.
fn write_block_value(value: &Value, column: &str, style: &Style, out: &mut String) {
    let nl = style.line_end.as_str();
    match value {
        Value::Map(entries) if !entries.is_empty() => {
            let inner = format!("{column}{}", style.indent);
            for (k, v) in entries {
                out.push_str(nl);
                out.push_str(&inner);
                out.push_str(&block_entry(k, v, &inner, style));
            }
        }
        Value::Seq(items) if !items.is_empty() => {
            let inner = if style.sequence_indented {
                format!("{column}{}", style.indent)
            } else {
                column.to_string()
            };
            for v in items {
                out.push_str(nl);
                out.push_str(&inner);
                out.push_str(&block_item(v, &inner, style));
            }
        }
        other => {
            out.push(' ');
            write_flow(other, style, out);
        }
    }
}

/// `value` as JSON. `pretty`: the indentation of the line the value starts on, and the value
/// is spread over lines one unit deeper; `None` writes it on one line, spaced after colons as
/// the file is.
pub fn json(value: &Value, style: &Style, pretty: Option<&str>) -> String {
    let mut out = String::new();
    write_json(value, style, pretty, &mut out);
    out
}

fn write_json(value: &Value, style: &Style, pretty: Option<&str>, out: &mut String) {
    let colon = style.json_colon();
    let nl = style.line_end.as_str();
    let (open, close, len) = match value {
        Value::Map(e) => ('{', '}', e.len()),
        Value::Seq(i) => ('[', ']', i.len()),
        scalar => return write_scalar(scalar, true, out),
    };
    out.push(open);
    let inner = pretty.map(|at| format!("{at}{}", style.indent));
    for i in 0..len {
        if i > 0 {
            out.push(',');
            if pretty.is_none() && style.space_after_colon {
                out.push(' ');
            }
        }
        if let Some(inner) = &inner {
            out.push_str(nl);
            out.push_str(inner);
        }
        match value {
            Value::Map(entries) => {
                let (k, v) = &entries[i];
                out.push_str(&json_str(k));
                out.push_str(colon);
                write_json(v, style, inner.as_deref(), out);
            }
            Value::Seq(items) => write_json(&items[i], style, inner.as_deref(), out),
            _ => unreachable!("scalars returned above"),
        }
    }
    if let (Some(at), true) = (pretty, len > 0) {
        out.push_str(nl);
        out.push_str(at);
    }
    out.push(close);
}

/// Whether `value` is written over several lines in block YAML.
pub fn spans_lines(value: &Value) -> bool {
    value.is_collection()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::style::KeyQuote;

    fn header() -> Value {
        Value::map([
            ("name", Value::str("Idempotency-Key")),
            ("in", Value::str("header")),
            ("required", Value::Bool(true)),
            (
                "schema",
                Value::map([
                    ("type", Value::str("string")),
                    ("maxLength", Value::Int(255)),
                ]),
            ),
        ])
    }

    #[test]
    fn strings_are_bare_only_where_yaml_reads_them_back() {
        for bare in ["Idempotency-Key", "header", "$ref", "a-b", "-x", "x.y"] {
            assert_eq!(yaml_str(bare), bare);
        }
        for quoted in [
            "true",
            "No",
            "null",
            "12",
            "1e3",
            "0x1F",
            ".5",
            "a: b",
            "a #b",
            "",
            " x",
            "- x",
            "[a]",
            "x:",
            "@x",
            "it's: here",
            "#/components/x",
            "-",
        ] {
            assert!(yaml_str(quoted).starts_with('\''), "{quoted}");
        }
        assert_eq!(yaml_str("it's: here"), "'it''s: here'");
    }

    #[test]
    fn block_entries_nest_by_the_files_unit_and_sequences_follow_its_habit() {
        let style = Style::default();
        let seq = Value::Seq(vec![header()]);
        assert_eq!(
            block_entry("parameters", &seq, "    ", &style),
            "parameters:\n      - name: Idempotency-Key\n        in: header\n        \
             required: true\n        schema:\n          type: string\n          maxLength: 255"
        );
        let flush = Style {
            sequence_indented: false,
            indent: "    ".into(),
            ..Style::default()
        };
        assert_eq!(
            block_entry("parameters", &seq, "", &flush),
            "parameters:\n- name: Idempotency-Key\n  in: header\n  required: true\n  \
             schema:\n      type: string\n      maxLength: 255"
        );
        let bare = Style {
            status_keys: KeyQuote::Bare,
            ..Style::default()
        };
        assert_eq!(
            block_entry(
                "409",
                &Value::map([("description", Value::str("a: b"))]),
                "",
                &bare
            ),
            "409:\n  description: 'a: b'"
        );
    }

    #[test]
    fn flow_and_json() {
        let style = Style::default();
        assert_eq!(
            flow(&header(), &style),
            "{name: Idempotency-Key, in: header, required: true, schema: {type: string, \
             maxLength: 255}}"
        );
        assert_eq!(
            json(&Value::reference("#/a"), &style, None),
            "{\"$ref\": \"#/a\"}"
        );
        let compact = Style {
            space_after_colon: false,
            ..Style::default()
        };
        assert_eq!(
            json(
                &Value::Seq(vec![Value::Int(1), Value::Int(2)]),
                &compact,
                None
            ),
            "[1,2]"
        );
        assert_eq!(
            json(
                &Value::map([("a", Value::Seq(vec![Value::Int(1)]))]),
                &style,
                Some("  ")
            ),
            "{\n    \"a\": [\n      1\n    ]\n  }"
        );
    }
}
