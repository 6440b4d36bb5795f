//! The tree of one git commit, read with the `git` command line (`ls-tree` once for the tree,
//! then one `cat-file --batch` process for the blobs), which every CI runner has: the binary needs
//! no git library. Paths outside the repository are not the commit's: they read from the disk.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use super::{Disk, Files, Kind, Meta};

/// What a failing git command that said nothing is reported as.
const GIT_FAILED: &str = "git failed";

/// How many symbolic links one path may pass through, as the kernel allows.
const MAX_LINKS: usize = 40;

/// One entry of the commit's tree.
#[derive(Debug, Clone)]
struct Entry {
    kind: Kind,
    symlink: bool,
    /// The object id of a blob (file or link target).
    object: String,
    len: u64,
}

/// The files of the repository holding some folder, as they were at one commit.
pub struct GitRev {
    /// The work tree's top, canonical: the commit's files appear under it.
    top: PathBuf,
    /// The commit, as a full object id.
    commit: String,
    /// Every path of the commit's tree, relative to the top.
    entries: HashMap<PathBuf, Entry>,
    /// `git cat-file --batch`, started on the first read.
    batch: Mutex<Option<Batch>>,
}

struct Batch {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        // It would end once its input closes; killing it does not wait for that, and waiting
        // reaps it.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl GitRev {
    /// The commit `rev` names (a branch, tag, commit id, or `A...B` for the merge base of `A` and
    /// `B`, as `git diff A...B` reads it) in the repository holding `dir`.
    pub fn open(dir: &Path, rev: &str) -> Result<GitRev, String> {
        let top = git(dir, &["rev-parse", "--show-toplevel"])
            .map_err(|e| format!("{} is not in a git repository: {e}", dir.display()))?;
        let top = PathBuf::from(top.trim_end_matches(['\n', '\r']));
        let top = std::fs::canonicalize(&top).unwrap_or(top);
        let commit = match rev.split_once("...") {
            Some((a, b)) => {
                let (a, b) = (or_head(a), or_head(b));
                if a.starts_with('-') || b.starts_with('-') {
                    return Err(format!("`{rev}` is not a revision"));
                }
                // (It fails without a word when the two share no commit.)
                let base = git(&top, &["merge-base", "--", a, b]).map_err(|e| match e {
                    e if e == GIT_FAILED => format!("`{a}` and `{b}` have no common ancestor"),
                    e => format!("no merge base of `{a}` and `{b}`: {e}"),
                })?;
                base.trim().to_string()
            }
            None => {
                // (`--end-of-options` is too new for some runners' git: a revision that looks
                // like an option is refused instead.)
                if rev.starts_with('-') || rev.is_empty() {
                    return Err(format!("`{rev}` is not a revision"));
                }
                let spec = format!("{rev}^{{commit}}");
                git(&top, &["rev-parse", "--verify", "--quiet", &spec])
                    .map_err(|_| {
                        format!(
                            "`{rev}` is not a commit of the repository at {}",
                            top.display()
                        )
                    })?
                    .trim()
                    .to_string()
            }
        };
        let listing = git_bytes(
            &top,
            &["ls-tree", "-r", "-t", "-l", "-z", "--full-tree", &commit],
        )
        .map_err(|e| format!("cannot list the files of `{rev}`: {e}"))?;
        let entries = parse_tree(&listing)?;
        Ok(GitRev {
            top,
            commit,
            entries,
            batch: Mutex::new(None),
        })
    }

    /// The commit read, as a full object id.
    pub fn commit(&self) -> &str {
        &self.commit
    }

    /// Files renamed between the commit and the work tree, by git's rename detection: their
    /// paths relative to the top, then → now.
    pub fn renames(&self) -> Result<std::collections::HashMap<String, String>, String> {
        let out = git_bytes(
            &self.top,
            &[
                "diff",
                "--no-ext-diff",
                "--no-textconv",
                "-M",
                "--name-status",
                "-z",
                &self.commit,
                "--",
            ],
        )?;
        Ok(parse_renames(&out))
    }

    /// The remotes of the repository holding `dir` (`origin`).
    pub fn remotes(dir: &Path) -> Vec<String> {
        git(dir, &["remote"])
            .map(|s| s.lines().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// Whether the repository holding `dir` is a shallow clone (a revision missing from it may
    /// only need fetching).
    pub fn is_shallow(dir: &Path) -> bool {
        git(dir, &["rev-parse", "--is-shallow-repository"]).is_ok_and(|s| s.trim() == "true")
    }

    /// The top of the work tree whose commit this is.
    pub fn top(&self) -> &Path {
        &self.top
    }

    /// `path` relative to the top, normalised, or `None` outside the repository. A path spelt
    /// through a link to the work tree (macOS's `/tmp`, a linked home folder) is found by the
    /// ancestor the disk resolves to the top.
    pub fn relative(&self, path: &Path) -> Option<PathBuf> {
        let path = super::normalize(path);
        let inside = |p: &Path| {
            let rest = p.strip_prefix(&self.top).ok()?;
            (!rest.starts_with("..")).then(|| rest.to_path_buf())
        };
        if let Some(rest) = inside(&path) {
            return Some(rest);
        }
        if !path.is_absolute() {
            return None;
        }
        // Climb until a folder that is the top itself: the links of the work tree inside the
        // repository are not the commit's, and must not decide where the rest leads.
        let mut ancestor = path.as_path();
        let mut names = Vec::new();
        loop {
            if std::fs::canonicalize(ancestor).is_ok_and(|real| real == self.top) {
                return Some(names.iter().rev().collect());
            }
            let (Some(parent), Some(name)) = (ancestor.parent(), ancestor.file_name()) else {
                return None;
            };
            names.push(name);
            ancestor = parent;
        }
    }

    /// The entry at `relative` with every link on the way resolved, and its resolved path;
    /// `Resolved::Top` for the top itself, an error when nothing is there. A path that leaves
    /// the repository (by `..` or a link) is read from the disk, unless it comes back in.
    fn resolve(&self, relative: &Path) -> io::Result<Resolved> {
        let parts = |p: &Path| -> Vec<PathBuf> {
            p.components()
                .rev()
                .map(|c| PathBuf::from(c.as_os_str()))
                .collect()
        };
        let mut pending = parts(relative);
        let mut at = PathBuf::new();
        let mut links = 0;
        while let Some(part) = pending.pop() {
            if part.as_os_str() == "." {
                continue;
            }
            if part.as_os_str() == ".." {
                if !at.pop() {
                    let mut outside = self.top.join("..");
                    outside.extend(pending.iter().rev());
                    let outside = super::normalize(&outside);
                    match self.relative(&outside) {
                        // Back in under another spelling of the top: start again from it.
                        Some(inside) => pending = parts(&inside),
                        None => return Ok(Resolved::Outside(outside)),
                    }
                }
                continue;
            }
            at.push(&part);
            let entry = self.entries.get(&at).ok_or_else(not_found)?;
            if entry.symlink {
                links += 1;
                if links > MAX_LINKS {
                    return Err(io::Error::other("too many levels of symbolic links"));
                }
                let target = self.link_target(entry)?;
                at.pop();
                if target.is_absolute() {
                    let mut full = target;
                    full.extend(pending.iter().rev());
                    let full = super::normalize(&full);
                    match self.relative(&full) {
                        Some(inside) => {
                            at = PathBuf::new();
                            pending = parts(&inside);
                        }
                        None => return Ok(Resolved::Outside(full)),
                    }
                } else {
                    pending.extend(parts(&target));
                }
            } else if entry.kind == Kind::Other && !pending.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    "inside a git submodule, which idemlint does not read at a revision",
                ));
            } else if entry.kind != Kind::Dir && !pending.is_empty() {
                return Err(io::Error::from(io::ErrorKind::NotADirectory));
            }
        }
        if at.as_os_str().is_empty() {
            return Ok(Resolved::Top);
        }
        Ok(Resolved::Entry(at))
    }

    /// Where a link of the commit points. A link's blob is its target, as short as a path: a
    /// longer one is refused unread.
    fn link_target(&self, entry: &Entry) -> io::Result<PathBuf> {
        const MAX_TARGET: u64 = 4096;
        if entry.len > MAX_TARGET {
            return Err(io::Error::other("a symbolic link with an over-long target"));
        }
        let bytes = self.blob(&entry.object)?;
        path_of(&bytes)
            .ok_or_else(|| io::Error::other("a symbolic link to a path that is not UTF-8"))
    }

    /// The content of the blob `object`.
    fn blob(&self, object: &str) -> io::Result<Vec<u8>> {
        let mut guard = self.batch.lock().unwrap_or_else(|poisoned| {
            // A reader that panicked may have left a reply half read: start afresh.
            let mut guard = poisoned.into_inner();
            *guard = None;
            guard
        });
        if guard.is_none() {
            *guard = Some(start_batch(&self.top)?);
        }
        let batch = guard.as_mut().expect("started");
        let read = (|| {
            writeln!(batch.input, "{object}")?;
            batch.input.flush()?;
            let mut header = String::new();
            batch.output.read_line(&mut header)?;
            // `<object> <type> <size>`, or `<object> missing`.
            let mut fields = header.split_whitespace();
            let (_, kind, size) = (fields.next(), fields.next(), fields.next());
            let size: usize = match (kind, size.and_then(|s| s.parse().ok())) {
                (Some("blob"), Some(size)) => size,
                _ => return Err(io::Error::other(format!("git cannot read object {object}"))),
            };
            let mut bytes = vec![0; size];
            batch.output.read_exact(&mut bytes)?;
            let mut newline = [0u8; 1];
            batch.output.read_exact(&mut newline)?;
            if newline != [b'\n'] {
                return Err(io::Error::other("git cat-file answered out of step"));
            }
            Ok(bytes)
        })();
        if read.is_err() {
            // A process out of step with its requests is of no more use.
            *guard = None;
        }
        read
    }
}

/// Where a path of the commit leads.
enum Resolved {
    Top,
    Entry(PathBuf),
    /// Out of the repository, through `..` or a link: a path on the disk.
    Outside(PathBuf),
}

fn not_found() -> io::Error {
    io::Error::from(io::ErrorKind::NotFound)
}

impl Files for GitRev {
    fn metadata(&self, path: &Path) -> io::Result<Meta> {
        let Some(relative) = self.relative(path) else {
            return Disk.metadata(path);
        };
        // The repository's own marker, which the configuration search stops at.
        if relative.as_os_str() == ".git" {
            return Ok(Meta {
                kind: Kind::Dir,
                len: 0,
            });
        }
        match self.resolve(&relative)? {
            Resolved::Top => Ok(Meta {
                kind: Kind::Dir,
                len: 0,
            }),
            Resolved::Entry(at) => {
                let entry = &self.entries[&at];
                Ok(Meta {
                    kind: entry.kind,
                    len: entry.len,
                })
            }
            Resolved::Outside(path) => Disk.metadata(&path),
        }
    }

    fn is_symlink(&self, path: &Path) -> io::Result<bool> {
        let Some(relative) = self.relative(path) else {
            return Disk.is_symlink(path);
        };
        if relative.as_os_str().is_empty() {
            return Ok(false);
        }
        let (Some(parent), Some(name)) = (relative.parent(), relative.file_name()) else {
            return Err(not_found());
        };
        let parent = match self.resolve(parent)? {
            Resolved::Top => PathBuf::new(),
            Resolved::Entry(at) => at,
            Resolved::Outside(dir) => return Disk.is_symlink(&dir.join(name)),
        };
        let entry = self.entries.get(&parent.join(name)).ok_or_else(not_found)?;
        Ok(entry.symlink)
    }

    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        let Some(relative) = self.relative(path) else {
            return Disk.canonicalize(path);
        };
        match self.resolve(&relative)? {
            Resolved::Top => Ok(self.top.clone()),
            Resolved::Entry(at) => Ok(self.top.join(at)),
            Resolved::Outside(path) => Disk.canonicalize(&path),
        }
    }

    /// The commit's files under `dir` (its links and submodules left out, as a walk of the disk
    /// leaves them).
    fn files_under(&self, dir: &Path) -> Option<io::Result<Vec<PathBuf>>> {
        let relative = self.relative(dir)?;
        let at = match self.resolve(&relative) {
            Ok(Resolved::Top) => PathBuf::new(),
            Ok(Resolved::Entry(at)) if self.entries[&at].kind == Kind::Dir => at,
            Ok(Resolved::Entry(_)) => {
                return Some(Err(io::Error::from(io::ErrorKind::NotADirectory)));
            }
            Ok(Resolved::Outside(_)) => return None,
            Err(e) => return Some(Err(e)),
        };
        let mut found: Vec<PathBuf> = self
            .entries
            .iter()
            .filter(|(_, e)| e.kind == Kind::File && !e.symlink)
            .filter_map(|(path, _)| path.strip_prefix(&at).ok())
            .map(Path::to_path_buf)
            .collect();
        found.sort();
        Some(Ok(found))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let Some(relative) = self.relative(path) else {
            return Disk.read(path);
        };
        match self.resolve(&relative)? {
            Resolved::Top => Err(io::Error::from(io::ErrorKind::IsADirectory)),
            Resolved::Entry(at) => {
                let entry = &self.entries[&at];
                match entry.kind {
                    Kind::File => self.blob(&entry.object),
                    Kind::Dir => Err(io::Error::from(io::ErrorKind::IsADirectory)),
                    Kind::Other => Err(io::Error::other("a submodule, not a file")),
                }
            }
            Resolved::Outside(path) => Disk.read(&path),
        }
    }
}

/// `HEAD` for the empty side of `A...` or `...B`, as git reads it.
fn or_head(rev: &str) -> &str {
    if rev.is_empty() { "HEAD" } else { rev }
}

fn start_batch(top: &Path) -> io::Result<Batch> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| io::Error::other(format!("cannot run git: {e}")))?;
    let input = child.stdin.take().expect("piped");
    let output = BufReader::new(child.stdout.take().expect("piped"));
    Ok(Batch {
        child,
        input,
        output,
    })
}

/// The output of `git -C dir args…`, as text.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let bytes = git_bytes(dir, args)?;
    String::from_utf8(bytes).map_err(|_| "git printed text that is not UTF-8".to_string())
}

fn git_bytes(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => "git is not installed (or not on PATH)".to_string(),
            _ => format!("cannot run git: {e}"),
        })?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let err = err.trim();
        return Err(err
            .strip_prefix("fatal: ")
            .unwrap_or(err)
            .lines()
            .next()
            .unwrap_or(GIT_FAILED)
            .to_string());
    }
    Ok(out.stdout)
}

/// The renames of `git diff --name-status -z`: `R<score>\0<old>\0<new>\0`, among the
/// other entries (`M\0<path>\0`).
fn parse_renames(out: &[u8]) -> std::collections::HashMap<String, String> {
    let mut renames = std::collections::HashMap::new();
    let mut fields = out.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(status) = fields.next() {
        // Copies and renames name two paths, every other status one.
        let two = matches!(status.first(), Some(b'R' | b'C'));
        let Some(first) = fields.next() else { break };
        if !two {
            continue;
        }
        let Some(second) = fields.next() else { break };
        if status[0] == b'R'
            && let (Ok(old), Ok(new)) = (std::str::from_utf8(first), std::str::from_utf8(second))
        {
            renames.insert(old.to_string(), new.to_string());
        }
    }
    renames
}

/// The entries of `git ls-tree -r -t -l -z`: `<mode> <type> <object> <size>\t<path>\0`.
fn parse_tree(listing: &[u8]) -> Result<HashMap<PathBuf, Entry>, String> {
    let mut entries = HashMap::new();
    for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let bad = || "git ls-tree printed an entry idemlint cannot read".to_string();
        let tab = record.iter().position(|&b| b == b'\t').ok_or_else(bad)?;
        let head = std::str::from_utf8(&record[..tab]).map_err(|_| bad())?;
        let path = path_of(&record[tab + 1..]).ok_or_else(bad)?;
        let mut fields = head.split_whitespace();
        let (Some(mode), Some(kind), Some(object), Some(size)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad());
        };
        let (kind, symlink) = match (kind, mode) {
            ("tree", _) => (Kind::Dir, false),
            ("blob", "120000") => (Kind::File, true),
            ("blob", _) => (Kind::File, false),
            _ => (Kind::Other, false),
        };
        entries.insert(
            path,
            Entry {
                kind,
                symlink,
                object: object.to_string(),
                len: size.parse().unwrap_or(0),
            },
        );
    }
    Ok(entries)
}

#[cfg(unix)]
fn path_of(bytes: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
}

#[cfg(not(unix))]
fn path_of(bytes: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(bytes).ok().map(PathBuf::from)
}
