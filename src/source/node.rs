//! The document tree every format is loaded into: maps, sequences and scalars, each with the
//! byte span it came from.

use ecow::EcoString;

use super::Span;

/// One node of a loaded YAML or JSON document.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Span,
    pub value: Value,
}

/// Collections are boxed slices, not `Vec`s: a tree is built once and never grown, and the
/// missing capacity word makes every node 8 bytes smaller.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Map(Box<[Entry]>),
    Seq(Box<[Node]>),
    Scalar(Scalar),
}

/// A mapping entry. Duplicate keys are kept in source order so a rule can report them; lookups
/// through [`Node::get`] see the last one, as JSON and most YAML loaders do.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: Key,
    pub value: Node,
}

/// A mapping key: its text as written (`200:` keeps `"200"`, not the integer) and its span.
///
/// Text is an [`EcoString`]: nearly all OpenAPI keys and many scalars fit its 15 inline bytes,
/// which saves an allocation for each of the hundreds of thousands of them in a large spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub text: EcoString,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    pub text: EcoString,
    pub kind: ScalarKind,
}

/// The type a scalar resolves to: JSON's types, or YAML 1.2 core-schema resolution of plain
/// scalars (`true`, `~`, `0x1F`, ...). Quoted and block scalars are always strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarKind {
    Str,
    Int,
    Float,
    Bool,
    Null,
}

impl Node {
    pub fn scalar(span: Span, text: impl Into<EcoString>, kind: ScalarKind) -> Node {
        Node {
            span,
            value: Value::Scalar(Scalar {
                text: text.into(),
                kind,
            }),
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.value {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The text of a string scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(Scalar {
                text,
                kind: ScalarKind::Str,
            }) => Some(text),
            _ => None,
        }
    }

    /// The text of any scalar: `409` is an integer in YAML but a status code to us.
    pub fn scalar_text(&self) -> Option<&str> {
        self.as_scalar().map(|s| &*s.text)
    }

    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Scalar(Scalar {
                text,
                kind: ScalarKind::Bool,
            }) => Some(text.eq_ignore_ascii_case("true")),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(
            &self.value,
            Value::Scalar(Scalar {
                kind: ScalarKind::Null,
                ..
            })
        )
    }

    /// The entry for `key` in a mapping (the last one when the key is duplicated).
    pub fn get_entry(&self, key: &str) -> Option<&Entry> {
        self.as_map()?.iter().rev().find(|e| &*e.key.text == key)
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.get_entry(key).map(|e| &e.value)
    }

    /// Mapping entries, or nothing for any other node.
    pub fn entries(&self) -> &[Entry] {
        self.as_map().unwrap_or(&[])
    }

    /// Sequence items, or nothing for any other node.
    pub fn items(&self) -> &[Node] {
        self.as_seq().unwrap_or(&[])
    }

    /// Levels of collections in this subtree (a scalar is 0).
    pub fn depth(&self) -> usize {
        match &self.value {
            Value::Map(entries) => 1 + entries.iter().map(|e| e.value.depth()).max().unwrap_or(0),
            Value::Seq(items) => 1 + items.iter().map(Node::depth).max().unwrap_or(0),
            Value::Scalar(_) => 0,
        }
    }

    /// Number of nodes in this subtree, keys not counted.
    pub fn count(&self) -> usize {
        match &self.value {
            Value::Map(entries) => 1 + entries.iter().map(|e| e.value.count()).sum::<usize>(),
            Value::Seq(items) => 1 + items.iter().map(Node::count).sum::<usize>(),
            Value::Scalar(_) => 1,
        }
    }
}

/// A key that occurs twice in one mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct DuplicateKey {
    pub key: EcoString,
    pub first: Span,
    pub second: Span,
}

/// Finds repeated keys among `entries` (in source order), pushing each repeat after the first.
pub(crate) fn find_duplicates(entries: &[Entry], out: &mut Vec<DuplicateKey>) {
    if entries.len() < 2 {
        return;
    }
    let mut report = |first: &Entry, second: &Entry| {
        out.push(DuplicateKey {
            key: second.key.text.clone(),
            first: first.key.span,
            second: second.key.span,
        })
    };
    if entries.len() <= 16 {
        for (i, second) in entries.iter().enumerate().skip(1) {
            if let Some(first) = entries[..i].iter().find(|e| e.key.text == second.key.text) {
                report(first, second);
            }
        }
    } else {
        let mut seen = std::collections::HashMap::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            if let Some(&first) = seen.get(&*e.key.text) {
                report(&entries[first], e);
            } else {
                seen.insert(&*e.key.text, i);
            }
        }
    }
}
