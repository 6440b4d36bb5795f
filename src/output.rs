//! Writing reports and baselines where the user points: a regular file is replaced whole or not
//! at all, and anything else is written the way a shell's `>` would, never replaced.
//!
//! Replacing by rename is what keeps a reader from seeing half a report, but renaming over a
//! path that is not a regular file destroys it: run as root (as CI containers are),
//! `-o /dev/null` would leave a regular file where the device was. So the kind of thing at the
//! path decides how it is written:
//! - a regular file, or nothing yet: a temporary file in the same folder, renamed over it (the
//!   file's permissions are kept);
//! - a symlink: followed, and its target written by these rules, so the link stays a link;
//! - a character or block device or a FIFO (`/dev/null`, `/dev/stdout` on a pipe, `<(…)`),
//!   and anything under `/dev` or `/proc`: opened and written in place;
//! - a Unix socket: connected to and written;
//! - a directory: an error.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// How many symlinks a path may pass through, as the kernel allows (`MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// Writes `bytes` to `path` by the rules of this module.
pub fn write_to(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_to_with(path, |out| out.write_all(bytes))
}

/// Like [`write_to`], for content written piece by piece (a streamed report).
pub fn write_to_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    match destination(path)? {
        Destination::Replace { path, permissions } => {
            write_atomically_with(&path, permissions, write)
        }
        Destination::InPlace => {
            let file = std::fs::OpenOptions::new().write(true).open(path)?;
            write_through(file, write)
        }
        Destination::Socket => write_through(std::os::unix::net::UnixStream::connect(path)?, write),
    }
}

/// How a path is written.
#[derive(Debug, PartialEq)]
enum Destination {
    /// Through a temporary file renamed to `path` (the final target of any symlinks), with the
    /// permissions of the file it replaces.
    Replace {
        path: PathBuf,
        permissions: Option<std::fs::Permissions>,
    },
    /// Opened for writing as it is.
    InPlace,
    /// A Unix socket, connected to.
    Socket,
}

fn destination(path: &Path) -> std::io::Result<Destination> {
    use std::os::unix::fs::FileTypeExt;
    // `/dev/stdout` and `/proc/self/fd/1` name whatever the shell opened, which a rename would
    // detach from the process that holds it; devices belong to the system.
    if is_system_path(path) {
        return Ok(Destination::InPlace);
    }
    match std::fs::metadata(path) {
        Ok(meta) => {
            let kind = meta.file_type();
            if kind.is_dir() {
                Err(std::io::Error::new(
                    std::io::ErrorKind::IsADirectory,
                    "is a directory",
                ))
            } else if kind.is_file() {
                let target = std::fs::canonicalize(path)?;
                if is_system_path(&target) {
                    return Ok(Destination::InPlace);
                }
                Ok(Destination::Replace {
                    path: target,
                    permissions: Some(meta.permissions()),
                })
            } else if kind.is_socket() {
                Ok(Destination::Socket)
            } else {
                Ok(Destination::InPlace)
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Destination::Replace {
            path: dangling_target(path)?,
            permissions: None,
        }),
        Err(e) => Err(e),
    }
}

/// Under `/dev` or `/proc`, where nothing is a file to replace.
fn is_system_path(path: &Path) -> bool {
    path.is_absolute() && (path.starts_with("/dev") || path.starts_with("/proc"))
}

/// Where a path that does not exist yet is created: itself, or, for a symlink whose target is
/// missing, that target (so the link then points at the report).
fn dangling_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Writes through a buffer to `out` as it is, with no temporary and no rename.
fn write_through<W: Write>(
    out: W,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    write(&mut out)?;
    out.flush()
}

/// Writes through a temporary file in the same folder and a rename, so readers never see half.
fn write_atomically_with(
    path: &Path,
    permissions: Option<std::fs::Permissions>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (tmp, file) = temporary_in(dir)?;
    // Removes the temporary file on every way out but a successful rename, a panic included.
    let guard = Temporary(Some(tmp));
    if let Some(permissions) = permissions {
        file.set_permissions(permissions)?;
    }
    let mut out = BufWriter::with_capacity(1 << 16, file);
    write(&mut out)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    drop(file);
    let tmp = guard.0.as_deref().expect("set until now");
    std::fs::rename(tmp, path)?;
    std::mem::forget(guard);
    Ok(())
}

struct Temporary(Option<std::path::PathBuf>);

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn temporary_in(dir: &Path) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    for n in 0..100u32 {
        let candidate = dir.join(format!(".idemlint-{}-{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => return Ok((candidate, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("no temporary file name free"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_failed_or_panicking_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        write_to(&path, b"old").unwrap();
        let failed = write_to_with(&path, |out| {
            out.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "disk full");
        let panicked = std::panic::catch_unwind(|| {
            let _ = write_to_with(&path, |out| {
                out.write_all(b"half").unwrap();
                panic!("renderer bug");
            });
        });
        assert!(panicked.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert!(
            leftovers(dir.path()).is_empty(),
            "{:?}",
            leftovers(dir.path())
        );
        write_to_with(&path, |out| out.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn the_kind_of_thing_at_the_path_decides_how_it_is_written() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("report.json");
        // Nothing yet, then a regular file (whose permissions the replacement keeps).
        assert!(matches!(
            destination(&file).unwrap(),
            Destination::Replace {
                permissions: None,
                ..
            }
        ));
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_to(&file, b"new").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A symlink: its target is replaced, the link stays.
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("report.json", &link).unwrap();
        assert_eq!(
            destination(&link).unwrap(),
            Destination::Replace {
                path: std::fs::canonicalize(&file).unwrap(),
                permissions: Some(std::fs::Permissions::from_mode(0o100640)),
            }
        );
        // A symlink to nothing yet: the target is created where the link points.
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("sub/../later.json", &dangling).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        write_to(&dangling, b"created").unwrap();
        assert!(
            std::fs::symlink_metadata(&dangling)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read(dir.path().join("later.json")).unwrap(),
            b"created"
        );
        // A loop of links is an error, not a hang.
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert!(write_to(&a, b"x").is_err());
        // Devices and whatever /dev and /proc name are written in place.
        assert_eq!(
            destination(Path::new("/dev/null")).unwrap(),
            Destination::InPlace
        );
        assert_eq!(
            destination(Path::new("/dev/stdout")).unwrap(),
            Destination::InPlace
        );
        write_to(Path::new("/dev/null"), b"gone").unwrap();
        // A directory is an error that says so.
        let err = write_to(dir.path(), b"x").unwrap_err();
        assert_eq!(err.to_string(), "is a directory");
        assert!(
            leftovers(dir.path()).is_empty(),
            "{:?}",
            leftovers(dir.path())
        );
    }
}
