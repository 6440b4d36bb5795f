//! Suppressions written in the spec: an `x-idemlint-ignore` extension on any object (a list of
//! rule ids, or a map of rule id → reason) silences those rules in that object; a YAML comment
//! `# idemlint-ignore <rule-id>[, <rule-id>]: <reason>` silences them on its line, or, alone on
//! its line, on the next one. A suppression that silences nothing is itself reported.

use std::sync::LazyLock;

use regex::Regex;

use crate::catalogue::RuleId;
use crate::fix::editor::{Editor, Refusal};
use crate::fix::remove;
use crate::fix::value::Value as FixValue;
use crate::fix::{Edit, Fix};
use crate::resolve::{At, Bundle, FileId, Location};
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
    form: Form,
}

/// How a suppression is written: what its fix edits.
#[derive(Debug, Clone, Copy)]
enum Form {
    /// An `x-idemlint-ignore` entry, whose key is at `key`, of the object of its scope: a list
    /// of ids, a map of id to reason, or one string of ids separated by commas.
    Extension { key: Span },
    /// A `# idemlint-ignore` comment: its `#`, and where its text ends (before the line end).
    Comment { hash: usize, end: usize },
}

/// An id that silenced nothing (or a comment that does not read as a suppression), as
/// reported: where, the message, and the fix that takes it out of the spec, or why there is
/// none.
#[derive(Debug, Clone)]
pub struct Unused {
    pub at: Location,
    pub message: String,
    pub fix: Result<Fix, Refusal>,
}

/// What a reported id is, for its fix.
enum Stale<'s> {
    Malformed,
    Named {
        suppression: &'s Suppression,
        index: usize,
        known: bool,
        /// The closest rule id, for an unknown one.
        near: Option<&'static str>,
    },
}

/// Why a malformed comment has no fix.
const MALFORMED_NO_FIX: &str = "the comment does not read as a suppression, so which rules it \
                                meant is not known: rewrite it as `# idemlint-ignore \
                                <rule-id>: <reason>`, or remove it";

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
    /// is silenced, with the suppression's reason; marks the suppression used.
    pub fn silence_at(
        &mut self,
        file: FileId,
        span: Span,
        line: Option<u32>,
        rule: &str,
    ) -> Option<Option<String>> {
        let (at, index) = self.find(file, span, line, rule)?;
        let named = &mut self.list[at].names[index];
        named.used = true;
        Some(named.reason.clone())
    }

    /// Whether a finding of `rule` at `span` would be silenced, the suppression left unused (a
    /// finding that is not there yet: what a fix will bring).
    pub fn would_silence(&self, file: FileId, span: Span, line: Option<u32>, rule: &str) -> bool {
        self.find(file, span, line, rule).is_some()
    }

    /// Whether any suppression names `rule`.
    pub fn names(&self, rule: &str) -> bool {
        self.list
            .iter()
            .any(|s| s.names.iter().any(|n| n.rule == rule))
    }

    /// The suppression that covers a finding of `rule` at `span`, and the id's index in it.
    fn find(
        &self,
        file: FileId,
        span: Span,
        line: Option<u32>,
        rule: &str,
    ) -> Option<(usize, usize)> {
        // Innermost first: the suppression next to the operation, not the one around the API.
        for (at, s) in self.list.iter().enumerate().rev() {
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
            if let Some(index) = s.names.iter().position(|n| n.rule == rule) {
                return Some((at, index));
            }
        }
        None
    }

    /// The rule ids that silenced nothing, with the reason they are reported and each with its
    /// fix. `enabled` says whether a rule runs at all here: a suppression of a rule that is
    /// turned off is not stale. `bundle` is the one the suppressions were collected from.
    /// - an id that silences nothing is taken out of its suppression, safely (the findings are
    ///   the same without it); when every id of the suppression silences nothing, the whole
    ///   suppression goes (the `x-idemlint-ignore` entry, or the comment: alone on its line with
    ///   its line, after code with the spaces before it). Two such ids are two findings whose
    ///   fixes each take out their own id, or each the whole suppression (one edit, written
    ///   once);
    /// - a misspelt id (an unknown one close to a rule's) is corrected, unsafely: the rule it
    ///   names is then silenced there;
    /// - another unknown id is taken out, unsafely (it may name a rule of a newer idemlint);
    /// - a malformed comment has no fix.
    pub fn unused_with_fixes(
        &self,
        bundle: &Bundle,
        enabled: impl Fn(&str) -> bool,
    ) -> Vec<Unused> {
        let editor = Editor::new(bundle);
        let enabled = &enabled;
        self.stale(enabled)
            .into_iter()
            .map(|(at, message, stale)| {
                let fix = match stale {
                    Stale::Malformed => Err(MALFORMED_NO_FIX.into()),
                    Stale::Named {
                        suppression,
                        index,
                        known,
                        near,
                    } => fix(&editor, suppression, index, known, near, enabled),
                };
                Unused { at, message, fix }
            })
            .collect()
    }

    fn stale(&self, enabled: impl Fn(&str) -> bool) -> Vec<(Location, String, Stale<'_>)> {
        let ids: Vec<&'static str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        let mut out: Vec<(Location, String, Stale<'_>)> = self
            .malformed
            .iter()
            .map(|at| {
                (
                    *at,
                    "malformed suppression comment: write `# idemlint-ignore <rule-id>: <reason>`"
                        .to_string(),
                    Stale::Malformed,
                )
            })
            .collect();
        for s in &self.list {
            for (index, n) in s.names.iter().enumerate().filter(|(_, n)| !n.used) {
                let known = ids.contains(&n.rule.as_str());
                if known && !enabled(&n.rule) {
                    continue;
                }
                let near = if known {
                    None
                } else {
                    crate::suggest::closest(&n.rule, ids.iter().copied())
                };
                let message = if known {
                    format!(
                        "suppression of `{}` silences nothing here: remove it",
                        n.rule
                    )
                } else {
                    match near {
                        Some(near) => format!(
                            "suppression names unknown rule `{}`; did you mean `{near}`?",
                            n.rule
                        ),
                        None => format!("suppression names unknown rule `{}`", n.rule),
                    }
                };
                let stale = Stale::Named {
                    suppression: s,
                    index,
                    known,
                    near,
                };
                out.push((n.at, message, stale));
            }
        }
        out
    }
}

/// The fix of the id at `index` of `s` (see [`Suppressions::unused_with_fixes`]).
fn fix(
    editor: &Editor<'_>,
    s: &Suppression,
    index: usize,
    known: bool,
    near: Option<&str>,
    enabled: &dyn Fn(&str) -> bool,
) -> Result<Fix, Refusal> {
    let file = editor.bundle().file(s.file);
    if file.source.path.to_str().is_some_and(crate::fetch::is_http) {
        return Err("it is in a file fetched from a URL, which idemlint does not write".into());
    }
    let rule = &s.names[index].rule;
    let place = Place::of(editor, s)?;
    if let Some(near) = near {
        let edit = place.rename(editor, s, index, near)?;
        return Ok(Fix::unsafe_(
            format!("Correct `{rule}` to `{near}`"),
            vec![edit],
        ));
    }
    let only = place.members(s) == 1;
    if !known {
        let edit = if only {
            place.remove_whole(editor)?
        } else {
            place.remove_one(editor, s, index)?
        };
        return Ok(Fix::unsafe_(
            format!("Remove the suppression of unknown rule `{rule}`"),
            vec![edit],
        ));
    }
    let ids: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
    let all_unused = place.members(s) == s.names.len()
        && s.names
            .iter()
            .all(|n| !n.used && ids.contains(&n.rule.as_str()) && enabled(&n.rule));
    let edit = if all_unused {
        place.remove_whole(editor)?
    } else {
        place.remove_one(editor, s, index)?
    };
    Ok(Fix::safe(
        format!("Remove the unused suppression of `{rule}`"),
        vec![edit],
    ))
}

/// Where a suppression is written, found again in its file's tree.
enum Place<'b> {
    Extension {
        /// The object holding the extension.
        object: At<'b>,
        /// The index of the extension's entry in it.
        entry: usize,
    },
    Comment {
        file: FileId,
        text: &'b str,
        hash: usize,
        end: usize,
    },
}

impl<'b> Place<'b> {
    fn of(editor: &Editor<'b>, s: &Suppression) -> Result<Place<'b>, Refusal> {
        let file = editor.bundle().file(s.file);
        match (s.form, &s.scope) {
            (Form::Comment { hash, end }, _) => Ok(Place::Comment {
                file: s.file,
                text: &file.source.text,
                hash,
                end,
            }),
            (Form::Extension { key }, Scope::Object { object, .. }) => {
                let node = map_at(&file.root, *object)
                    .ok_or("the object holding the suppression was not found")?;
                let entry = node
                    .entries()
                    .iter()
                    .position(|e| e.key.span == key)
                    .ok_or("the suppression was not found in its object")?;
                Ok(Place::Extension {
                    object: At { file: s.file, node },
                    entry,
                })
            }
            (Form::Extension { .. }, Scope::Line(_)) => {
                Err("the suppression was not found in its object".into())
            }
        }
    }

    /// The extension's value.
    fn value(&self) -> Option<At<'b>> {
        match self {
            Place::Extension { object, entry } => {
                Some(object.with(&object.node.entries()[*entry].value))
            }
            Place::Comment { .. } => None,
        }
    }

    /// How many members `s` (written here) has: its ids, and in a list whatever else is written
    /// there.
    fn members(&self, s: &Suppression) -> usize {
        match self.value() {
            Some(value) => match &value.node.value {
                Value::Seq(items) => items.len(),
                Value::Map(entries) => entries.len(),
                Value::Scalar(s) => s.text.split(',').filter(|r| !r.trim().is_empty()).count(),
            },
            None => s.names.len(),
        }
    }

    /// The edit that takes the whole suppression out.
    fn remove_whole(&self, editor: &Editor<'_>) -> Result<Edit, Refusal> {
        match *self {
            Place::Extension { object, entry } => {
                editor.editable(object)?;
                let text = &editor.bundle().file(object.file).source.text;
                let block = text.as_bytes().get(object.node.span.start as usize) != Some(&b'{');
                if block && object.node.entries().len() == 1 {
                    return Err(format!(
                        "`{EXTENSION}` is its object's only entry, which would be left empty"
                    )
                    .into());
                }
                let span = remove::entry(text, object.node, entry)
                    .ok_or("the suppression's entry could not be taken out")?;
                Ok(Edit {
                    file: object.file,
                    span,
                    text: String::new(),
                })
            }
            Place::Comment {
                file,
                text,
                hash,
                end,
            } => Ok(Edit {
                file,
                span: whole_comment(text, hash, end),
                text: String::new(),
            }),
        }
    }

    /// The edit that takes the id at `index` of `s` out, the others kept.
    fn remove_one(
        &self,
        editor: &Editor<'_>,
        s: &Suppression,
        index: usize,
    ) -> Result<Edit, Refusal> {
        let at = s.names[index].at.span;
        match self {
            Place::Extension { .. } => {
                let value = self.value().expect("an extension has a value");
                match &value.node.value {
                    Value::Seq(items) => {
                        let item = items
                            .iter()
                            .position(|i| i.span == at)
                            .ok_or("the id was not found in the list")?;
                        editor.remove_item(value, item)
                    }
                    Value::Map(entries) => {
                        editor.editable(value)?;
                        let entry = entries
                            .iter()
                            .position(|e| e.key.span == at)
                            .ok_or("the id was not found in the map")?;
                        let text = &editor.bundle().file(value.file).source.text;
                        let span = remove::entry(text, value.node, entry)
                            .ok_or("the id could not be taken out of the map")?;
                        Ok(Edit {
                            file: value.file,
                            span,
                            text: String::new(),
                        })
                    }
                    Value::Scalar(_) => {
                        let rest: Vec<&str> = s
                            .names
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| *i != index)
                            .map(|(_, n)| n.rule.as_str())
                            .collect();
                        editor.replace_scalar(value, &FixValue::str(rest.join(", ")))
                    }
                }
            }
            Place::Comment { file, .. } => {
                // With the comma and the spaces after it, or (the last id) before it.
                let span = match (s.names.get(index + 1), index.checked_sub(1)) {
                    (Some(next), _) => Span::new(at.start as usize, next.at.span.start as usize),
                    (None, Some(before)) => {
                        Span::new(s.names[before].at.span.end as usize, at.end as usize)
                    }
                    (None, None) => return self.remove_whole(editor),
                };
                Ok(Edit {
                    file: *file,
                    span,
                    text: String::new(),
                })
            }
        }
    }

    /// The edit that writes `near` in place of the id at `index` of `s`.
    fn rename(
        &self,
        editor: &Editor<'_>,
        s: &Suppression,
        index: usize,
        near: &str,
    ) -> Result<Edit, Refusal> {
        let at = s.names[index].at.span;
        match self {
            Place::Extension { .. } => {
                let value = self.value().expect("an extension has a value");
                match &value.node.value {
                    Value::Seq(items) => {
                        let item = items
                            .iter()
                            .find(|i| i.span == at)
                            .ok_or("the id was not found in the list")?;
                        editor.replace_scalar(value.with(item), &FixValue::str(near))
                    }
                    Value::Map(_) => {
                        editor.editable(value)?;
                        let json = editor.bundle().file(value.file).source.format == Format::Json;
                        let text = if json {
                            crate::fix::value::json_str(near)
                        } else {
                            crate::fix::value::yaml_key(near, editor.style(value.file))
                        };
                        Ok(Edit {
                            file: value.file,
                            span: at,
                            text,
                        })
                    }
                    Value::Scalar(_) => {
                        let ids: Vec<&str> = s
                            .names
                            .iter()
                            .enumerate()
                            .map(|(i, n)| if i == index { near } else { n.rule.as_str() })
                            .collect();
                        editor.replace_scalar(value, &FixValue::str(ids.join(", ")))
                    }
                }
            }
            Place::Comment { file, .. } => Ok(Edit {
                file: *file,
                span: at,
                text: near.to_string(),
            }),
        }
    }
}

/// The mapping under `root` whose span is `span`.
fn map_at(root: &Node, span: Span) -> Option<&Node> {
    let mut node = root;
    loop {
        if node.span == span && node.as_map().is_some() {
            return Some(node);
        }
        node = match &node.value {
            Value::Map(entries) => &entries.iter().find(|e| e.value.span.contains(span))?.value,
            Value::Seq(items) => items.iter().find(|i| i.span.contains(span))?,
            Value::Scalar(_) => return None,
        };
    }
}

/// What to delete so that the comment whose `#` is at `hash` and whose text ends at `end`
/// goes: alone on its line, the line with its line end (or, on a last line without one, the
/// line end before it); after code, the comment and the spaces before it.
fn whole_comment(text: &str, hash: usize, end: usize) -> Span {
    let line_start = text[..hash].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..hash];
    if !before.trim_matches([' ', '\t']).is_empty() {
        let code_end = line_start + before.trim_end_matches([' ', '\t']).len();
        return Span::new(code_end, end);
    }
    match text[end..].find('\n') {
        Some(at) => Span::new(line_start, end + at + 1),
        None => {
            let mut start = line_start;
            if start > 0 {
                start -= 1;
                if text[..start].ends_with('\r') {
                    start -= 1;
                }
            }
            Span::new(start, text.len())
        }
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
                    form: Form::Extension { key: e.key.span },
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
        // (The match takes the `\r` of a CRLF line end.)
        let end = whole.end() - usize::from(whole.as_str().ends_with('\r'));
        out.push(Suppression {
            file,
            scope: Scope::Line(line),
            names,
            form: Form::Comment { hash, end },
        });
    }
    accepted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::{Applicability, apply, plan};
    use crate::limits::Limits;
    use crate::resolve::ResolveOptions;
    use crate::source::SourceFile;

    fn bundle(text: &str) -> Bundle {
        let format = if text.starts_with('{') {
            Format::Json
        } else {
            Format::Yaml
        };
        let path = if format == Format::Json {
            "/t/spec.json"
        } else {
            "/t/spec.yaml"
        };
        let source = SourceFile::new(path.into(), "spec".into(), text.to_string(), format);
        let loaded = source.parse(&Limits::default()).expect("parses");
        Bundle::load(
            source,
            loaded.root,
            loaded.duplicates,
            &crate::files::Disk,
            &ResolveOptions::default(),
        )
    }

    /// Whether an id silenced something: given the id and the text of the line it is on.
    type Used<'u> = &'u dyn Fn(&str, &str) -> bool;

    /// The unused ids of `bundle` (the others are those `used` says silenced something), with
    /// their fixes.
    fn unused_where(bundle: &Bundle, used: Used<'_>) -> Vec<Unused> {
        let mut suppressions = Suppressions::collect(bundle);
        let source = &bundle.file(Bundle::ROOT).source;
        for s in &mut suppressions.list {
            for n in &mut s.names {
                let line = source.line_col(n.at.span.start as usize).line as usize;
                let start = source.lines.line_start(line - 1);
                let text = source.text[start..].lines().next().unwrap_or("");
                n.used = used(&n.rule, text);
            }
        }
        suppressions.unused_with_fixes(bundle, |_| true)
    }

    /// The unused ids of `bundle` when the rules `used` silenced something, with their fixes.
    fn unused(bundle: &Bundle, used: &[&str]) -> Vec<Unused> {
        unused_where(bundle, &|rule, _| used.contains(&rule))
    }

    /// The titles of the fixes of `text`'s unused ids (or why there is none), one an id.
    fn titles(text: &str, used: &[&str]) -> Vec<String> {
        unused(&bundle(text), used)
            .into_iter()
            .map(|u| match u.fix {
                Ok(fix) => format!("{}: {}", fix.applicability.code(), fix.title),
                Err(why) => format!("no fix: {why}"),
            })
            .collect()
    }

    /// `text` with the fixes of its unused ids applied in passes (the ids `used` silencing
    /// something each time), as `--fix` does; unsafe ones too when `unsafe_fixes`. After each
    /// pass the text still parses; `passes` says how many changed it.
    fn fixed(text: &str, used: &[&str], unsafe_fixes: bool) -> (String, usize) {
        fixed_where(text, &|rule, _| used.contains(&rule), unsafe_fixes)
    }

    /// [`fixed`], with the ids `used` says silenced something.
    fn fixed_where(text: &str, used: Used<'_>, unsafe_fixes: bool) -> (String, usize) {
        let mut text = text.to_string();
        for pass in 0..10 {
            let bundle = bundle(&text);
            let fixes: Vec<Fix> = unused_where(&bundle, used)
                .into_iter()
                .filter_map(|u| u.fix.ok())
                .collect();
            let allowed = |f: &Fix| unsafe_fixes || f.applicability == Applicability::Safe;
            let plan = plan(&fixes, allowed, |_| Some(text.as_str()));
            assert!(plan.invalid.is_empty(), "{fixes:#?}");
            if plan.taken.is_empty() {
                return (text, pass);
            }
            let edits: Vec<&Edit> = plan.taken.iter().flat_map(|&at| &fixes[at].edits).collect();
            text = apply(&text, &edits).unwrap();
            // Still a document (`bundle` panics otherwise).
            let _ = self::bundle(&text);
        }
        panic!("not done after 10 passes:\n{text}");
    }

    const BLOCK: &str = "openapi: 3.1.0\npaths:\n  /orders:\n    get:\n      \
                         x-idemlint-ignore:\n        - missing-idempotency-key\n        \
                         - unprotected-patch\n      responses: {}\n";

    #[test]
    fn a_block_list_whose_ids_are_all_unused_goes_whole_in_one_pass() {
        assert_eq!(
            titles(BLOCK, &[]),
            [
                "safe: Remove the unused suppression of `missing-idempotency-key`",
                "safe: Remove the unused suppression of `unprotected-patch`"
            ]
        );
        let (out, passes) = fixed(BLOCK, &[], false);
        assert_eq!(
            out,
            "openapi: 3.1.0\npaths:\n  /orders:\n    get:\n      responses: {}\n"
        );
        assert_eq!(passes, 1, "the two fixes are one edit, written once");
    }

    #[test]
    fn a_used_id_stays() {
        assert_eq!(
            fixed(BLOCK, &["unprotected-patch"], false).0,
            "openapi: 3.1.0\npaths:\n  /orders:\n    get:\n      x-idemlint-ignore:\n        \
             - unprotected-patch\n      responses: {}\n"
        );
        let crlf = BLOCK.replace('\n', "\r\n");
        assert_eq!(
            fixed(&crlf, &["missing-idempotency-key"], false).0,
            "openapi: 3.1.0\r\npaths:\r\n  /orders:\r\n    get:\r\n      x-idemlint-ignore:\r\n        \
             - missing-idempotency-key\r\n      responses: {}\r\n"
        );
    }

    #[test]
    fn flow_lists_and_maps_lose_one_id_with_its_comma() {
        let text = "openapi: 3.1.0\nx: {x-idemlint-ignore: [missing-idempotency-key, \
                    unprotected-patch, incremental-update], y: 1}\n";
        // The first and the last go in one pass: their edits do not touch.
        assert_eq!(
            fixed(text, &["unprotected-patch"], false),
            (
                "openapi: 3.1.0\nx: {x-idemlint-ignore: [unprotected-patch], y: 1}\n".to_string(),
                1
            )
        );
        // Side by side, the second waits for the next pass.
        assert_eq!(
            fixed(text, &["incremental-update"], false),
            (
                "openapi: 3.1.0\nx: {x-idemlint-ignore: [incremental-update], y: 1}\n".to_string(),
                2
            )
        );
        let map = "openapi: 3.1.0\nx:\n  x-idemlint-ignore: {missing-idempotency-key: \
                   deduped downstream, unprotected-patch: 'a reason'}\n  y: 1\n";
        assert_eq!(
            fixed(map, &["missing-idempotency-key"], false).0,
            "openapi: 3.1.0\nx:\n  x-idemlint-ignore: {missing-idempotency-key: deduped \
             downstream}\n  y: 1\n"
        );
        let block_map = "openapi: 3.1.0\nx:\n  y: 1\n  x-idemlint-ignore:\n    \
                         missing-idempotency-key: deduped downstream  # by the queue\n    \
                         unprotected-patch: a reason\n";
        assert_eq!(
            fixed(block_map, &["unprotected-patch"], false).0,
            "openapi: 3.1.0\nx:\n  y: 1\n  x-idemlint-ignore:\n    unprotected-patch: a reason\n"
        );
        assert_eq!(
            fixed(block_map, &[], false).0,
            "openapi: 3.1.0\nx:\n  y: 1\n"
        );
    }

    #[test]
    fn json_members_go_with_their_comma() {
        let text = "{\n  \"openapi\": \"3.0.3\",\n  \"paths\": {\n    \"/orders\": {\n      \
                    \"post\": {\n        \"x-idemlint-ignore\": [\"unprotected-patch\", \
                    \"missing-idempotency-key\"],\n        \"responses\": {}\n      }\n    }\n  \
                    }\n}\n";
        assert_eq!(
            fixed(text, &["missing-idempotency-key"], false).0,
            text.replace("[\"unprotected-patch\", ", "[")
        );
        assert_eq!(
            fixed(text, &[], false).0,
            "{\n  \"openapi\": \"3.0.3\",\n  \"paths\": {\n    \"/orders\": {\n      \
             \"post\": {\n        \"responses\": {}\n      }\n    }\n  }\n}\n"
        );
        let last = "{\"openapi\": \"3.0.3\", \"x\": {\"a\": 1, \"x-idemlint-ignore\": \
                    {\"unprotected-patch\": \"why\"}}}";
        assert_eq!(
            fixed(last, &[], false).0,
            "{\"openapi\": \"3.0.3\", \"x\": {\"a\": 1}}"
        );
    }

    #[test]
    fn a_string_of_ids_is_rewritten_without_the_unused_one() {
        let text = "openapi: 3.1.0\nx:\n  x-idemlint-ignore: missing-idempotency-key, \
                    unprotected-patch\n  y: 1\n";
        assert_eq!(
            fixed(text, &["unprotected-patch"], false).0,
            "openapi: 3.1.0\nx:\n  x-idemlint-ignore: unprotected-patch\n  y: 1\n"
        );
        assert_eq!(fixed(text, &[], false).0, "openapi: 3.1.0\nx:\n  y: 1\n");
    }

    #[test]
    fn a_comment_alone_goes_with_its_line_and_a_trailing_one_with_its_spaces() {
        let alone = "openapi: 3.1.0\npaths:\n  /carts:\n    # idemlint-ignore \
                     missing-idempotency-key, unprotected-patch: scratch data\n    post:\n      \
                     responses: {}\n";
        let (out, passes) = fixed(alone, &[], false);
        assert_eq!(
            out,
            "openapi: 3.1.0\npaths:\n  /carts:\n    post:\n      responses: {}\n"
        );
        assert_eq!(passes, 1);
        assert_eq!(
            fixed(&alone.replace('\n', "\r\n"), &[], false).0,
            "openapi: 3.1.0\r\npaths:\r\n  /carts:\r\n    post:\r\n      responses: {}\r\n"
        );
        let trailing = "openapi: 3.1.0\npaths:\n  /carts:\n    post:   # idemlint-ignore \
                        missing-idempotency-key: scratch\n      responses: {}\n";
        assert_eq!(
            fixed(trailing, &[], false).0,
            "openapi: 3.1.0\npaths:\n  /carts:\n    post:\n      responses: {}\n"
        );
        assert_eq!(
            fixed(&trailing.replace('\n', "\r\n"), &[], false).0,
            "openapi: 3.1.0\r\npaths:\r\n  /carts:\r\n    post:\r\n      responses: {}\r\n"
        );
        // The last line, without a line end: the one before goes instead.
        let last = "openapi: 3.1.0\nx: 1\n# idemlint-ignore unprotected-patch";
        assert_eq!(fixed(last, &[], false).0, "openapi: 3.1.0\nx: 1");
    }

    #[test]
    fn a_comment_loses_its_unused_ids_and_keeps_its_reason() {
        let text = "openapi: 3.1.0\nx: 1  # idemlint-ignore missing-idempotency-key, \
                    unprotected-patch, incremental-update: because\n";
        assert_eq!(
            fixed(text, &["unprotected-patch"], false),
            (
                "openapi: 3.1.0\nx: 1  # idemlint-ignore unprotected-patch: because\n".to_string(),
                1
            )
        );
        assert_eq!(
            fixed(text, &["incremental-update"], false),
            (
                "openapi: 3.1.0\nx: 1  # idemlint-ignore incremental-update: because\n".to_string(),
                2
            )
        );
    }

    #[test]
    fn a_misspelt_id_is_corrected_and_an_unknown_one_removed_unsafely() {
        let text = "openapi: 3.1.0\nx:\n  x-idemlint-ignore:\n    - missing-idempotency-keys\n  \
                    y: 1\n# idemlint-ignore unprotectd-patch, no-such-thing-at-all: why\nz: 1\n";
        assert_eq!(
            titles(text, &[]),
            [
                "unsafe: Correct `missing-idempotency-keys` to `missing-idempotency-key`",
                "unsafe: Correct `unprotectd-patch` to `unprotected-patch`",
                "unsafe: Remove the suppression of unknown rule `no-such-thing-at-all`",
            ]
        );
        assert_eq!(fixed(text, &[], false).0, text, "no safe fix");
        // Corrected, the ids silence something here.
        let used = ["missing-idempotency-key", "unprotected-patch"];
        assert_eq!(
            fixed(text, &used, true).0,
            "openapi: 3.1.0\nx:\n  x-idemlint-ignore:\n    - missing-idempotency-key\n  \
             y: 1\n# idemlint-ignore unprotected-patch: why\nz: 1\n"
        );
        let map = "{\"openapi\": \"3.1.0\", \"x\": {\"x-idemlint-ignore\": \
                   {\"unprotectd-patch\": \"why\"}}}";
        assert_eq!(
            fixed(map, &["unprotected-patch"], true).0,
            map.replace("unprotectd", "unprotected")
        );
    }

    fn fixture(name: &str) -> String {
        let path = format!(
            "{}/fixtures/rules/unused-suppression/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path).unwrap()
    }

    /// The fixtures, with the ids a lint finds used there.
    #[test]
    fn the_fixtures_fixed() {
        let text = fixture("bad_crlf_comments.yaml");
        let used =
            |rule: &str, line: &str| rule == "missing-idempotency-key" && line.contains("post:");
        let line = "    # idemlint-ignore missing-idempotency-key, unprotected-patch: orders are read-only here\r\n";
        assert!(text.contains(line));
        assert_eq!(
            fixed_where(&text, &used, false).0,
            text.replace(line, "")
                .replace(
                    "get:   # idemlint-ignore missing-idempotency-key: a stale note",
                    "get:"
                )
                .replace(
                    "unprotected-patch, missing-idempotency-key: carts",
                    "missing-idempotency-key: carts"
                )
        );
        let text = fixture("bad_flow_and_maps.yaml");
        let used = |rule: &str, line: &str| {
            rule == "missing-idempotency-key"
                && (line.contains("post: {") || line.contains("x-idemlint-ignore: missing"))
        };
        let map = "      x-idemlint-ignore:\n        missing-idempotency-key: reads change nothing   \
                   # stale\n        unprotected-patch: nor do they patch\n";
        assert!(text.contains(map));
        assert_eq!(
            fixed_where(&text, &used, false).0,
            text.replace(
                "[unprotected-patch, missing-idempotency-key]",
                "[missing-idempotency-key]"
            )
            .replace(map, "")
            .replace(
                "x-idemlint-ignore: missing-idempotency-key, unprotected-patch",
                "x-idemlint-ignore: missing-idempotency-key"
            )
        );
        let text = fixture("bad_swagger2_lists.json");
        let used = |rule: &str, line: &str| {
            rule == "missing-idempotency-key"
                && (line.contains("scratch") || line.contains("[\"missing-idempotency-key\"]"))
        };
        let list = "        \"x-idemlint-ignore\": [\"missing-idempotency-key\", \"unprotected-patch\"],\n";
        assert!(text.contains(list));
        let safe = text
            .replace(", \"unprotected-patch\": \"no patch here\"", "")
            .replace(list, "");
        assert_eq!(fixed_where(&text, &used, false).0, safe);
        assert_eq!(
            fixed_where(&text, &used, true).0,
            safe.replace("missing-idempotency-keys", "missing-idempotency-key")
        );
    }

    #[test]
    fn what_cannot_be_fixed_says_why() {
        let malformed = "openapi: 3.1.0\nx: 1  #idemlint-ignore:unprotected-patch\n";
        assert_eq!(
            titles(malformed, &[]),
            [format!("no fix: {MALFORMED_NO_FIX}")]
        );
        let only = "openapi: 3.1.0\nx:\n  x-idemlint-ignore: [unprotected-patch]\n";
        assert_eq!(
            titles(only, &[]),
            ["no fix: `x-idemlint-ignore` is its object's only entry, which would be left empty"]
        );
        // (The alias is not beside the anchor in one mapping: `Editor::editable` would look
        // for the anchor before the alias's key there.)
        let anchored = "openapi: 3.1.0\nx: &shared\n  x-idemlint-ignore: [unprotected-patch]\n  \
                        y: 1\nw:\n  - *shared\n";
        // (Read through the alias too, the suppression is found twice.)
        let why = titles(anchored, &[]);
        assert!(
            !why.is_empty()
                && why.iter().all(|w| w.starts_with(
                    "no fix: it is shared through the YAML anchor `&shared` (line 2)"
                )),
            "{why:?}"
        );
    }
}
