//! Writing reports and baselines so that a reader never sees half a file.

use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes through a temporary file in the same folder and a rename, so readers never see half.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |out| out.write_all(bytes))
}

/// Like [`write_atomically`], for content written piece by piece (a streamed report).
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (tmp, file) = temporary_in(dir)?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    let written = write(&mut out)
        .and_then(|_| out.into_inner().map_err(|e| e.into_error()))
        .and_then(|file| file.sync_all())
        .and_then(|_| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
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
