//! miette's `SourceCode` over our [`SourceFile`]: its own implementation scans from byte 0 for
//! every span, which is quadratic on large files with many findings; ours uses the line index.

use std::sync::Arc;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::source::SourceFile;

#[derive(Debug, Clone)]
pub struct SourceView(pub Arc<SourceFile>);

/// Longest line (in bytes) shown whole; a longer one (minified JSON) is shown as a window around
/// the span, so a finding on a 4 MB line prints a few hundred bytes, not the line.
const MAX_LINE: usize = 240;
/// Bytes of a long line shown before the span.
const WINDOW_BEFORE: usize = 60;

impl SourceCode for SourceView {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let file = &*self.0;
        let text = &file.text;
        let lines = &file.lines;
        let start = span.offset();
        let end = start + span.len();
        if end > text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let first_line = lines.line_of(start);
        let last_line = lines.line_of(end.saturating_sub(1).max(start));
        let line_start = lines.line_start(first_line);
        let line_end = lines.line_end(text, first_line);
        if line_end - line_start > MAX_LINE && context_lines_before > 0 {
            let mut from = start.saturating_sub(WINDOW_BEFORE).max(line_start);
            while !text.is_char_boundary(from) {
                from -= 1;
            }
            let mut to = end.max(from + MAX_LINE).min(line_end).max(end);
            while !text.is_char_boundary(to) {
                to += 1;
            }
            return Ok(Box::new(MietteSpanContents::new_named(
                file.name.clone(),
                &text.as_bytes()[from..to],
                (from, to - from).into(),
                first_line,
                file.line_col(from).column as usize - 1,
                1,
            )));
        }
        let from_line = first_line.saturating_sub(context_lines_before);
        let to_line = (last_line + context_lines_after).min(lines.line_count() - 1);
        let (data_start, column) = if context_lines_before == 0 {
            (start, file.line_col(start).column as usize - 1)
        } else {
            (lines.line_start(from_line), 0)
        };
        let data_end = if to_line + 1 < lines.line_count() {
            lines.line_start(to_line + 1)
        } else {
            text.len()
        };
        let data_end = data_end.max(end);
        // miette reads each label with no context, only for its line and column: on a long
        // line, handing it the rest of the line (or of a one-line file) made every finding cost
        // the size of the file.
        let data_end =
            if context_lines_before == 0 && context_lines_after == 0 && data_end - end > MAX_LINE {
                end
            } else {
                data_end
            };
        Ok(Box::new(MietteSpanContents::new_named(
            file.name.clone(),
            &text.as_bytes()[data_start..data_end],
            (data_start, data_end - data_start).into(),
            if context_lines_before == 0 {
                first_line
            } else {
                from_line
            },
            column,
            to_line - from_line + 1,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Format;

    fn view(text: String) -> SourceView {
        SourceView(Arc::new(SourceFile::new(
            "spec.json".into(),
            "spec.json".into(),
            text,
            Format::Json,
        )))
    }

    /// Minified JSON is one line: a snippet, and each label's line lookup, must read a window
    /// around the span, not the rest of the file.
    #[test]
    fn reads_on_a_one_line_file_stay_near_the_span() {
        let filler = r#"{"k":"v"},"#.repeat(100_000);
        let text = format!(r#"{{"a":[{filler}{{"target":1}}],"b":[{filler}0]}}"#);
        let at = text.find(r#""target""#).unwrap();
        let v = view(text.clone());
        let span = SourceSpan::from((at, 8));
        for context in [0, 2] {
            let contents = v.read_span(&span, context, context).unwrap();
            let data = std::str::from_utf8(contents.data()).unwrap();
            assert!(data.contains(r#""target""#), "context {context}: {data}");
            assert!(
                data.len() <= 2 * MAX_LINE,
                "context {context}: {} bytes",
                data.len()
            );
            assert_eq!(contents.line(), 0);
        }
    }

    #[test]
    fn short_lines_are_shown_whole_with_their_context() {
        let v = view("a: 1\nb: 2\nc: 3\nd: 4\n".to_string());
        let contents = v.read_span(&SourceSpan::from((10, 4)), 1, 1).unwrap();
        assert_eq!(contents.data(), b"b: 2\nc: 3\nd: 4\n");
        assert_eq!(contents.line(), 1);
    }
}
