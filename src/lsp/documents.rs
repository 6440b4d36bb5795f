//! The client's open buffers: their text as the client has it (unsaved edits included), their
//! version, and when each last changed, so a lint of an older text is known to be stale.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{TextDocumentContentChangeEvent, Uri};

use super::position::{Encoding, offset};
use crate::files::{Disk, Overlay};

/// One open buffer.
pub struct Document {
    /// As the client named it: diagnostics for the buffer go back under this URI.
    pub uri: Uri,
    pub text: String,
    pub version: i32,
    /// The edit count ([`Documents::edits`]) when it last changed.
    pub changed_at: u64,
}

/// A buffer as a lint sees it: shared, not copied, by every run that reads it.
#[derive(Clone)]
pub struct Snapshot {
    pub path: PathBuf,
    pub uri: Uri,
    pub text: Arc<str>,
    pub version: i32,
}

#[derive(Default)]
pub struct Documents {
    open: HashMap<PathBuf, Document>,
    /// Changes seen so far, opens and closes included: a clock for staleness.
    pub edits: u64,
}

impl Documents {
    pub fn open(&mut self, path: PathBuf, uri: Uri, text: String, version: i32) {
        self.edits += 1;
        let changed_at = self.edits;
        self.open.insert(
            path,
            Document {
                uri,
                text,
                version,
                changed_at,
            },
        );
    }

    /// Applies the client's changes in order (each range is in the text as the change before
    /// it left it; no range means the whole text).
    pub fn change(
        &mut self,
        path: &Path,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        enc: Encoding,
    ) -> bool {
        self.edits += 1;
        let edits = self.edits;
        let Some(doc) = self.open.get_mut(path) else {
            return false;
        };
        for change in changes {
            match change.range {
                Some(range) => {
                    let start = offset(&doc.text, range.start, enc);
                    let end = offset(&doc.text, range.end, enc).max(start);
                    doc.text.replace_range(start..end, &change.text);
                }
                None => doc.text = change.text,
            }
        }
        doc.version = version;
        doc.changed_at = edits;
        true
    }

    pub fn close(&mut self, path: &Path) -> Option<Document> {
        self.edits += 1;
        self.open.remove(path)
    }

    /// Every open buffer.
    pub fn iter(&self) -> impl Iterator<Item = (&PathBuf, &Document)> {
        self.open.iter()
    }

    pub fn get(&self, path: &Path) -> Option<&Document> {
        self.open.get(path)
    }

    /// When `path` last changed in the editor (0: never, or not open).
    pub fn changed_at(&self, path: &Path) -> u64 {
        self.open.get(path).map_or(0, |d| d.changed_at)
    }

    /// Every buffer as it stands, for a lint on another thread.
    pub fn snapshot(&self) -> Vec<Snapshot> {
        self.open
            .iter()
            .map(|(path, doc)| Snapshot {
                path: path.clone(),
                uri: doc.uri.clone(),
                text: Arc::from(doc.text.as_str()),
                version: doc.version,
            })
            .collect()
    }
}

/// The buffers in front of the disk: what every read of a lint goes through, so an unsaved
/// buffer wins over its file, for a root as for a `$ref`'d fragment or a configuration.
pub fn overlay(buffers: &[Snapshot]) -> Overlay {
    let mut overlay = Overlay::new(Box::new(Disk));
    for b in buffers {
        overlay.set(b.path.clone(), b.text.clone());
    }
    overlay
}
