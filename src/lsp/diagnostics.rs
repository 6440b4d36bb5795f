//! A lint's report as the client sees it: each finding an LSP diagnostic in the file it is in
//! (a `$ref`'d fragment's findings under the fragment's URI), each input error a diagnostic at
//! its position, and the finding kept beside its diagnostic for code actions and hover.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Position, Range, Uri,
};

use super::documents::Snapshot;
use super::position::{self, Encoding};
use super::uri;
use crate::catalogue::Severity;
use crate::report::{Finding, Report};
use crate::resolve::FileError;

/// What diagnostics name as their source.
pub const SOURCE: &str = "idemlint";

/// One diagnostic and, for a finding, the finding (its fix, its rule).
#[derive(Clone)]
pub struct Item {
    pub diagnostic: Diagnostic,
    pub finding: Option<Arc<Finding>>,
}

/// A file's diagnostics from one lint, and the version of its buffer the lint read (none for a
/// file read from the disk).
#[derive(Clone, Default)]
pub struct FileDiagnostics {
    pub version: Option<i32>,
    pub items: Vec<Item>,
}

/// What linting one unit (a root document, or the documents reaching a fragment) gave.
pub struct UnitResult {
    /// The path the lint was asked for.
    pub unit: PathBuf,
    /// Every file its documents loaded.
    pub loaded: Vec<PathBuf>,
    /// Whether any document was linted (a root that does not parse is not).
    pub linted: bool,
    pub files: HashMap<PathBuf, FileDiagnostics>,
    /// The files that had an input error: their findings, if any are kept, are the error.
    pub broken: Vec<PathBuf>,
}

/// Where texts and URIs come from while a report is converted: the buffers the lint read, the
/// disk for the rest.
struct Texts<'a> {
    buffers: &'a [Snapshot],
    disk: HashMap<PathBuf, Option<String>>,
}

impl Texts<'_> {
    fn buffer(&self, path: &Path) -> Option<&Snapshot> {
        self.buffers.iter().find(|b| b.path == path)
    }

    fn uri(&self, path: &Path) -> Option<Uri> {
        match self.buffer(path) {
            Some(b) => Some(b.uri.clone()),
            None => uri::from_path(path),
        }
    }

    fn text(&mut self, path: &Path) -> Option<&str> {
        if let Some(i) = self.buffers.iter().position(|b| b.path == path) {
            return Some(&self.buffers[i].text);
        }
        self.disk
            .entry(path.to_path_buf())
            .or_insert_with(|| std::fs::read_to_string(path).ok())
            .as_deref()
    }
}

/// Converts the report of one unit's lint. `cwd`: what relative names in the report are
/// relative to.
pub fn convert(
    unit: PathBuf,
    report: Report,
    buffers: &[Snapshot],
    enc: Encoding,
    cwd: &Path,
) -> UnitResult {
    let mut texts = Texts {
        buffers,
        disk: HashMap::new(),
    };
    let mut loaded: Vec<PathBuf> = report
        .documents
        .iter()
        .flat_map(|d| d.loaded.iter().cloned())
        .collect();
    loaded.sort();
    loaded.dedup();
    let mut files: HashMap<PathBuf, FileDiagnostics> = HashMap::new();
    for f in report.findings {
        let path = f.source.path.clone();
        if path.to_str().is_some_and(crate::fetch::is_http) {
            continue;
        }
        let diagnostic = finding(&f, enc, &mut texts, cwd);
        entry(&mut files, &path, &texts).items.push(Item {
            diagnostic,
            finding: Some(Arc::new(f)),
        });
    }
    let mut broken = Vec::new();
    for e in &report.errors {
        let path = named(&e.file, cwd);
        let (path, diagnostic) = match path.filter(|p| texts.text(p).is_some()) {
            Some(path) => {
                let diagnostic = error(e, texts.text(&path).unwrap_or(""), enc);
                (path, diagnostic)
            }
            // Not a file of this machine (`--profile`, a URL): shown on the unit itself.
            None => (unit.clone(), error(e, "", enc)),
        };
        broken.push(path.clone());
        entry(&mut files, &path, &texts).items.push(Item {
            diagnostic,
            finding: None,
        });
    }
    broken.sort();
    broken.dedup();
    UnitResult {
        unit,
        linted: !report.documents.is_empty(),
        loaded,
        files,
        broken,
    }
}

/// The diagnostics of `path` in `files`, made on first need with the version of its buffer.
fn entry<'f>(
    files: &'f mut HashMap<PathBuf, FileDiagnostics>,
    path: &Path,
    texts: &Texts<'_>,
) -> &'f mut FileDiagnostics {
    files
        .entry(path.to_path_buf())
        .or_insert_with(|| FileDiagnostics {
            version: texts.buffer(path).map(|b| b.version),
            items: Vec::new(),
        })
}

/// The path a report's file name names: absolute names as they are, others under `cwd`.
fn named(name: &str, cwd: &Path) -> Option<PathBuf> {
    if crate::fetch::is_http(name) || name.starts_with("--") {
        return None;
    }
    Some(crate::files::normalize(&cwd.join(name)))
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

fn finding(f: &Finding, enc: Encoding, texts: &mut Texts<'_>, cwd: &Path) -> Diagnostic {
    let range = position::range(&f.source, f.span.start as usize, f.span.end as usize, enc);
    let related: Vec<DiagnosticRelatedInformation> = f
        .labels
        .iter()
        .filter_map(|l| {
            let (uri, range) = if l.same_file {
                let range =
                    position::range(&f.source, l.span.start as usize, l.span.end as usize, enc);
                (texts.uri(&f.source.path)?, range)
            } else {
                let path = named(&l.file, cwd)?;
                let at = position::from_line_column(texts.text(&path)?, l.line, l.column, enc);
                (texts.uri(&path)?, Range::new(at, at))
            };
            Some(DiagnosticRelatedInformation {
                location: Location::new(uri, range),
                message: l.message.to_string(),
            })
        })
        .collect();
    let message = match &f.help {
        Some(help) => format!("{}\nhelp: {help}", f.message),
        None => f.message.clone(),
    };
    Diagnostic {
        range,
        severity: Some(severity(f.severity)),
        code: Some(NumberOrString::String(f.rule.as_str().to_string())),
        code_description: Uri::from_str(&f.rule.doc_url())
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// An input error (a buffer that does not parse mid-typing, a `$ref` not found, a mistake in
/// a configuration) at its position in `text`.
fn error(e: &FileError, text: &str, enc: Encoding) -> Diagnostic {
    let at = if text.is_empty() {
        Position::new(0, 0)
    } else {
        position::from_line_column(text, e.line, e.column, enc)
    };
    Diagnostic {
        range: Range::new(at, at),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String(e.kind.code().to_string())),
        code_description: None,
        source: Some(SOURCE.to_string()),
        message: e.message.clone(),
        related_information: None,
        tags: None,
        data: None,
    }
}
