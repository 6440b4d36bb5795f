//! Edits of a loaded document, as rules build their fixes: add an entry to a mapping, an item
//! to a sequence, take an entry out, set a scalar, each at the node the rule holds and in the
//! style of the file it sits in ([`Style`], sniffed once a file). What may not be edited is
//! refused with the reason, which reports show in place of a fix:
//! - a file fetched from a URL (idemlint writes local files only);
//! - a node reached through a YAML anchor (`&name`, used elsewhere by `*name`) or a merge key
//!   (`<<: *name`): the edit would land in the anchored text and change every place that uses
//!   it, or add a key that hides a merged one.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

use super::style::{Style, sniff};
use super::value::Value;
use super::{Edit, insert, remove};
use crate::resolve::{At, Bundle, FileId};
use crate::source::{Format, Node, Span};

/// Why a finding has no fix.
pub type Refusal = Cow<'static, str>;

/// Builds edits of one bundle's files.
pub struct Editor<'b> {
    bundle: &'b Bundle,
    styles: Vec<OnceLock<Style>>,
}

impl<'b> Editor<'b> {
    pub fn new(bundle: &'b Bundle) -> Self {
        Editor {
            bundle,
            styles: (0..bundle.files.len()).map(|_| OnceLock::new()).collect(),
        }
    }

    pub fn bundle(&self) -> &'b Bundle {
        self.bundle
    }

    fn text(&self, file: FileId) -> &'b str {
        &self.bundle.file(file).source.text
    }

    fn json(&self, file: FileId) -> bool {
        self.bundle.file(file).source.format == Format::Json
    }

    /// The style of `file`, sniffed the first time it is asked for.
    pub fn style(&self, file: FileId) -> &Style {
        self.styles[file.0 as usize].get_or_init(|| sniff(self.text(file), self.json(file)))
    }

    /// Whether the node `at` may be edited (see the module's notes).
    pub fn editable(&self, at: At<'_>) -> Result<(), Refusal> {
        let file = self.bundle.file(at.file);
        if file.source.path.to_str().is_some_and(crate::fetch::is_http) {
            return Err("it is in a file fetched from a URL, which idemlint does not write".into());
        }
        if file.source.format == Format::Json {
            return Ok(());
        }
        let text = self.text(at.file);
        let target = at.node.span;
        let mut node = &file.root;
        let mut region = Span::new(0, node.span.start as usize);
        loop {
            if let Some(name) = anchor_in(&text[region.start as usize..region.end as usize]) {
                let line = file.source.line_col(region.start as usize).line;
                return Err(format!(
                    "it is shared through the YAML anchor `&{name}` (line {line}): an edit \
                     there would change every place that uses it"
                )
                .into());
            }
            if node.span == target {
                break;
            }
            let inside = |s: Span| s.start <= target.start && target.end <= s.end;
            let next = match &node.value {
                // (An alias's copy carries its anchor's spans, before its own key or outside
                // the mapping: the entry written here is the one whose value follows its key.)
                crate::source::Value::Map(entries) => entries
                    .iter()
                    .filter(|e| {
                        node.span.contains(e.key.span)
                            && e.value.span.start >= e.key.span.end
                            && inside(e.value.span)
                    })
                    .map(|e| {
                        (
                            Span::new(e.key.span.end as usize, e.value.span.start as usize),
                            &e.value,
                        )
                    })
                    .next_back(),
                crate::source::Value::Seq(items) => {
                    let mut from = node.span.start;
                    let mut found = None;
                    for item in items.iter() {
                        if inside(item.span)
                            && node.span.contains(item.span)
                            && item.span.start >= from
                        {
                            found =
                                Some((Span::new(from as usize, item.span.start as usize), item));
                            break;
                        }
                        from = item.span.end;
                    }
                    found
                }
                crate::source::Value::Scalar(_) => None,
            };
            match next {
                Some((r, child)) if r.start <= r.end => {
                    region = r;
                    node = child;
                }
                _ => break,
            }
        }
        if let Some(entries) = at.node.as_map()
            && entries
                .iter()
                .any(|e| &*e.key.text == "<<" || !at.node.span.contains(e.key.span))
        {
            return Err(
                "the mapping takes entries through a YAML merge key (`<<`): an entry \
                        added there could hide a merged one"
                    .into(),
            );
        }
        Ok(())
    }

    /// An edit that adds `key: value` to the mapping `map`.
    pub fn add_entry(&self, map: At<'_>, key: &str, value: &Value) -> Result<Edit, Refusal> {
        self.editable(map)?;
        let (span, text) = insert::entry(
            self.text(map.file),
            map.node,
            key,
            value,
            self.style(map.file),
            self.json(map.file),
        )
        .ok_or("the place to add it to is not a mapping written out")?;
        Ok(Edit {
            file: map.file,
            span,
            text,
        })
    }

    /// An edit that appends `value` to the sequence `seq`.
    pub fn add_item(&self, seq: At<'_>, value: &Value) -> Result<Edit, Refusal> {
        self.editable(seq)?;
        let (span, text) = insert::item(
            self.text(seq.file),
            seq.node,
            value,
            self.style(seq.file),
            self.json(seq.file),
        )
        .ok_or("the place to add it to is not a sequence written out")?;
        Ok(Edit {
            file: seq.file,
            span,
            text,
        })
    }

    /// An edit that takes the entry `key` out of the mapping `map`.
    pub fn remove_entry(&self, map: At<'_>, key: &str) -> Result<Edit, Refusal> {
        self.editable(map)?;
        let entries = map.node.entries();
        let index = entries
            .iter()
            .rposition(|e| &*e.key.text == key)
            .ok_or("the entry is not there")?;
        let span = remove::entry(self.text(map.file), map.node, index)
            .ok_or("the entry is its mapping's only one")?;
        Ok(Edit {
            file: map.file,
            span,
            text: String::new(),
        })
    }

    /// An edit that takes the item at `index` out of the sequence `seq`.
    pub fn remove_item(&self, seq: At<'_>, index: usize) -> Result<Edit, Refusal> {
        self.editable(seq)?;
        let span = remove::item(self.text(seq.file), seq.node, index)
            .ok_or("the item is not there, or is its sequence's only one")?;
        Ok(Edit {
            file: seq.file,
            span,
            text: String::new(),
        })
    }

    /// An edit that writes `value` in place of the scalar `node` (`false` → `true`).
    pub fn replace_scalar(&self, node: At<'_>, value: &Value) -> Result<Edit, Refusal> {
        self.editable(node)?;
        if node.node.as_scalar().is_none() {
            return Err("the value to change is not a scalar".into());
        }
        let style = self.style(node.file);
        let text = if self.json(node.file) {
            super::value::json(value, style, None)
        } else {
            super::value::flow(value, style)
        };
        Ok(Edit {
            file: node.file,
            span: node.node.span,
            text,
        })
    }

    /// The mapping `map` with `key` set to `value`: the value replaced when `key` is there and
    /// a scalar, else the entry added.
    pub fn set_entry(&self, map: At<'_>, key: &str, value: &Value) -> Result<Edit, Refusal> {
        match map.get(key) {
            Some(old) if old.node.as_scalar().is_some() => self.replace_scalar(old, value),
            Some(_) => Err(format!("its `{key}` is not a scalar").into()),
            None => self.add_entry(map, key, value),
        }
    }

    /// The `$ref` that `from` writes to reach `pointer` (`#/components/...`) in `to`: the
    /// pointer alone in the same file, else the path of `to` relative to `from`'s folder.
    pub fn reference(&self, from: FileId, to: FileId, pointer: &str) -> String {
        if from == to {
            return format!("#{pointer}");
        }
        let from_path = &self.bundle.file(from).source.path;
        let to_path = &self.bundle.file(to).source.path;
        // A file fetched from a URL is named by its URL.
        if let Some(url) = to_path.to_str().filter(|p| crate::fetch::is_http(p)) {
            return format!("{url}#{pointer}");
        }
        let relative = relative_path(from_path.parent().unwrap_or(Path::new("")), to_path);
        format!(
            "{}#{pointer}",
            relative.to_string_lossy().replace('\\', "/")
        )
    }
}

/// `to` written relative to the folder `from` (both absolute).
fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    out
}

/// The name of an anchor set in `region` (the text between a key or a sequence's dash and its
/// value), comments left out.
fn anchor_in(region: &str) -> Option<&str> {
    for line in region.lines() {
        let code = match line.find(" #").or(line.starts_with('#').then_some(0)) {
            Some(at) => &line[..at],
            None => line,
        };
        let mut from = 0;
        while let Some(at) = code[from..].find('&') {
            let start = from + at;
            let before = code[..start].chars().next_back();
            if before.is_none_or(|c| c.is_whitespace() || "-:[{,?".contains(c)) {
                let name: &str = code[start + 1..]
                    .split(|c: char| c.is_whitespace() || ",[]{}".contains(c))
                    .next()
                    .unwrap_or("");
                if !name.is_empty() {
                    return Some(name);
                }
            }
            from = start + 1;
        }
    }
    None
}

/// The node at `path` (keys, or indexes of sequences) under `from`.
pub fn walk<'a>(from: At<'a>, path: &[&str]) -> Option<At<'a>> {
    let mut at = from;
    for key in path {
        let node: &Node = match &at.node.value {
            crate::source::Value::Seq(items) => items.get(key.parse::<usize>().ok()?)?,
            _ => at.node.get(key)?,
        };
        at = at.with(node);
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_found_and_comments_and_quotes_are_not_anchors() {
        assert_eq!(anchor_in(": &common\n  "), Some("common"));
        assert_eq!(anchor_in("- &a "), Some("a"));
        assert_eq!(anchor_in(": # see &x\n  "), None);
        assert_eq!(anchor_in(": "), None);
        assert_eq!(anchor_in(":\n  "), None);
    }

    /// The node at `path` of `text` as `Editor::editable` judges it.
    fn judged(text: &str, path: &[&str]) -> Result<(), Refusal> {
        use crate::resolve::{Bundle, ResolveOptions};
        use crate::source::{Format, SourceFile};
        let source = SourceFile::new("/t.yaml".into(), "t.yaml".into(), text.into(), Format::Yaml);
        let loaded = source.parse(&crate::limits::Limits::default()).unwrap();
        let bundle = Bundle::load(
            source,
            loaded.root,
            loaded.duplicates,
            &crate::files::Disk,
            &ResolveOptions::default(),
        );
        let editor = Editor::new(&bundle);
        let at = walk(bundle.root(), path).expect("the path is there");
        editor.editable(at)
    }

    #[test]
    fn an_anchored_node_is_refused_wherever_its_alias_sits() {
        let text = "openapi: 3.0.3\nx: &a\n  k: 1\ny:\n  k: 2\nz: *a\n";
        let refused = judged(text, &["z"]).unwrap_err();
        assert!(refused.contains("`&a` (line 2)"), "{refused}");
        assert!(judged(text, &["x"]).is_err());
        assert!(judged(text, &["y"]).is_ok());
        let merged = "openapi: 3.0.3\nbase: &b {k: 1}\nop:\n  <<: *b\n  j: 2\n";
        assert!(judged(merged, &["op"]).unwrap_err().contains("merge key"));
        let items = "openapi: 3.0.3\nl:\n  - &i {k: 1}\n  - *i\n  - {k: 3}\n";
        assert!(judged(items, &["l", "1"]).is_err());
        assert!(judged(items, &["l", "2"]).is_ok());
    }

    #[test]
    fn relative_references() {
        assert_eq!(
            relative_path(Path::new("/p/paths"), Path::new("/p/openapi.yaml")),
            PathBuf::from("../openapi.yaml")
        );
        assert_eq!(
            relative_path(Path::new("/p"), Path::new("/p/c/k.yaml")),
            PathBuf::from("c/k.yaml")
        );
    }
}
