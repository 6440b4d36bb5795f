//! JSON → [`Node`] tree through `jsonc-parser`, strict: every JSONC/JSON5 extension is off, so
//! what loads here loads in any JSON parser.

use jsonc_parser::ast::{ObjectPropName, Value as JValue};
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions, parse_to_ast};

use super::node::{DuplicateKey, Entry, Key, Node, ScalarKind, Value, find_duplicates};
use super::{LoadError, Loaded, MAX_DEPTH, Span};

const STRICT: ParseOptions = ParseOptions {
    allow_comments: false,
    allow_loose_object_property_names: false,
    allow_trailing_commas: false,
    allow_missing_commas: false,
    allow_single_quoted_strings: false,
    allow_hexadecimal_numbers: false,
    allow_unary_plus_numbers: false,
    allow_bare_decimal_point_numbers: false,
    allow_non_finite_numbers: false,
    allow_extended_string_escapes: false,
};

pub fn parse(text: &str) -> Result<Loaded, LoadError> {
    let parsed = parse_to_ast(text, &CollectOptions::default(), &STRICT).map_err(|e| {
        let r = e.range();
        LoadError::new(
            Span::new(r.start, r.end),
            format!("invalid JSON: {}", e.kind()),
        )
    })?;
    let Some(value) = parsed.value else {
        return Err(LoadError::new(
            Span::empty_at(0),
            "empty document: no JSON value".to_string(),
        ));
    };
    let mut duplicates = Vec::new();
    let root = convert(value, 0, &mut duplicates)?;
    Ok(Loaded { root, duplicates })
}

fn span_of(r: &impl Ranged) -> Span {
    let r = r.range();
    Span::new(r.start, r.end)
}

fn convert(
    value: JValue<'_>,
    depth: usize,
    dups: &mut Vec<DuplicateKey>,
) -> Result<Node, LoadError> {
    let span = span_of(&value);
    if depth >= MAX_DEPTH {
        return Err(LoadError::new(
            span,
            format!("nesting deeper than {MAX_DEPTH} levels"),
        ));
    }
    Ok(match value {
        JValue::StringLit(s) => Node::scalar(span, s.value, ScalarKind::Str),
        JValue::NumberLit(n) => {
            let kind = if n.value.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                ScalarKind::Float
            } else {
                ScalarKind::Int
            };
            Node::scalar(span, n.value, kind)
        }
        JValue::BooleanLit(b) => Node::scalar(
            span,
            if b.value { "true" } else { "false" },
            ScalarKind::Bool,
        ),
        JValue::NullKeyword(_) => Node::scalar(span, "null", ScalarKind::Null),
        JValue::Array(a) => Node {
            span,
            value: Value::Seq(
                a.elements
                    .into_iter()
                    .map(|v| convert(v, depth + 1, dups))
                    .collect::<Result<_, _>>()?,
            ),
        },
        JValue::Object(o) => {
            let mut entries = Vec::with_capacity(o.properties.len());
            for prop in o.properties {
                let key = match prop.name {
                    ObjectPropName::String(s) => Key {
                        span: span_of(&s),
                        text: s.value.into(),
                    },
                    ObjectPropName::Word(w) => Key {
                        span: span_of(&w),
                        text: w.value.into(),
                    },
                };
                entries.push(Entry {
                    key,
                    value: convert(prop.value, depth + 1, dups)?,
                });
            }
            find_duplicates(&entries, dups);
            Node {
                span,
                value: Value::Map(entries),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_carry_byte_spans() {
        let text = "{\"openapi\": \"3.0.0\", \"paths\": {\"/a\": {\"post\": {}}}}";
        let doc = parse(text).unwrap();
        let post = doc.root.get("paths").unwrap().get("/a").unwrap();
        let entry = post.get_entry("post").unwrap();
        assert_eq!(&text[entry.key.span.range()], "\"post\"");
        assert_eq!(&text[entry.value.span.range()], "{}");
    }

    #[test]
    fn spans_are_bytes_after_multibyte_text() {
        let text = "{\"title\": \"Grüße ✓\", \"paths\": 1}";
        let doc = parse(text).unwrap();
        let paths = doc.root.get_entry("paths").unwrap();
        assert_eq!(&text[paths.key.span.range()], "\"paths\"");
    }

    #[test]
    fn json5_extensions_are_refused() {
        for bad in [
            "{a: 1}",
            "{\"a\": 1,}",
            "// c\n{}",
            "{\"a\": 'x'}",
            "{\"a\": 0x1}",
        ] {
            assert!(parse(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn duplicate_keys_are_recorded() {
        let doc = parse("{\"a\": 1, \"a\": 2}").unwrap();
        assert_eq!(doc.duplicates.len(), 1);
        assert_eq!(doc.root.get("a").unwrap().scalar_text(), Some("2"));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = format!("{}{}", "[".repeat(400), "]".repeat(400));
        assert!(parse(&text).unwrap_err().message.contains("nesting"));
    }
}
