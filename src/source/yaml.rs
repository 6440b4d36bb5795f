//! YAML → [`Node`] tree, from `saphyr-parser` events.
//!
//! We build our own tree instead of using a YAML value type because a linter needs what value
//! types throw away: the span of every key and node, duplicate keys, the text of keys as written.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YSpan};

use super::node::{DuplicateKey, Entry, Key, Node, ScalarKind, Value, find_duplicates};
use super::{LoadError, Loaded, Span};
use crate::limits::Limits;

/// Parses one YAML document. Alias expansion is charged against `limits.max_alias_nodes`: real
/// specs use a handful of anchors, and a "billion laughs" document hits the budget long before
/// it hurts.
pub fn parse(text: &str, limits: &Limits) -> Result<Loaded, LoadError> {
    let mut first = match parse_strict(text, limits) {
        Err(e) if e.message.ends_with(UNDER_INDENTED) => e,
        done => return done,
    };
    // A quoted scalar whose continuation line is not indented past its key (Harbor's spec:
    // `description: '…` with the next line at the key's column) is invalid YAML 1.2, but libyaml,
    // PyYAML and go-yaml read it, and real specs ship it. Such a scalar is read as if it were on
    // one line: its line breaks become spaces, which keeps every byte offset (and so every
    // position) where it is, and changes the value only in its whitespace.
    let mut repaired = text.as_bytes().to_vec();
    // Each fold costs a parse of the document: a budget of bytes parsed, so a large document
    // with many such scalars stays fast (and is an error after all).
    let repairs = MAX_QUOTED_REPAIRS.min(REPAIR_BYTES / text.len().max(1));
    for _ in 0..repairs {
        let Some(end) = fold_quoted_scalar(&mut repaired, first.span.start as usize) else {
            return Err(first);
        };
        let Ok(candidate) = std::str::from_utf8(&repaired) else {
            return Err(first);
        };
        match parse_strict(candidate, limits) {
            Err(e) if e.message.ends_with(UNDER_INDENTED) && e.span.start != first.span.start => {
                first = e;
            }
            // Another problem past the folded scalar: the repaired text keeps every offset, so
            // it is reported where it is. One inside it (a quote never closed) is the first.
            Err(e) if (e.span.start as usize) > end => return Err(e),
            Err(_) => return Err(first),
            done => return done,
        }
    }
    Err(first)
}

/// saphyr's message for a quoted scalar whose continuation line is under-indented.
const UNDER_INDENTED: &str = "invalid indentation in quoted scalar";

/// How many such scalars one document may have before it is an error after all: each costs a
/// parse of the document.
const MAX_QUOTED_REPAIRS: usize = 32;

/// The bytes all repairs of one document may parse again: 64 MiB.
const REPAIR_BYTES: usize = 64 << 20;

/// Turns the line breaks inside the quoted scalar that opens at byte `at` into spaces, and gives
/// the byte where it ends; `None` when no quoted scalar opens there. Quotes, backslashes and line
/// breaks are ASCII, so bytes are safe to walk in UTF-8.
fn fold_quoted_scalar(text: &mut [u8], at: usize) -> Option<usize> {
    let &quote = text.get(at)?;
    if quote != b'\'' && quote != b'"' {
        return None;
    }
    let mut i = at + 1;
    while i < text.len() {
        match text[i] {
            b'\\' if quote == b'"' => i += 1,
            b'\'' if quote == b'\'' && text.get(i + 1) == Some(&b'\'') => i += 1,
            c if c == quote => return Some(i),
            b'\n' | b'\r' => text[i] = b' ',
            _ => {}
        }
        i += 1;
    }
    Some(text.len())
}

fn parse_strict(text: &str, limits: &Limits) -> Result<Loaded, LoadError> {
    let offsets = CharOffsets::new(text);
    let mut builder = Builder {
        text,
        offsets: &offsets,
        stack: Vec::new(),
        entries: Vec::new(),
        items: Vec::new(),
        anchors: HashMap::new(),
        alias_budget: limits.max_alias_nodes,
        limits,
        duplicates: Vec::new(),
        root: None,
        documents: 0,
        second_document: None,
    };
    let mut parser = Parser::new_from_str(text);
    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(|e| {
            let at = offsets.byte_in(text, e.marker().index());
            let message = if e.info().contains("recursion limit") {
                // saphyr's own ceiling, below any --max-depth.
                "nesting too deep: YAML flow collections (`[`, `{`) nest at most 255 levels"
                    .to_string()
            } else {
                format!("invalid YAML: {}", e.info())
            };
            LoadError::new(Span::empty_at(at), message)
        })?;
        if builder.event(event, span)? {
            break;
        }
    }
    let root = builder.root.ok_or_else(|| {
        LoadError::new(
            Span::empty_at(0),
            "empty document: no YAML content".to_string(),
        )
    })?;
    Ok(Loaded {
        root,
        duplicates: builder.duplicates,
    })
}

/// saphyr reports positions in characters; spans are bytes. ASCII text (the common case) maps
/// one to one; otherwise a checkpoint every 64 characters bounds each lookup, and a cursor at the
/// last position found makes the usual lookup (a little after the last one: events come in
/// document order) a short walk forward.
struct CharOffsets {
    checkpoints: Option<Vec<u32>>,
    text_len: usize,
    /// The last (character index, byte offset) found.
    cursor: std::cell::Cell<(usize, usize)>,
}

const CHECKPOINT_EVERY: usize = 64;

impl CharOffsets {
    fn new(text: &str) -> Self {
        let checkpoints = (!text.is_ascii()).then(|| {
            text.char_indices()
                .step_by(CHECKPOINT_EVERY)
                .map(|(b, _)| b as u32)
                .collect()
        });
        CharOffsets {
            checkpoints,
            text_len: text.len(),
            cursor: std::cell::Cell::new((0, 0)),
        }
    }

    fn byte_in(&self, text: &str, char_index: usize) -> usize {
        let Some(points) = &self.checkpoints else {
            return char_index.min(self.text_len);
        };
        let slot = char_index / CHECKPOINT_EVERY;
        let Some(&base) = points.get(slot) else {
            return self.text_len;
        };
        // Walk from whichever is nearer below the target: the cursor or the checkpoint.
        let (cursor_char, cursor_byte) = self.cursor.get();
        let (mut chars, mut byte) =
            if cursor_char <= char_index && cursor_char >= slot * CHECKPOINT_EVERY {
                (cursor_char, cursor_byte)
            } else {
                (slot * CHECKPOINT_EVERY, base as usize)
            };
        let bytes = text.as_bytes();
        while chars < char_index {
            if byte >= bytes.len() {
                return self.text_len;
            }
            byte += 1;
            // Skip UTF-8 continuation bytes: the next character starts after them.
            while byte < bytes.len() && bytes[byte] & 0xC0 == 0x80 {
                byte += 1;
            }
            chars += 1;
        }
        self.cursor.set((chars, byte));
        byte.min(self.text_len)
    }
}

/// An open collection. Its children so far are the builder's shared `entries` or `items` from
/// `base` on.
enum Frame {
    Map {
        start: usize,
        flow: bool,
        anchor: usize,
        base: usize,
        /// Entries brought in by `<<` merge keys; explicit keys win over them.
        merged: Vec<Entry>,
        key: Option<Key>,
        key_is_merge: bool,
        /// Where the last child ends as written: an alias ends at `*name`, not at its anchor.
        last_end: usize,
    },
    Seq {
        start: usize,
        flow: bool,
        anchor: usize,
        base: usize,
        last_end: usize,
    },
}

struct Builder<'t> {
    text: &'t str,
    offsets: &'t CharOffsets,
    stack: Vec<Frame>,
    /// The children of every open collection, innermost last. An ending collection moves its
    /// children out into one exactly sized allocation: no per-collection vector that grows by
    /// doubling and is then shrunk, which both costs time and fragments the heap.
    entries: Vec<Entry>,
    items: Vec<Node>,
    /// Anchored nodes with their node count and depth, for the alias budgets.
    anchors: HashMap<usize, (Node, usize, usize)>,
    alias_budget: usize,
    limits: &'t Limits,
    duplicates: Vec<DuplicateKey>,
    root: Option<Node>,
    documents: usize,
    second_document: Option<Span>,
}

impl Builder<'_> {
    fn span(&self, s: &YSpan) -> Span {
        let start = self.offsets.byte_in(self.text, s.start.index());
        let end = self.offsets.byte_in(self.text, s.end.index());
        Span::new(start, end.max(start))
    }

    /// Handles one event; `Ok(true)` once the document is complete.
    fn event(&mut self, event: Event<'_>, yspan: YSpan) -> Result<bool, LoadError> {
        let span = self.span(&yspan);
        match event {
            Event::StreamStart | Event::Nothing | Event::DocumentEnd => {}
            Event::StreamEnd => return Ok(true),
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents == 2 {
                    self.second_document = Some(span);
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                let kind = match (style, &tag) {
                    (ScalarStyle::Plain, None) => resolve_plain(&value),
                    (ScalarStyle::Plain, Some(tag)) if tag.handle == "!!" => match &*tag.suffix {
                        "str" => ScalarKind::Str,
                        _ => resolve_plain(&value),
                    },
                    _ => ScalarKind::Str,
                };
                let merge_key = style == ScalarStyle::Plain && &*value == "<<";
                // The event starts at an anchor or tag; the node starts at its text.
                let span = if anchor != 0 || tag.is_some() {
                    Span::new(
                        self.skip_properties(span).min(span.end as usize),
                        span.end as usize,
                    )
                } else {
                    span
                };
                let end = span.end as usize;
                let node = Node::scalar(span, &*value, kind);
                self.finish(node, anchor, merge_key, end)?;
            }
            Event::Alias(id) => {
                let Some((node, count, depth)) = self.anchors.get(&id) else {
                    let open = self.stack.iter().any(|f| match f {
                        Frame::Map { anchor, .. } | Frame::Seq { anchor, .. } => *anchor == id,
                    });
                    let message = if open {
                        "recursive alias: the anchored node contains itself"
                    } else {
                        "alias to an unknown anchor"
                    };
                    return Err(LoadError::new(span, message.to_string()));
                };
                if self.stack.len() + depth > self.limits.max_depth {
                    return Err(LoadError::new(
                        span,
                        format!(
                            "nesting deeper than {} levels once this alias is expanded \
                             (raise the limit with --max-depth)",
                            self.limits.max_depth
                        ),
                    ));
                }
                if *count > self.alias_budget {
                    return Err(LoadError::new(
                        span,
                        format!(
                            "alias expansion exceeds the budget of {} nodes (an alias bomb? \
                             raise the limit with --max-alias-nodes)",
                            self.limits.max_alias_nodes
                        ),
                    ));
                }
                self.alias_budget -= *count;
                let node = node.clone();
                self.finish(node, 0, false, span.end as usize)?;
            }
            Event::MappingStart(anchor, _) => {
                self.check_depth(span)?;
                self.stack.push(Frame::Map {
                    start: self.skip_properties(span),
                    flow: self.starts_flow(span, b'{'),
                    anchor,
                    base: self.entries.len(),
                    merged: Vec::new(),
                    key: None,
                    key_is_merge: false,
                    last_end: 0,
                });
            }
            Event::SequenceStart(anchor, _) => {
                self.check_depth(span)?;
                self.stack.push(Frame::Seq {
                    start: self.skip_properties(span),
                    flow: self.starts_flow(span, b'['),
                    anchor,
                    base: self.items.len(),
                    last_end: 0,
                });
            }
            Event::MappingEnd => {
                let Some(Frame::Map {
                    start,
                    flow,
                    anchor,
                    base,
                    merged,
                    last_end,
                    ..
                }) = self.stack.pop()
                else {
                    return Err(LoadError::new(span, "unbalanced mapping".to_string()));
                };
                find_duplicates(&self.entries[base..], &mut self.duplicates);
                let end = closing_end(flow, span, last_end);
                // Explicit keys win over merged ones; among merges the first source wins.
                if !merged.is_empty() {
                    let mut present: std::collections::HashSet<ecow::EcoString> = self.entries
                        [base..]
                        .iter()
                        .map(|e| e.key.text.clone())
                        .collect();
                    for m in merged {
                        if present.insert(m.key.text.clone()) {
                            self.entries.push(m);
                        }
                    }
                }
                let node = Node {
                    span: Span::new(start, end.max(start)),
                    value: Value::Map(self.entries.drain(base..).collect()),
                };
                let end = node.span.end as usize;
                self.finish(node, anchor, false, end)?;
            }
            Event::SequenceEnd => {
                let Some(Frame::Seq {
                    start,
                    flow,
                    anchor,
                    base,
                    last_end,
                }) = self.stack.pop()
                else {
                    return Err(LoadError::new(span, "unbalanced sequence".to_string()));
                };
                let end = closing_end(flow, span, last_end);
                let node = Node {
                    span: Span::new(start, end.max(start)),
                    value: Value::Seq(self.items.drain(base..).collect()),
                };
                let end = node.span.end as usize;
                self.finish(node, anchor, false, end)?;
            }
        }
        Ok(false)
    }

    /// Where a collection really starts: its start event may begin at an anchor (`&a`) or a
    /// tag (`!t`), which are not part of the node.
    fn skip_properties(&self, span: Span) -> usize {
        let bytes = self.text.as_bytes();
        let mut i = span.start as usize;
        loop {
            match bytes.get(i) {
                Some(b'&' | b'!') => {
                    while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                }
                Some(b' ' | b'\t' | b'\r' | b'\n') if i > span.start as usize => i += 1,
                _ => return i,
            }
        }
    }

    /// Whether the collection whose start event has `span` is a flow one (`{`/`[`).
    fn starts_flow(&self, span: Span, open: u8) -> bool {
        self.text.as_bytes().get(self.skip_properties(span)) == Some(&open)
    }

    fn check_depth(&self, span: Span) -> Result<(), LoadError> {
        if self.stack.len() >= self.limits.max_depth {
            return Err(LoadError::new(
                span,
                format!(
                    "nesting deeper than {} levels (raise the limit with --max-depth)",
                    self.limits.max_depth
                ),
            ));
        }
        Ok(())
    }

    /// A complete node: remember its anchor, then hand it to the enclosing collection.
    /// `written_end` is where the node ends in the text here: for an alias, the end of `*name`.
    fn finish(
        &mut self,
        node: Node,
        anchor: usize,
        merge_key: bool,
        written_end: usize,
    ) -> Result<(), LoadError> {
        if anchor != 0 {
            let count = node.count();
            let depth = node.depth();
            self.anchors.insert(anchor, (node.clone(), count, depth));
        }
        match self.stack.last_mut() {
            // A trailing `---` with nothing after it is an empty second document: harmless.
            None if self.root.is_some() && node.is_null() => {}
            None if self.root.is_some() => {
                return Err(LoadError::new(
                    self.second_document.unwrap_or(node.span),
                    "a second YAML document starts here; an OpenAPI file holds one document"
                        .to_string(),
                ));
            }
            None => self.root = Some(node),
            Some(Frame::Seq { last_end, .. }) => {
                *last_end = written_end;
                self.items.push(node)
            }
            Some(Frame::Map {
                merged,
                key,
                key_is_merge,
                last_end,
                ..
            }) => match key.take() {
                None => {
                    *key = Some(Key {
                        text: match &node.value {
                            Value::Scalar(s) => s.text.clone(),
                            // A complex key has no text of its own; its source stands in.
                            _ => self.text[node.span.range()].into(),
                        },
                        span: node.span,
                    });
                    *key_is_merge = merge_key;
                }
                Some(k) => {
                    *last_end = written_end;
                    if *key_is_merge {
                        *key_is_merge = false;
                        match node.value {
                            Value::Map(m) => merged.extend(m),
                            Value::Seq(maps) => {
                                for map in maps {
                                    if let Value::Map(m) = map.value {
                                        merged.extend(m);
                                    }
                                }
                            }
                            Value::Scalar(_) => self.entries.push(Entry {
                                key: k,
                                value: node,
                            }),
                        }
                    } else {
                        self.entries.push(Entry {
                            key: k,
                            value: node,
                        });
                    }
                }
            },
        }
        Ok(())
    }
}

/// End of a collection: a flow collection ends at its closing bracket; a block one at its last
/// child, since saphyr's end event sits at the next token, often lines later.
fn closing_end(flow: bool, end_event: Span, last_child_end: usize) -> usize {
    match (flow, last_child_end) {
        (true, _) => end_event.end as usize,
        (false, 0) => end_event.start as usize,
        (false, end) => end,
    }
}

/// YAML 1.2 core schema resolution of a plain scalar.
fn resolve_plain(s: &str) -> ScalarKind {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return ScalarKind::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return ScalarKind::Bool,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return ScalarKind::Float,
        _ => {}
    }
    let b = s.as_bytes();
    if let Some(rest) = s.strip_prefix("0x") {
        if !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_hexdigit()) {
            return ScalarKind::Int;
        }
        return ScalarKind::Str;
    }
    if let Some(rest) = s.strip_prefix("0o") {
        if !rest.is_empty() && rest.bytes().all(|c| (b'0'..=b'7').contains(&c)) {
            return ScalarKind::Int;
        }
        return ScalarKind::Str;
    }
    let digits = match b.first() {
        Some(b'-' | b'+') => &b[1..],
        _ => b,
    };
    if digits.is_empty() {
        return ScalarKind::Str;
    }
    if digits.iter().all(u8::is_ascii_digit) {
        return ScalarKind::Int;
    }
    if is_float(digits) {
        return ScalarKind::Float;
    }
    ScalarKind::Str
}

/// `( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_float(b: &[u8]) -> bool {
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Loaded {
        parse(text, &Limits::default()).unwrap()
    }

    fn slice(text: &str, span: Span) -> &str {
        &text[span.range()]
    }

    #[test]
    fn character_positions_map_to_bytes_in_any_order() {
        let text: String = (0..500)
            .map(|i| match i % 7 {
                0 => "é",
                3 => "日本",
                5 => "😀",
                _ => "ab",
            })
            .collect();
        let truth: Vec<usize> = text
            .char_indices()
            .map(|(b, _)| b)
            .chain([text.len()])
            .collect();
        let offsets = CharOffsets::new(&text);
        // Forward, backward, and jumping about: the cursor must never give a wrong answer.
        let order: Vec<usize> = (0..truth.len())
            .chain((0..truth.len()).rev())
            .chain((0..truth.len()).map(|i| (i * 7919) % truth.len()))
            .collect();
        for i in order {
            assert_eq!(offsets.byte_in(&text, i), truth[i], "character {i}");
        }
        assert_eq!(offsets.byte_in(&text, truth.len() + 5), text.len());
    }

    #[test]
    fn keys_and_values_carry_byte_spans() {
        let text = "openapi: 3.1.0\npaths:\n  /a:\n    post: {}\n";
        let doc = load(text);
        let paths = doc.root.get_entry("paths").unwrap();
        assert_eq!(slice(text, paths.key.span), "paths");
        let post = paths.value.get("/a").unwrap().get_entry("post").unwrap();
        assert_eq!(slice(text, post.key.span), "post");
        assert_eq!(slice(text, post.value.span), "{}");
        let version = doc.root.get("openapi").unwrap();
        assert_eq!(
            version.as_str(),
            Some("3.1.0"),
            "3.1.0 is no float: a string"
        );
        assert_eq!(version.scalar_text(), Some("3.1.0"));
    }

    #[test]
    fn spans_are_bytes_even_after_multibyte_text() {
        let text = "info:\n  title: Zahlungsdienst für Grüße\npaths: {}\n";
        let doc = load(text);
        let paths = doc.root.get_entry("paths").unwrap();
        assert_eq!(slice(text, paths.key.span), "paths");
        let title = doc.root.get("info").unwrap().get("title").unwrap();
        assert_eq!(slice(text, title.span), "Zahlungsdienst für Grüße");
    }

    #[test]
    fn core_schema_types() {
        let doc = load("a: 409\nb: '409'\nc: true\nd: ~\ne: 1.5e3\nf: 3.1.0\ng:\nh: 0x1F\n");
        let kind = |k: &str| doc.root.get(k).unwrap().as_scalar().unwrap().kind;
        assert_eq!(kind("a"), ScalarKind::Int);
        assert_eq!(kind("b"), ScalarKind::Str);
        assert_eq!(kind("c"), ScalarKind::Bool);
        assert_eq!(kind("d"), ScalarKind::Null);
        assert_eq!(kind("e"), ScalarKind::Float);
        assert_eq!(kind("f"), ScalarKind::Str);
        assert_eq!(kind("g"), ScalarKind::Null);
        assert_eq!(kind("h"), ScalarKind::Int);
    }

    #[test]
    fn aliases_expand_and_keep_the_anchor_spans() {
        let text = "base: &b {type: string}\nother: *b\n";
        let doc = load(text);
        let other = doc.root.get("other").unwrap();
        assert_eq!(other.get("type").unwrap().as_str(), Some("string"));
        assert_eq!(slice(text, other.span), "{type: string}");
    }

    #[test]
    fn merge_keys_merge_and_explicit_keys_win() {
        let text = "base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  b: 3\n";
        let doc = load(text);
        let m = doc.root.get("m").unwrap();
        assert_eq!(m.get("a").unwrap().scalar_text(), Some("1"));
        assert_eq!(m.get("b").unwrap().scalar_text(), Some("3"));
        assert!(m.get("<<").is_none());
        assert!(doc.duplicates.is_empty());
    }

    /// Children of every open collection share one stack: a collection closing inside a map
    /// that already holds entries must take only its own.
    #[test]
    fn nested_collections_keys_and_merges_keep_their_own_children() {
        let text = "base: &b {a: 1}\nouter:\n  x: 1\n  ? [k1, k2]\n  : v\n  ? {ck: 1}\n  : w\n  \
                    inner:\n    y: 2\n    <<: *b\n    deep: {z: [1, {q: 2}], <<: {a: 9, r: 3}}\n  \
                    after: [3, 4]\nlast: 5\n";
        let doc = load(text);
        let keys = |n: &Node| -> Vec<String> {
            n.entries().iter().map(|e| e.key.text.to_string()).collect()
        };
        assert_eq!(keys(&doc.root), ["base", "outer", "last"]);
        let outer = doc.root.get("outer").unwrap();
        assert_eq!(keys(outer), ["x", "[k1, k2]", "{ck: 1}", "inner", "after"]);
        assert_eq!(outer.get("[k1, k2]").unwrap().scalar_text(), Some("v"));
        let inner = outer.get("inner").unwrap();
        assert_eq!(keys(inner), ["y", "deep", "a"]);
        let deep = inner.get("deep").unwrap();
        assert_eq!(keys(deep), ["z", "a", "r"]);
        assert_eq!(deep.get("z").unwrap().items().len(), 2);
        assert_eq!(outer.get("after").unwrap().items().len(), 2);
        assert!(doc.duplicates.is_empty());
    }

    #[test]
    fn duplicate_keys_are_kept_and_recorded() {
        let text = "a: 1\nb: 2\na: 3\n";
        let doc = load(text);
        assert_eq!(doc.root.entries().len(), 3);
        assert_eq!(doc.root.get("a").unwrap().scalar_text(), Some("3"));
        assert_eq!(doc.duplicates.len(), 1);
        assert_eq!(doc.duplicates[0].first, Span::new(0, 1));
        assert_eq!(doc.duplicates[0].second, Span::new(10, 11));
    }

    #[test]
    fn alias_bomb_is_refused() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let err = parse(&text, &Limits::default()).unwrap_err();
        assert!(err.message.contains("alias expansion"), "{}", err.message);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "[".repeat(10_000);
        let err = parse(&text, &Limits::default()).unwrap_err();
        assert!(err.message.starts_with("nesting"), "{}", err.message);
    }

    #[test]
    fn a_second_document_is_an_error() {
        let err = parse("a: 1\n---\nb: 2\n", &Limits::default()).unwrap_err();
        assert!(err.message.contains("second YAML document"));
        assert_eq!(err.span.start, 5);
    }

    #[test]
    fn a_trailing_empty_document_is_fine() {
        let doc = load("a: 1\n---\n");
        assert_eq!(doc.root.get("a").unwrap().scalar_text(), Some("1"));
    }

    #[test]
    fn tagged_and_anchored_keys_start_at_their_text() {
        let text = "a:\n  !!str 409: x\n  &k b: y\n";
        let doc = load(text);
        let a = doc.root.get("a").unwrap();
        assert_eq!(slice(text, a.get_entry("409").unwrap().key.span), "409");
        assert_eq!(slice(text, a.get_entry("b").unwrap().key.span), "b");
    }

    #[test]
    fn recursive_aliases_are_named_as_such() {
        let err = parse("a: &a [1, *a]\n", &Limits::default()).unwrap_err();
        assert!(err.message.contains("recursive alias"), "{}", err.message);
    }

    #[test]
    fn aliases_cannot_nest_past_the_depth_limit() {
        let mut text = String::from("a0: &a0 [1]\n");
        for i in 1..40 {
            let inner = format!("*a{}", i - 1);
            let open = "[".repeat(10);
            let close = "]".repeat(10);
            text.push_str(&format!("a{i}: &a{i} {open}{inner}{close}\n"));
        }
        let err = parse(&text, &Limits::default()).unwrap_err();
        assert!(err.message.contains("nesting deeper"), "{}", err.message);
    }

    #[test]
    fn merges_of_large_maps_stay_linear() {
        let keys: Vec<String> = (0..20_000).map(|i| format!("k{i}: {i}")).collect();
        let mut text = format!("base: &b {{{}}}\n", keys.join(", "));
        for i in 0..40 {
            text.push_str(&format!("m{i}:\n  <<: *b\n  k1: over\n"));
        }
        let doc = load(&text);
        assert_eq!(doc.root.get("m39").unwrap().entries().len(), 20_000);
    }

    #[test]
    fn syntax_errors_have_a_position() {
        let err = parse("a: 1\nb: [1, 2\n", &Limits::default()).unwrap_err();
        assert!(err.message.starts_with("invalid YAML"), "{}", err.message);
    }

    #[test]
    fn block_collections_end_at_their_last_child() {
        let text = "a:\n  b: 1\n  c: 2\n\nd: 3\n";
        let doc = load(text);
        assert_eq!(slice(text, doc.root.get("a").unwrap().span), "b: 1\n  c: 2");
    }

    #[test]
    fn a_block_collection_ending_in_an_alias_ends_at_the_alias() {
        let text = "x: &x {a: 1}
op:
  params: [k]
  responses: *x
list:
  - 1
  - *x
";
        let doc = load(text);
        let op = doc.root.get("op").unwrap();
        assert_eq!(&text[op.span.range()], "params: [k]\n  responses: *x");
        let list = doc.root.get("list").unwrap();
        assert_eq!(&text[list.span.range()], "- 1\n  - *x");
    }
}
