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
    /// For non-ASCII text, code points before each multiple of [`CHUNK`] bytes (rounded up to a
    /// character boundary), so a column on a megabyte-long line costs at most one chunk's scan.
    /// Built on first need: most columns sit on short lines and are counted directly.
    chars_before: std::sync::OnceLock<Vec<u32>>,
}

/// Lines up to this long get their columns counted directly.
const SHORT_LINE: usize = 4096;

const CHUNK: usize = 256;

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
        line_starts.shrink_to_fit();
        LineIndex {
            line_starts,
            ascii: text.is_ascii(),
            chars_before: std::sync::OnceLock::new(),
        }
    }

    /// Code points in `text[..offset]`; `offset` is a character boundary.
    fn chars_to(&self, text: &str, offset: usize) -> usize {
        let counts = self.chars_before.get_or_init(|| {
            let mut counts = Vec::with_capacity(text.len() / CHUNK + 1);
            let mut count = 0u32;
            let mut at = 0;
            for k in 0..=text.len() / CHUNK {
                let target = ceil_boundary(text, k * CHUNK);
                count += text[at..target].chars().count() as u32;
                at = target;
                counts.push(count);
            }
            counts
        });
        let k = offset / CHUNK;
        // `offset` is a boundary at or past `k * CHUNK`, so at or past `base`.
        let base = ceil_boundary(text, k * CHUNK);
        counts[k] as usize + text[base..offset].chars().count()
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

    /// Byte offset where 0-based `line` ends, before its line break: found from the next
    /// line's start, never by scanning the line (which on minified JSON is the whole file).
    pub fn line_end(&self, text: &str, line: usize) -> usize {
        let Some(&next) = self.line_starts.get(line + 1) else {
            return text.len();
        };
        let bytes = text.as_bytes();
        let mut end = next as usize - 1; // the `\n` or lone `\r`
        if bytes[end] == b'\n' && end > 0 && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        end.max(self.line_start(line))
    }

    /// 1-based line and code-point column of a byte offset. Offsets past the end, or inside a
    /// multi-byte character, are clamped rather than trusted.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let mut end = offset;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let column = if self.ascii {
            end - start
        } else if end - start <= SHORT_LINE {
            text[start..end].chars().count()
        } else {
            self.chars_to(text, end) - self.chars_to(text, start)
        };
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }
}

/// The first character boundary at or after `offset`.
fn ceil_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
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
    fn columns_on_long_mixed_lines_match_a_plain_count() {
        let text: String = (0..2000)
            .map(|i| if i % 7 == 0 { "é✓𝄞" } else { "ab" })
            .collect();
        let idx = LineIndex::new(&text);
        for (offset, _) in text.char_indices().step_by(37) {
            let want = text[..offset].chars().count() as u32 + 1;
            assert_eq!(idx.line_col(&text, offset).column, want, "at {offset}");
        }
    }

    #[test]
    fn line_ends_stop_before_each_kind_of_break() {
        let text = "a\nbb\r\nc\rd\n\n";
        let idx = LineIndex::new(text);
        let ends: Vec<&str> = (0..idx.line_count())
            .map(|l| &text[idx.line_start(l)..idx.line_end(text, l)])
            .collect();
        assert_eq!(ends, ["a", "bb", "c", "d", "", ""]);
        for (text, last) in [("a\r\n", ""), ("a\r", ""), ("", ""), ("ab", "ab")] {
            let idx = LineIndex::new(text);
            let line = idx.line_count() - 1;
            assert_eq!(&text[idx.line_start(line)..idx.line_end(text, line)], last);
            assert_eq!(&text[..idx.line_end(text, 0)], text.trim_end(), "{text:?}");
        }
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let text = "ab";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 99), LineCol { line: 1, column: 3 });
    }
}
