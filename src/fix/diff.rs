//! `--diff`'s unified diff of a file the fixes changed, made from what the fixes kept rather
//! than by comparing the two texts whole: a large spec is megabytes and tens of thousands of
//! lines, of which the fixes touch a few hundred. The passes track which bytes of the new text
//! are copied unchanged from the old ([`Copied`], carried through each pass's edits by
//! [`carry`]); only the lines around the rest are compared ([`similar`]'s Myers diff), and the
//! hunks are written as `git diff` (and `similar`'s own unified diff) writes them.

use similar::{Algorithm, DiffOp};

use crate::source::Span;

/// Bytes `new..new + len` of the new text are bytes `old..old + len` of the old.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copied {
    pub old: usize,
    pub new: usize,
    pub len: usize,
}

/// What a text of `len` bytes keeps of itself: all of it.
pub fn whole(len: usize) -> Vec<Copied> {
    vec![Copied {
        old: 0,
        new: 0,
        len,
    }]
}

/// What the text after `edits` (each a span of the text before them and the length of what
/// replaces it; no two overlapping, as [`super::apply`] takes them) keeps of the old text, given
/// what the text before them kept (`copied`, in order).
pub fn carry(copied: &[Copied], edits: &[(Span, usize)]) -> Vec<Copied> {
    let mut edits: Vec<(usize, usize, usize)> = edits
        .iter()
        .map(|(s, n)| (s.start as usize, s.end as usize, *n))
        .collect();
    edits.sort_unstable();
    // How far a byte at or after each edit's end moves: the growth of every edit up to it.
    let mut shift = Vec::with_capacity(edits.len());
    let mut total: isize = 0;
    for &(start, end, n) in &edits {
        total += n as isize - (end - start) as isize;
        shift.push(total);
    }
    // A byte at `at` moves by the growth of the edits that end at or before it (an insertion
    // at `at` goes before it).
    let moved = |at: usize| {
        let before = edits.partition_point(|e| e.1 <= at);
        let by = if before == 0 { 0 } else { shift[before - 1] };
        (at as isize + by) as usize
    };
    let mut out = Vec::with_capacity(copied.len() + edits.len());
    for c in copied {
        let (mut from, to) = (c.new, c.new + c.len);
        // The edits that cut into this run: replacements that overlap it, insertions inside it.
        let first = edits.partition_point(|e| e.1 < from || (e.0 == e.1 && e.0 <= from));
        for &(start, end, _) in &edits[first..] {
            if start >= to {
                break;
            }
            if start == end && start <= from {
                continue;
            }
            if start > from {
                out.push(Copied {
                    old: c.old + (from - c.new),
                    new: moved(from),
                    len: start - from,
                });
            }
            from = from.max(end);
        }
        if from < to {
            out.push(Copied {
                old: c.old + (from - c.new),
                new: moved(from),
                len: to - from,
            });
        }
    }
    out
}

/// The unified diff of `before` and `after` (`--- a/name`, `+++ b/name`, hunks with three lines
/// of context), given what `after` copied of `before`; empty when they are the same.
pub fn unified(name: &str, before: &str, after: &str, copied: &[Copied]) -> String {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let ops = match ops(before, after, &old, &new, copied) {
        Some(ops) => ops,
        // (What was kept does not add up: a bug of the passes. The texts are compared whole.)
        None => similar::capture_diff_slices(Algorithm::Myers, &old, &new),
    };
    let mut out = String::new();
    for group in similar::group_diff_ops(ops, 3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        if out.is_empty() {
            out.push_str(&format!("--- a/{name}\n+++ b/{name}\n"));
        }
        let range = |start: usize, end: usize| {
            let len = end.saturating_sub(start);
            match len {
                1 => format!("{}", start + 1),
                0 => format!("{start},0"),
                _ => format!("{},{len}", start + 1),
            }
        };
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(first.old_range().start, last.old_range().end),
            range(first.new_range().start, last.new_range().end)
        ));
        let mut line = |tag: char, text: &str| {
            out.push(tag);
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        };
        for op in &group {
            let (_, old_range, new_range) = op.as_tag_tuple();
            match op {
                DiffOp::Equal { .. } => old[old_range].iter().for_each(|l| line(' ', l)),
                DiffOp::Delete { .. } => old[old_range].iter().for_each(|l| line('-', l)),
                DiffOp::Insert { .. } => new[new_range].iter().for_each(|l| line('+', l)),
                DiffOp::Replace { .. } => {
                    old[old_range].iter().for_each(|l| line('-', l));
                    new[new_range].iter().for_each(|l| line('+', l));
                }
            }
        }
    }
    out
}

/// The line operations turning `old` into `new`: the lines around each stretch not copied are
/// compared, the lines between them are equal. `None` when `copied` does not fit the texts.
fn ops(
    before: &str,
    after: &str,
    old: &[&str],
    new: &[&str],
    copied: &[Copied],
) -> Option<Vec<DiffOp>> {
    let starts = |lines: &[&str]| {
        let mut at = 0;
        lines
            .iter()
            .map(|l| {
                let start = at;
                at += l.len();
                start
            })
            .collect::<Vec<usize>>()
    };
    let (old_starts, new_starts) = (starts(old), starts(new));
    // The line that holds byte `at` (the last line, past the end).
    let line_of = |starts: &[usize], at: usize| starts.partition_point(|&s| s <= at).max(1) - 1;
    // The stretches not copied, as windows of whole lines: (old lines, new lines).
    let mut windows: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut prev = (0, 0);
    let ends = copied
        .iter()
        .map(|c| (c.old, c.new, c.old + c.len, c.new + c.len))
        .chain(std::iter::once((
            before.len(),
            after.len(),
            before.len(),
            after.len(),
        )));
    for (old_start, new_start, old_end, new_end) in ends {
        if old_start < prev.0
            || new_start < prev.1
            || old_end > before.len()
            || new_end > after.len()
        {
            return None;
        }
        if (old_start, new_start) != prev {
            let window = (
                line_of(&old_starts, prev.0),
                (line_of(&old_starts, old_start) + 1).min(old.len()),
                line_of(&new_starts, prev.1),
                (line_of(&new_starts, new_start) + 1).min(new.len()),
            );
            match windows.last_mut() {
                Some(last) if window.0 <= last.1 || window.2 <= last.3 => {
                    last.1 = last.1.max(window.1);
                    last.3 = last.3.max(window.3);
                }
                _ => windows.push(window),
            }
        }
        prev = (old_end, new_end);
    }
    let mut ops: Vec<DiffOp> = Vec::new();
    // (Equal runs side by side are one, as the whole texts' diff has them: the hunks are cut
    // where one is longer than twice the context.)
    let mut push = |op: DiffOp| {
        if let DiffOp::Equal { len: more, .. } = op {
            if more == 0 {
                return;
            }
            if let Some(DiffOp::Equal { len, .. }) = ops.last_mut() {
                *len += more;
                return;
            }
        }
        ops.push(op);
    };
    let (mut at_old, mut at_new) = (0, 0);
    for (o0, o1, n0, n1) in windows.into_iter().chain(std::iter::once((
        old.len(),
        old.len(),
        new.len(),
        new.len(),
    ))) {
        // Between windows the lines are the same, as many on each side.
        if o0 < at_old || n0 < at_new || o0 - at_old != n0 - at_new {
            return None;
        }
        push(DiffOp::Equal {
            old_index: at_old,
            new_index: at_new,
            len: o0 - at_old,
        });
        for op in similar::capture_diff_slices(Algorithm::Myers, &old[o0..o1], &new[n0..n1]) {
            push(shifted(op, o0, n0));
        }
        (at_old, at_new) = (o1, n1);
    }
    Some(ops)
}

/// `op`, found among lines from `old` and `new` on, with its indexes in the whole texts.
fn shifted(op: DiffOp, old: usize, new: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + old,
            new_index: new_index + new,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + old,
            new_index: new_index + new,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
            new_len,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with `edits` (start, end, replacement) applied, and what it kept, carried from
    /// `copied`.
    fn edit(
        text: &str,
        copied: &[Copied],
        edits: &[(usize, usize, &str)],
    ) -> (String, Vec<Copied>) {
        let mut sorted = edits.to_vec();
        sorted.sort_by_key(|e| (e.0, e.1));
        let mut out = String::new();
        let mut at = 0;
        for (start, end, text_in) in &sorted {
            out.push_str(&text[at..*start]);
            out.push_str(text_in);
            at = *end;
        }
        out.push_str(&text[at..]);
        let spans: Vec<(Span, usize)> = edits
            .iter()
            .map(|(s, e, t)| (Span::new(*s, *e), t.len()))
            .collect();
        (out, carry(copied, &spans))
    }

    /// What `similar` writes comparing the texts whole, as `--diff` did before.
    fn whole_diff(name: &str, before: &str, after: &str) -> String {
        similar::TextDiff::from_lines(before, after)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{name}"), &format!("b/{name}"))
            .to_string()
    }

    /// Every byte `copied` names is the same in both texts.
    fn check_copied(before: &str, after: &str, copied: &[Copied]) {
        for c in copied {
            assert_eq!(
                &before[c.old..c.old + c.len],
                &after[c.new..c.new + c.len],
                "{c:?}"
            );
        }
    }

    #[test]
    fn what_is_kept_is_carried_through_passes_of_edits() {
        let text = "a: 1\nb: 2\nc: 3\n";
        let copied = whole(text.len());
        // An insertion of whole lines, a replacement inside a line, an insertion at the end.
        let (one, copied) = edit(
            text,
            &copied,
            &[(5, 5, "x: 0\n"), (13, 14, "33"), (15, 15, "d: 4\n")],
        );
        assert_eq!(one, "a: 1\nx: 0\nb: 2\nc: 33\nd: 4\n");
        check_copied(text, &one, &copied);
        assert_eq!(copied.iter().map(|c| c.len).sum::<usize>(), text.len() - 1);
        // A second pass, in the new text's places: an edit inside what the first inserted keeps
        // nothing new; one at the start.
        let (two, copied) = edit(&one, &copied, &[(0, 0, "# top\n"), (8, 9, "00")]);
        assert_eq!(two, "# top\na: 1\nx: 00\nb: 2\nc: 33\nd: 4\n");
        check_copied(text, &two, &copied);
        assert_eq!(copied.iter().map(|c| c.len).sum::<usize>(), text.len() - 1);
    }

    #[test]
    fn the_diff_is_the_one_the_whole_texts_give() {
        let lines: Vec<String> = (0..200)
            .map(|i| format!("  line{i}: {}\n", i % 7))
            .collect();
        let text = lines.concat();
        let at = |line: usize| lines[..line].iter().map(String::len).sum::<usize>();
        let cases: Vec<Vec<(usize, usize, String)>> = vec![
            // Far apart: two hunks.
            vec![
                (at(10), at(10), "  new: 1\n".into()),
                (at(150), at(150), "  new: 2\n".into()),
            ],
            // Close: one hunk.
            vec![
                (at(10), at(10), "  new: 1\n".into()),
                (at(14), at(14), "  new: 2\n".into()),
            ],
            // At the start and at the end; a line changed in place; a line taken out.
            vec![
                (0, 0, "top: 0\n".into()),
                (at(50) + 2, at(50) + 7, "LINE".into()),
                (at(80), at(81), String::new()),
                (text.len(), text.len(), "end: 1\n".into()),
            ],
        ];
        for edits in cases {
            let edits: Vec<(usize, usize, &str)> =
                edits.iter().map(|(s, e, t)| (*s, *e, t.as_str())).collect();
            let (after, copied) = edit(&text, &whole(text.len()), &edits);
            check_copied(&text, &after, &copied);
            assert_eq!(
                unified("api.yaml", &text, &after, &copied),
                whole_diff("api.yaml", &text, &after)
            );
        }
    }

    #[test]
    fn a_file_without_a_final_newline_says_so() {
        let text = "a: 1\nb: 2";
        let (after, copied) = edit(text, &whole(text.len()), &[(9, 9, "\nc: 3")]);
        let diff = unified("api.yaml", text, &after, &copied);
        assert_eq!(diff, whole_diff("api.yaml", text, &after));
        assert!(diff.contains("\\ No newline at end of file\n"), "{diff}");
    }

    #[test]
    fn nothing_changed_is_no_diff_and_a_wrong_record_falls_back_to_the_whole_texts() {
        let text = "a: 1\n";
        assert_eq!(unified("api.yaml", text, text, &whole(text.len())), "");
        let after = "a: 2\n";
        let wrong = [Copied {
            old: 0,
            new: 0,
            len: 99,
        }];
        assert_eq!(
            unified("api.yaml", text, after, &wrong),
            whole_diff("api.yaml", text, after)
        );
    }
}
