//! The piece of a file a `text` snippet shows, and miette's `SourceCode` over it.
//!
//! miette draws whatever source it is handed, and pads its underlines with `{:width$}`, one unit
//! a column. Rust's formatter panics on a width over 65,535, so a label 70 kB to the right of the
//! span on a line of minified JSON crashed the whole report, and a span on a 4 MB line printed
//! the line. miette is therefore never handed the file, only an excerpt: the lines around a
//! finding's span and labels, each cut to a window of at most [`WIDTH`] columns with `…` where
//! it was cut. Every column miette sees stays small and every printed line is bounded, whatever
//! the file. A label outside the window of its line is not drawn: [`Excerpt::build`] says so,
//! and the caller prints it as a note.
//!
//! Reading the excerpt also spares miette's own scans: its `SourceCode` for a string walks from
//! byte 0 to every span, which was quadratic on large files with many findings.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::source::{SourceFile, Span};

/// Columns of a source line a snippet shows at most, besides a `…` at each cut end.
pub const WIDTH: usize = 240;
/// A span starting within this many columns of its line's start is shown with the line's start;
/// one further right gets a window starting [`BEFORE`] columns before it.
const LEFT_ROOM: usize = 160;
const BEFORE: usize = 60;
/// Lines shown above and below each drawn span (what miette calls context lines).
pub const CONTEXT: usize = 2;
/// Lines of one span drawn at most: a span over a whole schema is drawn down to here, so a
/// snippet stays a few dozen lines long whatever the span.
pub const SPAN_LINES: usize = 12;
/// Columns a tab may take on screen (miette's tab width).
const TAB: usize = 4;
const CUT: &str = "…";

/// One line of the file as the excerpt shows it.
#[derive(Debug)]
struct Shown {
    /// 0-based line in the file.
    line: usize,
    /// The bytes of the file shown, `from..to`.
    from: usize,
    to: usize,
    /// Where the line starts in the excerpt, before a leading `…`.
    begin: usize,
    /// Where the byte at `from` sits in the excerpt (after a leading `…`).
    at: usize,
    /// Where the line's text ends in the excerpt (after a trailing `…`).
    end: usize,
}

/// The lines a snippet shows, as one small text with the file's line numbers.
#[derive(Debug)]
pub struct Excerpt<'a> {
    file: &'a SourceFile,
    text: String,
    lines: Vec<Shown>,
    /// Runs of consecutive lines, as (index of the first in `lines`, offset in `text`): one
    /// snippet block each. Runs are at least a line apart, so miette never joins two.
    runs: Vec<(usize, usize)>,
    /// Each drawn span's start in the excerpt and in the file, for the `[file:line:col]` header.
    starts: Vec<(usize, usize)>,
}

impl<'a> Excerpt<'a> {
    /// The excerpt that shows `primary` and whichever of `labels` fit beside it, with their
    /// spans in it; `None` for a label that cannot be drawn (outside the window of its line).
    ///
    /// Spans are taken as they come: reversed, past the end of the text or inside a character,
    /// they are clamped rather than trusted.
    pub fn build(
        file: &'a SourceFile,
        primary: Span,
        labels: &[Span],
    ) -> (Excerpt<'a>, SourceSpan, Vec<Option<SourceSpan>>) {
        let text = file.text.as_str();
        let index = &file.lines;
        let last_line = index.line_count() - 1;

        // Lines whose window is set by a span starting on them, and the line ranges to show.
        let mut windows: Vec<(usize, usize, usize)> = Vec::new();
        let mut wanted: Vec<(usize, usize)> = Vec::new();
        let mut spans: Vec<Option<(usize, usize, usize, usize)>> =
            Vec::with_capacity(labels.len() + 1);
        for (i, span) in std::iter::once(&primary).chain(labels).enumerate() {
            let (original, end) = bounds(text, *span);
            let line = index.line_of(original);
            let (line_start, line_end) = (index.line_start(line), index.line_end(text, line));
            // A span starting on a line break is drawn at the end of the line.
            let start = original.min(line_end);
            let drawn = match windows.iter().find(|w| w.0 == line) {
                Some(&(_, from, to)) => from <= start && (start < to || to == line_end),
                None => {
                    let (from, to) = window_at(text, line_start, line_end, start);
                    windows.push((line, from, to));
                    true
                }
            };
            // The primary span is always drawn: its line's window is the first one set.
            debug_assert!(i > 0 || drawn);
            if !drawn {
                spans.push(None);
                continue;
            }
            let end_line = index.line_of(end.saturating_sub(1).max(start));
            let shown_end = end_line.min(line + SPAN_LINES - 1);
            let end = if shown_end < end_line {
                usize::MAX // cut: the span runs to the end of its last shown line
            } else {
                end
            };
            wanted.push((
                line.saturating_sub(CONTEXT),
                (shown_end + CONTEXT).min(last_line),
            ));
            spans.push(Some((start, original, end, shown_end)));
        }

        let mut shown: Vec<usize> = wanted.iter().flat_map(|&(a, b)| a..=b).collect();
        shown.sort_unstable();
        shown.dedup();
        // A final line break leaves an empty last "line": shown only if a span is on it.
        if last_line > 0
            && index.line_start(last_line) == text.len()
            && !windows.iter().any(|w| w.0 == last_line)
        {
            shown.retain(|&l| l != last_line);
        }

        let mut excerpt = Excerpt {
            file,
            text: String::new(),
            lines: Vec::with_capacity(shown.len()),
            runs: Vec::new(),
            starts: Vec::new(),
        };
        for (k, &line) in shown.iter().enumerate() {
            let (line_start, line_end) = (index.line_start(line), index.line_end(text, line));
            let (from, to) = match windows.iter().find(|w| w.0 == line) {
                Some(&(_, from, to)) => (from, to),
                None => {
                    // A line without a span of its own is cut where the nearest line with one
                    // is, so that columns line up down the snippet; one that ends before that
                    // (`paths:` above a long line) is shown from its start rather than as a
                    // lone `…`.
                    let skip = windows
                        .iter()
                        .min_by_key(|w| (w.0.abs_diff(line), w.0 > line))
                        .map_or(0, |w| w.1 - index.line_start(w.0));
                    let skip = if line_end - line_start <= skip {
                        0
                    } else {
                        skip
                    };
                    window_from(text, line_start, line_end, skip)
                }
            };
            if k == 0 || shown[k - 1] + 1 != line {
                excerpt.runs.push((k, excerpt.text.len()));
            }
            let begin = excerpt.text.len();
            if from > line_start {
                excerpt.text.push_str(CUT);
            }
            let at = excerpt.text.len();
            excerpt.text.push_str(&text[from..to]);
            if to < line_end {
                excerpt.text.push_str(CUT);
            }
            excerpt.lines.push(Shown {
                line,
                from,
                to,
                begin,
                at,
                end: excerpt.text.len(),
            });
            excerpt.text.push('\n');
        }

        let mut placed = spans.into_iter().map(|s| {
            s.map(|(start, original, end, end_line)| {
                let a = excerpt.place(index.line_of(start), start);
                let b = excerpt.place(end_line, end).max(a);
                excerpt.starts.push((a, original));
                SourceSpan::from((a, b - a))
            })
        });
        let primary = placed
            .next()
            .flatten()
            .expect("the primary span is always drawn");
        let labels = placed.collect();
        (excerpt, primary, labels)
    }

    /// Where byte `offset` of the file, on shown `line`, lands in the excerpt: clamped to the
    /// line as shown, a cut-off part landing on its `…`.
    fn place(&self, line: usize, offset: usize) -> usize {
        // Every line of a drawn span is shown; were one not, the nearest shown line will do.
        let i = self
            .lines
            .binary_search_by_key(&line, |s| s.line)
            .unwrap_or_else(|i| i.min(self.lines.len() - 1));
        let s = &self.lines[i];
        if offset < s.from {
            s.begin
        } else if offset > s.to {
            s.end
        } else {
            s.at + (offset - s.from)
        }
    }

    /// The byte of the file that excerpt offset `at` shows.
    fn original(&self, at: usize) -> usize {
        if let Some(&(_, offset)) = self.starts.iter().find(|s| s.0 == at) {
            return offset;
        }
        let i = self
            .lines
            .partition_point(|s| s.begin <= at)
            .saturating_sub(1);
        let s = &self.lines[i];
        (s.from + at.saturating_sub(s.at)).min(s.to)
    }
}

impl SourceCode for Excerpt<'_> {
    fn read_span<'b>(
        &'b self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let start = span.offset();
        let end = start + span.len();
        let run = self
            .runs
            .partition_point(|r| r.1 <= start)
            .checked_sub(1)
            .ok_or(MietteError::OutOfBounds)?;
        let (first, run_start) = self.runs[run];
        let (next, run_end) = self
            .runs
            .get(run + 1)
            .copied()
            .unwrap_or((self.lines.len(), self.text.len()));
        if end > run_end {
            return Err(MietteError::OutOfBounds);
        }
        let name = self.file.name.clone();
        if context_lines_before == 0 && context_lines_after == 0 {
            // miette asks for a span alone to learn its line and column, for the header.
            let at = self.file.line_col(self.original(start));
            let breaks = self.text.as_bytes()[start..end]
                .iter()
                .filter(|&&b| b == b'\n');
            let lines = breaks.count() + 1;
            return Ok(Box::new(MietteSpanContents::new_named(
                name,
                &self.text.as_bytes()[start..end],
                *span,
                at.line as usize - 1,
                at.column as usize - 1,
                lines,
            )));
        }
        // With context, it gets the whole run: the excerpt already holds the context it shows.
        Ok(Box::new(MietteSpanContents::new_named(
            name,
            &self.text.as_bytes()[run_start..run_end],
            (run_start, run_end - run_start).into(),
            self.lines[first].line,
            0,
            next - first,
        )))
    }
}

/// A span's start and end as character boundaries within `text`, in order.
fn bounds(text: &str, span: Span) -> (usize, usize) {
    let (a, b) = (span.start.min(span.end), span.start.max(span.end));
    let mut start = (a as usize).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (b as usize).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// Columns a character may take on screen, at most.
fn columns(c: char) -> usize {
    match c {
        '\t' => TAB,
        c if c.is_ascii() => 1,
        // East Asian wide characters and emoji take two; nothing takes more.
        _ => 2,
    }
}

/// The offset `budget` columns after `from`, or `limit` if that comes first.
fn forward(text: &str, from: usize, limit: usize, budget: usize) -> usize {
    let mut used = 0;
    for (i, c) in text[from..limit].char_indices() {
        used += columns(c);
        if used > budget {
            return from + i;
        }
    }
    limit
}

/// The offset `budget` columns before `to`, or `limit` if that comes first.
fn backward(text: &str, to: usize, limit: usize, budget: usize) -> usize {
    let mut used = 0;
    let mut at = to;
    for (i, c) in text[limit..to].char_indices().rev() {
        used += columns(c);
        if used > budget {
            return at;
        }
        at = limit + i;
    }
    limit
}

/// The part of a line shown around a span starting at `anchor`: the whole line if it fits, its
/// start if the span is near it, else a window from a little before the span.
fn window_at(text: &str, line_start: usize, line_end: usize, anchor: usize) -> (usize, usize) {
    let head = forward(text, line_start, line_end, WIDTH);
    if head == line_end || anchor <= forward(text, line_start, head, LEFT_ROOM) {
        return (line_start, head);
    }
    let from = backward(text, anchor, line_start, BEFORE);
    (from, forward(text, from, line_end, WIDTH))
}

/// The part of a line shown from `skip` bytes into it.
fn window_from(text: &str, line_start: usize, line_end: usize, skip: usize) -> (usize, usize) {
    let mut from = line_start.saturating_add(skip).min(line_end);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    (from, forward(text, from, line_end, WIDTH))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Format;

    fn file(text: &str) -> SourceFile {
        SourceFile::new(
            "spec.json".into(),
            "spec.json".into(),
            text.to_string(),
            Format::Json,
        )
    }

    fn span(text: &str, needle: &str) -> Span {
        let at = text.find(needle).unwrap();
        Span::new(at, at + needle.len())
    }

    /// Minified JSON is one line: the excerpt is a window around the span, and a label far
    /// along the line is not drawn.
    #[test]
    fn a_one_line_file_shows_a_window_around_the_span() {
        let filler = r#"{"k":"v"},"#.repeat(100_000);
        let text = format!(r#"{{"a":[{filler}{{"target":1}}],"b":[{filler}"far"]}}"#);
        let f = file(&text);
        let near = span(&text, "1}],");
        let (ex, primary, labels) = Excerpt::build(
            &f,
            span(&text, r#""target""#),
            &[near, span(&text, "\"far\"")],
        );
        assert!(
            ex.text.starts_with('…') && ex.text.ends_with("…\n"),
            "{}",
            ex.text
        );
        assert!(ex.text.chars().count() <= WIDTH + 3, "{}", ex.text.len());
        assert_eq!(&ex.text[primary.offset()..][..8], r#""target""#);
        let near = labels[0].expect("the near label is drawn");
        assert_eq!(&ex.text[near.offset()..][..4], "1}],");
        assert_eq!(labels[1], None, "the far label does not fit");
        // The header line and column are the file's.
        let header = ex.read_span(&primary, 0, 0).unwrap();
        let at = f.line_col(text.find(r#""target""#).unwrap());
        assert_eq!(header.line(), 0);
        assert_eq!(header.column() + 1, at.column as usize);
    }

    #[test]
    fn short_lines_are_shown_whole_with_their_context() {
        let f = file("a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\n");
        let (ex, primary, _) = Excerpt::build(&f, Span::new(10, 14), &[]);
        assert_eq!(ex.text, "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n");
        let contents = ex.read_span(&primary, 2, 2).unwrap();
        assert_eq!(contents.line(), 0);
        assert_eq!(contents.line_count(), 5);
        assert_eq!(&ex.text[primary.offset()..][..primary.len()], "c: 3");
    }

    /// Lines far apart make runs of their own, at least a line apart; a span over many lines is
    /// drawn over its first [`SPAN_LINES`].
    #[test]
    fn far_labels_get_their_own_run_and_long_spans_are_cut() {
        let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let f = file(&text);
        let primary = Span::new(text.find("line 50").unwrap(), text.find("line 90").unwrap());
        let label = span(&text, "line 10\n");
        let (ex, placed, labels) = Excerpt::build(&f, primary, &[label]);
        let shown: Vec<usize> = ex.lines.iter().map(|s| s.line).collect();
        let mut want: Vec<usize> = (8..=12).collect();
        want.extend(48..=50 + SPAN_LINES + 1);
        assert_eq!(shown, want);
        assert_eq!(ex.runs.len(), 2);
        let drawn = &ex.text[placed.offset()..placed.offset() + placed.len()];
        assert!(
            drawn.starts_with("line 50\n") && drawn.ends_with("line 61"),
            "{drawn}"
        );
        let label = labels[0].unwrap();
        assert_eq!(ex.read_span(&label, 2, 2).unwrap().line(), 8);
    }

    /// Whatever the span, the excerpt holds it, clamped: reversed, past the end, mid-character.
    #[test]
    fn hostile_spans_are_clamped() {
        let text = "é: 1\nb: 2";
        let f = file(text);
        for span in [
            Span { start: 9, end: 2 },
            Span { start: 1, end: 1 },
            Span::new(500, 900),
            Span::new(0, text.len()),
        ] {
            let (ex, primary, labels) = Excerpt::build(&f, span, &[span, Span::new(1, 400)]);
            assert!(primary.offset() + primary.len() <= ex.text.len());
            assert!(labels.iter().all(Option::is_some));
            assert!(ex.read_span(&primary, 0, 0).is_ok());
        }
    }
}
