//! Edits that add an entry to a mapping, written in the file's own style ([`Style`]): a block
//! mapping gets a line at its entries' column, a flow mapping (`{a: 1}`) an entry before its
//! `}`, a JSON object a member after its last, with the comma and the indentation its members
//! have. The bytes around the insertion are left as they are: comments, blank lines, the
//! file's line ends.

use super::style::Style;
use crate::source::{Node, Span};

/// Where and what to insert so that `map` (a mapping of `text`) gains `key: value`, with
/// `value` written on one line (a scalar, or a flow collection). `json`: the file is JSON, and
/// `key` and `value` are written as JSON. `None` when `map` is no mapping of the text.
pub fn entry(
    text: &str,
    map: &Node,
    key: &str,
    value: &str,
    style: &Style,
    json: bool,
) -> Option<(Span, String)> {
    let entries = map.as_map()?;
    let start = map.span.start as usize;
    let end = map.span.end as usize;
    let nl = style.line_end.as_str();
    let flow = text.as_bytes().get(start) == Some(&b'{');
    if json || flow {
        let colon = if json && !style.space_after_colon {
            ":"
        } else {
            ": "
        };
        let close = text[..end].rfind('}')?;
        let Some(last) = entries.last() else {
            // `{}`: the member on a line of its own in JSON, inline in YAML's flow style.
            return Some(if json {
                let outer = indentation_of(text, start);
                (
                    Span::new(close, close),
                    format!("{nl}{outer}{}{key}{colon}{value}{nl}{outer}", style.indent),
                )
            } else {
                (Span::new(close, close), format!("{key}{colon}{value}"))
            });
        };
        let after = last.value.span.end as usize;
        let on_own_lines = text[start..last.key.span.start as usize].contains('\n');
        let separator = if on_own_lines {
            format!(
                ",{nl}{}",
                indentation_of(text, last.key.span.start as usize)
            )
        } else if json && !style.space_after_colon {
            // (Compact JSON: no space after a comma either.)
            ",".to_string()
        } else {
            ", ".to_string()
        };
        return Some((
            Span::new(after, after),
            format!("{separator}{key}{colon}{value}"),
        ));
    }
    // A block mapping: a line at the column of its entries, after the line its last entry ends
    // on (a comment at the end of that line stays with it).
    let last = entries.last()?;
    let column = indentation_of(text, last.key.span.start as usize);
    let value_end = (last.value.span.end as usize).max(last.key.span.end as usize);
    let line_end = if value_end > 0 && text.as_bytes()[value_end - 1] == b'\n' {
        value_end
    } else {
        match text[value_end..].find('\n') {
            Some(at) => value_end + at + 1,
            None => {
                return Some((
                    Span::new(text.len(), text.len()),
                    format!(
                        "{nl}{column}{key}: {value}{}",
                        if style.final_newline { nl } else { "" }
                    ),
                ));
            }
        }
    };
    Some((
        Span::new(line_end, line_end),
        format!("{column}{key}: {value}{nl}"),
    ))
}

/// The whitespace that starts the line holding `offset`.
fn indentation_of(text: &str, offset: usize) -> String {
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
    text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::style::sniff;
    use super::*;
    use crate::limits::Limits;
    use crate::source::{Format, SourceFile};

    /// `text` with `key: value` added to the mapping at the path of keys `at`.
    fn added(text: &str, at: &[&str], key: &str, value: &str) -> String {
        let json = text.trim_start().starts_with('{') && !at.is_empty() && text.contains("\":");
        let format = if json { Format::Json } else { Format::Yaml };
        let file = SourceFile::new("t".into(), "t".into(), text.to_string(), format);
        let root = file.parse(&Limits::default()).expect("parses").root;
        let mut node = &root;
        for k in at {
            node = node.get(k).expect("the path is there");
        }
        let style = sniff(text, json);
        let (span, insert) = entry(text, node, key, value, &style, json).expect("a mapping");
        let mut out = text.to_string();
        out.replace_range(span.start as usize..span.end as usize, &insert);
        // What was added still parses, and has the entry.
        let fixed = SourceFile::new("t".into(), "t".into(), out.clone(), format);
        let mut node = fixed.parse(&Limits::default()).expect("still parses").root;
        for k in at {
            node = node.get(k).unwrap().clone();
        }
        let bare = key.trim_matches(['"', '\'']);
        assert!(node.get(bare).is_some(), "{out}");
        out
    }

    #[test]
    fn a_block_mapping_gets_a_line_at_its_column_comments_kept() {
        let text = "paths:\n  /a:\n    post:\n      responses:\n        '201':\n          \
                    description: ok   # made\n        # the end of responses\nx: 1\n";
        assert_eq!(
            added(
                text,
                &["paths", "/a", "post", "responses"],
                "'409'",
                "{description: busy}"
            ),
            "paths:\n  /a:\n    post:\n      responses:\n        '201':\n          \
             description: ok   # made\n        '409': {description: busy}\n        # the end of \
             responses\nx: 1\n"
        );
    }

    #[test]
    fn a_block_scalar_last_keeps_its_lines() {
        // The blank line after a block scalar is the scalar's (with `|+` it is part of its
        // value): the entry goes after it.
        let text = "a:\n  b: |\n    line one\n    line two\n\nz: 1\n";
        assert_eq!(
            added(text, &["a"], "c", "2"),
            "a:\n  b: |\n    line one\n    line two\n\n  c: 2\nz: 1\n"
        );
        let kept = "a:\n  b: |+\n    kept\n\nz: 1\n";
        let out = added(kept, &["a"], "c", "2");
        assert_eq!(out, "a:\n  b: |+\n    kept\n\n  c: 2\nz: 1\n");
        let parsed = SourceFile::new("t".into(), "t".into(), out, Format::Yaml)
            .parse(&Limits::default())
            .unwrap()
            .root;
        let b = parsed
            .get("a")
            .and_then(|a| a.get("b"))
            .and_then(Node::as_str);
        assert_eq!(b, Some("kept\n\n"), "the kept lines are still the value's");
        let folded = "a:\n  b: >-\n    folded\n    text\nz: 1\n";
        assert_eq!(
            added(folded, &["a"], "c", "2"),
            "a:\n  b: >-\n    folded\n    text\n  c: 2\nz: 1\n"
        );
    }

    #[test]
    fn crlf_and_no_final_newline_are_kept() {
        let text = "a:\r\n  b: 1\r\n  c: 2";
        assert_eq!(
            added(text, &["a"], "d", "3"),
            "a:\r\n  b: 1\r\n  c: 2\r\n  d: 3"
        );
        let text = "a:\r\n  b: 1\r\n";
        assert_eq!(added(text, &["a"], "d", "3"), "a:\r\n  b: 1\r\n  d: 3\r\n");
    }

    #[test]
    fn a_flow_mapping_gets_an_entry_before_its_brace() {
        assert_eq!(
            added(
                "r: {'201': {description: ok}}\n",
                &["r"],
                "'409'",
                "{description: busy}"
            ),
            "r: {'201': {description: ok}, '409': {description: busy}}\n"
        );
        assert_eq!(added("r: {}\n", &["r"], "a", "1"), "r: {a: 1}\n");
    }

    #[test]
    fn a_json_object_gets_a_member_with_its_comma_and_indentation() {
        let text =
            "{\n    \"responses\": {\n        \"201\": {\"description\": \"ok\"}\n    }\n}\n";
        assert_eq!(
            added(
                text,
                &["responses"],
                "\"409\"",
                "{\"description\": \"busy\"}"
            ),
            "{\n    \"responses\": {\n        \"201\": {\"description\": \"ok\"},\n        \
             \"409\": {\"description\": \"busy\"}\n    }\n}\n"
        );
        let compact = "{\"r\":{\"a\":1}}";
        assert_eq!(
            added(compact, &["r"], "\"b\"", "2"),
            "{\"r\":{\"a\":1,\"b\":2}}"
        );
        let empty = "{\n  \"r\": {}\n}\n";
        assert_eq!(
            added(empty, &["r"], "\"b\"", "2"),
            "{\n  \"r\": {\n    \"b\": 2\n  }\n}\n"
        );
    }
}
