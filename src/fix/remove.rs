//! Edits that take an entry out of a mapping, or an item out of a sequence, leaving the rest as
//! written: a block entry goes with its lines, a flow or JSON member with one comma.

use crate::source::{Node, Span};

/// The range to delete so that `map` (a mapping of `text`) loses its entry at `index`. `None`
/// when there is no such entry, or when it is the mapping's only entry in block style (the
/// mapping would become a null).
pub fn entry(text: &str, map: &Node, index: usize) -> Option<Span> {
    let entries = map.as_map()?;
    let spans: Vec<(usize, usize)> = entries
        .iter()
        .map(|e| {
            let end = e.value.span.end.max(e.key.span.end);
            (e.key.span.start as usize, end as usize)
        })
        .collect();
    if !super::insert::written_in_order(&spans, map) {
        return None;
    }
    member(text, map, &spans, index, b'{', b'}')
}

/// The range to delete so that `seq` loses its item at `index` (see [`entry`]).
pub fn item(text: &str, seq: &Node, index: usize) -> Option<Span> {
    let items = seq.as_seq()?;
    let flow = text.as_bytes().get(seq.span.start as usize) == Some(&b'[');
    let mut spans: Vec<(usize, usize)> = items
        .iter()
        .map(|i| (i.span.start as usize, i.span.end as usize))
        .collect();
    if !super::insert::written_in_order(&spans, seq) {
        return None;
    }
    if !flow {
        // A block item starts at its dash.
        for s in &mut spans {
            let before = text[..s.0].trim_end_matches([' ', '\t']);
            if !before.ends_with('-') {
                return None;
            }
            s.0 = before.len() - 1;
        }
    }
    member(text, seq, &spans, index, b'[', b']')
}

fn member(
    text: &str,
    node: &Node,
    spans: &[(usize, usize)],
    index: usize,
    open: u8,
    close: u8,
) -> Option<Span> {
    let &(start, end) = spans.get(index)?;
    let end = super::insert::end_of_text(text, end);
    let flow = text.as_bytes().get(node.span.start as usize) == Some(&open);
    if flow {
        let inner_start = node.span.start as usize + 1;
        let close_at = text[..node.span.end as usize].rfind(char::from(close))?;
        return Some(if spans.len() == 1 {
            // `{a: 1}` → `{}`, whatever spacing or lines were inside.
            Span::new(inner_start, close_at)
        } else if index + 1 < spans.len() {
            // From this member to the next: its comma and the space before the next go too.
            Span::new(start, spans[index + 1].0)
        } else {
            // The last: from the end of the one before, taking the comma before it.
            Span::new(spans[index - 1].1, end)
        });
    }
    if spans.len() == 1 {
        // The only member of a block collection: without it the collection would be a null.
        return None;
    }
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let starts_line = text[line_start..start]
        .bytes()
        .all(|b| b == b' ' || b == b'\t');
    if starts_line {
        // Its lines, through the line end after it (a comment at the end of its last line
        // goes with it).
        let through = if end > 0 && text.as_bytes()[end - 1] == b'\n' {
            end
        } else {
            text[end..].find('\n').map_or(text.len(), |i| end + i + 1)
        };
        return Some(Span::new(line_start, through));
    }
    // After a `- ` (the first key of a sequence item's mapping): the next entry moves up in its
    // place; an only entry cannot go.
    let next = spans.get(index + 1)?;
    Some(Span::new(start, next.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::source::{Format, SourceFile};

    fn removed(text: &str, at: &[&str], key: &str) -> String {
        let format = if text.starts_with('{') {
            Format::Json
        } else {
            Format::Yaml
        };
        let parse = |t: &str| {
            SourceFile::new("t".into(), "t".into(), t.to_string(), format)
                .parse(&Limits::default())
                .expect("parses")
                .root
        };
        let root = parse(text);
        let mut node = &root;
        for k in at {
            node = node.get(k).or_else(|| node.items().first()).expect("there");
        }
        let index = node
            .entries()
            .iter()
            .position(|e| &*e.key.text == key)
            .expect("the key is there");
        let span = entry(text, node, index).expect("removable");
        let mut out = text.to_string();
        out.replace_range(span.start as usize..span.end as usize, "");
        let mut node = parse(&out);
        for k in at {
            node = node
                .get(k)
                .or_else(|| node.items().first())
                .unwrap()
                .clone();
        }
        assert!(node.get(key).is_none(), "{out}");
        out
    }

    #[test]
    fn a_block_entry_goes_with_its_lines() {
        let text = "p:\n  name: k\n  default: abc  # fixed\n  enum:\n    - a\n    - b\n  in: h\n";
        assert_eq!(
            removed(text, &["p"], "default"),
            "p:\n  name: k\n  enum:\n    - a\n    - b\n  in: h\n"
        );
        assert_eq!(
            removed(text, &["p"], "enum"),
            "p:\n  name: k\n  default: abc  # fixed\n  in: h\n"
        );
        let crlf = "p:\r\n  a: 1\r\n  b: 2";
        assert_eq!(removed(crlf, &["p"], "b"), "p:\r\n  a: 1\r\n");
    }

    #[test]
    fn the_first_key_of_an_item_gives_its_place_to_the_next() {
        let text = "ps:\n  - default: x\n    name: k\n";
        assert_eq!(removed(text, &["ps", "0"], "default"), "ps:\n  - name: k\n");
    }

    #[test]
    fn flow_and_json_members_go_with_one_comma() {
        assert_eq!(removed("p: {a: 1, b: 2}\n", &["p"], "a"), "p: {b: 2}\n");
        assert_eq!(removed("p: {a: 1, b: 2}\n", &["p"], "b"), "p: {a: 1}\n");
        assert_eq!(removed("p: {a: 1}\n", &["p"], "a"), "p: {}\n");
        let json = "{\n  \"p\": {\n    \"a\": 1,\n    \"b\": 2\n  }\n}\n";
        assert_eq!(
            removed(json, &["p"], "b"),
            "{\n  \"p\": {\n    \"a\": 1\n  }\n}\n"
        );
        assert_eq!(
            removed(json, &["p"], "a"),
            "{\n  \"p\": {\n    \"b\": 2\n  }\n}\n"
        );
    }
}
