//! Positions as the client counts them. LSP positions are a 0-based line and a character offset
//! in the line counted in the negotiated encoding's code units: UTF-16 (the default, what VS Code
//! counts) or UTF-8 bytes (when the client offers it, as Neovim and Helix do). The engine counts
//! bytes (spans) and code points (report columns): every position crosses here.

use lsp_types::{Position, PositionEncodingKind, Range};

use crate::source::{LineIndex, SourceFile};

/// The encoding agreed at `initialize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it (it saves counting), else UTF-16, which every client
    /// must accept.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    /// Code units of `s` in this encoding.
    fn units(self, s: &str) -> u32 {
        match self {
            Encoding::Utf8 => s.len() as u32,
            Encoding::Utf16 => s.chars().map(|c| c.len_utf16() as u32).sum(),
        }
    }
}

/// The position of byte `offset` of a source file (clamped to the text and back to a
/// character boundary).
pub fn position(source: &SourceFile, offset: usize, enc: Encoding) -> Position {
    position_in(&source.text, &source.lines, offset, enc)
}

/// [`position`] for a text and its line index.
pub fn position_in(text: &str, lines: &LineIndex, offset: usize, enc: Encoding) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = lines.line_of(offset);
    let start = lines.line_start(line).min(offset);
    Position::new(line as u32, enc.units(&text[start..offset]))
}

/// The range of the bytes `start..end` of a source file.
pub fn range(source: &SourceFile, start: usize, end: usize, enc: Encoding) -> Range {
    Range::new(
        position(source, start, enc),
        position(source, end.max(start), enc),
    )
}

/// The position of a 1-based line and code-point column of `text` (as a report gives one).
pub fn from_line_column(text: &str, line: u32, column: u32, enc: Encoding) -> Position {
    let line0 = line.saturating_sub(1) as usize;
    let content = line_text(text, line0).unwrap_or("");
    let byte = content
        .char_indices()
        .nth(column.saturating_sub(1) as usize)
        .map_or(content.len(), |(b, _)| b);
    Position::new(line0 as u32, enc.units(&content[..byte]))
}

/// The byte offset of `pos` in `text`. A character past the end of its line means the line's
/// end, and a line past the last means the text's end (LSP 3.17, `Position`); a position inside
/// a UTF-16 surrogate pair or a UTF-8 sequence is moved back to the character's start.
pub fn offset(text: &str, pos: Position, enc: Encoding) -> usize {
    let Some(start) = line_start(text, pos.line as usize) else {
        return text.len();
    };
    let rest = &text[start..];
    let line_len = rest.find(['\n', '\r']).unwrap_or(rest.len());
    let line = &rest[..line_len];
    let want = pos.character as usize;
    match enc {
        Encoding::Utf8 => {
            let mut at = want.min(line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            start + at
        }
        Encoding::Utf16 => {
            let mut units = 0;
            for (i, c) in line.char_indices() {
                units += c.len_utf16();
                if units > want {
                    return start + i;
                }
            }
            start + line.len()
        }
    }
}

/// The byte where 0-based `line` starts (`\n`, `\r\n` and a lone `\r` end lines, as for the
/// engine), or `None` past the last line.
fn line_start(text: &str, line: usize) -> Option<usize> {
    if line == 0 {
        return Some(0);
    }
    let bytes = text.as_bytes();
    let mut seen = 0;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            continue;
        }
        seen += 1;
        if seen == line {
            return Some(i + 1);
        }
    }
    None
}

/// The text of 0-based `line`, without its line break.
fn line_text(text: &str, line: usize) -> Option<&str> {
    let start = line_start(text, line)?;
    let rest = &text[start..];
    Some(&rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "a: 1\r\nnamé: \"😀x\"\nlast";

    #[test]
    fn offsets_and_positions_round_trip_in_both_encodings() {
        let lines = LineIndex::new(TEXT);
        let x = TEXT.find('x').unwrap();
        let p16 = position_in(TEXT, &lines, x, Encoding::Utf16);
        let p8 = position_in(TEXT, &lines, x, Encoding::Utf8);
        // `namé: "` is 7 code units in UTF-16, then the emoji's surrogate pair.
        assert_eq!(p16, Position::new(1, 9));
        assert_eq!(p8, Position::new(1, 12));
        assert_eq!(offset(TEXT, p16, Encoding::Utf16), x);
        assert_eq!(offset(TEXT, p8, Encoding::Utf8), x);
        assert_eq!(from_line_column(TEXT, 2, 9, Encoding::Utf16), p16);
    }

    #[test]
    fn positions_past_a_line_or_the_text_are_clamped() {
        assert_eq!(offset(TEXT, Position::new(0, 99), Encoding::Utf16), 4);
        assert_eq!(
            offset(TEXT, Position::new(9, 0), Encoding::Utf8),
            TEXT.len()
        );
        // Inside the surrogate pair: the emoji's start.
        let emoji = TEXT.find('😀').unwrap();
        assert_eq!(offset(TEXT, Position::new(1, 8), Encoding::Utf16), emoji);
        assert_eq!(offset(TEXT, Position::new(1, 9), Encoding::Utf8), emoji);
    }
}
