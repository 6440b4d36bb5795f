//! An editor's view: open buffers, saved or not, in front of the files under them.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Files, Kind, Meta};

/// In-memory texts over another [`Files`] (the disk, usually): a path with a buffer reads as the
/// buffer, even when no file exists there yet; every other path reads from below.
pub struct Overlay {
    below: Box<dyn Files>,
    buffers: HashMap<PathBuf, Arc<str>>,
}

impl Overlay {
    pub fn new(below: Box<dyn Files>) -> Self {
        Overlay {
            below,
            buffers: HashMap::new(),
        }
    }

    /// Puts `text` in front of `path` (absolute and normalised), replacing an earlier buffer.
    pub fn set(&mut self, path: PathBuf, text: impl Into<Arc<str>>) {
        self.buffers.insert(path, text.into());
    }

    /// Drops the buffer of `path`: the file below shows again.
    pub fn remove(&mut self, path: &Path) {
        self.buffers.remove(path);
    }

    fn buffer(&self, path: &Path) -> Option<&Arc<str>> {
        self.buffers.get(path)
    }
}

impl Files for Overlay {
    fn metadata(&self, path: &Path) -> io::Result<Meta> {
        match self.buffer(path) {
            Some(text) => Ok(Meta {
                kind: Kind::File,
                len: text.len() as u64,
            }),
            None => self.below.metadata(path),
        }
    }

    fn is_symlink(&self, path: &Path) -> io::Result<bool> {
        match self.buffer(path) {
            Some(_) => Ok(false),
            None => self.below.is_symlink(path),
        }
    }

    /// A buffer is known by the path it was opened at: the editor names it so.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        match self.buffer(path) {
            Some(_) => Ok(path.to_path_buf()),
            None => self.below.canonicalize(path),
        }
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.buffer(path) {
            Some(text) => Ok(text.as_bytes().to_vec()),
            None => self.below.read(path),
        }
    }
}
