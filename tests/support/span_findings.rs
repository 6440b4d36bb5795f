//! Reports of findings at arbitrary spans, with labels, over text made to break a renderer:
//! lines hundreds of thousands of columns long, multi-byte, wide and combining characters,
//! tabs, `\r\n` and lone `\r` line breaks. Spans may be empty, reversed, past the end of the
//! text or inside a character; labels may be in the same file or another.
//!
//! Shared by the seeded loop of `tests/render.rs` and the `render` fuzz target: both turn bytes
//! into a report this way, so a crash the fuzzer finds replays as a test.

use std::path::PathBuf;
use std::sync::Arc;

use idemlint::catalogue::RuleId;
use idemlint::diagnostic::Severity;
use idemlint::fix::Applicability;
use idemlint::report::{Finding, LintedDocument, Report, ResolvedEdit, ResolvedFix, ResolvedLabel};
use idemlint::source::{Format, SourceFile, Span};

/// Numbers read from bytes; zeros once the bytes run out.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    pub fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[self.byte() as usize % from.len()]
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }
}

const PIECES: &[&str] = &["x", "{\"k\":1},", "é", "中", "\t", "🦀", "e\u{301}", " "];
/// Around the renderer's window (240 columns, 160 before a cut) and far beyond it.
const LENGTHS: &[usize] = &[
    0, 1, 3, 60, 159, 161, 239, 240, 241, 300, 4_000, 70_000, 300_000,
];
const BREAKS: &[&str] = &["\n", "\r\n", "\r"];
const MAX_TEXT: usize = 4 << 20;
/// Span lengths: empty, short, a window, past a 65,535-column line, anything.
const SPAN_LENGTHS: &[u32] = &[0, 1, 5, 300, 70_000, u32::MAX];
const RULES: &[RuleId] = &[
    RuleId::MissingIdempotencyKey,
    RuleId::IncrementalUpdate,
    RuleId::DuplicateKey,
];
const SEVERITIES: &[Severity] = &[Severity::Error, Severity::Warning, Severity::Info];

/// The name findings are reported in, and the one other-file labels name.
pub const FILE: &str = "spec.json";
pub const OTHER_FILE: &str = "other.yaml";

/// A text of up to six lines, some of them very long.
pub fn text(b: &mut Bytes) -> String {
    let mut text = String::new();
    for _ in 0..1 + b.byte() % 6 {
        for _ in 0..1 + b.byte() % 3 {
            let piece = b.pick(PIECES);
            let n = b
                .pick(LENGTHS)
                .min(MAX_TEXT.saturating_sub(text.len()) / piece.len());
            text.push_str(&piece.repeat(n));
        }
        text.push_str(b.pick(BREAKS));
    }
    if b.byte().is_multiple_of(2) {
        text.pop(); // no final line break
    }
    text
}

fn span(b: &mut Bytes, len: usize) -> Span {
    let start = b.u32() % (len as u32 + 8);
    let end = start.saturating_add(b.u32() % b.pick(SPAN_LENGTHS).max(1));
    if b.byte().is_multiple_of(8) {
        Span {
            start: end,
            end: start,
        } // reversed
    } else {
        Span { start, end }
    }
}

/// A report of up to four findings, each with up to three labels, over one generated text.
/// Every label message is unique (`label F.L`), so a test can find each in the output.
pub fn report(b: &mut Bytes) -> Report {
    let text = text(b);
    let len = text.len();
    let source = Arc::new(SourceFile::new(
        PathBuf::from("/hostile").join(FILE),
        FILE.to_string(),
        text,
        Format::Json,
    ));
    let mut findings = Vec::new();
    for n in 0..1 + b.byte() % 4 {
        let span = span(b, len);
        let start = source.line_col(span.start as usize);
        let end = source.line_col(span.end as usize);
        let mut labels = Vec::new();
        for k in 0..b.byte() % 4 {
            let at = self::span(b, len);
            let same_file = !b.byte().is_multiple_of(4);
            let lc = source.line_col(at.start as usize);
            labels.push(ResolvedLabel {
                file: if same_file { FILE } else { OTHER_FILE }.to_string(),
                line: lc.line,
                column: lc.column,
                span: at,
                message: format!("label {n}.{k}").into(),
                same_file,
            });
        }
        // A fix of up to two edits, anywhere: reports show where each edit goes.
        let fix = b.byte().is_multiple_of(3).then(|| {
            let edits = (0..1 + b.byte() % 2)
                .map(|k| {
                    let at = self::span(b, len);
                    let (start, end) = (
                        source.line_col(at.start as usize),
                        source.line_col(at.end as usize),
                    );
                    ResolvedEdit {
                        source: Arc::clone(&source),
                        span: at,
                        text: format!("edit {n}.{k}\n\u{301}\t"),
                        line: start.line,
                        column: start.column,
                        end_line: end.line,
                        end_column: end.column,
                    }
                })
                .collect();
            Box::new(ResolvedFix {
                title: format!("fix {n}"),
                applicability: if b.byte().is_multiple_of(2) {
                    Applicability::Safe
                } else {
                    Applicability::Unsafe
                },
                edits,
            })
        });
        findings.push(Finding {
            rule: b.pick(RULES),
            severity: b.pick(SEVERITIES),
            message: format!("finding {n}"),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            pointer: "/paths".to_string(),
            operation: None,
            operation_at: None,
            fingerprint: format!("{n:016x}"),
            help: b.byte().is_multiple_of(2).then_some("help text".into()),
            labels,
            source: Arc::clone(&source),
            span,
            fix,
            no_fix: None,
            before: None,
            change: None,
            evidence: None,
        });
    }
    Report {
        findings,
        documents: vec![LintedDocument {
            file: FILE.to_string(),
            operations: Vec::new(),
            unchecked: Vec::new(),
            loaded: vec![source.path.clone()],
        }],
        files: 1,
        ..Report::default()
    }
}
