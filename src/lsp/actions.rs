//! Code actions: each finding's fix as a `quickfix` (an unsafe one says so in its title), a
//! suppression of the finding's rule for its operation (`x-idemlint-ignore`) or its line
//! (`# idemlint-ignore`), and "Fix all idemlint problems" (`source.fixAll.idemlint`): the safe
//! fixes `check --fix` would apply to the buffer, as edits of the lines they change.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, Range, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use super::position::{self, Encoding};
use crate::fix::Applicability;
use crate::fix::value::Value;
use crate::report::Finding;
use crate::source::{Format, LineIndex, Node, Span};

/// The kind of "Fix all idemlint problems".
pub const FIX_ALL: &str = "source.fixAll.idemlint";

/// What a suppression added by a code action says until its author says why.
pub const REASON: &str = "TODO say why a retry of this is safe";

/// How edits of one file are addressed: the URI the client knows it by and, for an open
/// buffer, the version the edits were made against (the client refuses them on another).
#[derive(Clone)]
pub struct Target {
    pub uri: Uri,
    pub version: Option<i32>,
}

/// Edits of several files, as one workspace edit.
pub struct Edits {
    by_file: Vec<(Target, Vec<TextEdit>)>,
}

impl Edits {
    pub fn new() -> Self {
        Edits {
            by_file: Vec::new(),
        }
    }

    pub fn push(&mut self, target: &Target, edit: TextEdit) {
        match self.by_file.iter_mut().find(|(t, _)| t.uri == target.uri) {
            Some((_, edits)) => edits.push(edit),
            None => self.by_file.push((target.clone(), vec![edit])),
        }
    }

    /// Versioned `documentChanges` when the client takes them (so edits made against an older
    /// buffer are refused, not applied at the wrong place), else plain `changes`.
    pub fn into_workspace_edit(self, document_changes: bool) -> WorkspaceEdit {
        if document_changes {
            let edits = self
                .by_file
                .into_iter()
                .map(|(t, edits)| TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier {
                        uri: t.uri,
                        version: t.version,
                    },
                    edits: edits.into_iter().map(OneOf::Left).collect(),
                })
                .collect();
            WorkspaceEdit {
                document_changes: Some(DocumentChanges::Edits(edits)),
                ..WorkspaceEdit::default()
            }
        } else {
            // (`Uri` hashes its text, which never changes: clippy cannot see through it.)
            #[allow(clippy::mutable_key_type)]
            let changes: HashMap<Uri, Vec<TextEdit>> = self
                .by_file
                .into_iter()
                .map(|(t, edits)| (t.uri, edits))
                .collect();
            WorkspaceEdit {
                changes: Some(changes),
                ..WorkspaceEdit::default()
            }
        }
    }
}

/// Whether an action of `kind` was asked for (`only`: none means any).
pub fn wanted(only: Option<&[CodeActionKind]>, kind: &str) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|k| {
            let k = k.as_str();
            kind == k
                || kind
                    .strip_prefix(k)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    })
}

/// The finding's fix as a quick fix. `target`: how each file the fix edits is addressed, or
/// `None` when its buffer has changed since the fix was made (then there is no action).
pub fn quick_fix(
    f: &Finding,
    diagnostic: &Diagnostic,
    enc: Encoding,
    target: &dyn Fn(&Path) -> Option<Target>,
    document_changes: bool,
) -> Option<CodeAction> {
    let fix = f.fix.as_deref()?;
    let mut edits = Edits::new();
    for e in &fix.edits {
        let range = position::range(&e.source, e.span.start as usize, e.span.end as usize, enc);
        edits.push(
            &target(&e.source.path)?,
            TextEdit::new(range, e.text.clone()),
        );
    }
    let safe = fix.applicability == Applicability::Safe;
    Some(CodeAction {
        title: if safe {
            fix.title.clone()
        } else {
            format!("{} (unsafe)", fix.title)
        },
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(edits.into_workspace_edit(document_changes)),
        is_preferred: Some(safe),
        ..CodeAction::default()
    })
}

/// "Ignore <rule> for this operation": `x-idemlint-ignore` on the finding's operation, with
/// the rule and a reason to fill in, in the file's own style (block or flow YAML, JSON).
pub fn ignore_for_operation(
    f: &Finding,
    root: &Node,
    diagnostic: &Diagnostic,
    enc: Encoding,
    target: &Target,
    document_changes: bool,
) -> Option<CodeAction> {
    let (op_file, key) = f.operation_at.as_ref()?;
    // (An operation in another file than its finding is left to the line's suppression.)
    if **op_file != *f.source.path {
        return None;
    }
    let source = &f.source;
    let operation = &entry_at(root, *key)?.value;
    let json = source.format == Format::Json;
    let style = crate::fix::style::sniff(&source.text, json);
    let rule = f.rule.as_str();
    let (span, text) = match operation.get(crate::suppress::EXTENSION) {
        Some(list) if list.as_seq().is_some() => {
            if list.items().iter().any(|n| n.as_str() == Some(rule)) {
                return None;
            }
            crate::fix::insert::item(&source.text, list, &Value::str(rule), &style, json)?
        }
        Some(map) if map.as_map().is_some() => {
            if map.get(rule).is_some() {
                return None;
            }
            crate::fix::insert::entry(&source.text, map, rule, &Value::str(REASON), &style, json)?
        }
        Some(_) => return None,
        None => crate::fix::insert::entry(
            &source.text,
            operation,
            crate::suppress::EXTENSION,
            &Value::map([(rule, Value::str(REASON))]),
            &style,
            json,
        )?,
    };
    let range = position::range(source, span.start as usize, span.end as usize, enc);
    let mut edits = Edits::new();
    edits.push(target, TextEdit::new(range, text));
    Some(CodeAction {
        title: format!("Ignore {rule} for this operation"),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(edits.into_workspace_edit(document_changes)),
        ..CodeAction::default()
    })
}

/// The entry of `node`'s tree whose key is at `key`.
fn entry_at(node: &Node, key: Span) -> Option<&crate::source::Entry> {
    for e in node.entries() {
        if e.key.span == key {
            return Some(e);
        }
        if let Some(found) = entry_at(&e.value, key) {
            return Some(found);
        }
    }
    node.items().iter().find_map(|n| entry_at(n, key))
}

/// "Ignore <rule> on this line": a `# idemlint-ignore` comment (YAML only) at the end of the
/// finding's line, or, when the line already holds a `#`, alone on a line above it at its
/// indentation (it then speaks for the next line).
pub fn ignore_on_line(
    f: &Finding,
    root: &Node,
    diagnostic: &Diagnostic,
    enc: Encoding,
    target: &Target,
    document_changes: bool,
) -> Option<CodeAction> {
    let source = &f.source;
    if source.format != Format::Yaml {
        return None;
    }
    let text = &source.text;
    let line = f.line.saturating_sub(1) as usize;
    let start = source.lines.line_start(line);
    let end = source.lines.line_end(text, line);
    let content = &text[start..end];
    // A comment cannot go inside a scalar: on a line of a block scalar's text, or of a plain
    // or quoted one over several lines, it would become part of the text (or end it early).
    // The operation's suppression is offered instead.
    if [start, end].iter().any(|&at| splits_scalar(root, text, at)) {
        return None;
    }
    let rule = f.rule.as_str();
    let comment = format!("# idemlint-ignore {rule}: {REASON}");
    let (at, insert) = if content.contains('#') {
        let indent: String = content.chars().take_while(|c| *c == ' ').collect();
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        (start, format!("{indent}{comment}{eol}"))
    } else {
        (end, format!(" {comment}"))
    };
    let pos = position::position(source, at, enc);
    let mut edits = Edits::new();
    edits.push(target, TextEdit::new(Range::new(pos, pos), insert));
    Some(CodeAction {
        title: format!("Ignore {rule} on this line"),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic.clone()]),
        edit: Some(edits.into_workspace_edit(document_changes)),
        ..CodeAction::default()
    })
}

/// Whether the line boundary `at` (a line's start or end) falls inside a scalar of `node`'s
/// tree, where no comment may go. A block scalar's header line (`description: |`) may end in a
/// comment: its text starts on the next line.
fn splits_scalar(node: &Node, text: &str, at: usize) -> bool {
    let inside = |span: Span| (span.start as usize) < at && at < span.end as usize;
    if !inside(node.span) {
        return false;
    }
    match &node.value {
        crate::source::Value::Scalar(_) => {
            let start = node.span.start as usize;
            let block = text[start..].starts_with(['|', '>']);
            let header_end = text[start..].find('\n').map(|i| start + i);
            let header_end = header_end.map(|e| e - usize::from(text[..e].ends_with('\r')));
            !(block && Some(at) == header_end)
        }
        _ => {
            node.entries()
                .iter()
                .any(|e| inside(e.key.span) || splits_scalar(&e.value, text, at))
                || node.items().iter().any(|n| splits_scalar(n, text, at))
        }
    }
}

/// What `check --fix PATH` would change, run on the document `path` whose buffer is `text`:
/// the safe fixes applied in passes, in the document and in the files under the root it
/// `$ref`s, every file read through `buffers` (unsaved buffers before the disk). Each changed
/// file with its text before and after; nothing is written.
pub fn fixed_files(
    path: &Path,
    text: &str,
    opts: &crate::lint::Options,
    buffers: &[super::documents::Snapshot],
) -> Vec<crate::fix::run::Changed> {
    let mode = crate::fix::run::FixMode {
        unsafe_fixes: false,
        diff: false,
    };
    let mut files = super::documents::overlay(buffers);
    // (The text the action was asked for, whatever the buffer is now.)
    files.set(path.to_path_buf(), text);
    let (_, fixed) =
        crate::fix::run::run_on(&[path.to_path_buf()], opts, None, mode, Box::new(files));
    fixed.changed
}

/// The edits that turn `before` into `after`, a hunk of whole lines each, so the rest of the
/// buffer (and the cursor in it) is left as it is.
pub fn line_edits(before: &str, after: &str, enc: Encoding) -> Vec<TextEdit> {
    let diff = similar::TextDiff::from_lines(before, after);
    let old = diff.old_slices();
    let new = diff.new_slices();
    let mut starts = Vec::with_capacity(old.len() + 1);
    let mut at = 0;
    starts.push(0);
    for line in old {
        at += line.len();
        starts.push(at);
    }
    let lines = LineIndex::new(before);
    diff.ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| {
            let (o, n) = (op.old_range(), op.new_range());
            let range = Range::new(
                position::position_in(before, &lines, starts[o.start], enc),
                position::position_in(before, &lines, starts[o.end], enc),
            );
            TextEdit::new(range, new[n].concat())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn line_edits_rewrite_only_the_lines_that_changed() {
        let before = "a: 1\nb: 2\nc: 3";
        let after = "a: 1\nb: 2\n  x: y\nc: 4";
        let edits = line_edits(before, after, Encoding::Utf16);
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].range.start, lsp_types::Position::new(2, 0));
        assert_eq!(edits[0].range.end, lsp_types::Position::new(2, 4));
        assert_eq!(edits[0].new_text, "  x: y\nc: 4");
    }

    #[test]
    fn a_comment_never_goes_inside_a_scalar() {
        let text = "a:\n  description: |\n    Keys are kept\n    for 1 hour\n  plain: one\n    two\n  b: 1 # x\n";
        let source = crate::source::SourceFile::new(
            PathBuf::from("/a.yaml"),
            "a.yaml".into(),
            text.into(),
            Format::Yaml,
        );
        let root = source.parse(&Default::default()).unwrap().root;
        let lines = LineIndex::new(text);
        let splits = |line: usize| {
            let (start, end) = (lines.line_start(line), lines.line_end(text, line));
            [start, end]
                .iter()
                .any(|&at| splits_scalar(&root, text, at))
        };
        // `a:`, the block scalar's header, `b: 1`: a comment may go at their end.
        assert!(!splits(0) && !splits(1) && !splits(6));
        // The block scalar's text, and both lines of the plain scalar over two lines.
        assert!(splits(2) && splits(3) && splits(4) && splits(5));
    }

    #[test]
    fn only_filters_by_kind_prefix() {
        let only = [CodeActionKind::SOURCE_FIX_ALL];
        assert!(wanted(Some(&only), FIX_ALL));
        assert!(!wanted(Some(&only), "quickfix"));
        assert!(wanted(None, "quickfix"));
        assert!(!wanted(
            Some(&[CodeActionKind::new("source.fixAllx")]),
            FIX_ALL
        ));
    }
}
