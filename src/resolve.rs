//! `$ref` resolution across files.
//!
//! A [`Bundle`] is one root document plus every file its `$ref`s reach, loaded up front so that
//! the rest of the pipeline works on an immutable set of trees. A node reached through a `$ref`
//! keeps its own file and span: findings in a shared component are reported there, once.

use crate::fetch;
use crate::files::{Files, normalize};
use crate::limits::Limits;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::source::{DuplicateKey, Entry, Node, ScalarKind, SourceFile, Span, Value};
use ecow::EcoString;

/// Index of a file in its [`Bundle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A node together with the file it lives in.
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    pub file: FileId,
    pub node: &'a Node,
}

impl<'a> At<'a> {
    /// Another node of the same file (a child of this one, usually).
    pub fn with(self, node: &'a Node) -> At<'a> {
        At {
            file: self.file,
            node,
        }
    }

    pub fn get(self, key: &str) -> Option<At<'a>> {
        self.node.get(key).map(|node| self.with(node))
    }

    pub fn location(self) -> Location {
        Location {
            file: self.file,
            span: self.node.span,
        }
    }

    /// The location of the key `key` of this mapping, if present.
    pub fn key_location(self, key: &str) -> Option<Location> {
        self.node.get_entry(key).map(|e| Location {
            file: self.file,
            span: e.key.span,
        })
    }
}

/// A place in one file of a bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    pub file: FileId,
    pub span: Span,
}

/// Where references may point: `$ref`s to files outside every allowed root are refused.
#[derive(Debug, Clone, Default)]
pub struct ResolveOptions {
    /// Absolute, canonical directories that `$ref`s may read from.
    pub allowed_roots: Vec<PathBuf>,
    /// `--allow-outside-root`: any local file may be read.
    pub outside_root: bool,
    /// `--allow-remote-refs`: http(s) targets are fetched. Off, nothing opens a connection.
    pub remote: bool,
    pub limits: Limits,
}

/// One loaded file of a bundle.
#[derive(Debug)]
pub struct BundleFile {
    pub source: Arc<SourceFile>,
    pub root: Node,
    pub duplicates: Vec<DuplicateKey>,
    /// Every `$ref` of the file: the span of its entry and its target (sharing the tree's text).
    pub refs: Vec<(Span, EcoString)>,
}

/// A `$ref` that could not be followed, found while loading.
#[derive(Debug, Clone)]
pub struct RefProblem {
    /// The `$ref` entry: key through value.
    pub at: Location,
    pub message: String,
}

/// An input that could not be linted: a file that could not be read or parsed, a document past
/// a limit, or a broken configuration, with where.
#[derive(Debug, Clone)]
pub struct FileError {
    pub kind: ErrorKind,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// What an error stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// An input (a document, a referenced file, standard input) could not be read or linted.
    Input,
    /// An input's text is not YAML or JSON (reported as an input error; told apart so that
    /// `--fix` can see that a fix broke a file).
    Parse,
    /// A configuration file has mistakes: the documents it governs were not linted.
    Configuration,
}

impl ErrorKind {
    /// The name reports give it: `error[input]`, `"kind": "configuration"`.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::Input | ErrorKind::Parse => "input",
            ErrorKind::Configuration => "configuration",
        }
    }
}

impl FileError {
    /// Why `file` could not even be read or decoded.
    pub fn unreadable(file: String, e: crate::source::ReadError) -> Self {
        FileError {
            kind: ErrorKind::Input,
            file,
            line: e.line,
            column: e.column,
            message: e.message,
        }
    }
}

/// How deep a chain of `$ref` to `$ref` may go before we call it a cycle.
const MAX_REF_HOPS: usize = 64;

impl BundleFile {
    fn new(source: Arc<SourceFile>, root: Node, duplicates: Vec<DuplicateKey>) -> Self {
        let mut refs = Vec::new();
        collect_refs(&root, &mut refs);
        BundleFile {
            source,
            root,
            duplicates,
            refs,
        }
    }
}

#[derive(Debug)]
pub struct Bundle {
    pub files: Vec<BundleFile>,
    /// Per file: the file part of each external `$ref` it holds → the file it names.
    links: Vec<HashMap<String, FileId>>,
    pub ref_problems: Vec<RefProblem>,
    /// Remote `$ref`s left unfetched because remote references are off: a policy, not a
    /// problem of the document, so they are reported once for the document, not one by one.
    pub unfetched: Vec<Location>,
    /// Per file: the file part of each `$ref` whose file was withheld by a policy rather than
    /// found broken: remote while remote references are off, outside the project root, or past
    /// the `$ref` budget. What they hold is unknown, not wrong, so the operations that need them
    /// are not checked (see `model::unloaded`); a broken reference is an error to fix instead.
    withheld: Vec<std::collections::HashSet<String>>,
    pub errors: Vec<FileError>,
}

/// Why a `$ref`'s file was not loaded.
enum Unfollowed {
    /// Something is wrong with the reference or its target: an `unresolved-ref` finding.
    Problem(String),
    /// A remote reference, and remote references are off.
    Remote,
    /// Outside the project root: refused unread, and reported, since the user may have meant
    /// to allow it.
    Refused(String),
    /// The document already reaches as many files or bytes as the limits allow.
    Budget(Budget),
}

/// Which limit a document's `$ref`s ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Budget {
    Files,
    Bytes,
}

/// The first `$ref` the budget stopped, which limit, and how many it stopped in all.
struct BudgetHit {
    first: Location,
    budget: Budget,
    refs: usize,
}

impl Bundle {
    pub const ROOT: FileId = FileId(0);

    /// Loads every file reachable from `root` and checks every `$ref` of every file.
    pub fn load(
        root: SourceFile,
        tree: Node,
        duplicates: Vec<DuplicateKey>,
        files: &dyn Files,
        opts: &ResolveOptions,
    ) -> Bundle {
        let mut bundle = Bundle {
            files: vec![BundleFile::new(Arc::new(root), tree, duplicates)],
            links: vec![HashMap::new()],
            ref_problems: Vec::new(),
            unfetched: Vec::new(),
            withheld: vec![Default::default()],
            errors: Vec::new(),
        };
        let mut state = LoadState {
            opts,
            files,
            by_path: HashMap::from([(bundle.files[0].source.path.clone(), Bundle::ROOT)]),
            failed: HashMap::new(),
            bytes: 0,
            by_spelling: HashMap::new(),
            dirs: HashMap::new(),
        };
        let mut budget: Option<BudgetHit> = None;
        let mut next = 0;
        while next < bundle.files.len() {
            let id = FileId(next as u32);
            let refs = std::mem::take(&mut bundle.files[next].refs);
            for (span, target) in &refs {
                let (file_part, _) = split_ref(target);
                if file_part.is_empty() || bundle.links[next].contains_key(file_part) {
                    continue;
                }
                let at = Location {
                    file: id,
                    span: *span,
                };
                match bundle.open(next, target, &mut state) {
                    Ok(target_id) => {
                        bundle.links[next].insert(file_part.to_string(), target_id);
                        continue;
                    }
                    Err(Unfollowed::Problem(message)) => {
                        bundle.ref_problems.push(RefProblem { at, message });
                        continue;
                    }
                    Err(Unfollowed::Refused(message)) => {
                        bundle.ref_problems.push(RefProblem { at, message })
                    }
                    Err(Unfollowed::Remote) => bundle.unfetched.push(at),
                    Err(Unfollowed::Budget(which)) => match &mut budget {
                        Some(hit) => hit.refs += 1,
                        None => {
                            budget = Some(BudgetHit {
                                first: at,
                                budget: which,
                                refs: 1,
                            })
                        }
                    },
                }
                bundle.withheld[next].insert(file_part.to_string());
            }
            bundle.files[next].refs = refs;
            next += 1;
        }
        if let Some(hit) = budget {
            let error = bundle.budget_error(&hit, &opts.limits);
            bundle.errors.push(error);
        }
        bundle.check_targets();
        bundle
    }

    /// The one error a document gets for reaching past the `$ref` budget: each `$ref` past it
    /// is not a problem of the document, and which ones lose depends only on traversal order.
    fn budget_error(&self, hit: &BudgetHit, limits: &Limits) -> FileError {
        let first = self.file(hit.first.file);
        let at = first.source.line_col(hit.first.span.start as usize);
        let (limit, flag) = match hit.budget {
            Budget::Files => (
                match limits.max_ref_files {
                    1 => "more than 1 file".to_string(),
                    n => format!("more than {n} files"),
                },
                "--max-ref-files",
            ),
            Budget::Bytes => (
                format!(
                    "more than {} of files",
                    crate::limits::mib(limits.max_ref_bytes)
                ),
                "--max-ref-size",
            ),
        };
        let root = &self.file(Bundle::ROOT).source.name;
        FileError {
            kind: ErrorKind::Input,
            file: root.clone(),
            line: 1,
            column: 1,
            message: format!(
                "this document reaches {limit} through `$ref` (raise the limit with {flag}): {} \
                 not followed, the first at {}:{}:{}; operations that need them were not checked",
                if hit.refs == 1 {
                    "1 `$ref` was".to_string()
                } else {
                    format!("{} `$ref`s were", hit.refs)
                },
                first.source.name,
                at.line,
                at.column
            ),
        }
    }

    /// The target of the `$ref` whose entry is at `at`.
    pub fn ref_target(&self, at: Location) -> Option<&str> {
        self.file(at.file)
            .refs
            .iter()
            .find(|(span, _)| *span == at.span)
            .map(|(_, target)| target.as_str())
    }

    /// Whether the file `target` names, as written in `from`, was withheld by a policy (see
    /// [`Bundle::withheld`]).
    pub fn withholds(&self, from: FileId, target: &str) -> bool {
        let (file_part, _) = split_ref(target);
        !file_part.is_empty() && self.withheld[from.0 as usize].contains(file_part)
    }

    /// Whether some `$ref` of the bundle names a withheld file: then parts of some operations
    /// are unknown, and the model asks which.
    pub fn incomplete(&self) -> bool {
        self.withheld.iter().any(|w| !w.is_empty())
    }

    /// The file `target`'s file part names, loaded if new; or why it cannot be.
    fn open(
        &mut self,
        from: usize,
        target: &str,
        state: &mut LoadState<'_>,
    ) -> Result<FileId, Unfollowed> {
        let (file_part, _) = split_ref(target);
        let from = &self.files[from].source;
        // A file fetched from a server names its neighbours relative to its URL.
        let base_url = from.path.to_str().filter(|p| fetch::is_http(p));
        if fetch::is_http(file_part) {
            return self.open_remote(file_part.to_string(), target, state);
        }
        if let Some(scheme) = uri_scheme(file_part) {
            return Err(Unfollowed::Problem(
                if scheme.eq_ignore_ascii_case("file") {
                    format!(
                        "$ref `{target}` is a `file:` URI, which idemlint does not follow: write a relative path"
                    )
                } else {
                    format!(
                        "$ref `{target}` uses the `{scheme}:` scheme, which idemlint cannot follow"
                    )
                },
            ));
        }
        if let Some(base) = base_url {
            let url = fetch::join(base, file_part).ok_or_else(|| {
                Unfollowed::Problem(format!("$ref `{target}` is not a usable reference"))
            })?;
            return self.open_remote(url, target, state);
        }
        if file_part.starts_with("//") {
            return Err(Unfollowed::Problem(format!(
                "$ref `{target}` names a host without a scheme: write http:// or https://"
            )));
        }
        let lexical = target_path(&from.path, file_part).ok_or_else(|| {
            Unfollowed::Problem(format!("$ref `{target}` is not a usable file reference"))
        })?;
        // A shared file (`../../shared/parameters.yml`) is named by every operation file: the
        // second time, its spelling finds it without asking the file system again.
        if let Some(&id) = state.by_spelling.get(&lexical) {
            return Ok(id);
        }
        let path = state.canonical(&lexical);
        let roots = &state.opts.allowed_roots;
        if !state.opts.outside_root && !roots.iter().any(|r| path.starts_with(r)) {
            return Err(Unfollowed::Refused(format!(
                "$ref `{target}` leaves the project root and was not read (pass --root DIR for a \
                 wider root, or --allow-outside-root)"
            )));
        }
        if let Some(known) = state.known(&path) {
            return known.map_err(Unfollowed::Problem);
        }
        let problem = |message: String| Err(Unfollowed::Problem(message));
        let meta = match state.files.metadata(&path) {
            Ok(meta) => meta,
            Err(_) => return problem(format!("$ref target file `{file_part}` not found")),
        };
        if meta.is_dir() {
            return problem(format!(
                "$ref target `{file_part}` is a directory, not a file"
            ));
        }
        if !meta.is_file() {
            return problem(format!(
                "$ref target `{file_part}` is not a regular file (a pipe, socket or device)"
            ));
        }
        self.check_budget(meta.len, state)?;
        let name = display_name(&from.name, file_part);
        let loaded = load_file(state.files, &path, name, &state.opts.limits);
        if loaded.is_ok() {
            state
                .by_spelling
                .insert(lexical, FileId(self.files.len() as u32));
        }
        self.add(path, loaded, state, |e| {
            format!(
                "$ref target file `{file_part}` could not be read: {} (line {}, column {})",
                e.message, e.line, e.column
            )
        })
    }

    /// The document at an http(s) `url`, fetched if remote references are on.
    fn open_remote(
        &mut self,
        url: String,
        target: &str,
        state: &mut LoadState<'_>,
    ) -> Result<FileId, Unfollowed> {
        if !state.opts.remote {
            return Err(Unfollowed::Remote);
        }
        let key = PathBuf::from(&url);
        if let Some(known) = state.known(&key) {
            return known.map_err(Unfollowed::Problem);
        }
        self.check_budget(0, state)?;
        let limits = state.opts.limits;
        let loaded = match fetch::fetch(&url, &limits) {
            Ok(fetched) => {
                // After a redirect the document lives at its final URL: its own relative refs
                // resolve from there, and a later ref to that URL finds it loaded.
                let served = PathBuf::from(&fetched.url);
                if served != key
                    && let Some(&id) = state.by_path.get(&served)
                {
                    state.by_path.insert(key, id);
                    return Ok(id);
                }
                self.check_budget(fetched.bytes.len() as u64, state)?;
                let name = fetched.url.clone();
                let loaded = SourceFile::decode(served.clone(), name.clone(), fetched.bytes)
                    .map_err(|e| FileError::unreadable(name, e))
                    .and_then(|source| parse_file(source, &limits));
                if served != key && loaded.is_ok() {
                    state
                        .by_path
                        .insert(served, FileId(self.files.len() as u32));
                }
                loaded
            }
            Err(e) => {
                let message = format!("remote $ref `{target}` could not be fetched: {e}");
                state.failed.insert(key, message.clone());
                return Err(Unfollowed::Problem(message));
            }
        };
        self.add(key, loaded, state, |e| {
            format!(
                "remote $ref `{target}` could not be read: {} (line {}, column {})",
                e.message, e.line, e.column
            )
        })
    }

    /// Whether one more file of `len` bytes fits the document's `$ref` budget.
    fn check_budget(&self, len: u64, state: &LoadState<'_>) -> Result<(), Unfollowed> {
        let limits = &state.opts.limits;
        if self.files.len() >= limits.max_ref_files {
            return Err(Unfollowed::Budget(Budget::Files));
        }
        if state.bytes.saturating_add(len) > limits.max_ref_bytes {
            return Err(Unfollowed::Budget(Budget::Bytes));
        }
        Ok(())
    }

    /// Adds a loaded file under `key`, or remembers why it failed.
    fn add(
        &mut self,
        key: PathBuf,
        loaded: Result<BundleFile, FileError>,
        state: &mut LoadState<'_>,
        describe: impl FnOnce(&FileError) -> String,
    ) -> Result<FileId, Unfollowed> {
        match loaded {
            Ok(file) => {
                let id = FileId(self.files.len() as u32);
                state.by_path.insert(key, id);
                state.bytes += file.source.text.len() as u64;
                self.files.push(file);
                self.links.push(HashMap::new());
                self.withheld.push(Default::default());
                Ok(id)
            }
            Err(e) => {
                let message = describe(&e);
                state.failed.insert(key, message.clone());
                self.errors.push(e);
                Err(Unfollowed::Problem(message))
            }
        }
    }

    /// Every `$ref` must land on a node and not loop back on itself.
    fn check_targets(&mut self) {
        let mut problems = Vec::new();
        for (i, file) in self.files.iter().enumerate() {
            let id = FileId(i as u32);
            let mut seen: HashMap<&str, Option<RefError>> = HashMap::new();
            for (span, target) in &file.refs {
                let (file_part, fragment) = split_ref(target);
                if !file_part.is_empty() && !self.links[i].contains_key(file_part) {
                    // Already reported while loading, or the file failed to parse.
                    continue;
                }
                // One hop: a broken link further down a chain is reported at its own `$ref`.
                let verdict =
                    *seen
                        .entry(target.as_str())
                        .or_insert_with(|| match self.target(id, target) {
                            Err(e) => Some(e),
                            Ok(_) => self
                                .follow(id, target)
                                .err()
                                .filter(|e| *e == RefError::Cycle),
                        });
                let message = match verdict {
                    None => continue,
                    Some(RefError::Cycle) => {
                        format!("$ref `{target}` is part of a reference cycle with no content")
                    }
                    Some(RefError::BadPointer) => {
                        format!("$ref `{target}` has a malformed JSON pointer `#{fragment}`")
                    }
                    Some(RefError::Missing) => format!("$ref target `{target}` does not exist"),
                };
                problems.push(RefProblem {
                    at: Location {
                        file: id,
                        span: *span,
                    },
                    message,
                });
            }
        }
        self.ref_problems.extend(problems);
        self.ref_problems.sort_by_key(|p| p.at);
    }

    /// The key under which `at` is defined (`TooManyRequests:` for a shared response), when it
    /// is a mapping value in its file.
    pub fn defining_key(&self, at: At<'_>) -> Option<Location> {
        let mut node = &self.file(at.file).root;
        let target = at.node.span;
        'descend: loop {
            match &node.value {
                Value::Map(entries) => {
                    for e in entries {
                        if e.value.span == target {
                            return Some(Location {
                                file: at.file,
                                span: e.key.span,
                            });
                        }
                        if e.value.span.contains(target) {
                            node = &e.value;
                            continue 'descend;
                        }
                    }
                    return None;
                }
                Value::Seq(items) => {
                    node = items.iter().find(|i| i.span.contains(target))?;
                }
                Value::Scalar(_) => return None,
            }
        }
    }

    pub fn file(&self, id: FileId) -> &BundleFile {
        &self.files[id.0 as usize]
    }

    pub fn root(&self) -> At<'_> {
        At {
            file: Bundle::ROOT,
            node: &self.files[0].root,
        }
    }

    /// Follows `$ref` chains from `at` to the node they end on. A reference that cannot be
    /// followed leaves `at` as it is (the problem is reported by `unresolved-ref`).
    pub fn deref<'a>(&'a self, at: At<'a>) -> At<'a> {
        match at.node.get("$ref").and_then(Node::as_str) {
            None => at,
            Some(target) => self.follow(at.file, target).unwrap_or(at),
        }
    }

    /// The node `target` (as written in `from`) names, without following it further; `None` when
    /// it names nothing.
    pub fn one_hop<'a>(&'a self, from: FileId, target: &str) -> Option<At<'a>> {
        self.target(from, target).ok()
    }

    /// The node `target` (as written in `from`) names, without following it further.
    fn target<'a>(&'a self, from: FileId, target: &str) -> Result<At<'a>, RefError> {
        let (file_part, fragment) = split_ref(target);
        let file = if file_part.is_empty() {
            from
        } else {
            *self.links[from.0 as usize]
                .get(file_part)
                .ok_or(RefError::Missing)?
        };
        let node = pointer_get(&self.files[file.0 as usize].root, fragment)?;
        Ok(At { file, node })
    }

    /// Resolves `target` as written in `from`, following further `$ref`s.
    fn follow<'a>(&'a self, from: FileId, target: &str) -> Result<At<'a>, RefError> {
        let mut at = self.target(from, target)?;
        for _ in 0..MAX_REF_HOPS {
            match at.node.get("$ref").and_then(Node::as_str) {
                Some(next) => at = self.target(at.file, next)?,
                None => return Ok(at),
            }
        }
        Err(RefError::Cycle)
    }
}

/// What loading a bundle keeps track of across files.
struct LoadState<'o> {
    opts: &'o ResolveOptions,
    /// Where every local file is read.
    files: &'o dyn Files,
    by_path: HashMap<PathBuf, FileId>,
    /// Files that could not be read, with the message every `$ref` to them gets.
    failed: HashMap<PathBuf, String>,
    /// Bytes of the files loaded so far through `$ref`s (the root excluded).
    bytes: u64,
    /// Loaded files by their lexically normalised path, as `$ref`s spell them.
    by_spelling: HashMap<PathBuf, FileId>,
    /// Canonical paths of the directories met, by their lexical path.
    dirs: HashMap<PathBuf, PathBuf>,
}

impl LoadState<'_> {
    /// `path` with every symbolic link resolved, as `Files::canonicalize` gives it (or `path`
    /// itself when it does not exist), asking the files about each directory once: a
    /// spec of thousands of files in a few hundred folders costs a `lstat` a folder, not a
    /// `readlink` for every component of every `$ref`.
    fn canonical(&mut self, path: &Path) -> PathBuf {
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return self
                .files
                .canonicalize(path)
                .unwrap_or_else(|_| path.to_path_buf());
        };
        let dir = self.canonical_dir(dir);
        let joined = dir.join(name);
        match self.files.is_symlink(&joined) {
            Ok(true) => self.files.canonicalize(&joined).unwrap_or(joined),
            Ok(false) => joined,
            Err(_) => self
                .files
                .canonicalize(path)
                .unwrap_or_else(|_| path.to_path_buf()),
        }
    }

    fn canonical_dir(&mut self, dir: &Path) -> PathBuf {
        if let Some(known) = self.dirs.get(dir) {
            return known.clone();
        }
        let canonical = match (dir.parent(), dir.file_name()) {
            (Some(parent), Some(name)) => {
                let joined = self.canonical_dir(parent).join(name);
                match self.files.is_symlink(&joined) {
                    Ok(false) => joined,
                    _ => self.files.canonicalize(&joined).unwrap_or(joined),
                }
            }
            _ => self
                .files
                .canonicalize(dir)
                .unwrap_or_else(|_| dir.to_path_buf()),
        };
        self.dirs.insert(dir.to_path_buf(), canonical.clone());
        canonical
    }
}

impl LoadState<'_> {
    /// What an earlier `$ref` to `key` gave: the loaded file, or why it could not be.
    fn known(&self, key: &Path) -> Option<Result<FileId, String>> {
        match self.by_path.get(key) {
            Some(&id) => Some(Ok(id)),
            None => self.failed.get(key).map(|m| Err(m.clone())),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum RefError {
    Missing,
    BadPointer,
    Cycle,
}

fn load_file(
    files: &dyn Files,
    path: &Path,
    name: String,
    limits: &Limits,
) -> Result<BundleFile, FileError> {
    let source = SourceFile::read(files, path, name.clone(), limits)
        .map_err(|e| FileError::unreadable(name, e))?;
    parse_file(source, limits)
}

fn parse_file(source: SourceFile, limits: &Limits) -> Result<BundleFile, FileError> {
    let name = source.name.clone();
    match source.parse(limits) {
        Ok(loaded) => Ok(BundleFile::new(
            Arc::new(source),
            loaded.root,
            loaded.duplicates,
        )),
        Err(e) => {
            let at = source.line_col(e.span.start as usize);
            Err(FileError {
                kind: ErrorKind::Parse,
                file: name,
                line: at.line,
                column: at.column,
                message: e.message,
            })
        }
    }
}

/// The extension that silences rules where it is written (see `suppress.rs`).
pub const IGNORE_EXTENSION: &str = "x-idemlint-ignore";

/// Keys whose values are instance data or samples (examples, defaults, enumerations): a `$ref`
/// inside them is data, or points at data no rule reads, so it is neither followed nor checked.
/// `examples` is both the 3.x map of Example Objects (often `$ref`s to sample files, one per
/// operation in a large multi-file spec) and the 3.1 schema keyword's list of instances.
const DATA_KEYS: [&str; 5] = ["example", "examples", "default", "enum", "const"];

/// Extensions the rules read; the `$ref`s inside any other `x-` extension (`x-codeSamples`
/// pointing at sample files, vendor tooling data) are left alone.
const READ_EXTENSIONS: [&str; 2] = ["x-idempotency", IGNORE_EXTENSION];

/// Maps whose keys are names the author chose (a property called `example`, a `default`
/// response, a header called `x-request-id`), never keywords.
const NAME_MAPS: [&str; 16] = [
    "properties",
    "patternProperties",
    "definitions",
    "schemas",
    "responses",
    "parameters",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "callbacks",
    "pathItems",
    "paths",
    "webhooks",
    "content",
    "$defs",
];

/// Every string `$ref` in a tree that a rule may need followed, with the span of its entry (key
/// through value). Instance data and samples (`example`, `examples`, `default`, `enum`,
/// `const`) and vendor extensions other than idemlint's own are not searched.
pub fn collect_refs(node: &Node, out: &mut Vec<(Span, EcoString)>) {
    walk_refs(node, None, out);
}

/// Whether the value under `key` is searched for `$ref`s, in a mapping whose keys are keywords.
pub fn holds_refs(key: &str) -> bool {
    !DATA_KEYS.contains(&key) && (!key.starts_with("x-") || READ_EXTENSIONS.contains(&key))
}

/// Whether the keys of a mapping reached through `via` are names rather than keywords.
pub fn is_name_map(via: Option<&str>) -> bool {
    via.is_some_and(|k| NAME_MAPS.contains(&k))
}

/// `via` is the key this node was reached through.
fn walk_refs(node: &Node, via: Option<&str>, out: &mut Vec<(Span, EcoString)>) {
    match &node.value {
        Value::Map(entries) => {
            let names = is_name_map(via);
            for e in entries {
                let key = &*e.key.text;
                if !names {
                    if key == "$ref"
                        && let Some(s) = e.value.as_scalar().filter(|s| s.kind == ScalarKind::Str)
                    {
                        out.push((e.key.span.cover(e.value.span), s.text.clone()));
                        continue;
                    }
                    if !holds_refs(key) {
                        continue;
                    }
                }
                walk_refs(&e.value, Some(key), out);
            }
        }
        Value::Seq(items) => items.iter().for_each(|n| walk_refs(n, None, out)),
        Value::Scalar(_) => {}
    }
}

/// `file.yaml#/a/b` → (`file.yaml`, `/a/b`); `#/a` → (``, `/a`).
fn split_ref(target: &str) -> (&str, &str) {
    match target.split_once('#') {
        Some((file, fragment)) => (file, fragment),
        None => (target, ""),
    }
}

/// The URI scheme `file_part` starts with (`https`, `file`, `urn`), if any; a Windows drive
/// letter is no scheme.
fn uri_scheme(file_part: &str) -> Option<&str> {
    let (scheme, _) = file_part.split_once(':')?;
    let valid = scheme.len() > 1
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

/// The absolute, lexically normalised path a relative file reference names.
fn target_path(from: &Path, file_part: &str) -> Option<PathBuf> {
    let decoded = percent_decode(file_part)?;
    let dir = from.parent().unwrap_or(Path::new(""));
    Some(normalize(&dir.join(decoded)))
}

/// The user-facing name of a referenced file: the referring file's name with the reference
/// applied, so names stay relative when the user gave relative paths.
fn display_name(from_name: &str, file_part: &str) -> String {
    let decoded = percent_decode(file_part).unwrap_or_else(|| file_part.to_string());
    let dir = Path::new(from_name).parent().unwrap_or(Path::new(""));
    normalize(&dir.join(decoded)).to_string_lossy().into_owned()
}

/// `s` with its `%XX` escapes decoded; `None` when one is malformed or the bytes are not UTF-8.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Walks a JSON pointer (the fragment of a `$ref`, percent-encoded) from `root`.
fn pointer_get<'a>(root: &'a Node, fragment: &str) -> Result<&'a Node, RefError> {
    if fragment.is_empty() {
        return Ok(root);
    }
    let decoded = percent_decode(fragment).ok_or(RefError::BadPointer)?;
    let Some(rest) = decoded.strip_prefix('/') else {
        return Err(RefError::BadPointer);
    };
    let mut node = root;
    for raw in rest.split('/') {
        let token = unescape_token(raw);
        node = match &node.value {
            Value::Map(_) => node.get(&token).ok_or(RefError::Missing)?,
            Value::Seq(items) => token
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get(i))
                .ok_or(RefError::Missing)?,
            Value::Scalar(_) => return Err(RefError::Missing),
        };
    }
    Ok(node)
}

fn unescape_token(raw: &str) -> std::borrow::Cow<'_, str> {
    if raw.contains('~') {
        raw.replace("~1", "/").replace("~0", "~").into()
    } else {
        raw.into()
    }
}

/// The JSON pointer (RFC 6901) of the node or key at `target` in `root`: the path of the
/// innermost node whose span or key span is `target`, or that contains it.
pub fn pointer_to(root: &Node, target: Span) -> String {
    PointerCache::default().pointer_to(root, target)
}

/// [`pointer_to`] for many targets in the same trees. A large mapping whose entries are in
/// source order (no `<<` merge entries, no nesting between entries) is searched by bisection;
/// which mappings are is found once and remembered, so pointers into a `paths` of 100,000
/// entries cost a logarithm, not a scan each.
#[derive(Default)]
pub struct PointerCache {
    /// By the address of a mapping's entries: whether they are in source order.
    ordered: HashMap<usize, bool>,
}

/// Mappings smaller than this are scanned.
const BISECT_FROM: usize = 32;

impl PointerCache {
    pub fn pointer_to(&mut self, root: &Node, target: Span) -> String {
        let mut pointer = String::new();
        let mut node = root;
        loop {
            if node.span == target && !is_ref_entry(node, target) {
                break;
            }
            match &node.value {
                Value::Map(entries) => {
                    let holds = |e: &Entry| {
                        e.key.span.start == target.start || e.value.span.contains(target)
                    };
                    let found = if entries.len() >= BISECT_FROM && self.in_order(entries) {
                        let i = entries.partition_point(|e| {
                            e.value.span.end.max(e.key.span.end) <= target.start
                                && e.key.span.start != target.start
                        });
                        entries.get(i).filter(|e| holds(e))
                    } else {
                        entries.iter().find(|e| holds(e))
                    };
                    let Some(e) = found else { break };
                    push_token(&mut pointer, &e.key.text);
                    if e.key.span.start == target.start {
                        break;
                    }
                    node = &e.value;
                }
                Value::Seq(items) => {
                    // Items are in source order unless an alias repeats an earlier node, and
                    // then the scan below settles it.
                    let guess = items.partition_point(|item| item.span.end <= target.start);
                    let found = match items.get(guess) {
                        Some(item) if item.span.contains(target) => Some(guess),
                        _ => items.iter().position(|item| item.span.contains(target)),
                    };
                    let Some(i) = found else { break };
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    node = &items[i];
                }
                Value::Scalar(_) => break,
            }
        }
        pointer
    }

    /// Whether each entry's key comes after the previous entry in the text: not so when `<<`
    /// merged entries were appended, or when an entry's value holds the next key.
    fn in_order(&mut self, entries: &[Entry]) -> bool {
        *self
            .ordered
            .entry(entries.as_ptr() as usize)
            .or_insert_with(|| {
                entries
                    .windows(2)
                    .all(|w| w[0].value.span.end.max(w[0].key.span.end) <= w[1].key.span.start)
            })
    }
}

/// Whether `target` is the `$ref` entry (key through value) of the block mapping `node`, whose
/// own span is the same when `$ref` is its only entry: a finding about a `$ref` is about the
/// entry, and its pointer ends in `$ref`.
fn is_ref_entry(node: &Node, target: Span) -> bool {
    node.entries()
        .first()
        .is_some_and(|e| &*e.key.text == "$ref" && e.key.span.cover(e.value.span) == target)
}

fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{Format, SourceFile};

    /// The plain definition: the first entry or item, in order, that holds the target.
    fn scanned(root: &Node, target: Span) -> String {
        let mut pointer = String::new();
        let mut node = root;
        while node.span != target || is_ref_entry(node, target) {
            match &node.value {
                Value::Map(entries) => {
                    let Some(e) = entries.iter().find(|e| {
                        e.key.span.start == target.start || e.value.span.contains(target)
                    }) else {
                        break;
                    };
                    push_token(&mut pointer, &e.key.text);
                    if e.key.span.start == target.start {
                        break;
                    }
                    node = &e.value;
                }
                Value::Seq(items) => {
                    let Some(i) = items.iter().position(|n| n.span.contains(target)) else {
                        break;
                    };
                    pointer.push_str(&format!("/{i}"));
                    node = &items[i];
                }
                Value::Scalar(_) => break,
            }
        }
        pointer
    }

    fn spans(node: &Node, out: &mut Vec<Span>) {
        out.push(node.span);
        for e in node.entries() {
            out.push(e.key.span);
            spans(&e.value, out);
        }
        for item in node.items() {
            spans(item, out);
        }
    }

    #[test]
    fn bisected_pointers_agree_with_a_scan_even_with_merges_and_aliases() {
        let mut text = String::from("early: &early {e1: 1, e2: 2}\nbig:\n");
        for i in 0..40 {
            text.push_str(&format!("  k{i}: {{v: [{i}, {{w: {i}}}]}}\n"));
        }
        text.push_str("  inner: &x {bad: {name: nope}}\n  again: *x\n  <<: [*early, *x]\n");
        text.push_str("ordered:\n");
        for i in 0..40 {
            text.push_str(&format!("  o{i}: [a, {{b: {i}}}]\n"));
        }
        let file = SourceFile::new("t.yaml".into(), "t.yaml".into(), text, Format::Yaml);
        let root = file.parse(&Limits::default()).unwrap().root;
        let mut all = Vec::new();
        spans(&root, &mut all);
        let mut cache = PointerCache::default();
        for target in all {
            assert_eq!(
                cache.pointer_to(&root, target),
                scanned(&root, target),
                "at {target:?}"
            );
        }
        assert_eq!(cache.ordered.values().filter(|o| **o).count(), 1);
        assert_eq!(cache.ordered.values().filter(|o| !**o).count(), 1);
    }
}
