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
        let line_end = text[line_start..]
            .find(['\n', '\r'])
            .map_or(text.len(), |i| line_start + i);
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
