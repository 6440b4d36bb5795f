//! `check --fix --unsafe-fixes` over every root document of ../shared/corpus (skipped, saying
//! so, when the corpus is not beside this checkout): the acceptance of the autofix work.
//!
//! Each root document of MANIFEST.tsv is fixed in a fresh copy of its vendor's folder (the
//! fragments its `$ref`s reach are in it, and a fix may edit them), so every file MANIFEST.tsv
//! lists is either fixed and checked or compared byte for byte. For each root:
//!
//! - `check --format json` (before), `check --diff --unsafe-fixes` (which must write nothing),
//!   `check --fix --unsafe-fixes --format json`, then the same `--fix` again;
//! - the fixed files still load: the fix run reports no error and does not exit 2, and a fixed
//!   `.json` file is still JSON (YAML would take a trailing comma in a flow mapping);
//! - every finding that carried a fix before is gone after (its fingerprint, stable under line
//!   shifts, is not among the remaining findings): with `--unsafe-fixes` every fix applies, and
//!   one deferred by a conflict is applied in a later pass, so one still there was either not
//!   applied in the passes `--fix` has, or applied without resolving its finding;
//! - no finding is there after whose fingerprint was not there before;
//! - a line diff (Myers', as `--diff` prints) of each original against its fixed file shows
//!   inserted lines only at the place of an edit of the before run's fixes, and changed or
//!   removed lines only inside an edit's lines (an insertion the diff could as well have shown a
//!   few lines up or down, among equal lines, counts at any of those places). A change at no such
//!   edit may be a fix of a later pass, for a finding an earlier pass brought (a deprecated POST
//!   is asked for a key once most POSTs have one): undone, the linted files must then propose a
//!   fix at its place. Those are listed as notes under the table; any other is a failure. Line
//!   ends (LF or CRLF) and the final newline stay as they were;
//! - the `--diff` output, applied to the originals, gives exactly the fixed files, and its exit
//!   code says whether there was something to fix;
//! - the second `--fix` changes no byte and applies nothing.
//!
//! A table of the counts per root document (findings before, with a fix, fixed, remaining) is
//! printed (`cargo test --test fix_corpus -- --nocapture` shows it) and written to
//! `target/tmp/fix_corpus.md`. The roots run in parallel, largest first, one per core.
//! `IDEMLINT_FIX_CORPUS=stripe` keeps only the roots whose path contains `stripe`.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use serde_json::Value;

/// The most problems reported for one root document: the rest are counted.
const MAX_PROBLEMS: usize = 25;

/// An edit of a fix, as the JSON report gives it (lines and columns from 1).
#[derive(Debug, Clone)]
struct EditAt {
    file: String,
    line: usize,
    end_line: usize,
    end_column: usize,
}

impl EditAt {
    /// The last line whose text the edit replaces: a range that ends at a line's first column
    /// ends on the line before.
    fn last_line(&self) -> usize {
        if self.end_column == 1 && self.end_line > self.line {
            self.end_line - 1
        } else {
            self.end_line
        }
    }

    /// Whether lines inserted after line `after` (0: before the first) sit at this edit.
    fn inserts_after(&self, after: usize) -> bool {
        self.line - 1 <= after && after <= self.last_line()
    }

    /// Whether the edit's range covers line `line`.
    fn covers(&self, line: usize) -> bool {
        self.line <= line && line <= self.last_line()
    }
}

#[derive(Debug)]
struct Finding {
    rule: String,
    file: String,
    line: u64,
    message: String,
    pointer: String,
    fingerprint: String,
    /// The edits of its fix, when it has one.
    fix: Option<Vec<EditAt>>,
}

impl Finding {
    fn describe(&self) -> String {
        format!(
            "{}:{} [{}] {}",
            self.file, self.line, self.rule, self.message
        )
    }
}

/// A `./`-less, `/`-separated path, as [`common::tree_bytes`] names files.
fn norm(path: &str) -> String {
    path.replace('\\', "/").trim_start_matches("./").to_string()
}

fn findings(report: &Value) -> Result<Vec<Finding>, String> {
    let list = report["findings"]
        .as_array()
        .ok_or("the report has no `findings` list")?;
    list.iter()
        .map(|f| {
            let text = |k: &str| {
                f[k].as_str()
                    .map(str::to_string)
                    .ok_or(format!("a finding has no `{k}`: {f}"))
            };
            let fix = match &f["fix"] {
                Value::Null => None,
                fix => Some(
                    fix["edits"]
                        .as_array()
                        .ok_or(format!("a fix has no `edits`: {fix}"))?
                        .iter()
                        .map(|e| {
                            let n = |k: &str| {
                                e[k].as_u64()
                                    .map(|n| n as usize)
                                    .ok_or(format!("an edit has no `{k}`: {e}"))
                            };
                            Ok(EditAt {
                                file: norm(e["file"].as_str().ok_or("an edit has no `file`")?),
                                line: n("line")?,
                                end_line: n("end_line")?,
                                end_column: n("end_column")?,
                            })
                        })
                        .collect::<Result<Vec<_>, String>>()?,
                ),
            };
            Ok(Finding {
                rule: text("rule")?,
                file: norm(&text("file")?),
                line: f["line"].as_u64().unwrap_or(0),
                message: text("message")?,
                pointer: text("pointer")?,
                fingerprint: text("fingerprint")?,
                fix,
            })
        })
        .collect()
}

/// The input errors of a report, as lines.
fn errors(report: &Value) -> Vec<String> {
    report["errors"]
        .as_array()
        .map(|errors| {
            errors
                .iter()
                .map(|e| {
                    format!(
                        "{}:{}: {}",
                        e["file"].as_str().unwrap_or("?"),
                        e["line"],
                        e["message"].as_str().unwrap_or("?")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// One row of the table.
#[derive(Default, Clone)]
struct Row {
    spec: String,
    before: usize,
    fixable: usize,
    fixed: usize,
    applied: u64,
    remaining: usize,
    remaining_fixable: u64,
    files_changed: usize,
    lines_inserted: usize,
    lines_changed: usize,
    lines_removed: usize,
    /// Changes made by fixes of a later pass, for findings the original did not have there.
    later: usize,
    seconds: f64,
}

/// What one root document gave: its row, what was wrong, and what is worth knowing.
struct Outcome {
    row: Row,
    problems: Vec<String>,
    notes: Vec<String>,
}

/// A hunk of a line diff: original lines `old` (from 1; `old.0 > old.1` when none, the new
/// lines then come after line `old.1`) became new lines `new`. `kind`: `a` (lines inserted), `d`
/// (removed) or `c` (changed), as `diff` names them.
#[derive(Debug)]
struct Hunk {
    kind: char,
    old: (usize, usize),
    new: (usize, usize),
}

/// The hunks of a line diff (Myers', the `similar` crate's, as `--diff` prints it) of the
/// original text against the fixed one.
fn line_diff(original: &str, fixed: &str) -> Vec<Hunk> {
    use similar::DiffOp;
    similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(original, fixed)
        .ops()
        .iter()
        .filter_map(|op| {
            let (kind, o, ol, n, nl) = match *op {
                DiffOp::Equal { .. } => return None,
                DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                } => ('a', old_index, 0, new_index, new_len),
                DiffOp::Delete {
                    old_index,
                    old_len,
                    new_index,
                } => ('d', old_index, old_len, new_index, 0),
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => ('c', old_index, old_len, new_index, new_len),
            };
            Some(Hunk {
                kind,
                old: (o + 1, o + ol),
                new: (n + 1, n + nl),
            })
        })
        .collect()
}

/// Lines of `text`, each with its line end.
fn lines(text: &[u8]) -> Vec<&[u8]> {
    text.split_inclusive(|&b| b == b'\n').collect()
}

impl Hunk {
    fn old_len(&self) -> usize {
        (self.old.1 + 1).saturating_sub(self.old.0)
    }

    fn new_len(&self) -> usize {
        (self.new.1 + 1).saturating_sub(self.new.0)
    }

    /// How many lines up and down the hunk could as well have been placed, among equal lines
    /// (`o` and `f`: the original's and the fixed text's lines). Only an insertion or a removal
    /// slides.
    fn slack(&self, o: &[&[u8]], f: &[&[u8]]) -> (usize, usize) {
        let (lines, a, b) = match self.kind {
            'a' => (f, self.new.0 - 1, self.new.1),
            'd' => (o, self.old.0 - 1, self.old.1),
            _ => return (0, 0),
        };
        // The block lines[a..b) moves up by one when the line above it equals its last line,
        // down by one when the line below it equals its first.
        let up = (0..a)
            .take_while(|i| lines[a - 1 - i] == lines[b - 1 - i])
            .count();
        let down = (0..)
            .take_while(|i| b + i < lines.len() && lines[a + i] == lines[b + i])
            .count();
        (up, down)
    }

    /// Whether the hunk, its original lines at `old` (in the coordinates of `edits`), sits at
    /// one of `edits`: inserted lines at an edit's place, changed or removed lines inside edits'
    /// lines.
    fn at_edit(&self, old: (usize, usize), (up, down): (usize, usize), edits: &[&EditAt]) -> bool {
        let covered = |first: usize| {
            (first..first + self.old_len()).all(|l| edits.iter().any(|e| e.covers(l)))
        };
        match self.kind {
            'a' => (old.1.saturating_sub(up)..=old.1 + down)
                .any(|p| edits.iter().any(|e| e.inserts_after(p))),
            'd' => (old.0.saturating_sub(up).max(1)..=old.0 + down).any(covered),
            _ => covered(old.0),
        }
    }

    /// What the hunk did, for a message: the lines it replaced and those it wrote.
    fn show(&self, name: &str, o: &[&[u8]], f: &[&[u8]]) -> String {
        let shown = |from: &[&[u8]], (a, b): (usize, usize)| -> String {
            (a..=b.min(a + 5))
                .filter_map(|l| from.get(l - 1))
                .map(|l| format!("      {}", String::from_utf8_lossy(l).trim_end()))
                .collect::<Vec<_>>()
                .join("\n")
        };
        format!(
            "{name}: lines {}-{} became {}-{} ({})\n    was:\n{}\n    now:\n{}",
            self.old.0,
            self.old.1,
            self.new.0,
            self.new.1,
            self.kind,
            shown(o, self.old),
            shown(f, self.new)
        )
    }
}

/// The hunks of the line diff of one fixed file that sit at no edit of `edits` (those the
/// before run proposed in it); counts its inserted, changed and removed lines into `row`.
fn hunks_outside(original: &[u8], fixed: &[u8], edits: &[&EditAt], row: &mut Row) -> Vec<Hunk> {
    let (o, f) = (lines(original), lines(fixed));
    let mut outside = Vec::new();
    for h in line_diff(
        &String::from_utf8_lossy(original),
        &String::from_utf8_lossy(fixed),
    ) {
        match h.kind {
            'a' => row.lines_inserted += h.new_len(),
            'd' => row.lines_removed += h.old_len(),
            _ => {
                row.lines_changed += h.old_len();
                row.lines_inserted += h.new_len().saturating_sub(h.old_len());
            }
        }
        if !h.at_edit(h.old, h.slack(&o, &f), edits) {
            outside.push(h);
        }
    }
    outside
}

/// The hunks of `outside` (by file) that no fix of the before run explains may be fixes of a
/// later pass, of findings that only an earlier pass brought (a deprecated POST asked for a key
/// once most POSTs have one), or whose edits moved. Each is undone in the fixed files (which are
/// put back afterwards), the result linted: a hunk at an edit of a fix proposed there is such a
/// fix. Returns, for each hunk, the finding whose fix it is, if any.
fn explain_by_later_passes(
    dir: &Path,
    root: &str,
    original: &BTreeMap<String, Vec<u8>>,
    fixed: &BTreeMap<String, Vec<u8>>,
    outside: &BTreeMap<String, Vec<Hunk>>,
) -> Result<BTreeMap<(String, usize), String>, String> {
    // Each hunk's original lines in the undone text.
    let mut places: BTreeMap<(String, usize), (usize, usize)> = BTreeMap::new();
    for (name, hunks) in outside {
        let (o, f) = (lines(&original[name]), lines(&fixed[name]));
        let mut undone: Vec<u8> = Vec::new();
        let (mut written, mut at) = (0, 0);
        for (i, h) in hunks.iter().enumerate() {
            for l in &f[at..h.new.0 - 1] {
                undone.extend_from_slice(l);
                written += 1;
            }
            let start = written + 1;
            for l in &o[h.old.0 - 1..h.old.1] {
                undone.extend_from_slice(l);
                written += 1;
            }
            places.insert((name.clone(), i), (start, written));
            at = h.new.1;
        }
        for l in &f[at..] {
            undone.extend_from_slice(l);
        }
        std::fs::write(dir.join(name), undone).unwrap();
    }
    let (code, stdout, stderr) = common::idemlint_in(dir, &["check", root, "--format", "json"]);
    for name in outside.keys() {
        std::fs::write(dir.join(name), &fixed[name]).unwrap();
    }
    let report: Value = serde_json::from_slice(&stdout)
        .map_err(|_| format!("the fixed files with those hunks undone: exit {code}: {stderr}"))?;
    let found = findings(&report)?;
    let mut explained = BTreeMap::new();
    for (name, hunks) in outside {
        let (o, f) = (lines(&original[name]), lines(&fixed[name]));
        for (i, h) in hunks.iter().enumerate() {
            let place = places[&(name.clone(), i)];
            let by = found.iter().find(|finding| {
                finding.fix.as_ref().is_some_and(|edits| {
                    let here: Vec<&EditAt> = edits.iter().filter(|e| e.file == *name).collect();
                    h.at_edit(place, h.slack(&o, &f), &here)
                })
            });
            if let Some(by) = by {
                explained.insert((name.clone(), i), by.describe());
            }
        }
    }
    Ok(explained)
}

/// The line-end convention of a text: how many lines end in CRLF and how many in LF alone.
fn line_ends(text: &[u8]) -> (usize, usize) {
    let lf = text.iter().filter(|&&b| b == b'\n').count();
    let crlf = text.windows(2).filter(|w| w == b"\r\n").count();
    (crlf, lf - crlf)
}

/// `diff`'s unified output, applied to `original`: the files it names (`+++ b/<file>`) with
/// their new text, or what does not apply.
fn apply_unified(
    diff: &[u8],
    original: &BTreeMap<String, Vec<u8>>,
) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut out = BTreeMap::new();
    let diff_lines = lines(diff);
    let mut i = 0;
    while i < diff_lines.len() {
        let line = diff_lines[i];
        i += 1;
        let Some(name) = line.strip_prefix(b"+++ ") else {
            continue;
        };
        let name = String::from_utf8_lossy(name);
        let name = name.trim_end().split('\t').next().unwrap();
        let name = norm(name.strip_prefix("b/").unwrap_or(name));
        let old = original.get(&name).ok_or(format!(
            "the diff names `{name}`, which is no file of the copy"
        ))?;
        let old_lines = lines(old);
        let mut new: Vec<u8> = Vec::new();
        let mut at = 0; // original lines copied so far
        while i < diff_lines.len() && diff_lines[i].starts_with(b"@@ ") {
            let header = String::from_utf8_lossy(diff_lines[i]).to_string();
            i += 1;
            // `-L,N +M,K`: N original lines from line L became K lines; with N = 0, the lines
            // come after line L.
            let range = |sign: char| -> Option<(usize, usize)> {
                let r = header.split(' ').find_map(|w| w.strip_prefix(sign))?;
                let (start, count) = r.split_once(',').unwrap_or((r, "1"));
                Some((start.parse().ok()?, count.parse().ok()?))
            };
            let (Some((start, mut old_left)), Some((_, mut new_left))) = (range('-'), range('+'))
            else {
                return Err(format!("{name}: a hunk header I cannot read: {header}"));
            };
            let first = if old_left == 0 { start } else { start - 1 };
            if first < at || first > old_lines.len() {
                return Err(format!("{name}: a hunk out of place: {header}"));
            }
            for l in &old_lines[at..first] {
                new.extend_from_slice(l);
            }
            at = first;
            while i < diff_lines.len() {
                let l = diff_lines[i];
                let Some((&tag, text)) = l.split_first() else {
                    break;
                };
                match tag {
                    // "\ No newline at end of file": the line before has none. An original
                    // line was copied as it is; an added one lost its line end.
                    b'\\' => {
                        if diff_lines[i - 1].first() == Some(&b'+') && new.last() == Some(&b'\n') {
                            new.pop();
                        }
                    }
                    _ if old_left == 0 && new_left == 0 => break,
                    b'+' if new_left > 0 => {
                        new.extend_from_slice(text);
                        new_left -= 1;
                    }
                    b' ' | b'-' if old_left > 0 => {
                        let want = old_lines.get(at).copied().unwrap_or(b"");
                        let strip =
                            |s: &[u8]| -> Vec<u8> { s.strip_suffix(b"\n").unwrap_or(s).to_vec() };
                        if strip(want) != strip(text) {
                            return Err(format!(
                                "{name}: line {} of the original is `{}`, the diff says `{}`",
                                at + 1,
                                String::from_utf8_lossy(want).trim_end(),
                                String::from_utf8_lossy(text).trim_end()
                            ));
                        }
                        if tag == b' ' {
                            if new_left == 0 {
                                return Err(format!("{name}: a hunk's counts are wrong: {header}"));
                            }
                            new.extend_from_slice(want);
                            new_left -= 1;
                        }
                        old_left -= 1;
                        at += 1;
                    }
                    _ => return Err(format!("{name}: a hunk's counts are wrong: {header}")),
                }
                i += 1;
            }
            if old_left > 0 || new_left > 0 {
                return Err(format!("{name}: a hunk ends early: {header}"));
            }
        }
        for l in &old_lines[at.min(old_lines.len())..] {
            new.extend_from_slice(l);
        }
        out.insert(name, new);
    }
    Ok(out)
}

fn check_spec(corpus: &Path, root: &str) -> Outcome {
    let started = Instant::now();
    let mut out = Outcome {
        row: Row {
            spec: root.to_string(),
            ..Row::default()
        },
        problems: Vec::new(),
        notes: Vec::new(),
    };
    check_spec_into(corpus, root, &mut out);
    out.row.seconds = started.elapsed().as_secs_f64();
    out
}

fn check_spec_into(corpus: &Path, root: &str, out: &mut Outcome) {
    let Outcome {
        row,
        problems,
        notes,
    } = out;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    common::copy_corpus_project(corpus, root, dir);
    let original = common::tree_bytes(dir);

    // Before.
    let (code, stdout, stderr) = common::idemlint_in(dir, &["check", root, "--format", "json"]);
    let before_report: Value = serde_json::from_slice(&stdout).unwrap_or(Value::Null);
    if !matches!(code, 0 | 1) || before_report.is_null() {
        problems.push(format!("before: exit {code}: {stderr}"));
        return;
    }
    let before = match findings(&before_report) {
        Ok(f) => f,
        Err(e) => return problems.push(format!("before: {e}")),
    };
    let before_errors = errors(&before_report);
    if !before_errors.is_empty() {
        problems.push(format!("the original has input errors: {before_errors:?}"));
    }
    row.before = before.len();
    row.fixable = before.iter().filter(|f| f.fix.is_some()).count();

    // --diff writes nothing.
    let (diff_code, diff_out, diff_err) =
        common::idemlint_in(dir, &["check", "--diff", "--unsafe-fixes", root]);
    if common::tree_bytes(dir) != original {
        return problems.push("`check --diff` changed files".into());
    }

    // --fix.
    let fix_args = ["check", "--fix", "--unsafe-fixes", "--format", "json", root];
    let (code, stdout, stderr) = common::idemlint_in(dir, &fix_args);
    let after_report: Value = serde_json::from_slice(&stdout).unwrap_or(Value::Null);
    if after_report.is_null() {
        return problems.push(format!("--fix: exit {code}, no JSON report: {stderr}"));
    }
    if !matches!(code, 0 | 1) {
        problems.push(format!("--fix exited {code}"));
    }
    let after_errors: Vec<String> = errors(&after_report)
        .into_iter()
        .filter(|e| !before_errors.contains(e))
        .collect();
    let loads = after_errors.is_empty();
    if !loads {
        problems.push(format!(
            "--fix wrote files that do not load: {}",
            after_errors.join("; ")
        ));
    }
    let after = match findings(&after_report) {
        Ok(f) => f,
        Err(e) => return problems.push(format!("after --fix: {e}")),
    };
    row.remaining = after.len();
    row.applied = after_report["fixes"]["applied"]
        .as_u64()
        .unwrap_or_else(|| {
            problems.push("the --fix report has no `fixes.applied`".into());
            0
        });
    row.remaining_fixable = after_report["fixes"]["remaining_fixable"]
        .as_u64()
        .unwrap_or_else(|| {
            problems.push("the --fix report has no `fixes.remaining_fixable`".into());
            0
        });
    if after_report["fixes"]["unfinished"] == Value::Bool(true) {
        problems.push("--fix was still finding fixes when its passes ran out".into());
    }
    let fixed = common::tree_bytes(dir);

    // Findings: the fixed ones are gone, none is new (when the fixed files could be linted).
    if loads {
        let before_prints: BTreeSet<&str> = before.iter().map(|f| f.fingerprint.as_str()).collect();
        let after_by_print: BTreeMap<&str, &Finding> =
            after.iter().map(|f| (f.fingerprint.as_str(), f)).collect();
        for f in before.iter().filter(|f| f.fix.is_some()) {
            match after_by_print.get(f.fingerprint.as_str()) {
                None => row.fixed += 1,
                Some(a) if a.fix.is_some() => problems.push(format!(
                    "its fix was not applied in the passes --fix makes: {}",
                    f.describe()
                )),
                Some(_) => problems.push(format!(
                    "its fix was applied but the finding remains: {}",
                    f.describe()
                )),
            }
        }
        // A finding at a place operations share is fingerprinted with the first operation that
        // reaches it: a key `$ref` added to an earlier operation changes that operation, and so
        // the fingerprint. A new fingerprint whose rule, file and pointer are those of a
        // vanished one without a fix is the same finding, re-fingerprinted: a note.
        let after_prints: BTreeSet<&str> = after.iter().map(|f| f.fingerprint.as_str()).collect();
        let mut vanished: Vec<&Finding> = before
            .iter()
            .filter(|f| f.fix.is_none() && !after_prints.contains(f.fingerprint.as_str()))
            .collect();
        for f in after
            .iter()
            .filter(|f| !before_prints.contains(f.fingerprint.as_str()))
        {
            let same = vanished
                .iter()
                .position(|b| (&b.rule, &b.file, &b.pointer) == (&f.rule, &f.file, &f.pointer));
            match same {
                Some(at) => notes.push(format!(
                    "re-fingerprinted ({} → {}): {}",
                    vanished.remove(at).fingerprint,
                    f.fingerprint,
                    f.describe()
                )),
                None => problems.push(format!("a finding the fixes brought: {}", f.describe())),
            }
        }
        let fixable_after = after.iter().filter(|f| f.fix.is_some()).count() as u64;
        if fixable_after != row.remaining_fixable {
            problems.push(format!(
                "`fixes.remaining_fixable` is {}, but {fixable_after} remaining findings carry a \
                 fix",
                row.remaining_fixable
            ));
        }
    }

    // The files: none added or removed; the changed ones checked line by line.
    let names = |t: &BTreeMap<String, Vec<u8>>| t.keys().cloned().collect::<BTreeSet<_>>();
    if names(&fixed) != names(&original) {
        problems.push(format!(
            "--fix added or removed files: {:?}",
            names(&fixed)
                .symmetric_difference(&names(&original))
                .collect::<Vec<_>>()
        ));
    }
    let changed: Vec<&String> = fixed
        .iter()
        .filter(|(name, text)| original.get(*name) != Some(*text))
        .map(|(name, _)| name)
        .collect();
    row.files_changed = changed.len();
    if row.applied > 0 && changed.is_empty() {
        problems.push(format!(
            "{} fixes applied, but no file changed",
            row.applied
        ));
    }
    let edits: Vec<&EditAt> = before
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .flatten()
        .collect();
    let mut outside: BTreeMap<String, Vec<Hunk>> = BTreeMap::new();
    for name in &changed {
        let (old, new) = (&original[*name], &fixed[*name]);
        if name.ends_with(".json")
            && let Err(e) = serde_json::from_slice::<Value>(new)
        {
            problems.push(format!("{name} is no longer JSON: {e}"));
        }
        let (old_crlf, old_lf) = line_ends(old);
        let (new_crlf, new_lf) = line_ends(new);
        if (old_crlf == 0 && new_crlf > 0) || (old_lf == 0 && new_lf > 0) {
            problems.push(format!(
                "{name}: its line ends were {old_crlf} CRLF and {old_lf} LF, now {new_crlf} \
                 CRLF and {new_lf} LF"
            ));
        }
        if old.ends_with(b"\n") != new.ends_with(b"\n") {
            problems.push(format!("{name}: its final newline changed"));
        }
        let here: Vec<&EditAt> = edits.iter().copied().filter(|e| e.file == **name).collect();
        let hunks = hunks_outside(old, new, &here, row);
        if !hunks.is_empty() {
            outside.insert(name.to_string(), hunks);
        }
    }
    if !outside.is_empty() {
        let explained = if loads {
            explain_by_later_passes(dir, root, &original, &fixed, &outside).unwrap_or_else(|e| {
                problems.push(e);
                BTreeMap::new()
            })
        } else {
            BTreeMap::new()
        };
        for (name, hunks) in &outside {
            let (o, f) = (lines(&original[name]), lines(&fixed[name]));
            for (i, h) in hunks.iter().enumerate() {
                match explained.get(&(name.clone(), i)) {
                    Some(by) => {
                        row.later += 1;
                        notes.push(format!(
                            "a fix of a later pass, for a finding the original did not have \
                             there: {by}\n    {}",
                            h.show(name, &o, &f)
                        ));
                    }
                    None => problems.push(format!(
                        "a change at no fix's edit: {}",
                        h.show(name, &o, &f)
                    )),
                }
            }
        }
    }

    // --diff said the same.
    let expected_code = if changed.is_empty() { 0 } else { 1 };
    if diff_code != expected_code {
        problems.push(format!(
            "`check --diff` exited {diff_code}, not {expected_code} ({} files changed by --fix): \
             {diff_err}",
            changed.len()
        ));
    }
    match apply_unified(&diff_out, &original) {
        Ok(patched) => {
            let named: BTreeSet<&String> = patched.keys().collect();
            let changed_set: BTreeSet<&String> = changed.iter().copied().collect();
            if named != changed_set {
                problems.push(format!(
                    "`check --diff` names {named:?}, --fix changed {changed_set:?}"
                ));
            }
            for (name, text) in &patched {
                if fixed.get(name) != Some(text) {
                    problems.push(format!(
                        "{name}: the `--diff` output applied to the original is not what --fix \
                         wrote"
                    ));
                }
            }
        }
        Err(e) => problems.push(format!("the `--diff` output does not apply: {e}")),
    }

    // A second --fix changes nothing.
    let (code, stdout, stderr) = common::idemlint_in(dir, &fix_args);
    let again: Value = serde_json::from_slice(&stdout).unwrap_or(Value::Null);
    if again.is_null() {
        problems.push(format!(
            "second --fix: exit {code}, no JSON report: {stderr}"
        ));
    } else {
        if again["fixes"]["applied"].as_u64() != Some(0) {
            problems.push(format!(
                "the second --fix applied {} fixes",
                again["fixes"]["applied"]
            ));
        }
        let prints = |r: &[Finding]| -> BTreeSet<String> {
            r.iter().map(|f| f.fingerprint.clone()).collect()
        };
        match findings(&again) {
            Ok(a) if prints(&a) != prints(&after) => problems.push(format!(
                "the second --fix reports other findings than the first left: {} then, {} now",
                after.len(),
                a.len()
            )),
            Ok(_) => {}
            Err(e) => problems.push(format!("second --fix: {e}")),
        }
    }
    for (name, text) in &common::tree_bytes(dir) {
        if fixed.get(name) != Some(text) {
            problems.push(format!("{name}: the second --fix changed it"));
        }
    }
}

fn table(rows: &[Row]) -> String {
    let mut t = String::from(
        "| spec | findings before | with a fix | fixed | fixes applied | remaining | remaining \
         with a fix | files changed | lines inserted | lines changed | lines removed | changes of \
         later passes | seconds |\n\
         |:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = Row {
        spec: format!("**all {} root documents**", rows.len()),
        ..Row::default()
    };
    for r in rows {
        total.before += r.before;
        total.fixable += r.fixable;
        total.fixed += r.fixed;
        total.applied += r.applied;
        total.remaining += r.remaining;
        total.remaining_fixable += r.remaining_fixable;
        total.files_changed += r.files_changed;
        total.lines_inserted += r.lines_inserted;
        total.lines_changed += r.lines_changed;
        total.lines_removed += r.lines_removed;
        total.later += r.later;
        total.seconds += r.seconds;
    }
    for r in rows.iter().chain([&total]) {
        writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
            r.spec,
            r.before,
            r.fixable,
            r.fixed,
            r.applied,
            r.remaining,
            r.remaining_fixable,
            r.files_changed,
            r.lines_inserted,
            r.lines_changed,
            r.lines_removed,
            r.later,
            r.seconds
        )
        .unwrap();
    }
    t
}

#[test]
fn fix_every_corpus_spec() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let mut roots = common::corpus_roots(&corpus);
    assert!(roots.len() > 50, "{} root documents", roots.len());
    // Every file the corpus lists is in a copied project folder: fixed, or compared byte for
    // byte.
    let projects: BTreeSet<&str> = roots
        .iter()
        .map(|(r, _)| common::corpus_project(r))
        .collect();
    let files = common::corpus_files(&corpus);
    for f in &files {
        assert!(
            projects.contains(common::corpus_project(f)),
            "{f} is in no root document's folder"
        );
    }
    if let Ok(only) = std::env::var("IDEMLINT_FIX_CORPUS") {
        roots.retain(|(r, _)| r.contains(&only));
        println!(
            "note: only the {} roots whose path has `{only}`",
            roots.len()
        );
    }
    let started = Instant::now();
    let outcomes = common::par_map(&roots, |(root, _)| check_spec(&corpus, root));
    let mut rows: Vec<Row> = outcomes.iter().map(|o| o.row.clone()).collect();
    rows.sort_by(|a, b| a.spec.cmp(&b.spec));
    let mut text = table(&rows);
    writeln!(
        text,
        "\n{} root documents fixed in {:.1} s ({} files of MANIFEST.tsv in their folders).",
        rows.len(),
        started.elapsed().as_secs_f64(),
        files.len()
    )
    .unwrap();
    for o in outcomes.iter().filter(|o| !o.notes.is_empty()) {
        writeln!(text, "\nnote: {}:", o.row.spec).unwrap();
        for n in &o.notes {
            writeln!(text, "  - {n}").unwrap();
        }
    }
    println!("{text}");
    let report = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fix_corpus.md");
    std::fs::write(&report, &text).unwrap();
    println!("(written to {})", report.display());

    let mut failures = String::new();
    let mut count = 0;
    for o in &outcomes {
        count += o.problems.len();
        if o.problems.is_empty() {
            continue;
        }
        writeln!(
            failures,
            "\n== {} ({} problems)",
            o.row.spec,
            o.problems.len()
        )
        .unwrap();
        for p in o.problems.iter().take(MAX_PROBLEMS) {
            writeln!(failures, "  - {p}").unwrap();
        }
        if o.problems.len() > MAX_PROBLEMS {
            writeln!(
                failures,
                "  ... and {} more",
                o.problems.len() - MAX_PROBLEMS
            )
            .unwrap();
        }
    }
    assert!(failures.is_empty(), "{count} problems:{failures}");
}

/// The checks above catch what they should: a line changed away from every edit, and a diff
/// that does not give the fixed text.
#[test]
fn the_line_diff_check_tells_a_change_at_an_edit_from_one_elsewhere() {
    let original = b"a:\n  b: 1\n  c: 2\nd:\n  e: 3\n";
    // An edit inserting before line 4 (`d:`), as the JSON report gives it.
    let insert = EditAt {
        file: "x.yaml".into(),
        line: 4,
        end_line: 4,
        end_column: 1,
    };
    let mut row = Row::default();
    let at_edit = b"a:\n  b: 1\n  c: 2\n  f: 4\nd:\n  e: 3\n";
    assert!(hunks_outside(original, at_edit, &[&insert], &mut row).is_empty());
    assert_eq!(row.lines_inserted, 1);
    // The same insertion, and a value changed on line 2.
    let elsewhere = b"a:\n  b: 5\n  c: 2\n  f: 4\nd:\n  e: 3\n";
    let outside = hunks_outside(original, elsewhere, &[&insert], &mut row);
    assert_eq!(outside.len(), 1, "{outside:?}");
    assert_eq!((outside[0].kind, outside[0].old), ('c', (2, 2)));
    // An insertion among equal lines, which the diff may place a line off.
    let twice = b"a:\n  b: 1\n  c: 2\n  c: 2\nd:\n  e: 3\n";
    let below = EditAt {
        line: 3,
        end_line: 3,
        ..insert.clone()
    };
    assert!(hunks_outside(original, twice, &[&below], &mut row).is_empty());
    // A removal inside an edit's range; one outside it.
    let remove = EditAt {
        line: 5,
        end_line: 6,
        end_column: 1,
        ..insert.clone()
    };
    let removed = b"a:\n  b: 1\n  c: 2\nd:\n";
    assert!(hunks_outside(original, removed, &[&remove], &mut row).is_empty());
    assert_eq!(
        hunks_outside(original, removed, &[&insert], &mut row).len(),
        1
    );
}

#[test]
fn a_unified_diff_applies_to_the_text_it_was_made_from() {
    let cases: [(&str, &str); 4] = [
        ("a\nb\nc\n", "a\nb\nx\nc\n"),
        ("a\r\nb\r\n", "a\r\nb\r\nc\r\n"),
        ("a\nb", "a\nb\nc"),
        (
            &"l\n".repeat(40),
            &format!("x\n{}y\n{}", "l\n".repeat(20), "l\n".repeat(20)),
        ),
    ];
    for (old, new) in cases {
        let diff = similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .header("a/f.yaml", "b/f.yaml")
            .to_string();
        let original = BTreeMap::from([("f.yaml".to_string(), old.as_bytes().to_vec())]);
        let patched = apply_unified(diff.as_bytes(), &original).unwrap();
        assert_eq!(String::from_utf8_lossy(&patched["f.yaml"]), new, "{diff}");
    }
    // A diff that says the original had another line does not apply.
    let original = BTreeMap::from([("f.yaml".to_string(), b"a\nq\n".to_vec())]);
    assert!(
        apply_unified(
            b"--- a/f.yaml\n+++ b/f.yaml\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
            &original
        )
        .is_err()
    );
}
