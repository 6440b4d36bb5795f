//! The file system, as it is now.

use std::io;
use std::path::{Path, PathBuf};

use super::{Files, Kind, Meta};

/// The files on disk.
#[derive(Debug, Clone, Copy, Default)]
pub struct Disk;

impl Files for Disk {
    fn metadata(&self, path: &Path) -> io::Result<Meta> {
        let meta = std::fs::metadata(path)?;
        let kind = if meta.is_file() {
            Kind::File
        } else if meta.is_dir() {
            Kind::Dir
        } else {
            Kind::Other
        };
        Ok(Meta {
            kind,
            len: if kind == Kind::File { meta.len() } else { 0 },
        })
    }

    fn is_symlink(&self, path: &Path) -> io::Result<bool> {
        Ok(std::fs::symlink_metadata(path)?.file_type().is_symlink())
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }
}
