//! Source files: reading, decoding and parsing YAML and JSON into span-carrying [`Node`] trees.

mod json;
mod line_index;
mod node;
mod span;
mod yaml;

use std::path::{Path, PathBuf};

use crate::files::Files;
use crate::limits::Limits;

pub use line_index::{LineCol, LineIndex};
pub use node::{DuplicateKey, Entry, Key, Node, Scalar, ScalarKind, Value};
pub use span::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

/// One file's text, decoded, with its line index. The text never includes a UTF-8 byte order
/// mark, so spans, lines and columns all count from the first real character.
#[derive(Debug)]
pub struct SourceFile {
    /// Absolute, normalised path; the identity of the file when `$ref`s are resolved.
    pub path: PathBuf,
    /// The name shown to users: as given on the command line or relative to the working directory.
    pub name: String,
    pub text: String,
    pub lines: LineIndex,
    pub format: Format,
}

/// What parsing gives: the root node and the duplicate keys met on the way.
#[derive(Debug)]
pub struct Loaded {
    pub root: Node,
    pub duplicates: Vec<DuplicateKey>,
}

/// A file that could not be parsed, with the span of the problem.
#[derive(Debug, Clone)]
pub struct LoadError {
    pub span: Span,
    pub message: String,
}

impl LoadError {
    pub fn new(span: Span, message: String) -> Self {
        LoadError { span, message }
    }
}

/// Why a file could not even be turned into text.
#[derive(Debug, Clone)]
pub struct ReadError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl SourceFile {
    pub fn new(path: PathBuf, name: String, text: String, format: Format) -> Self {
        let lines = LineIndex::new(&text);
        SourceFile {
            path,
            name,
            text,
            lines,
            format,
        }
    }

    /// Decodes bytes read from `path`: drops a BOM, refuses non-UTF-8 with the position of the
    /// first bad byte, and picks the format from the extension (or the first character).
    pub fn decode(path: PathBuf, name: String, bytes: Vec<u8>) -> Result<Self, ReadError> {
        if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            return Err(ReadError {
                line: 1,
                column: 1,
                message: "UTF-16 text (byte order mark FF FE or FE FF): save the file as UTF-8"
                    .to_string(),
            });
        }
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let bad = e.utf8_error().valid_up_to();
                let bytes = e.as_bytes();
                let prefix = std::str::from_utf8(&bytes[..bad]).unwrap_or_default();
                let at = LineIndex::new(prefix).line_col(prefix, bad);
                return Err(ReadError {
                    line: at.line,
                    column: at.column,
                    message: format!(
                        "not UTF-8 text: byte 0x{:02X} is not valid UTF-8 (OpenAPI documents must be UTF-8)",
                        bytes[bad]
                    ),
                });
            }
        };
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        };
        let format = format_of(&path, &text);
        Ok(SourceFile::new(path, name, text, format))
    }

    /// Reads and decodes a file, refusing files over the size limit unread.
    pub fn read(
        files: &dyn Files,
        path: &Path,
        name: String,
        limits: &Limits,
    ) -> Result<Self, ReadError> {
        let fail = |message: String| ReadError {
            line: 1,
            column: 1,
            message,
        };
        let meta = files.metadata(path).map_err(|e| fail(io_message(&e)))?;
        if meta.is_dir() {
            return Err(fail("is a directory".to_string()));
        }
        // A FIFO would block the run forever and a device (`/dev/zero`) never ends.
        if !meta.is_file() {
            return Err(fail(
                "not a regular file (a pipe, socket or device); idemlint reads files only"
                    .to_string(),
            ));
        }
        if let Some(message) = limits.too_large(meta.len) {
            return Err(fail(message));
        }
        let bytes = files.read(path).map_err(|e| fail(io_message(&e)))?;
        SourceFile::decode(path.to_path_buf(), name, bytes)
    }

    pub fn parse(&self, limits: &Limits) -> Result<Loaded, LoadError> {
        match self.format {
            Format::Yaml => yaml::parse(&self.text, limits),
            Format::Json => json::parse(&self.text, limits).or_else(|json_error| {
                // No `.json` extension: `{` was a guess. Flow-style YAML starts with `{` too.
                if has_extension(&self.path, "json") {
                    Err(json_error)
                } else {
                    yaml::parse(&self.text, limits).map_err(|_| json_error)
                }
            }),
        }
    }

    pub fn line_col(&self, offset: usize) -> LineCol {
        self.lines.line_col(&self.text, offset)
    }
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

fn format_of(path: &Path, text: &str) -> Format {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("json") => Format::Json,
        Some(e) if e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml") => Format::Yaml,
        _ => match text.trim_start().as_bytes().first() {
            Some(b'{') => Format::Json,
            _ => Format::Yaml,
        },
    }
}

pub fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => {
            // "Too many levels of symbolic links (os error 40)" → "too many levels of symbolic
            // links": our messages are lower-case and the OS error number helps nobody.
            let text = e.to_string();
            let text = match text.rfind(" (os error ") {
                Some(i) if text.ends_with(')') => text[..i].to_string(),
                _ => text,
            };
            let mut chars = text.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
}
