//! How a file is written, so that what a fix inserts reads as if its author had written it: line
//! ends, a final newline, the indentation unit, whether a block sequence is indented under its
//! key or flush with it, how status keys are quoted, and JSON's indentation and spacing. Sniffed
//! from the text alone (cheap on a 50 MB file: one pass over its lines), never from a parse,
//! since a fix must match the bytes around it rather than what they mean.

/// The line end a file uses most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnd {
    Lf,
    CrLf,
}

impl LineEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnd::Lf => "\n",
            LineEnd::CrLf => "\r\n",
        }
    }
}

/// How a YAML file writes a status key: `'409':`, `"409":` or `409:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyQuote {
    Single,
    Double,
    Bare,
}

impl KeyQuote {
    /// `status` written this way.
    pub fn write(self, status: &str) -> String {
        match self {
            KeyQuote::Single => format!("'{status}'"),
            KeyQuote::Double => format!("\"{status}\""),
            KeyQuote::Bare => status.to_string(),
        }
    }
}

/// A file's style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    pub line_end: LineEnd,
    /// Whether the file ends with a line end.
    pub final_newline: bool,
    /// The indentation unit: what one level of nesting adds (spaces; a JSON file may use tabs).
    pub indent: String,
    /// YAML: whether a block sequence's `- ` is indented one unit under its key (`key:\n  - a`)
    /// rather than flush with it (`key:\n- a`).
    pub sequence_indented: bool,
    /// YAML: how response status keys are quoted.
    pub status_keys: KeyQuote,
    /// JSON: whether a colon is followed by a space (`"a": 1` rather than `"a":1`).
    pub space_after_colon: bool,
    /// JSON: whether a colon is preceded by a space too (`"a" : 1`).
    pub space_before_colon: bool,
}

impl Style {
    /// The colon between a JSON member's name and its value, spaced as the file spaces it.
    pub fn json_colon(&self) -> &'static str {
        match (self.space_before_colon, self.space_after_colon) {
            (true, true) => " : ",
            (true, false) => " :",
            (false, true) => ": ",
            (false, false) => ":",
        }
    }
}

impl Default for Style {
    /// What a file too small to tell is written in: two spaces, indented sequences, quoted
    /// status keys (YAML reads a bare `409` as a number), `\n`.
    fn default() -> Self {
        Style {
            line_end: LineEnd::Lf,
            final_newline: true,
            indent: "  ".to_string(),
            sequence_indented: true,
            status_keys: KeyQuote::Single,
            space_after_colon: true,
            space_before_colon: false,
        }
    }
}

/// The style of `text`, a YAML (`json` false) or JSON document.
pub fn sniff(text: &str, json: bool) -> Style {
    let mut style = Style::default();
    // (Counted with `memchr`: a large spec is megabytes, sniffed again by every pass of `--fix`.)
    let crlf = memchr::memmem::find_iter(text.as_bytes(), b"\r\n").count();
    let lf = memchr::memchr_iter(b'\n', text.as_bytes()).count() - crlf;
    if crlf > lf {
        style.line_end = LineEnd::CrLf;
    }
    style.final_newline = text.is_empty() || text.ends_with('\n');

    // Indentation: the most common step between a line and the deeper line after it.
    let mut steps: Vec<(String, usize)> = Vec::new();
    let mut sequences = (0usize, 0usize); // (flush, indented)
    let mut quotes = [0usize; 3]; // single, double, bare
    let mut previous: Option<(usize, &str)> = None;
    let mut colons = (0usize, 0usize); // (with a space, without)
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len()));
    for end in ends {
        let line = &text[start..end];
        start = end + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        let body = line.trim_start_matches([' ', '\t']);
        if body.is_empty() || (!json && body.starts_with('#')) {
            continue;
        }
        let depth = line.len() - body.len();
        if let Some((before, before_body)) = previous {
            if depth > before {
                let step = line[before..depth].to_string();
                match steps.iter_mut().find(|(s, _)| *s == step) {
                    Some((_, n)) => *n += 1,
                    None => steps.push((step, 1)),
                }
            }
            // `key:` then `- item`: flush or indented.
            if !json && before_body.ends_with(':') && body.starts_with("- ") {
                if depth == before {
                    sequences.0 += 1;
                } else if depth > before {
                    sequences.1 += 1;
                }
            }
        }
        if !json {
            if let Some(kind) = status_key(body) {
                quotes[kind as usize] += 1;
            }
        } else if let Some(at) = json_key_end(body) {
            // (`"key" : value`, Adyen's JSON: spaced on both sides.)
            let spaced_before = body[at + 1..].starts_with(' ');
            style.space_before_colon |= spaced_before;
            let after = at + if spaced_before { 3 } else { 2 };
            match body[after..].chars().next() {
                Some(' ') => colons.0 += 1,
                Some(_) => colons.1 += 1,
                None => {}
            }
        }
        previous = Some((depth, body));
    }
    // The smallest common step wins ties: a file indented by 2 has steps of 4 where it skips a
    // level, never the other way round.
    steps.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.len().cmp(&b.0.len())));
    if let Some((step, _)) = steps.first() {
        style.indent = step.clone();
    }
    if sequences.0 > sequences.1 {
        style.sequence_indented = false;
    }
    let [single, double, bare] = quotes;
    style.status_keys = if bare > single && bare > double {
        KeyQuote::Bare
    } else if double > single {
        KeyQuote::Double
    } else {
        KeyQuote::Single
    };
    style.space_after_colon = colons.1 <= colons.0;
    style
}

/// Where the key of a JSON line (`"key": value`, `"key" : value`) ends: its closing quote.
fn json_key_end(body: &str) -> Option<usize> {
    let bytes = body.as_bytes();
    memchr::memchr_iter(b':', bytes).find_map(|colon| match bytes[..colon] {
        [.., b'"'] => Some(colon - 1),
        [.., b'"', b' '] => Some(colon - 2),
        _ => None,
    })
}

/// How a YAML line's key is written when it is a status (`'409':`, `"2XX":`, `201:`).
fn status_key(body: &str) -> Option<KeyQuote> {
    let (quote, rest) = match body.as_bytes().first()? {
        b'\'' => (KeyQuote::Single, &body[1..]),
        b'"' => (KeyQuote::Double, &body[1..]),
        _ => (KeyQuote::Bare, body),
    };
    let code = rest.get(..3)?;
    let is_status = code.as_bytes()[0].is_ascii_digit()
        && (b'1'..=b'5').contains(&code.as_bytes()[0])
        && code[1..]
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'X' || b == b'x');
    if !is_status {
        return None;
    }
    let after = &rest[3..];
    let closed = match quote {
        KeyQuote::Single => after.strip_prefix('\''),
        KeyQuote::Double => after.strip_prefix('"'),
        KeyQuote::Bare => Some(after),
    }?;
    closed.starts_with(':').then_some(quote)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yaml_file_of_four_spaces_flush_sequences_and_bare_statuses() {
        let text = "openapi: 3.0.3\r\npaths:\r\n    /a:\r\n        post:\r\n            \
                    parameters:\r\n            - name: x\r\n              in: query\r\n            \
                    responses:\r\n                201:\r\n                    description: ok\r\n                \
                    409:\r\n                    description: busy\r\n";
        let style = sniff(text, false);
        assert_eq!(style.line_end, LineEnd::CrLf);
        assert!(style.final_newline);
        assert_eq!(style.indent, "    ");
        assert!(!style.sequence_indented);
        assert_eq!(style.status_keys, KeyQuote::Bare);
    }

    #[test]
    fn a_yaml_file_of_two_spaces_indented_sequences_and_quoted_statuses() {
        let text = "# a comment at     odd indentation\npaths:\n  /a:\n    post:\n      \
                    tags:\n        - a\n      responses:\n        \"201\": {description: ok}\n        \
                    '400': {description: bad}\n        \"409\": {description: busy}";
        let style = sniff(text, false);
        assert_eq!(style.line_end, LineEnd::Lf);
        assert!(!style.final_newline);
        assert_eq!(style.indent, "  ");
        assert!(style.sequence_indented);
        assert_eq!(style.status_keys, KeyQuote::Double);
        assert_eq!(style.status_keys.write("422"), "\"422\"");
    }

    #[test]
    fn json_indentation_and_colons() {
        let tabs = "{\n\t\"openapi\":\"3.0.3\",\n\t\"paths\":{\n\t\t\"/a\":{}\n\t}\n}\n";
        let style = sniff(tabs, true);
        assert_eq!(style.indent, "\t");
        assert!(!style.space_after_colon);
        let spaced =
            "{\n    \"openapi\": \"3.0.3\",\n    \"paths\": {\n        \"/a\": {}\n    }\n}";
        let style = sniff(spaced, true);
        assert_eq!(style.indent, "    ");
        assert!(style.space_after_colon);
        assert_eq!(style.json_colon(), ": ");
        let adyen = "{\n  \"openapi\" : \"3.1.0\",\n  \"paths\" : {\n    \"/a\" : {}\n  }\n}\n";
        assert_eq!(sniff(adyen, true).json_colon(), " : ");
        assert!(!style.final_newline);
    }

    #[test]
    fn a_file_too_small_to_tell_gets_the_defaults() {
        assert_eq!(sniff("openapi: 3.1.0\n", false), Style::default());
        assert_eq!(sniff("", false), Style::default());
        // Status-like text that is no key is no evidence.
        assert_eq!(status_key("409 Conflict: busy"), None);
        assert_eq!(status_key("'409: x"), None);
        assert_eq!(status_key("4XX:"), Some(KeyQuote::Bare));
        assert_eq!(status_key("600:"), None);
    }
}
