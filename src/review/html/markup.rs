//! Text into HTML: escaping, the answers' Markdown code spans, and links to the spec.

/// Text for an element's content or a double-quoted attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// An answer's text, whose Markdown code spans (`` `x-idempotency: false` ``) become `<code>`:
/// the review writes its answers once, for Markdown, and a page must not show the backticks.
/// Spans follow CommonMark: a run of backticks closes at the next run of the same length, and
/// a backtick with no partner is the text's own.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        out.push_str(&escape(&rest[..open]));
        let run = rest[open..].bytes().take_while(|&b| b == b'`').count();
        let after = &rest[open + run..];
        match closing(after, run) {
            Some(close) => {
                out.push_str("<code>");
                out.push_str(&escape(strip_one_space(&after[..close])));
                out.push_str("</code>");
                rest = &after[close + run..];
            }
            None => {
                out.push_str(&rest[open..open + run]);
                rest = after;
            }
        }
    }
    out.push_str(&escape(rest));
    out
}

/// Where a run of exactly `run` backticks starts in `s`.
fn closing(s: &str, run: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let n = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            if n == run {
                return Some(i);
            }
            i += n;
        } else {
            i += 1;
        }
    }
    None
}

/// CommonMark drops one space on each side of a code span that has both (`` `` `a` `` ``).
fn strip_one_space(s: &str) -> &str {
    match s.strip_prefix(' ').and_then(|s| s.strip_suffix(' ')) {
        Some(inner) if !inner.trim().is_empty() => inner,
        _ => s,
    }
}

/// Where a cited `file:line:col` links to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Links {
    /// A source browser's address for the reviewed tree, `https://github.com/o/r/blob/SHA/`;
    /// `None` links to the files beside the page.
    base: Option<String>,
}

impl Links {
    /// Links relative to the page: `api.yaml#L12`, for a page written beside the spec.
    pub fn relative() -> Links {
        Links { base: None }
    }

    /// Links under a source browser's address: `<base><file>#L<line>`.
    pub fn under(base: impl Into<String>) -> Links {
        let mut base = base.into();
        if !base.is_empty() && !base.ends_with('/') {
            base.push('/');
        }
        Links { base: Some(base) }
    }

    /// The address of a file, at a line when there is one.
    pub fn href(&self, file: &str, line: Option<u32>) -> String {
        let path = file.replace('\\', "/");
        let path = path.strip_prefix("./").unwrap_or(&path);
        let mut out = self.base.clone().unwrap_or_default();
        out.push_str(&percent_encode(path));
        if let Some(line) = line {
            out.push_str(&format!("#L{line}"));
        }
        out
    }
}

/// A path as a URL path: what a URL cannot hold as it is (`#`, `?`, `%`, spaces, non-ASCII) is
/// escaped, so a file named `a#b.yaml` is not read as `a` with a fragment.
fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A place as the review writes it, `file:line:col`, split; a file alone has no line.
pub fn split_place(at: &str) -> (&str, Option<u32>) {
    let mut parts = at.rsplitn(3, ':');
    let (col, line, file) = (parts.next(), parts.next(), parts.next());
    match (file, line.and_then(|l| l.parse().ok()), col) {
        (Some(file), Some(line), Some(col)) if col.parse::<u32>().is_ok() && !file.is_empty() => {
            (file, Some(line))
        }
        _ => (at, None),
    }
}

/// A cited place as a link reading `file.yaml:12` (the folders are in its title, the whole
/// path in every cell would crowd the table).
pub fn place_link(at: &str, links: &Links) -> String {
    let (file, line) = split_place(at);
    format!(
        "<a class=\"at\" href=\"{}\" title=\"{}\">{}</a>",
        escape(&links.href(file, line)),
        escape(at),
        escape(&short_place(file, line)),
    )
}

/// A place cited at the base of a change: the page's links address the tree after it, so it is
/// named, not linked.
pub fn place_text(at: &str) -> String {
    let (file, line) = split_place(at);
    format!(
        "<span class=\"at\" title=\"{} (at the base)\">{}</span>",
        escape(at),
        escape(&short_place(file, line))
    )
}

fn short_place(file: &str, line: Option<u32>) -> String {
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match line {
        Some(line) => format!("{name}:{line}"),
        None => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_become_code_and_the_rest_is_escaped() {
        assert_eq!(
            inline("declared harmless (`x-idempotency: false`)"),
            "declared harmless (<code>x-idempotency: false</code>)"
        );
        assert_eq!(
            inline("enum value `add_balance` of `action` <b>"),
            "enum value <code>add_balance</code> of <code>action</code> &lt;b&gt;"
        );
        // A double run holds a single backtick; a lone one is the text's own.
        assert_eq!(inline("`` a`b `` and `"), "<code>a`b</code> and `");
        assert_eq!(inline("no code"), "no code");
    }

    #[test]
    fn places_link_to_their_line_relatively_or_under_a_base() {
        assert_eq!(
            split_place("specs/api.yaml:12:5"),
            ("specs/api.yaml", Some(12))
        );
        assert_eq!(split_place("C:\\a.yaml:3:1"), ("C:\\a.yaml", Some(3)));
        assert_eq!(split_place("specs/api.yaml"), ("specs/api.yaml", None));
        assert_eq!(
            Links::relative().href("./specs/a b#1.yaml", Some(4)),
            "specs/a%20b%231.yaml#L4"
        );
        assert_eq!(
            Links::under("https://github.com/o/r/blob/abc").href("specs/api.yaml", Some(12)),
            "https://github.com/o/r/blob/abc/specs/api.yaml#L12"
        );
        assert_eq!(
            place_link("specs/api.yaml:12:5", &Links::relative()),
            "<a class=\"at\" href=\"specs/api.yaml#L12\" title=\"specs/api.yaml:12:5\">api.yaml:12</a>"
        );
    }
}
