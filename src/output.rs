//! Writing reports and baselines where the user points: a regular file is replaced whole or not
//! at all, and anything else is written the way a shell's `>` or `>>` would, never replaced.
//!
//! Replacing by rename is what keeps a reader from seeing half a report, but renaming over a
//! path that is not a regular file destroys it: run as root (as CI containers are),
//! `-o /dev/null` would leave a regular file where the device was. So the kind of thing at the
//! path decides how it is written:
//! - a regular file, or nothing yet: a temporary file in the same folder, renamed over it, with
//!   the replaced file's permissions and owner. A file the user may not write is refused, as by
//!   `>`. Where replacing would not be what `>` does (the folder is not writable, the owner
//!   could not be kept, the rename is refused: a sticky folder, a bind-mounted file) the file is
//!   written in place instead, truncated first, not atomically. A hard link to a replaced file
//!   keeps the old content;
//! - a symlink: followed, and its target written by these rules, so the link stays a link;
//! - the process's own standard output or error, by any name (`/dev/stdout`, `/proc/self/fd/2`,
//!   a symlink to them as container images make for logs, or the very file stdout is
//!   redirected to): written through that descriptor, sharing its offset, so
//!   `{ echo a; idemlint … -o /dev/stdout; echo b; } > log` keeps all three in order;
//! - another descriptor of the process (`/dev/fd/3`, `/proc/self/fd/3`, `/dev/stdin`): reopened
//!   for appending, never replaced;
//! - a character or block device or a FIFO (`/dev/null`, `<(…)`): opened and written in place
//!   (a FIFO waits for its reader, as with `>`);
//! - a Unix socket: connected to and written;
//! - a directory: an error.

use std::io::{BufWriter, Write};
use std::path::{Component, Path, PathBuf};

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
        Destination::Replace { path, existing } => replace(&path, existing.as_ref(), write),
        Destination::Stream(stream) => write_through(stream, write),
        Destination::Append => {
            let file = std::fs::OpenOptions::new().append(true).open(path)?;
            write_through(file, write)
        }
        Destination::InPlace => {
            let file = std::fs::OpenOptions::new().write(true).open(path)?;
            write_through(file, write)
        }
        Destination::Socket => write_through(std::os::unix::net::UnixStream::connect(path)?, write),
    }
}

/// The file a write to `path` lands in: `path` past every symlink, whether its target exists
/// yet or not.
pub fn final_target(path: &Path) -> PathBuf {
    match std::fs::canonicalize(path) {
        Ok(target) => target,
        Err(_) => dangling_target(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// How a path is written.
#[derive(Debug)]
enum Destination {
    /// Through a temporary file renamed to `path` (the final target of any symlinks); the
    /// metadata of the file it replaces, if there is one.
    Replace {
        path: PathBuf,
        existing: Option<std::fs::Metadata>,
    },
    /// The process's standard output or error: a duplicate of that descriptor, which shares
    /// its offset.
    Stream(std::fs::File),
    /// Another of the process's descriptors, reopened for appending.
    Append,
    /// Opened for writing as it is.
    InPlace,
    /// A Unix socket, connected to.
    Socket,
}

fn destination(path: &Path) -> std::io::Result<Destination> {
    use std::os::unix::fs::FileTypeExt;
    let meta = std::fs::metadata(path);
    if let Ok(meta) = &meta
        && let Some(stream) = own_stream(meta)
    {
        return Ok(Destination::Stream(stream));
    }
    if is_descriptor(path) {
        return Ok(Destination::Append);
    }
    match meta {
        Ok(meta) => {
            let kind = meta.file_type();
            if kind.is_dir() {
                Err(std::io::Error::new(
                    std::io::ErrorKind::IsADirectory,
                    "is a directory",
                ))
            } else if kind.is_file() {
                Ok(Destination::Replace {
                    path: std::fs::canonicalize(path)?,
                    existing: Some(meta),
                })
            } else if kind.is_socket() {
                Ok(Destination::Socket)
            } else {
                Ok(Destination::InPlace)
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Destination::Replace {
            path: dangling_target(path)?,
            existing: None,
        }),
        Err(e) => Err(e),
    }
}

/// Standard output or error, duplicated, when `meta` is the very thing it is open on (same
/// device and inode): whatever name the user gave it.
fn own_stream(meta: &std::fs::Metadata) -> Option<std::fs::File> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let streams = [
        std::io::stdout().as_fd().try_clone_to_owned(),
        std::io::stderr().as_fd().try_clone_to_owned(),
    ];
    streams
        .into_iter()
        .flatten()
        .map(std::fs::File::from)
        .find(|f| {
            f.metadata()
                .is_ok_and(|m| (m.dev(), m.ino()) == (meta.dev(), meta.ino()))
        })
}

/// Whether `path` names a descriptor of this process (`/dev/stdin`, `/dev/fd/3`,
/// `/proc/self/fd/3`), which the shell opened: a rename would detach it from the process that
/// holds it. Judged on the absolute, normalised path, so `dev/fd/3` from `/` counts too.
fn is_descriptor(path: &Path) -> bool {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let path = crate::files::normalize(&cwd.join(path));
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| match c {
            // A name that is not UTF-8 is none of the names below.
            Component::Normal(s) => Some(s.to_str().unwrap_or("\u{fffd}")),
            _ => None,
        })
        .collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let own = std::process::id().to_string();
    let this_process = |who: &str| who == "self" || who == "thread-self" || who == own;
    match parts[..] {
        ["dev", "stdin" | "stdout" | "stderr"] => true,
        ["dev", "fd", n] => number(n),
        ["proc", who, "fd", n] => this_process(who) && number(n),
        ["proc", who, "task", tid, "fd", n] => this_process(who) && number(tid) && number(n),
        _ => false,
    }
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

/// Replaces the regular file at `path` (or creates it) through a temporary file in the same
/// folder and a rename, so readers never see half.
fn replace(
    path: &Path,
    existing: Option<&std::fs::Metadata>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if existing.is_some() {
        // As `>` would: a file the user may not write is not replaced behind its owner's back.
        std::fs::OpenOptions::new().write(true).open(path)?;
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let in_place = || {
        std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(path)
    };
    let (tmp, file) = match temporary_in(dir) {
        Ok(made) => made,
        // A file the user may write in a folder they may not: written in place, as `>` would.
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied && existing.is_some() => {
            return write_through(in_place()?, write);
        }
        Err(e) => return Err(e),
    };
    // Removes the temporary file on every way out but a successful rename, a panic included.
    let guard = Temporary(Some(tmp));
    if let Some(meta) = existing {
        use std::os::unix::fs::MetadataExt;
        file.set_permissions(meta.permissions())?;
        // Only root may give a file away. Anyone else replacing a file that is not theirs would
        // take it over, which `>` never does: then it is written in place.
        let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
        if file.metadata()?.uid() != meta.uid() {
            drop(file);
            drop(guard);
            return write_through(in_place()?, write);
        }
    }
    let mut out = BufWriter::with_capacity(1 << 16, file);
    write(&mut out)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    drop(file);
    let tmp = guard.0.as_deref().expect("set until now");
    match std::fs::rename(tmp, path) {
        Ok(()) => {}
        // A sticky folder, a bind-mounted file, another file system: the rename is refused
        // though the file may be written, so the finished report is copied into it.
        Err(e) if existing.is_some() && refused_rename(&e) => {
            let mut from = std::fs::File::open(tmp)?;
            let mut to = in_place().map_err(|_| e)?;
            std::io::copy(&mut from, &mut to)?;
            return Ok(());
        }
        Err(e) => return Err(e),
    }
    std::mem::forget(guard);
    Ok(())
}

/// A rename refused for where the file is rather than for what is written: EPERM in a sticky
/// folder, EBUSY for a mount point (a bind-mounted file), EXDEV across file systems.
fn refused_rename(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        e.kind(),
        ErrorKind::PermissionDenied | ErrorKind::ResourceBusy | ErrorKind::CrossesDevices
    )
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
        let kind = |p: &Path| format!("{:?}", destination(p).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("report.json");
        // Nothing yet, then a regular file (whose permissions the replacement keeps).
        assert!(kind(&file).starts_with("Replace"), "{}", kind(&file));
        std::fs::write(&file, "old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_to(&file, b"new").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A symlink: its target is replaced, the link stays.
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("report.json", &link).unwrap();
        match destination(&link).unwrap() {
            Destination::Replace { path, existing } => {
                assert_eq!(path, std::fs::canonicalize(&file).unwrap());
                assert!(existing.is_some());
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(final_target(&link), std::fs::canonicalize(&file).unwrap());
        // A symlink to nothing yet: the target is created where the link points.
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("sub/../later.json", &dangling).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(
            final_target(&dangling),
            dir.path().join("sub/../later.json")
        );
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
        // Devices are written in place, the process's own descriptors appended to. (Judged
        // only: a test that writes to the system's /dev/null could replace it if this broke.)
        assert_eq!(kind(Path::new("/dev/null")), "InPlace");
        for own in [
            "/dev/stdout",
            "/dev/stderr",
            "/proc/self/fd/1",
            "/dev/../dev/stdout",
        ] {
            assert!(
                kind(Path::new(own)).starts_with("Stream"),
                "{own}: {}",
                kind(Path::new(own))
            );
        }
        assert!(is_descriptor(Path::new("/dev/fd/3")));
        assert!(is_descriptor(Path::new("/dev/stdin")));
        assert!(is_descriptor(Path::new("/proc/self/task/1/fd/4")));
        assert!(!is_descriptor(Path::new("/dev/fd/x")));
        assert!(!is_descriptor(Path::new("/proc/1/fd/1")) || std::process::id() == 1);
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
