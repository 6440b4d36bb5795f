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
    /// By the buffer's path with its folder's links resolved, as a `$ref` reaches it.
    buffers: HashMap<PathBuf, Arc<str>>,
    /// Other spellings of a buffer's path (as the editor opened it) → that path.
    spellings: HashMap<PathBuf, PathBuf>,
}

impl Overlay {
    pub fn new(below: Box<dyn Files>) -> Self {
        Overlay {
            below,
            buffers: HashMap::new(),
            spellings: HashMap::new(),
        }
    }

    /// Puts `text` in front of `path` (absolute), replacing an earlier buffer. The buffer is
    /// known by its path with the links of its folder resolved (the file itself may not exist
    /// yet), so that a `$ref` through any spelling of the folder finds it.
    pub fn set(&mut self, path: PathBuf, text: impl Into<Arc<str>>) {
        let path = super::normalize(&path);
        let key = self.key(&path);
        if key != path {
            self.spellings.insert(path, key.clone());
        }
        self.buffers.insert(key, text.into());
    }

    /// Drops the buffer of `path`: the file below shows again.
    pub fn remove(&mut self, path: &Path) {
        let path = super::normalize(path);
        let key = self.spellings.remove(&path).unwrap_or(path);
        self.buffers.remove(&key);
        self.spellings.retain(|_, k| *k != key);
    }

    /// `path` with its folder's links resolved below, as the buffer is known.
    fn key(&self, path: &Path) -> PathBuf {
        match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) => match self.below.canonicalize(dir) {
                Ok(dir) => dir.join(name),
                Err(_) => path.to_path_buf(),
            },
            _ => path.to_path_buf(),
        }
    }

    /// The buffer `path` names, by any spelling it was opened or is reached by, and its key.
    fn buffer(&self, path: &Path) -> Option<(&PathBuf, &Arc<str>)> {
        let key = self.spellings.get(path).map_or(path, PathBuf::as_path);
        self.buffers.get_key_value(key)
    }
}

impl Files for Overlay {
    fn metadata(&self, path: &Path) -> io::Result<Meta> {
        match self.buffer(path) {
            Some((_, text)) => Ok(Meta {
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

    /// A buffer is known by its key (its folder's links resolved), whichever spelling asks.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        match self.buffer(path) {
            Some((key, _)) => Ok(key.clone()),
            None => self.below.canonicalize(path),
        }
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.buffer(path) {
            Some((_, text)) => Ok(text.as_bytes().to_vec()),
            None => self.below.read(path),
        }
    }
}
