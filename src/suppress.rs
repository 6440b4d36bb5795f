//! Suppressions written in the spec: an `x-idemlint-ignore` extension on any object (a list of
//! rule ids, or a map of rule id → reason) silences those rules in that object; a YAML comment
//! `# idemlint-ignore <rule-id>[, <rule-id>]: <reason>` silences them on its line, or, alone on
//! its line, on the next one. A suppression that silences nothing is itself reported.

use std::sync::LazyLock;

use regex::Regex;

use crate::catalogue::RuleId;
use crate::resolve::{Bundle, FileId, Location};
use crate::source::{Format, Node, ScalarKind, Span, Value};

pub use crate::resolve::IGNORE_EXTENSION as EXTENSION;

/// One rule id named by a suppression.
#[derive(Debug, Clone)]
pub struct Named {
    pub rule: String,
    /// Where the id is written.
    pub at: Location,
    pub used: bool,
    /// Why, when the suppression says (`rule: reason`).
    pub reason: Option<String>,
}

#[derive(Debug, Clone)]
enum Scope {
    /// The object holding the extension, and the key it is the value of (`post:`), since
    /// operation findings point at that key.
    Object { object: Span, key: Option<Span> },
    /// Findings that start on this 1-based line.
    Line(u32),
}

#[derive(Debug, Clone)]
struct Suppression {
    file: FileId,
    scope: Scope,
    names: Vec<Named>,
}

/// Every suppression in a bundle's files.
#[derive(Debug, Default)]
pub struct Suppressions {
    list: Vec<Suppression>,
    /// `# idemlint-ignore` comments that do not read as one (`#idemlint-ignore:rule`).
    malformed: Vec<Location>,
}

static COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:^|[ \t])#[ \t]*idemlint-ignore[ \t]+([A-Za-z0-9_, \t-]+?)[ \t]*(?::[ \t]*(.*?))?[ \t]*\r?$")
        .expect("valid regex")
});

impl Suppressions {
    /// Whether the spec suppresses nothing at all: most specs, and then no finding needs its
    /// line looked up.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn collect(bundle: &Bundle) -> Suppressions {
        let mut list = Vec::new();
        let mut malformed = Vec::new();
        for (i, file) in bundle.files.iter().enumerate() {
            let id = FileId(i as u32);
            // Walking every node of a large file costs more than searching its text: a file that
            // neither spells the extension nor holds an escape that could spell it (`\u0069`,
            // YAML's `\x69`, or a YAML line break escaped inside a double-quoted key, which joins
            // `"x-idemlint-\` to `ignore"` on the next line) has none.
            let text = file.source.text.as_bytes();
            let yaml = file.source.format == Format::Yaml;
            let escape = || {
                memchr::memchr_iter(b'\\', text).any(|at| match text.get(at + 1) {
                    Some(b'u' | b'x' | b'U') => true,
                    Some(b'\n' | b'\r') => yaml,
                    _ => false,
                })
            };
            if memchr::memmem::find(text, EXTENSION.as_bytes()).is_some() || escape() {
                walk(&file.root, None, id, &mut list);
            }
            if file.source.format == Format::Yaml && file.source.text.contains("idemlint-ignore") {
                // Text that only looks like a comment, inside a string or a block scalar.
                let mut strings = Vec::new();
                strings_with_marker(&file.root, &mut strings);
                let accepted = comments(&file.source.text, &file.source, id, &strings, &mut list);
                malformed_comments(&file.source.text, id, &strings, &accepted, &mut malformed);
            }
        }
        Suppressions { list, malformed }
    }

    /// Whether a finding of `rule` at `span` (starting on 1-based `line`, when known) in `file`
    /// is silenced; marks the suppression used.
    pub fn silence_at(
        &mut self,
        file: FileId,
        span: Span,
        line: Option<u32>,
        rule: &str,
    ) -> Option<Option<String>> {
        // Innermost first: the suppression next to the operation, not the one around the API.
        for s in self.list.iter_mut().rev() {
            if s.file != file {
                continue;
            }
            let covers = match s.scope {
                Scope::Object { object, key } => {
                    object.contains(span) || key.is_some_and(|k| k.start == span.start)
                }
                Scope::Line(l) => Some(l) == line,
            };
            if !covers {
                continue;
            }
            if let Some(n) = s.names.iter_mut().find(|n| n.rule == rule) {
                n.used = true;
                return Some(n.reason.clone());
            }
        }
        None
    }

    /// The rule ids that silenced nothing, with the reason they are reported. `enabled` says
    /// whether a rule runs at all here: a suppression of a rule that is turned off is not stale.
    pub fn unused(&self, enabled: impl Fn(&str) -> bool) -> Vec<(Location, String)> {
        let ids: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        let mut out: Vec<(Location, String)> = self
            .malformed
            .iter()
            .map(|at| {
                (
                    *at,
                    "malformed suppression comment: write `# idemlint-ignore <rule-id>: <reason>`"
                        .to_string(),
                )
            })
            .collect();
        for s in &self.list {
            for n in s.names.iter().filter(|n| !n.used) {
                let known = ids.contains(&n.rule.as_str());
                if known && !enabled(&n.rule) {
                    continue;
                }
                let message = if known {
                    format!(
                        "suppression of `{}` silences nothing here: remove it",
                        n.rule
                    )
                } else {
                    match crate::suggest::closest(&n.rule, ids.iter().copied()) {
                        Some(near) => format!(
                            "suppression names unknown rule `{}`; did you mean `{near}`?",
                            n.rule
                        ),
                        None => format!("suppression names unknown rule `{}`", n.rule),
                    }
                };
                out.push((n.at, message));
            }
        }
        out
    }
}

fn walk(node: &Node, key: Option<Span>, file: FileId, out: &mut Vec<Suppression>) {
    match &node.value {
        Value::Map(entries) => {
            if let Some(e) = entries.iter().find(|e| &*e.key.text == EXTENSION) {
                let mut names = Vec::new();
                // Only strings name rules: a number or a mapping where an id belongs is
                // reported by `invalid-extension` (see `shape_problems`), not as an unknown id.
                match &e.value.value {
                    Value::Seq(items) => {
                        for item in items {
                            if let Some(rule) = item.as_str() {
                                names.push(named(rule, item.span, file));
                            }
                        }
                    }
                    Value::Map(pairs) => {
                        for p in pairs {
                            let mut n = named(&p.key.text, p.key.span, file);
                            n.reason = p
                                .value
                                .as_str()
                                .filter(|r| !r.is_empty())
                                .map(str::to_string);
                            names.push(n);
                        }
                    }
                    Value::Scalar(s) => {
                        if s.kind == ScalarKind::Str {
                            for rule in s.text.split(',').map(str::trim).filter(|r| !r.is_empty()) {
                                names.push(named(rule, e.value.span, file));
                            }
                        }
                    }
                }
                out.push(Suppression {
                    file,
                    scope: Scope::Object {
                        object: node.span,
                        key,
                    },
                    names,
                });
            }
            for e in entries {
                walk(&e.value, Some(e.key.span), file, out);
            }
        }
        Value::Seq(items) => items.iter().for_each(|i| walk(i, None, file, out)),
        Value::Scalar(_) => {}
    }
}

/// Every `x-idemlint-ignore` in `root` whose value has a type it cannot have, at that value: a
/// number or boolean instead of rule ids, a list item that is not an id, a reason that is not
/// text. A null value reads as no suppression at all and is left alone.
pub fn shape_problems(root: &Node, file: FileId, out: &mut Vec<(Location, String)>) {
    match &root.value {
        Value::Map(entries) => {
            for e in entries.iter() {
                if &*e.key.text == EXTENSION {
                    extension_shape(&e.value, file, out);
                }
                shape_problems(&e.value, file, out);
            }
        }
        Value::Seq(items) => items.iter().for_each(|i| shape_problems(i, file, out)),
        Value::Scalar(_) => {}
    }
}

fn extension_shape(value: &Node, file: FileId, out: &mut Vec<(Location, String)>) {
    let at = |node: &Node| Location {
        file,
        span: node.span,
    };
    let kind = crate::idempotency::kind_name;
    let short = crate::idempotency::shortened;
    match &value.value {
        Value::Scalar(s) => {
            if !matches!(s.kind, ScalarKind::Str | ScalarKind::Null) {
                out.push((
                    at(value),
                    format!(
                        "`{EXTENSION}: {}` is {}; write rule ids, as a list \
                         (`[missing-idempotency-key]`) or a map of rule id to reason",
                        short(&s.text),
                        kind(value)
                    ),
                ));
            }
        }
        Value::Seq(items) => {
            for item in items.iter().filter(|i| i.as_str().is_none()) {
                let shown = item
                    .as_scalar()
                    .map_or(String::new(), |s| format!(" `{}`", short(&s.text)));
                out.push((
                    at(item),
                    format!(
                        "`{EXTENSION}` lists rule ids; this item{shown} is {}",
                        kind(item)
                    ),
                ));
            }
        }
        Value::Map(pairs) => {
            for p in pairs.iter() {
                let v = &p.value;
                if v.as_str().is_some() || v.is_null() {
                    continue;
                }
                let shown = v
                    .as_scalar()
                    .map_or(String::new(), |s| format!(" (`{}`)", short(&s.text)));
                out.push((
                    at(v),
                    format!(
                        "the reason for `{}` in `{EXTENSION}` is {}{shown}; write why the rule \
                         is silenced here, as text",
                        short(&p.key.text),
                        kind(v)
                    ),
                ));
            }
        }
    }
}

fn named(rule: &str, span: Span, file: FileId) -> Named {
    Named {
        rule: rule.to_string(),
        at: Location { file, span },
        used: false,
        reason: None,
    }
}

/// Comments that name the marker but are not read as a suppression (`#idemlint-ignore:rule`):
/// the `#` of each is not among the `accepted` ones.
fn malformed_comments(
    text: &str,
    file: FileId,
    strings: &[Span],
    accepted: &[usize],
    out: &mut Vec<Location>,
) {
    static LOOSE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"#[ \t]*idemlint-ignore").expect("valid regex"));
    for m in LOOSE.find_iter(text) {
        let at = Span::new(m.start(), m.end());
        if !accepted.contains(&m.start()) && !strings.iter().any(|s| s.contains(at)) {
            out.push(Location { file, span: at });
        }
    }
}

/// Spans of string scalars that contain the suppression marker.
fn strings_with_marker(node: &Node, out: &mut Vec<Span>) {
    match &node.value {
        Value::Map(entries) => entries
            .iter()
            .for_each(|e| strings_with_marker(&e.value, out)),
        Value::Seq(items) => items.iter().for_each(|i| strings_with_marker(i, out)),
        Value::Scalar(s) => {
            if s.text.contains("idemlint-ignore") {
                out.push(node.span);
            }
        }
    }
}

fn comments(
    text: &str,
    source: &crate::source::SourceFile,
    file: FileId,
    strings: &[Span],
    out: &mut Vec<Suppression>,
) -> Vec<usize> {
    let mut accepted = Vec::new();
    for c in COMMENT.captures_iter(text) {
        let whole = c.get(0).expect("match");
        let hash = whole.start() + whole.as_str().find('#').unwrap_or(0);
        if strings
            .iter()
            .any(|s| s.contains(Span::new(hash, hash + 1)))
        {
            continue;
        }
        accepted.push(hash);
        let at = source.line_col(hash);
        let line_start = source.lines.line_start(at.line as usize - 1);
        // Alone on its line, it speaks of the next line; after code, of its own.
        let alone = text[line_start..hash].trim().is_empty();
        let line = if alone { at.line + 1 } else { at.line };
        let ids = c.get(1).expect("group");
        let reason = c
            .get(2)
            .map(|r| r.as_str().to_string())
            .filter(|r| !r.is_empty());
        let mut names = Vec::new();
        let mut offset = ids.start();
        for part in ids.as_str().split(',') {
            let rule = part.trim();
            if !rule.is_empty() {
                let start = offset + part.find(rule).unwrap_or(0);
                let mut n = named(rule, Span::new(start, start + rule.len()), file);
                n.reason = reason.clone();
                names.push(n);
            }
            offset += part.len() + 1;
        }
        out.push(Suppression {
            file,
            scope: Scope::Line(line),
            names,
        });
    }
    accepted
}
