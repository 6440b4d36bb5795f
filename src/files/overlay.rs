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
    /// By the buffer's path with its folder's links resolved below, as a `$ref` reaches it.
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
    /// known by its path with the links of its folder resolved below (the file itself, and even
    /// its folder, may not exist yet), so that a `$ref` through any spelling of the folder finds
    /// it.
    pub fn set(&mut self, path: PathBuf, text: impl Into<Arc<str>>) {
        let path = super::normalize(&path);
        let key = self.key(&path);
        if let Some(old) = self.spellings.remove(&path)
            && old != key
        {
            self.forget(&old);
        }
        if key != path {
            self.spellings.insert(path, key.clone());
        }
        self.buffers.insert(key, text.into());
    }

    /// Drops the buffer of `path`, by any spelling: the file below shows again.
    pub fn remove(&mut self, path: &Path) {
        let path = super::normalize(path);
        let key = match self.spellings.remove(&path) {
            Some(key) => key,
            None => self.key(&path),
        };
        self.buffers.remove(&key);
        self.spellings.retain(|_, k| *k != key);
    }

    /// Drops the buffer at `key` unless another spelling still names it.
    fn forget(&mut self, key: &Path) {
        if !self.spellings.values().any(|k| k == key) {
            self.buffers.remove(key);
        }
    }

    /// `path` with the links of its longest existing ancestor resolved below: as the buffer is
    /// known.
    fn key(&self, path: &Path) -> PathBuf {
        let mut ancestor = path.parent();
        let mut names = vec![path.file_name().unwrap_or_default()];
        while let Some(dir) = ancestor {
            if let Ok(real) = self.below.canonicalize(dir) {
                let mut key = real;
                key.extend(names.iter().rev());
                return key;
            }
            names.push(dir.file_name().unwrap_or_default());
            ancestor = dir.parent();
        }
        path.to_path_buf()
    }

    /// The buffer `path` names, by any spelling, and its key.
    fn buffer(&self, path: &Path) -> Option<(&PathBuf, &Arc<str>)> {
        if self.buffers.is_empty() {
            return None;
        }
        if let Some(found) = self.buffers.get_key_value(path) {
            return Some(found);
        }
        if let Some(key) = self.spellings.get(path) {
            return self.buffers.get_key_value(key);
        }
        // Another spelling of a buffer's folder (the path a walk or a front end holds).
        let key = self.key(&super::normalize(path));
        self.buffers.get_key_value(&key)
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

    fn files_under(&self, dir: &Path) -> Option<io::Result<Vec<PathBuf>>> {
        self.below.files_under(dir)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.buffer(path) {
            Some((_, text)) => Ok(text.as_bytes().to_vec()),
            None => self.below.read(path),
        }
    }
}
