//! Edits that add an entry to a mapping or an item to a sequence, written in the file's own
//! style ([`Style`]): a block mapping gets lines at its entries' column, a flow mapping
//! (`{a: 1}`) an entry before its `}`, a JSON object a member after its last, with the comma and
//! the indentation its members have; sequences likewise. The bytes around the insertion are left
//! as they are: comments, blank lines, the file's line ends.

use super::style::Style;
use super::value::{self, Value};
use crate::source::{Node, Span};

/// Where and what to insert so that `map` (a mapping of `text`) gains `key: value`. `json`: the
/// file is JSON. `None` when `map` is no mapping of the text.
pub fn entry(
    text: &str,
    map: &Node,
    key: &str,
    value: &Value,
    style: &Style,
    json: bool,
) -> Option<(Span, String)> {
    let entries = map.as_map()?;
    let spans: Vec<(usize, usize)> = entries
        .iter()
        .map(|e| {
            let end = e.value.span.end.max(e.key.span.end);
            (e.key.span.start as usize, end as usize)
        })
        .collect();
    let written = |at: Option<&str>| {
        if json {
            format!(
                "{}{}{}",
                value::json_str(key),
                style.json_colon(),
                value::json(value, style, at)
            )
        } else {
            format!(
                "{}: {}",
                value::yaml_key(key, style),
                value::flow(value, style)
            )
        }
    };
    let block = |column: &str| value::block_entry(key, value, column, style);
    if !written_in_order(&spans, map) {
        return None;
    }
    add(text, map, &spans, b'{', b'}', written, block, style, json)
}

/// Where and what to insert so that `seq` (a sequence of `text`) gains `item` at its end.
pub fn item(
    text: &str,
    seq: &Node,
    item: &Value,
    style: &Style,
    json: bool,
) -> Option<(Span, String)> {
    let items = seq.as_seq()?;
    let spans: Vec<(usize, usize)> = items
        .iter()
        .map(|i| (i.span.start as usize, i.span.end as usize))
        .collect();
    let written = |at: Option<&str>| {
        if json {
            value::json(item, style, at)
        } else {
            value::flow(item, style)
        }
    };
    let block = |column: &str| value::block_item(item, column, style);
    if !written_in_order(&spans, seq) {
        return None;
    }
    // A block sequence's item starts after its `- `: the dash is the item's column.
    let mut spans = spans;
    if !(json || text.as_bytes().get(seq.span.start as usize) == Some(&b'[')) {
        let last = spans.last_mut()?;
        let dash = text[..last.0].trim_end_matches([' ', '\t']);
        if !dash.ends_with('-') {
            return None;
        }
        last.0 = dash.len() - 1;
    }
    add(text, seq, &spans, b'[', b']', written, block, style, json)
}

/// The insertion into a collection whose members span `spans` (start, end), opened by `open`
/// and closed by `close` when in flow style or JSON. `written(pretty)`: the member in flow
/// style or JSON (spread over lines from the indentation given); `block(column)`: the member as
/// block YAML whose first line is at `column`.
#[allow(clippy::too_many_arguments)]
fn add(
    text: &str,
    node: &Node,
    spans: &[(usize, usize)],
    open: u8,
    close: u8,
    written: impl Fn(Option<&str>) -> String,
    block: impl Fn(&str) -> String,
    style: &Style,
    json: bool,
) -> Option<(Span, String)> {
    let start = node.span.start as usize;
    let end = (node.span.end as usize).min(text.len());
    let nl = style.line_end.as_str();
    let flow = text.as_bytes().get(start) == Some(&open);
    if json || flow {
        let close_at = text[..end].rfind(char::from(close))?;
        let Some(&(last_start, last_end)) = spans.last() else {
            // Empty: the member on a line of its own in JSON, inline in YAML's flow style.
            return Some(if json {
                let outer = indentation_of(text, start);
                let inner = format!("{outer}{}", style.indent);
                (
                    Span::new(close_at, close_at),
                    format!("{nl}{inner}{}{nl}{outer}", written(Some(&inner))),
                )
            } else {
                (Span::new(close_at, close_at), written(None))
            });
        };
        let on_own_lines = text[start..last_start].contains('\n');
        // A member beside one written as a collection on one line is written so too.
        let last = &text[last_start..last_end];
        let one_line = !last.contains('\n') && last.trim_end().ends_with(['}', ']']);
        let (separator, pretty) = if on_own_lines {
            let column = indentation_of(text, last_start);
            (format!(",{nl}{column}"), Some(column).filter(|_| !one_line))
        } else if json && !style.space_after_colon {
            // (Compact JSON: no space after a comma either.)
            (",".to_string(), None)
        } else {
            (", ".to_string(), None)
        };
        let member = written(pretty.as_deref().filter(|_| json));
        // (A last entry without a value, `{a: 1, b}`, may end past the brace.)
        let last_end = last_end.min(close_at);
        return Some((
            Span::new(last_end, last_end),
            format!("{separator}{member}"),
        ));
    }
    // Block style: lines at the column of the members, after the line the last one ends on (a
    // comment at the end of that line stays with it).
    let &(last_start, last_end) = spans.last()?;
    let column = column_of(text, last_start);
    after_line(text, last_end, &block(&column), &column, style)
}

/// Whether the members' spans (as parsed) lie in the collection's, each after the one before:
/// not so when one is written elsewhere (an alias's copy carries its anchor's spans), and then
/// the collection is not one written here.
pub(crate) fn written_in_order(spans: &[(usize, usize)], node: &Node) -> bool {
    let (start, end) = (node.span.start as usize, node.span.end as usize);
    let mut at = start;
    for &(s, e) in spans {
        if s < at || e < s || e > end {
            return false;
        }
        at = s;
    }
    true
}

/// Where a value that ends at `end` ends as text: a block scalar's span runs to the next token,
/// past its line end and the next line's indentation; its text ended at the start of that line.
pub(crate) fn end_of_text(text: &str, end: usize) -> usize {
    let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
    if line_start > 0
        && line_start < end
        && text[line_start..end]
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
    {
        line_start
    } else {
        end
    }
}

/// The column `at` is at, as the whitespace that puts a new line's text there: the line's own
/// indentation when `at` starts its text, else as many spaces as characters before it (the first
/// key of a map that is a sequence item, after its `- `).
fn column_of(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    if before.bytes().all(|b| b == b' ' || b == b'\t') {
        before.to_string()
    } else {
        " ".repeat(before.chars().count())
    }
}

/// `lines` (their first at `column`) inserted after the line `value_end` falls on.
fn after_line(
    text: &str,
    value_end: usize,
    lines: &str,
    column: &str,
    style: &Style,
) -> Option<(Span, String)> {
    let nl = style.line_end.as_str();
    let value_end = end_of_text(text, value_end);
    let line_end = if value_end > 0 && text.as_bytes()[value_end - 1] == b'\n' {
        value_end
    } else {
        match text[value_end..].find('\n') {
            Some(at) => value_end + at + 1,
            None => {
                return Some((
                    Span::new(text.len(), text.len()),
                    format!(
                        "{nl}{column}{lines}{}",
                        if style.final_newline { nl } else { "" }
                    ),
                ));
            }
        }
    };
    Some((
        Span::new(line_end, line_end),
        format!("{column}{lines}{nl}"),
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

    fn busy() -> Value {
        Value::map([("description", Value::str("busy"))])
    }

    /// `text` with `key: value` added to the mapping at the path of keys `at`.
    fn added(text: &str, at: &[&str], key: &str, value: Value) -> String {
        let json = text.trim_start().starts_with('{') && !at.is_empty() && text.contains("\":");
        let format = if json { Format::Json } else { Format::Yaml };
        let file = SourceFile::new("t".into(), "t".into(), text.to_string(), format);
        let root = file.parse(&Limits::default()).expect("parses").root;
        let mut node = &root;
        for k in at {
            node = node.get(k).expect("the path is there");
        }
        let style = sniff(text, json);
        let (span, insert) = entry(text, node, key, &value, &style, json).expect("a mapping");
        let mut out = text.to_string();
        out.replace_range(span.start as usize..span.end as usize, &insert);
        // What was added still parses, and has the entry.
        let fixed = SourceFile::new("t".into(), "t".into(), out.clone(), format);
        let mut node = fixed.parse(&Limits::default()).expect("still parses").root;
        for k in at {
            node = node.get(k).unwrap().clone();
        }
        assert!(node.get(key).is_some(), "{out}");
        out
    }

    #[test]
    fn a_block_mapping_gets_a_line_at_its_column_comments_kept() {
        let text = "paths:\n  /a:\n    post:\n      responses:\n        '201':\n          \
                    description: ok   # made\n        # the end of responses\nx: 1\n";
        assert_eq!(
            added(text, &["paths", "/a", "post", "responses"], "409", busy()),
            "paths:\n  /a:\n    post:\n      responses:\n        '201':\n          \
             description: ok   # made\n        '409':\n          description: busy\n        \
             # the end of responses\nx: 1\n"
        );
    }

    #[test]
    fn a_block_scalar_last_keeps_its_lines() {
        // The blank line after a block scalar is the scalar's (with `|+` it is part of its
        // value): the entry goes after it.
        let text = "a:\n  b: |\n    line one\n    line two\n\nz: 1\n";
        assert_eq!(
            added(text, &["a"], "c", Value::Int(2)),
            "a:\n  b: |\n    line one\n    line two\n\n  c: 2\nz: 1\n"
        );
        let kept = "a:\n  b: |+\n    kept\n\nz: 1\n";
        let out = added(kept, &["a"], "c", Value::Int(2));
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
            added(folded, &["a"], "c", Value::Int(2)),
            "a:\n  b: >-\n    folded\n    text\n  c: 2\nz: 1\n"
        );
    }

    #[test]
    fn a_block_scalar_before_the_next_key_keeps_the_entry_in_its_own_mapping() {
        let text = "paths:\n  /p:\n    post:\n      responses: {'201': {description: C}}\n      \
                    description: |\n        Creates.\n    get:\n      responses: {}\n";
        assert_eq!(
            added(text, &["paths", "/p", "post"], "x", Value::Int(1)),
            "paths:\n  /p:\n    post:\n      responses: {'201': {description: C}}\n      \
             description: |\n        Creates.\n      x: 1\n    get:\n      responses: {}\n"
        );
    }

    #[test]
    fn crlf_and_no_final_newline_are_kept() {
        let text = "a:\r\n  b: 1\r\n  c: 2";
        assert_eq!(
            added(text, &["a"], "d", Value::Int(3)),
            "a:\r\n  b: 1\r\n  c: 2\r\n  d: 3"
        );
        let text = "a:\r\n  b: 1\r\n";
        assert_eq!(
            added(text, &["a"], "d", Value::Int(3)),
            "a:\r\n  b: 1\r\n  d: 3\r\n"
        );
    }

    #[test]
    fn a_flow_mapping_gets_an_entry_before_its_brace() {
        assert_eq!(
            added("r: {'201': {description: ok}}\n", &["r"], "409", busy()),
            "r: {'201': {description: ok}, '409': {description: busy}}\n"
        );
        assert_eq!(added("r: {}\n", &["r"], "a", Value::Int(1)), "r: {a: 1}\n");
        assert_eq!(
            added("r: {a: 1, b}\n", &["r"], "c", Value::Int(2)),
            "r: {a: 1, b, c: 2}\n"
        );
    }

    #[test]
    fn a_json_object_gets_a_member_with_its_comma_and_indentation() {
        let text =
            "{\n    \"responses\": {\n        \"201\": {\"description\": \"ok\"}\n    }\n}\n";
        assert_eq!(
            added(text, &["responses"], "409", busy()),
            "{\n    \"responses\": {\n        \"201\": {\"description\": \"ok\"},\n        \
             \"409\": {\"description\": \"busy\"}\n    }\n}\n"
        );
        let compact = "{\"r\":{\"a\":1}}";
        assert_eq!(
            added(compact, &["r"], "b", Value::Int(2)),
            "{\"r\":{\"a\":1,\"b\":2}}"
        );
        let empty = "{\n  \"r\": {}\n}\n";
        assert_eq!(
            added(empty, &["r"], "b", Value::Int(2)),
            "{\n  \"r\": {\n    \"b\": 2\n  }\n}\n"
        );
    }

    fn appended(text: &str, at: &[&str], value: Value) -> String {
        let json = text.starts_with('{');
        let format = if json { Format::Json } else { Format::Yaml };
        let parse = |t: &str| {
            SourceFile::new("t".into(), "t".into(), t.to_string(), format)
                .parse(&Limits::default())
                .expect("parses")
                .root
        };
        let root = parse(text);
        let mut node = &root;
        for k in at {
            node = node.get(k).expect("the path is there");
        }
        let before = node.items().len();
        let style = sniff(text, json);
        let (span, insert) = item(text, node, &value, &style, json).expect("a sequence");
        let mut out = text.to_string();
        out.replace_range(span.start as usize..span.end as usize, &insert);
        let mut node = parse(&out);
        for k in at {
            node = node.get(k).unwrap().clone();
        }
        assert_eq!(node.items().len(), before + 1, "{out}");
        out
    }

    fn key_ref() -> Value {
        Value::reference("#/components/parameters/IdempotencyKey")
    }

    #[test]
    fn a_block_sequence_gets_an_item_at_its_dash() {
        let text = "parameters:\n  - name: a\n    in: query\n  # more\nx: 1\n";
        assert_eq!(
            appended(text, &["parameters"], key_ref()),
            "parameters:\n  - name: a\n    in: query\n  - $ref: \
             '#/components/parameters/IdempotencyKey'\n  # more\nx: 1\n"
        );
        let flush = "parameters:\n- $ref: '#/a'\nx: 1\n";
        assert_eq!(
            appended(flush, &["parameters"], key_ref()),
            "parameters:\n- $ref: '#/a'\n- $ref: '#/components/parameters/IdempotencyKey'\nx: 1\n"
        );
    }

    #[test]
    fn flow_and_json_sequences() {
        assert_eq!(appended("p: [a]\n", &["p"], Value::str("b")), "p: [a, b]\n");
        assert_eq!(appended("p: []\n", &["p"], Value::str("b")), "p: [b]\n");
        assert_eq!(
            appended("{\n  \"p\": [\n    1\n  ]\n}", &["p"], key_ref()),
            "{\n  \"p\": [\n    1,\n    {\n      \"$ref\": \
             \"#/components/parameters/IdempotencyKey\"\n    }\n  ]\n}"
        );
    }
}
