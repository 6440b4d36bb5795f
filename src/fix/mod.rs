//! Fixes: what a rule proposes to change in the files it read, and how a set of them is applied.
//!
//! A [`Fix`] is a titled set of [`Edit`]s (a byte range of one file and the text that replaces
//! it), applied whole or not at all, with an [`Applicability`]: a safe fix keeps what the API
//! means (declaring a response it already sends), an unsafe one changes the contract (requiring a
//! header clients do not send yet), and is applied only when asked for. Fixes are applied in
//! passes: [`plan`] takes, by where they start, every fix that conflicts with (or touches) none
//! taken before it and defers the others to the next pass, which runs after the files are linted
//! again (the deferred fix may be stale, or no longer needed); [`apply`] writes one file's taken
//! edits. How many passes, and stopping when a pass changes nothing, is the front end's (`--fix`).
//!
//! The rules' fixes, their place in `Diagnostic` and in the reports come with the engine and
//! autofix work; this module holds the type and the rules of application, which every front end
//! (`--fix`, an editor's code action) shares.

pub mod diff;
pub mod editor;
pub mod insert;
pub mod key;
pub mod key_details;
pub mod remove;
pub mod response;
pub mod run;
pub mod style;
pub mod value;

use crate::resolve::FileId;
use crate::source::Span;

/// Whether a fix may be applied without asking: ruff's and clippy's distinction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Applicability {
    /// Keeps what the API means: applied by `--fix`.
    Safe,
    /// Changes the contract or may be wrong: applied only when unsafe fixes are asked for.
    Unsafe,
}

impl Applicability {
    /// The name reports give it: `"applicability": "safe"`.
    pub fn code(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One change to one file: the bytes of `span` are replaced by `text`. An empty span inserts.
/// `file` is an index into the file table of the document the fix was found in; a project-wide
/// file identity comes with the engine's `Files`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub file: FileId,
    pub span: Span,
    pub text: String,
}

/// A change a rule proposes, applied whole or not at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What it does, as an editor's code action names it: "Declare a 409 response".
    pub title: String,
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A fix `--fix` applies.
    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            title: title.into(),
            applicability: Applicability::Safe,
            edits,
        }
    }

    /// A fix only `--unsafe-fixes` applies.
    pub fn unsafe_(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            title: title.into(),
            applicability: Applicability::Unsafe,
            edits,
        }
    }
}

/// Which fixes one pass applies: indexes into the fixes given to [`plan`], in the order given.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Applied in this pass: no two of their edits conflict.
    pub taken: Vec<usize>,
    /// Conflicting with a fix taken before them: for the next pass, after a new lint.
    pub deferred: Vec<usize>,
    /// Never applicable: their own edits conflict with each other, or they have none.
    pub invalid: Vec<usize>,
}

/// Whether two edits of the same file cannot both be applied: their ranges share a byte, or one
/// inserts inside the other's range, or both insert at the same place. Within one fix, two
/// inserts at one place keep the fix's order and do not conflict (see [`apply`]).
fn conflict(a: &Edit, b: &Edit) -> bool {
    if a.file != b.file {
        return false;
    }
    let (a, b) = (a.span, b.span);
    let inserts = |s: Span| s.start == s.end;
    match (inserts(a), inserts(b)) {
        (true, true) => a.start == b.start,
        (true, false) => b.start < a.start && a.start < b.end,
        (false, true) => a.start < b.start && b.start < a.end,
        (false, false) => a.start < b.end && b.start < a.end,
    }
}

/// Whether an insertion may be written beside another at the same place whichever fix it comes
/// from: a member appended after a flow or JSON collection's last (it starts with its comma), or
/// whole lines of block YAML (they start at a column and end with a line end). An insertion into
/// an empty flow collection, or at the end of a file without a final newline, is not: two of
/// those side by side would need a separator neither has.
fn composable(e: &Edit) -> bool {
    e.span.start == e.span.end
        && (e.text.starts_with(',')
            || (e.text.ends_with('\n') && !e.text.starts_with(['\n', '\r'])))
}

/// The key an inserted entry adds (`headers` of `      headers:\n...`, `maxLength` of
/// `,\n  "maxLength": 255`); `None` for a sequence's item. Two fixes adding one key at one place
/// would write it twice: they are not written side by side.
fn added_key(e: &Edit) -> Option<&str> {
    let body = e.text.trim_start_matches([',', ' ', '\t', '\r', '\n']);
    if body.starts_with('-') {
        return None;
    }
    let key = &body[..body.find(':')?];
    Some(key.trim().trim_matches(['"', '\'']))
}

/// How inserts at one place are ordered: block lines deeper first (an entry of an inner mapping
/// before one of the mapping that holds it, where both end at one byte), and at one depth a
/// sequence's item before a mapping's entry (the item continues the sequence above); otherwise,
/// and for everything else, in the order given.
fn nesting(e: &Edit) -> (std::cmp::Reverse<usize>, bool) {
    if !composable(e) || e.text.starts_with(',') {
        return (std::cmp::Reverse(0), false);
    }
    let body = e.text.trim_start_matches([' ', '\t']);
    let item = body.starts_with("- ") || body.starts_with("-\n") || body.starts_with("-\r");
    (std::cmp::Reverse(e.text.len() - body.len()), !item)
}

/// Where an edit is written among the others: by place and, among inserts at one place, by
/// [`nesting`]. Stable sorts keep inserts of one nesting at one place in the order given.
fn written_order(e: &Edit) -> (FileId, u32, u32, (std::cmp::Reverse<usize>, bool)) {
    (e.file, e.span.start, e.span.end, nesting(e))
}

/// Puts a fix's edits in the order [`apply`] writes them. Reports and the editor server list
/// them so, because their readers apply edits in the order given: an LSP client writes inserts
/// at one place in array order (the spec says so), and so does a SARIF consumer. Given in the
/// order a fix was composed (the key's parameter, then the responses it brings, all at the end
/// of an operation), a 409 would land in `parameters` rather than in `responses`.
pub fn order(edits: &mut [Edit]) {
    edits.sort_by_key(written_order);
}

/// The fixes of `fixes` that one pass applies. They are taken in the order of where they start
/// (file, then byte), whatever order they were found in: each, unless one of its edits
/// conflicts with, or touches, an edit of a fix already taken (then it waits for the next pass,
/// as two changes side by side may not make sense together: a deletion up to a place and an
/// insertion there), or is invalid itself. An edit the same as one already taken is not a
/// conflict: it is written once. Only the fixes `allowed` admits are considered
/// (`|f| f.applicability == Applicability::Safe` for `--fix`); `text_of` gives each file's text,
/// against which every edit is checked, so that a fix is applied whole or not at all.
pub fn plan<'t>(
    fixes: &[Fix],
    allowed: impl Fn(&Fix) -> bool,
    text_of: impl Fn(FileId) -> Option<&'t str>,
) -> Plan {
    let mut plan = Plan::default();
    let mut order: Vec<usize> = (0..fixes.len()).collect();
    order.sort_by_key(|&at| {
        let first = fixes[at].edits.iter().map(|e| (e.file, e.span.start)).min();
        (first, at)
    });
    // The edits taken, by file and place. They never overlap, so by start their ends never
    // decrease either: the ones an edit may meet are found by walking back from its end until
    // one ends before it starts (a large spec has thousands of fixes; a scan of every edit
    // taken for each would be quadratic).
    let mut taken: std::collections::BTreeMap<(FileId, u32, u32, usize), &Edit> =
        std::collections::BTreeMap::new();
    let touches = |a: &Edit, b: &Edit| {
        a.file == b.file && (a.span.end == b.span.start || b.span.end == a.span.start)
    };
    for at in order {
        let fix = &fixes[at];
        if !allowed(fix) {
            continue;
        }
        let edits = &fix.edits;
        let own_conflict = edits.iter().enumerate().any(|(i, a)| {
            edits[i + 1..]
                .iter()
                .any(|b| conflict(a, b) && !(a.span == b.span && a.span.start == a.span.end))
        });
        let valid = edits
            .iter()
            .all(|e| text_of(e.file).is_some_and(|text| check(text, e).is_ok()));
        if edits.is_empty() || own_conflict || !valid {
            plan.invalid.push(at);
        } else if edits.iter().any(|e| {
            taken
                .range(..=(e.file, e.span.end, u32::MAX, usize::MAX))
                .rev()
                .take_while(|(_, t)| t.file == e.file && t.span.end >= e.span.start)
                .any(|(_, t)| {
                    let beside = e.span == t.span
                        && composable(e)
                        && composable(t)
                        && (added_key(e).is_none() || added_key(e) != added_key(t));
                    *t != e && !beside && (conflict(e, t) || touches(e, t))
                })
        }) {
            plan.deferred.push(at);
        } else {
            for e in edits {
                // (An edit the same as one taken is written once: kept once.)
                let same = taken
                    .range(
                        (e.file, e.span.start, e.span.end, 0)
                            ..=(e.file, e.span.start, e.span.end, usize::MAX),
                    )
                    .any(|(_, t)| *t == e);
                if !same {
                    let n = taken.len();
                    taken.insert((e.file, e.span.start, e.span.end, n), e);
                }
            }
            plan.taken.push(at);
        }
    }
    plan.taken.sort_unstable();
    plan.deferred.sort_unstable();
    plan.invalid.sort_unstable();
    plan
}

/// Why a file's edits could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// The range ends past the file, or starts after it ends.
    OutOfBounds { span: Span, len: usize },
    /// The edits given are not all of one file.
    MixedFiles { first: FileId, second: FileId },
    /// The range cuts a UTF-8 character in two.
    InsideACharacter { span: Span },
    /// Two edits conflict: the taken edits of a [`plan`] never do.
    Conflict { first: Span, second: Span },
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::OutOfBounds { span, len } if span.start > span.end => write!(
                f,
                "an edit of bytes {}..{} ends before it starts (the file has {len} bytes)",
                span.start, span.end
            ),
            EditError::OutOfBounds { span, len } => write!(
                f,
                "an edit of bytes {}..{} falls outside the file ({len} bytes)",
                span.start, span.end
            ),
            EditError::MixedFiles { first, second } => write!(
                f,
                "edits of files {} and {} given to be written into one",
                first.0, second.0
            ),
            EditError::InsideACharacter { span } => write!(
                f,
                "an edit of bytes {}..{} cuts a character in two",
                span.start, span.end
            ),
            EditError::Conflict { first, second } => write!(
                f,
                "edits of bytes {}..{} and {}..{} overlap",
                first.start, first.end, second.start, second.end
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// Whether `e` can be written into `text`: in bounds, not ending before it starts, on
/// character boundaries.
fn check(text: &str, e: &Edit) -> Result<(), EditError> {
    let (start, end) = (e.span.start as usize, e.span.end as usize);
    if start > end || end > text.len() {
        return Err(EditError::OutOfBounds {
            span: e.span,
            len: text.len(),
        });
    }
    if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return Err(EditError::InsideACharacter { span: e.span });
    }
    Ok(())
}

/// `text` with `edits` (all of one file, in any order) applied; the bytes between them are kept
/// as they are, line endings included. Inserts at one place are written in the order given (as
/// a fix lists them), and an edit given twice is written once.
pub fn apply(text: &str, edits: &[&Edit]) -> Result<String, EditError> {
    if let Some(other) = edits.iter().find(|e| e.file != edits[0].file) {
        return Err(EditError::MixedFiles {
            first: edits[0].file,
            second: other.file,
        });
    }
    for e in edits {
        check(text, e)?;
    }
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort_by_key(|e| written_order(e));
    // (An edit given twice is written once, wherever the other copy sits among inserts at one
    // place.)
    let mut seen = std::collections::HashSet::new();
    sorted.retain(|e| seen.insert((e.span.start, e.span.end, e.text.as_str())));
    for pair in sorted.windows(2) {
        let same_place_inserts =
            pair[0].span == pair[1].span && pair[0].span.start == pair[0].span.end;
        if conflict(pair[0], pair[1]) && !same_place_inserts {
            return Err(EditError::Conflict {
                first: pair[0].span,
                second: pair[1].span,
            });
        }
    }
    let added: usize = sorted.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(text.len() + added);
    let mut at = 0;
    for e in sorted {
        out.push_str(&text[at..e.span.start as usize]);
        out.push_str(&e.text);
        at = e.span.end as usize;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(file: u32, start: usize, end: usize, text: &str) -> Edit {
        // (Built by hand: `Span::new` asserts an order, and a reversed span is a case here.)
        Edit {
            file: FileId(file),
            span: Span {
                start: start as u32,
                end: end as u32,
            },
            text: text.to_string(),
        }
    }

    fn fix(title: &str, applicability: Applicability, edits: Vec<Edit>) -> Fix {
        Fix {
            title: title.to_string(),
            applicability,
            edits,
        }
    }

    fn safe(edits: Vec<Edit>) -> Fix {
        fix("a fix", Applicability::Safe, edits)
    }

    /// A text long enough for every span of these tests, for each file.
    fn any_text(_: FileId) -> Option<&'static str> {
        Some("0123456789012345678901234567890123456789")
    }

    #[test]
    fn edits_are_applied_in_place_whatever_their_order() {
        let text = "responses:\r\n  '200': {description: OK}\r\n";
        let a = edit(0, 0, 0, "# fixed\r\n");
        let b = edit(0, 35, 37, "Created");
        let c = edit(0, 15, 18, "201");
        assert_eq!(
            apply(text, &[&b, &a, &c]).unwrap(),
            "# fixed\r\nresponses:\r\n  '201': {description: Created}\r\n"
        );
    }

    #[test]
    fn edits_that_touch_do_not_conflict_and_a_replacement_may_be_followed_by_an_insert() {
        let text = "abcdef";
        let a = edit(0, 1, 3, "X");
        let b = edit(0, 3, 3, "Y");
        let c = edit(0, 3, 5, "Z");
        assert_eq!(apply(text, &[&a, &b, &c]).unwrap(), "aXYZf");
    }

    #[test]
    fn overlapping_or_same_place_inserts_are_refused() {
        let text = "abcdef";
        let overlap = apply(text, &[&edit(0, 1, 4, "X"), &edit(0, 3, 5, "Y")]);
        assert_eq!(
            overlap,
            Err(EditError::Conflict {
                first: Span::new(1, 4),
                second: Span::new(3, 5)
            })
        );
        assert_eq!(
            apply(text, &[&edit(0, 1, 4, "X"), &edit(0, 2, 2, "Y")]),
            Err(EditError::Conflict {
                first: Span::new(1, 4),
                second: Span::new(2, 2)
            })
        );
    }

    #[test]
    fn out_of_bounds_and_split_characters_are_errors_not_panics() {
        let text = "é: 1"; // `é` is two bytes.
        assert_eq!(
            apply(text, &[&edit(0, 3, 9, "x")]),
            Err(EditError::OutOfBounds {
                span: Span::new(3, 9),
                len: 5
            })
        );
        assert_eq!(
            apply(text, &[&edit(0, 1, 2, "e")]),
            Err(EditError::InsideACharacter {
                span: Span::new(1, 2)
            })
        );
        assert_eq!(
            EditError::InsideACharacter {
                span: Span::new(1, 2)
            }
            .to_string(),
            "an edit of bytes 1..2 cuts a character in two"
        );
        assert_eq!(apply(text, &[&edit(0, 0, 2, "e")]).unwrap(), "e: 1");
    }

    #[test]
    fn a_fix_that_conflicts_with_one_taken_before_waits_for_the_next_pass() {
        let fixes = vec![
            safe(vec![edit(0, 10, 20, "a")]),
            safe(vec![edit(0, 15, 25, "b")]),
            safe(vec![edit(0, 21, 30, "c")]),
            safe(vec![edit(1, 15, 25, "d")]),
            safe(vec![edit(0, 12, 12, "e")]),
        ];
        let plan = plan(&fixes, |_| true, any_text);
        assert_eq!(plan.taken, vec![0, 2, 3]);
        assert_eq!(plan.deferred, vec![1, 4]);
        assert!(plan.invalid.is_empty());
    }

    #[test]
    fn a_fix_is_taken_whole_or_not_at_all_across_files() {
        // The second fix's edit of file 1 is free, but its edit of file 0 conflicts: neither is
        // applied in this pass.
        let fixes = vec![
            safe(vec![edit(0, 0, 5, "a")]),
            safe(vec![edit(1, 0, 5, "b"), edit(0, 3, 4, "c")]),
            safe(vec![edit(1, 2, 3, "d")]),
        ];
        let plan = plan(&fixes, |_| true, any_text);
        assert_eq!(plan.taken, vec![0, 2]);
        assert_eq!(plan.deferred, vec![1]);
    }

    #[test]
    fn a_fix_whose_own_edits_conflict_or_that_has_none_never_applies() {
        let fixes = vec![
            safe(vec![edit(0, 0, 5, "a"), edit(0, 4, 6, "b")]),
            safe(vec![]),
            safe(vec![edit(0, 0, 5, "c")]),
        ];
        let plan = plan(&fixes, |_| true, any_text);
        assert_eq!(plan.invalid, vec![0, 1]);
        assert_eq!(plan.taken, vec![2]);
    }

    #[test]
    fn unsafe_fixes_are_left_out_unless_allowed_and_block_nothing() {
        let fixes = vec![
            fix(
                "Require the key",
                Applicability::Unsafe,
                vec![edit(0, 0, 5, "a")],
            ),
            safe(vec![edit(0, 2, 3, "b")]),
        ];
        let safe_only = plan(&fixes, |f| f.applicability == Applicability::Safe, any_text);
        assert_eq!(safe_only.taken, vec![1]);
        assert!(safe_only.deferred.is_empty());
        let all = plan(&fixes, |_| true, any_text);
        assert_eq!(all.taken, vec![0]);
        assert_eq!(all.deferred, vec![1]);
        assert_eq!(Applicability::Unsafe.code(), "unsafe");
    }

    #[test]
    fn the_taken_edits_of_a_plan_apply_file_by_file() {
        let files = ["a: 1\n", "b: 2\n"];
        let fixes = vec![
            safe(vec![edit(0, 3, 4, "10"), edit(1, 3, 4, "20")]),
            safe(vec![edit(0, 3, 4, "11")]),
        ];
        let plan = plan(
            &fixes,
            |_| true,
            |file: FileId| files.get(file.0 as usize).copied(),
        );
        let written: Vec<String> = (0..2u32)
            .map(|file| {
                let edits: Vec<&Edit> = plan
                    .taken
                    .iter()
                    .flat_map(|&i| &fixes[i].edits)
                    .filter(|e| e.file == FileId(file))
                    .collect();
                apply(files[file as usize], &edits).unwrap()
            })
            .collect();
        assert_eq!(written, ["a: 10\n", "b: 20\n"]);
        assert_eq!(plan.deferred, vec![1]);
    }

    #[test]
    fn inserts_at_one_place_keep_their_order_and_an_edit_given_twice_is_written_once() {
        let text = "a: 1\n";
        let first = edit(0, 5, 5, "b: 2\n");
        let second = edit(0, 5, 5, "c: 3\n");
        assert_eq!(
            apply(text, &[&first, &second]).unwrap(),
            "a: 1\nb: 2\nc: 3\n"
        );
        assert_eq!(
            apply(text, &[&second, &first]).unwrap(),
            "a: 1\nc: 3\nb: 2\n"
        );
        let bump = edit(0, 3, 4, "2");
        assert_eq!(apply(text, &[&bump, &bump.clone()]).unwrap(), "a: 2\n");
        // One fix may insert twice at one place; two fixes may too when each writes whole lines
        // (or a member after a comma), but not an insertion needing a separator.
        let one = vec![safe(vec![first.clone(), second.clone()])];
        assert_eq!(plan(&one, |_| true, any_text).taken, vec![0]);
        let two = vec![safe(vec![first.clone()]), safe(vec![second])];
        assert_eq!(plan(&two, |_| true, any_text).taken, vec![0, 1]);
        let bare = vec![safe(vec![first.clone()]), safe(vec![edit(0, 5, 5, "c: 3")])];
        assert_eq!(plan(&bare, |_| true, any_text).deferred, vec![1]);
        // Nor two that add one key, whatever it holds.
        let again = vec![safe(vec![first]), safe(vec![edit(0, 5, 5, "b: 3\n")])];
        assert_eq!(plan(&again, |_| true, any_text).deferred, vec![1]);
    }

    #[test]
    fn block_lines_inserted_at_one_place_go_deepest_first_and_items_before_entries() {
        // `op:` ends where its `responses:` ends: a 409 for `responses`, a `parameters` entry for
        // `op` and a top-level entry, from three fixes, all at the end of the text.
        let text = "op:\n  responses:\n    '201': {description: ok}\n";
        let end = text.len();
        let top = edit(0, end, end, "components: {}\n");
        let op = edit(0, end, end, "  parameters: []\n");
        let response = edit(0, end, end, "    '409': {description: busy}\n");
        let fixes = vec![safe(vec![top]), safe(vec![op]), safe(vec![response])];
        let planned = plan(&fixes, |_| true, |_| Some(text));
        assert_eq!(planned.taken, vec![0, 1, 2]);
        let edits: Vec<&Edit> = fixes.iter().flat_map(|f| &f.edits).collect();
        assert_eq!(
            apply(text, &edits).unwrap(),
            "op:\n  responses:\n    '201': {description: ok}\n    '409': {description: busy}\n  \
             parameters: []\ncomponents: {}\n"
        );
        // A flush sequence's item and an entry of the mapping above it, at one column.
        let text = "op:\n  parameters:\n  - a\n";
        let end = text.len();
        let entry = edit(0, end, end, "  responses: {}\n");
        let item = edit(0, end, end, "  - b\n");
        assert_eq!(
            apply(text, &[&entry, &item]).unwrap(),
            "op:\n  parameters:\n  - a\n  - b\n  responses: {}\n"
        );
    }

    #[test]
    fn edits_of_two_fixes_that_only_touch_wait_for_the_next_pass() {
        // `{"a":1}`: one fix deletes `"a":1`, another inserts `,"b":2` after it; together they
        // would leave `{,"b":2}`.
        let fixes = vec![
            safe(vec![edit(0, 1, 6, "")]),
            safe(vec![edit(0, 6, 6, ",\"b\":2")]),
        ];
        let plan = plan(&fixes, |_| true, |_| Some("{\"a\":1}"));
        assert_eq!(plan.taken, vec![0]);
        assert_eq!(plan.deferred, vec![1]);
    }

    #[test]
    fn the_same_edit_in_two_fixes_is_no_conflict() {
        let declare = edit(0, 10, 10, "'409': {description: Conflict}\n");
        let fixes = vec![
            safe(vec![declare.clone(), edit(0, 20, 21, "x")]),
            safe(vec![declare]),
        ];
        assert_eq!(plan(&fixes, |_| true, any_text).taken, vec![0, 1]);
    }

    #[test]
    fn fixes_are_taken_by_where_they_start_not_by_the_order_they_were_found() {
        let later = safe(vec![edit(0, 15, 25, "b")]);
        let earlier = safe(vec![edit(0, 10, 20, "a")]);
        let found = vec![later, earlier];
        let plan = plan(&found, |_| true, any_text);
        assert_eq!(plan.taken, vec![1]);
        assert_eq!(plan.deferred, vec![0]);
    }

    #[test]
    fn a_fix_with_an_edit_the_file_cannot_take_is_invalid_whole() {
        let text = "é: 1";
        let fixes = vec![
            // Good in file 0, reversed in file 1: neither file is written.
            safe(vec![edit(0, 4, 5, "2"), edit(1, 5, 3, "x")]),
            safe(vec![edit(0, 1, 2, "e")]),
            safe(vec![edit(2, 0, 1, "x")]),
            safe(vec![edit(0, 0, 2, "e")]),
        ];
        let plan = plan(
            &fixes,
            |_| true,
            |file: FileId| (file.0 < 2).then_some(text),
        );
        assert_eq!(plan.invalid, vec![0, 1, 2]);
        assert_eq!(plan.taken, vec![3]);
        assert_eq!(
            apply(text, &[&edit(0, 5, 3, "x")]).unwrap_err().to_string(),
            "an edit of bytes 5..3 ends before it starts (the file has 5 bytes)"
        );
    }

    #[test]
    fn edits_of_another_file_are_refused_not_written() {
        assert_eq!(
            apply("abcdef", &[&edit(0, 1, 2, "X"), &edit(1, 3, 5, "Y")]),
            Err(EditError::MixedFiles {
                first: FileId(0),
                second: FileId(1)
            })
        );
        assert_eq!(apply("abc", &[]).unwrap(), "abc");
    }
}
