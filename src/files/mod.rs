//! Where a run's bytes come from. Every file a document is made of (the root document, each file
//! its `$ref`s reach, the configuration that governs it) is read through a [`Files`], so the same
//! engine lints the disk ([`Disk`]), an editor's unsaved buffers over the disk ([`Overlay`]) or the
//! tree of a git commit ([`GitRev`]). Paths are absolute; `..` in them is the disk's to resolve
//! (a link's parent is not the folder the path text names), a revision's or buffer's to fold.
//! Remote `$ref`s are not files of the project: they are fetched (only when asked) by `fetch.rs`.

mod disk;
mod git;
mod overlay;

use std::io;
use std::path::{Component, Path, PathBuf};

pub use disk::Disk;
pub use git::GitRev;
pub use overlay::Overlay;

/// What a path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    /// A pipe, socket, device or (in a git tree) a submodule: nothing idemlint reads.
    Other,
}

/// What is at a path, links followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    pub kind: Kind,
    /// The size in bytes of a file; 0 for anything else.
    pub len: u64,
}

impl Meta {
    pub fn is_file(self) -> bool {
        self.kind == Kind::File
    }

    pub fn is_dir(self) -> bool {
        self.kind == Kind::Dir
    }
}

/// A source of files. Implementations answer as the file system does: a missing path is an
/// error of kind `NotFound`, and `metadata` follows symbolic links where `is_symlink` does not.
pub trait Files: Send + Sync {
    /// What is at `path`.
    fn metadata(&self, path: &Path) -> io::Result<Meta>;
    /// Whether `path` itself is a symbolic link.
    fn is_symlink(&self, path: &Path) -> io::Result<bool>;
    /// `path` with every symbolic link resolved.
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf>;
    /// The whole content of the file at `path`. Callers ask [`Files::metadata`] first, so that a
    /// file over the size limit, a directory or a device is refused unread.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;

    /// The files under the folder `dir`, at any depth, relative to it and in walk order (by
    /// name, folder by folder), when this source holds its own list (a revision lists its
    /// tree); `None` when the folder is walked on the disk (with `.gitignore` respected).
    fn files_under(&self, _dir: &Path) -> Option<io::Result<Vec<PathBuf>>> {
        None
    }
}

/// `path`, canonical when it can be, else normalised: the identity a file is known by.
pub fn identity(files: &dyn Files, path: &Path) -> PathBuf {
    files.canonicalize(path).unwrap_or_else(|_| normalize(path))
}

/// Removes `.` and folds `dir/..` without touching the file system; leading `..` stay.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            _ => out.push(c),
        }
    }
    out.iter().collect()
}
