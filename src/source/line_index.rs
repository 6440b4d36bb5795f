//! Byte offset → 1-based line and column.

/// Line starts of one text, so that a byte offset maps to a line in `O(log n)`.
///
/// Columns are counted in Unicode code points (SARIF `columnKind: unicodeCodePoints`), which is
/// what editors and code-scanning tools expect; `\n`, `\r\n` and a lone `\r` all end a line, as
/// they do for YAML.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    ascii: bool,
}

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = Vec::with_capacity(bytes.len() / 32 + 1);
        line_starts.push(0);
        if memchr::memchr(b'\r', bytes).is_none() {
            line_starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i as u32 + 1));
        } else {
            for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
                if bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n') {
                    line_starts.push(i as u32 + 1);
                }
            }
        }
        LineIndex {
            line_starts,
            ascii: text.is_ascii(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The 0-based line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&(offset as u32)) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte offset where 0-based `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts[line.min(self.line_starts.len() - 1)] as usize
    }

    /// 1-based line and code-point column of a byte offset. Offsets past the end, or inside a
    /// multi-byte character, are clamped rather than trusted.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let column = if self.ascii {
            offset - start
        } else {
            let mut end = offset;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text[start..end].chars().count()
        };
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lf_crlf_and_lone_cr_all_end_lines() {
        let text = "a\nbb\r\nc\rd";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(idx.line_col(text, 3), LineCol { line: 2, column: 2 });
        assert_eq!(idx.line_col(text, 6), LineCol { line: 3, column: 1 });
        assert_eq!(idx.line_col(text, 8), LineCol { line: 4, column: 1 });
    }

    #[test]
    fn columns_count_code_points_not_bytes() {
        let text = "name: héllo wörld\n  ключ: 1";
        let idx = LineIndex::new(text);
        let w = text.find("wörld").unwrap();
        assert_eq!(
            idx.line_col(text, w),
            LineCol {
                line: 1,
                column: 13
            }
        );
        let one = text.rfind('1').unwrap();
        assert_eq!(idx.line_col(text, one), LineCol { line: 2, column: 9 });
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let text = "ab";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 99), LineCol { line: 1, column: 3 });
    }
}
