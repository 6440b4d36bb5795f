//! JSON → [`Node`] tree, strict RFC 8259: no comments, trailing commas, single quotes or other
//! JSON5 extensions, so what loads here loads in any JSON parser.
//!
//! Our own parser rather than a general-purpose crate for three reasons: it builds our span tree
//! in one pass (no intermediate AST to convert), it keeps its nesting on the heap (so
//! `--max-depth` can be raised without a fixed ceiling in the parser), and it names the JSON5
//! habit it refuses ("comments are not allowed in JSON").

use memchr::memchr3;

use super::node::{Entry, Key, Node, ScalarKind, Value, find_duplicates};
use super::{LoadError, Loaded, Span};
use crate::limits::Limits;

pub fn parse(text: &str, limits: &Limits) -> Result<Loaded, LoadError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
    };
    let mut stack: Vec<Frame> = Vec::new();
    // The children of every open collection, innermost last. A closing bracket moves its
    // collection's children out into one exactly sized allocation: no per-collection vector
    // that grows by doubling and is then shrunk, which both costs time and fragments the heap.
    let mut entries: Vec<Entry> = Vec::new();
    let mut items: Vec<Node> = Vec::new();
    let mut duplicates = Vec::new();
    p.skip_space()?;
    if p.pos == p.bytes.len() {
        return Err(LoadError::new(
            Span::empty_at(0),
            "empty document: no JSON value".to_string(),
        ));
    }
    loop {
        // A value starts here.
        p.skip_space()?;
        let start = p.pos;
        let mut node = match p.peek() {
            Some(open @ (b'{' | b'[')) => {
                if stack.len() >= limits.max_depth {
                    return Err(LoadError::new(
                        Span::new(start, start + 1),
                        format!(
                            "nesting deeper than {} levels (raise the limit with --max-depth)",
                            limits.max_depth
                        ),
                    ));
                }
                p.pos += 1;
                p.skip_space()?;
                let close = if open == b'{' { b'}' } else { b']' };
                if p.peek() == Some(close) {
                    p.pos += 1;
                    let value = if open == b'{' {
                        Value::Map(Box::default())
                    } else {
                        Value::Seq(Box::default())
                    };
                    Node {
                        span: Span::new(start, p.pos),
                        value,
                    }
                } else if open == b'{' {
                    let key = p.key()?;
                    stack.push(Frame::Map {
                        start,
                        base: entries.len(),
                        key: Some(key),
                    });
                    continue;
                } else {
                    stack.push(Frame::Seq {
                        start,
                        base: items.len(),
                    });
                    continue;
                }
            }
            Some(b'"') => {
                let text = p.string()?;
                Node::scalar(Span::new(start, p.pos), text, ScalarKind::Str)
            }
            Some(b'-' | b'0'..=b'9') => {
                let kind = p.number()?;
                Node::scalar(Span::new(start, p.pos), &text[start..p.pos], kind)
            }
            Some(b't') => p.literal("true", ScalarKind::Bool)?,
            Some(b'f') => p.literal("false", ScalarKind::Bool)?,
            Some(b'n') => p.literal("null", ScalarKind::Null)?,
            Some(b'\'') => return Err(p.error(start, "strings must be in double quotes")),
            Some(b) if b == b']' || b == b'}' => {
                return Err(p.error(start, &format!("expected a value, found `{}`", b as char)));
            }
            Some(_) => {
                let c = text[start..].chars().next().unwrap_or('?');
                return Err(p.error(start, &format!("expected a value, found `{c}`")));
            }
            None => return Err(p.error(start, "unexpected end of file: expected a value")),
        };
        // The value is complete: hand it to its parent, closing every collection that ends here.
        loop {
            p.skip_space()?;
            match stack.last_mut() {
                None => {
                    if p.pos < p.bytes.len() {
                        return Err(p.error(p.pos, "text after the JSON value"));
                    }
                    return Ok(Loaded {
                        root: node,
                        duplicates,
                    });
                }
                Some(Frame::Map { key, .. }) => {
                    let key = key.take().expect("a key precedes each value");
                    entries.push(Entry { key, value: node });
                    match p.peek() {
                        Some(b',') => {
                            let comma = p.pos;
                            p.pos += 1;
                            p.skip_space()?;
                            if p.peek() == Some(b'}') {
                                return Err(p.error(comma, "trailing comma before `}`"));
                            }
                            let next = p.key()?;
                            if let Some(Frame::Map { key, .. }) = stack.last_mut() {
                                *key = Some(next);
                            }
                            break;
                        }
                        Some(b'}') => {
                            p.pos += 1;
                            let Some(Frame::Map { start, base, .. }) = stack.pop() else {
                                unreachable!("the top frame is a map");
                            };
                            find_duplicates(&entries[base..], &mut duplicates);
                            node = Node {
                                span: Span::new(start, p.pos),
                                value: Value::Map(entries.drain(base..).collect()),
                            };
                        }
                        _ => return Err(p.expected_comma_or('}')),
                    }
                }
                Some(Frame::Seq { .. }) => {
                    items.push(node);
                    match p.peek() {
                        Some(b',') => {
                            let comma = p.pos;
                            p.pos += 1;
                            p.skip_space()?;
                            if p.peek() == Some(b']') {
                                return Err(p.error(comma, "trailing comma before `]`"));
                            }
                            break;
                        }
                        Some(b']') => {
                            p.pos += 1;
                            let Some(Frame::Seq { start, base }) = stack.pop() else {
                                unreachable!("the top frame is a sequence");
                            };
                            node = Node {
                                span: Span::new(start, p.pos),
                                value: Value::Seq(items.drain(base..).collect()),
                            };
                        }
                        _ => return Err(p.expected_comma_or(']')),
                    }
                }
            }
        }
    }
}

/// An open collection. Its children so far are the parser's shared `entries` or `items` from
/// `base` on.
enum Frame {
    Map {
        start: usize,
        base: usize,
        /// The key whose value is being parsed.
        key: Option<Key>,
    },
    Seq {
        start: usize,
        base: usize,
    },
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn error(&self, at: usize, message: &str) -> LoadError {
        let end = (at + 1).min(self.bytes.len()).max(at);
        LoadError::new(Span::new(at, end), format!("invalid JSON: {message}"))
    }

    /// "expected `,` or `}`, found `x`": what may follow an item of an open collection.
    fn expected_comma_or(&self, close: char) -> LoadError {
        let (a, b) = (',', close);
        match self.text[self.pos..].chars().next() {
            Some(c) => self.error(self.pos, &format!("expected `{a}` or `{b}`, found `{c}`")),
            None => self.error(
                self.pos,
                &format!("unexpected end of file: expected `{a}` or `{b}`"),
            ),
        }
    }

    /// Skips JSON whitespace; a comment is an error, named as such.
    fn skip_space(&mut self) -> Result<(), LoadError> {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if matches!(self.bytes.get(self.pos + 1), Some(b'/' | b'*')) => {
                    return Err(self.error(self.pos, "comments are not allowed in JSON"));
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// A property name and the `:` after it.
    fn key(&mut self) -> Result<Key, LoadError> {
        let start = self.pos;
        match self.peek() {
            Some(b'"') => {}
            Some(b'\'') => return Err(self.error(start, "property names must be in double quotes")),
            Some(_) => {
                return Err(self.error(
                    start,
                    "expected a property name in double quotes (JSON has no unquoted keys)",
                ));
            }
            None => {
                return Err(self.error(start, "unexpected end of file: expected a property name"));
            }
        }
        let text = self.string()?;
        let span = Span::new(start, self.pos);
        self.skip_space()?;
        match self.peek() {
            Some(b':') => {}
            Some(_) => return Err(self.error(self.pos, "expected `:` after the property name")),
            None => {
                return Err(self.error(self.pos, "unexpected end of file: expected `:`"));
            }
        }
        self.pos += 1;
        Ok(Key {
            span,
            text: text.into(),
        })
    }

    /// The string starting at the `"` under the cursor, unescaped.
    fn string(&mut self) -> Result<String, LoadError> {
        let open = self.pos;
        self.pos += 1;
        let mut out: Option<String> = None;
        let mut run = self.pos;
        loop {
            let rest = &self.bytes[self.pos..];
            // Control characters end a clean run too: they must be reported.
            let stop = memchr3(b'"', b'\\', b'\n', rest)
                .map(|i| self.pos + i)
                .unwrap_or(self.bytes.len());
            if let Some(c) = self.bytes[self.pos..stop].iter().position(|&b| b < 0x20) {
                let at = self.pos + c;
                return Err(self.control(at));
            }
            self.pos = stop;
            match self.peek() {
                Some(b'"') => {
                    let tail = &self.text[run..self.pos];
                    self.pos += 1;
                    return Ok(match out {
                        Some(mut s) => {
                            s.push_str(tail);
                            s
                        }
                        None => tail.to_string(),
                    });
                }
                Some(b'\\') => {
                    let s = out.get_or_insert_with(String::new);
                    s.push_str(&self.text[run..self.pos]);
                    let c = self.escape()?;
                    out.as_mut().expect("set above").push(c);
                    run = self.pos;
                }
                Some(_) => return Err(self.control(self.pos)),
                None => {
                    return Err(self.error(open, "string not closed before the end of the file"));
                }
            }
        }
    }

    fn control(&self, at: usize) -> LoadError {
        self.error(
            at,
            &format!(
                "control character U+{:04X} in a string must be escaped",
                self.bytes[at]
            ),
        )
    }

    /// The escape at the backslash under the cursor.
    fn escape(&mut self) -> Result<char, LoadError> {
        let at = self.pos;
        let c = match self.bytes.get(at + 1) {
            None => return Err(self.error(at, "string not closed before the end of the file")),
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let high = self
                    .hex4(at + 2)
                    .ok_or_else(|| self.error(at, "invalid \\u escape"))?;
                self.pos = at + 6;
                if (0xD800..0xDC00).contains(&high)
                    && self.bytes.get(self.pos) == Some(&b'\\')
                    && self.bytes.get(self.pos + 1) == Some(&b'u')
                    && let Some(low) = self.hex4(self.pos + 2)
                    && (0xDC00..0xE000).contains(&low)
                {
                    self.pos += 6;
                    let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    return Ok(char::from_u32(code).unwrap_or('\u{FFFD}'));
                }
                // A lone surrogate is valid JSON but no character: kept as U+FFFD.
                return Ok(char::from_u32(high).unwrap_or('\u{FFFD}'));
            }
            _ => {
                let shown = self.text[at..].chars().nth(1).unwrap_or(' ');
                return Err(self.error(at, &format!("invalid escape `\\{shown}`")));
            }
        };
        self.pos = at + 2;
        Ok(c)
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.bytes.get(at..at + 4)?;
        let s = std::str::from_utf8(digits).ok()?;
        if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(s, 16).ok()
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, and whether it is an integer.
    fn number(&mut self) -> Result<ScalarKind, LoadError> {
        let start = self.pos;
        let bad = |p: &Self| p.error(start, &format!("invalid number `{}`", p.token_at(start)));
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    return Err(bad(self));
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(bad(self)),
        }
        let mut kind = ScalarKind::Int;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(bad(self));
            }
            self.digits();
            kind = ScalarKind::Float;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(bad(self));
            }
            self.digits();
            kind = ScalarKind::Float;
        }
        if self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')
        {
            return Err(bad(self));
        }
        Ok(kind)
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    /// The word or number at `at`, for messages.
    fn token_at(&self, at: usize) -> &str {
        let end = self.text[at..]
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '+' | '_')))
            .map_or(self.text.len(), |i| at + i);
        let end = end.min(at + 40);
        let end = (end..=self.text.len())
            .find(|&i| self.text.is_char_boundary(i))
            .unwrap_or(self.text.len());
        &self.text[at..end.max(at)]
    }

    fn literal(&mut self, word: &str, kind: ScalarKind) -> Result<Node, LoadError> {
        let start = self.pos;
        let end = start + word.len();
        let followed = self
            .bytes
            .get(end)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if self.bytes.get(start..end) != Some(word.as_bytes()) || followed {
            let found = self.token_at(start);
            return Err(self.error(start, &format!("expected a value, found `{found}`")));
        }
        self.pos = end;
        Ok(Node::scalar(Span::new(start, end), word, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Loaded, LoadError> {
        super::parse(text, &Limits::default())
    }

    fn message(text: &str) -> (usize, String) {
        let e = parse(text).unwrap_err();
        (e.span.start as usize, e.message)
    }

    #[test]
    fn keys_and_values_carry_byte_spans() {
        let text = "{\"openapi\": \"3.0.0\", \"paths\": {\"/a\": {\"post\": {}}}}";
        let doc = parse(text).unwrap();
        let post = doc.root.get("paths").unwrap().get("/a").unwrap();
        let entry = post.get_entry("post").unwrap();
        assert_eq!(&text[entry.key.span.range()], "\"post\"");
        assert_eq!(&text[entry.value.span.range()], "{}");
        assert_eq!(&text[doc.root.span.range()], text);
    }

    #[test]
    fn spans_are_bytes_after_multibyte_text() {
        let text = "{\"title\": \"Grüße ✓\", \"paths\": 1}";
        let doc = parse(text).unwrap();
        let paths = doc.root.get_entry("paths").unwrap();
        assert_eq!(&text[paths.key.span.range()], "\"paths\"");
        assert_eq!(doc.root.get("title").unwrap().as_str(), Some("Grüße ✓"));
    }

    #[test]
    fn scalars_have_json_types_and_text() {
        let doc = parse(r#"[1, -0.5, 2e3, true, false, null, "x", -0]"#).unwrap();
        let kinds: Vec<_> = doc
            .root
            .items()
            .iter()
            .map(|n| {
                let s = n.as_scalar().unwrap();
                (s.kind, s.text.to_string())
            })
            .collect();
        use ScalarKind::*;
        let want = [
            (Int, "1"),
            (Float, "-0.5"),
            (Float, "2e3"),
            (Bool, "true"),
            (Bool, "false"),
            (Null, "null"),
            (Str, "x"),
            (Int, "-0"),
        ];
        assert_eq!(
            kinds,
            want.iter()
                .map(|(k, t)| (*k, t.to_string()))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn escapes_are_decoded() {
        let doc = parse(r#"{"a\"b": "\\ \/ \b\f\n\r\t \u00e9 \ud83d\ude00 \ud800"}"#).unwrap();
        let e = &doc.root.entries()[0];
        assert_eq!(&*e.key.text, "a\"b");
        assert_eq!(
            e.value.as_str(),
            Some("\\ / \u{8}\u{c}\n\r\t é 😀 \u{FFFD}")
        );
    }

    #[test]
    fn json5_extensions_are_refused_with_their_names() {
        for (bad, at, said) in [
            ("{a: 1}", 1, "property name in double quotes"),
            ("{\"a\": 1,}", 7, "trailing comma before `}`"),
            ("[1,\n]", 2, "trailing comma before `]`"),
            ("// c\n{}", 0, "comments are not allowed"),
            ("{\"a\": /* c */ 1}", 6, "comments are not allowed"),
            ("{\"a\": 'x'}", 6, "strings must be in double quotes"),
            ("{'a': 1}", 1, "property names must be in double quotes"),
            ("{\"a\": 0x1}", 6, "invalid number `0x1`"),
            ("[01]", 1, "invalid number `01`"),
            ("[1.]", 1, "invalid number"),
            ("[+1]", 1, "expected a value, found `+`"),
            ("[NaN]", 1, "expected a value, found `N`"),
            ("[tru]", 1, "expected a value, found `tru`"),
            ("[true_]", 1, "expected a value, found `true_`"),
            ("[1_000]", 1, "invalid number `1_000`"),
            ("[\"\\", 2, "string not closed"),
            ("{\"a\"", 4, "unexpected end of file: expected `:`"),
            ("{\"a\" 1}", 5, "expected `:`"),
            ("{\"a\": 1 \"b\": 2}", 8, "expected `,` or `}`, found `\"`"),
            ("[1 2]", 3, "expected `,` or `]`, found `2`"),
            ("{} {}", 3, "text after the JSON value"),
            ("[\"a\tb\"]", 3, "control character U+0009"),
            ("[\"a\nb\"]", 3, "control character U+000A"),
            ("[\"\\x\"]", 2, "invalid escape `\\x`"),
            ("[\"\\u12\"]", 2, "invalid \\u escape"),
            ("[\"abc", 1, "string not closed"),
            ("{\"a\": ", 6, "unexpected end of file"),
            ("[", 1, "unexpected end of file"),
            ("  ", 0, "empty document"),
        ] {
            let (pos, msg) = message(bad);
            assert!(msg.contains(said), "{bad:?}: {msg}");
            assert_eq!(pos, at, "{bad:?}: {msg}");
        }
    }

    #[test]
    fn duplicate_keys_are_recorded() {
        let doc = parse("{\"a\": 1, \"a\": 2}").unwrap();
        assert_eq!(doc.duplicates.len(), 1);
        assert_eq!(doc.root.get("a").unwrap().scalar_text(), Some("2"));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed_and_the_limit_can_be_raised() {
        let text = format!("{}{}", "[".repeat(400), "]".repeat(400));
        let (pos, msg) = message(&text);
        assert_eq!(pos, 256);
        assert!(msg.contains("nesting deeper than 256 levels"), "{msg}");
        let raised = Limits {
            max_depth: 400,
            ..Limits::default()
        };
        assert!(super::parse(&text, &raised).is_ok());
    }
}
