//! The server's main loop and lifecycle (LSP 3.17): `initialize` (the position encoding
//! negotiated), then the client's messages, the lint worker's results and the debounce deadline,
//! whichever comes first; `shutdown`, then `exit` (exit code 0 after `shutdown`, 1 without).
//!
//! What is linted is a *unit*: a path handed to the engine as `check` would take it. An open
//! root document is a unit; an open fragment that no unit loads is one too (the engine lints the
//! documents under the root that reach it). A change to a file marks every unit that loaded it;
//! marked units are linted on the worker, at once for an edit after a pause and else once the
//! edits pause ([`DEBOUNCE`]); a result of a unit that changed again while it was linted is
//! dropped.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, select};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWatchedFilesRegistrationOptions, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, FileChangeType, FileSystemWatcher,
    GlobPattern, HoverParams, HoverProviderCapability, InitializeParams, InitializeResult,
    PublishDiagnosticsParams, Registration, RegistrationParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};

use super::actions::{self, FIX_ALL, Target};
use super::diagnostics::{FileDiagnostics, Item, UnitResult};
use super::documents::{self, Documents};
use super::position::Encoding;
use super::worker::{self, Done, Job};
use super::{hover, uri};
use crate::lint::Options;

/// How long edits must pause before the units they touch are linted.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// What the client can take, from `initialize`.
#[derive(Debug, Clone, Copy, Default)]
struct Client {
    /// Versioned `documentChanges` in workspace edits.
    document_changes: bool,
    /// `codeAction/resolve` filling in an action's `edit` later.
    resolve_edit: bool,
    /// Watchers of files registered by the server.
    watch_files: bool,
}

/// A unit's last kept result.
#[derive(Default)]
struct Unit {
    loaded: Vec<PathBuf>,
    files: HashMap<PathBuf, FileDiagnostics>,
}

/// Runs the server on standard input and output; returns the process's exit code.
pub fn run() -> u8 {
    let (connection, io_threads) = Connection::stdio();
    let code = match Server::start(connection) {
        Ok(server) => server.serve(),
        Err(e) => {
            eprintln!("idemlint lsp: {e}");
            1
        }
    };
    // The reader stops after `exit`; a client that closed the pipe instead has stopped it too.
    if code == 0 {
        let _ = io_threads.join();
    }
    code
}

struct Server {
    conn: Connection,
    enc: Encoding,
    client: Client,
    opts: Arc<Options>,
    docs: Documents,
    units: HashMap<PathBuf, Unit>,
    /// Units to lint once the edits pause.
    dirty: HashSet<PathBuf>,
    deadline: Instant,
    /// When the last edit came.
    last_edit: Instant,
    /// Whether the worker is linting; the next job waits for it.
    busy: bool,
    jobs: Sender<Job>,
    done: Receiver<Done>,
    /// Files whose last published diagnostics were not empty, with their URI.
    published: HashMap<PathBuf, Uri>,
    shutdown: bool,
    next_id: i32,
}

impl Server {
    /// The `initialize` handshake: negotiates the position encoding and says what the server
    /// does.
    fn start(conn: Connection) -> Result<Server, lsp_server::ProtocolError> {
        let (id, params) = conn.initialize_start()?;
        let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
        let caps = &params.capabilities;
        let enc = Encoding::negotiate(
            caps.general
                .as_ref()
                .and_then(|g| g.position_encodings.as_deref()),
        );
        let client = Client {
            document_changes: caps
                .workspace
                .as_ref()
                .and_then(|w| w.workspace_edit.as_ref())
                .and_then(|e| e.document_changes)
                .unwrap_or(false),
            resolve_edit: caps
                .text_document
                .as_ref()
                .and_then(|t| t.code_action.as_ref())
                .and_then(|c| c.resolve_support.as_ref())
                .is_some_and(|r| r.properties.iter().any(|p| p == "edit")),
            watch_files: caps
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false),
        };
        let result = InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(enc.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                code_action_provider: Some(CodeActionProviderCapability::Options(
                    CodeActionOptions {
                        code_action_kinds: Some(vec![
                            CodeActionKind::QUICKFIX,
                            CodeActionKind::new(FIX_ALL),
                        ]),
                        resolve_provider: Some(true),
                        ..CodeActionOptions::default()
                    },
                )),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "idemlint".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        };
        let result = serde_json::to_value(result).expect("the result serialises");
        conn.initialize_finish(id, result)?;
        let opts = Options {
            root: workspace_root(&params),
            ..Options::default()
        };
        let (jobs, job_rx) = crossbeam_channel::unbounded();
        let (done_tx, done) = crossbeam_channel::unbounded();
        worker::spawn(enc, job_rx, done_tx);
        let mut server = Server {
            conn,
            enc,
            client,
            opts: Arc::new(opts),
            docs: Documents::default(),
            units: HashMap::new(),
            dirty: HashSet::new(),
            deadline: Instant::now(),
            last_edit: Instant::now(),
            busy: false,
            jobs,
            done,
            published: HashMap::new(),
            shutdown: false,
            next_id: 0,
        };
        server.watch_files();
        Ok(server)
    }

    /// Asks the client to report changes to specs and configurations on the disk, which a
    /// lint reads when no buffer is open for them.
    fn watch_files(&mut self) {
        if !self.client.watch_files {
            return;
        }
        let watchers = ["**/*.{yaml,yml,json}", "**/.idemlint.{yaml,yml}"]
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.to_string()),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "idemlint-watch".to_string(),
                method: notif::DidChangeWatchedFiles::METHOD.to_string(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        self.next_id += 1;
        let request = Request::new(
            RequestId::from(self.next_id),
            req::RegisterCapability::METHOD.to_string(),
            params,
        );
        self.send(request.into());
    }

    fn send(&self, message: Message) {
        let _ = self.conn.sender.send(message);
    }

    /// The loop; returns the exit code.
    fn serve(mut self) -> u8 {
        loop {
            let wait = if self.busy || self.dirty.is_empty() {
                Duration::from_secs(3600)
            } else {
                self.deadline.saturating_duration_since(Instant::now())
            };
            select! {
                recv(self.conn.receiver) -> message => match message {
                    Ok(message) => {
                        if let Some(code) = self.handle(message) {
                            return code;
                        }
                    }
                    // The client went away without `exit`.
                    Err(_) => return 1,
                },
                recv(self.done) -> done => match done {
                    Ok(Done::Unit { .. }) if self.shutdown => {}
                    Ok(Done::Unit { edits, result }) => self.take(edits, result),
                    Ok(Done::Idle) => self.busy = false,
                    Err(_) => return 1,
                },
                default(wait) => self.dispatch(),
            }
        }
    }

    /// Hands the marked units to the worker, with the buffers as they stand.
    fn dispatch(&mut self) {
        if self.busy || self.dirty.is_empty() {
            return;
        }
        let mut units: Vec<PathBuf> = self.dirty.drain().collect();
        units.sort();
        let job = Job {
            edits: self.docs.edits,
            units,
            buffers: self.docs.snapshot(),
            opts: Arc::clone(&self.opts),
        };
        self.busy = self.jobs.send(job).is_ok();
    }

    fn handle(&mut self, message: Message) -> Option<u8> {
        match message {
            Message::Request(request) => {
                self.request(request);
                None
            }
            Message::Notification(n) if n.method == notif::Exit::METHOD => {
                Some(if self.shutdown { 0 } else { 1 })
            }
            Message::Notification(n) => {
                self.notification(n);
                None
            }
            // Answers to the server's own requests (the watchers' registration).
            Message::Response(_) => None,
        }
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        if self.shutdown {
            let message = "the server is shutting down".to_string();
            self.send(Response::new_err(id, ErrorCode::InvalidRequest as i32, message).into());
            return;
        }
        let response = match request.method.as_str() {
            req::Shutdown::METHOD => {
                self.shutdown = true;
                // Nothing is linted or published from now on.
                self.dirty.clear();
                Response::new_ok(id, ())
            }
            req::Initialize::METHOD => Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is already initialized".to_string(),
            ),
            req::HoverRequest::METHOD => match serde_json::from_value(request.params) {
                Ok(params) => Response::new_ok(id, self.hover(params)),
                Err(e) => invalid(id, e),
            },
            req::CodeActionRequest::METHOD => match serde_json::from_value(request.params) {
                Ok(params) => return self.code_actions(id, params),
                Err(e) => invalid(id, e),
            },
            req::CodeActionResolveRequest::METHOD => match serde_json::from_value(request.params) {
                Ok(action) => return self.resolve(id, action),
                Err(e) => invalid(id, e),
            },
            method => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("idemlint does not answer {method}"),
            ),
        };
        self.send(response.into());
    }

    fn notification(&mut self, n: Notification) {
        // After `shutdown` only `exit` means anything (LSP 3.17).
        if self.shutdown {
            return;
        }
        match n.method.as_str() {
            notif::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    self.open(p);
                }
            }
            notif::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    let Some(path) = self.path(&p.text_document.uri) else {
                        return;
                    };
                    let version = p.text_document.version;
                    if self
                        .docs
                        .change(&path, version, p.content_changes, self.enc)
                    {
                        // The first edit after a pause is linted at once (an edit alone is
                        // answered as fast as the lint allows); an edit that follows another
                        // within the debounce waits for a pause, so typing is linted once.
                        let now = Instant::now();
                        let typing = now.duration_since(self.last_edit) < DEBOUNCE;
                        self.last_edit = now;
                        self.changed(&path, if typing { now + DEBOUNCE } else { now });
                    }
                }
            }
            notif::DidSaveTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params)
                    && let Some(path) = self.path(&p.text_document.uri)
                {
                    self.changed(&path, Instant::now());
                }
            }
            notif::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params)
                    && let Some(path) = self.path(&p.text_document.uri)
                {
                    self.close(&path);
                }
            }
            notif::DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(n.params) {
                    for change in p.changes {
                        let Some(path) = self.path(&change.uri) else {
                            continue;
                        };
                        // An open buffer wins over its file: the disk's change is not seen.
                        if self.docs.get(&path).is_some() {
                            continue;
                        }
                        if change.typ == FileChangeType::CHANGED && !is_config(&path) {
                            self.changed(&path, Instant::now());
                        } else {
                            // A configuration, or a file come or gone (a `$ref` that now
                            // resolves): any unit may read it.
                            self.mark_all(Instant::now());
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The path a URI names, as the engine knows the file (links of its folder resolved).
    fn path(&self, uri: &Uri) -> Option<PathBuf> {
        let path = uri::to_path(uri)?;
        Some(crate::files::identity(&crate::files::Disk, &path))
    }

    fn open(&mut self, p: DidOpenTextDocumentParams) {
        let doc = p.text_document;
        let Some(path) = self.path(&doc.uri) else {
            return;
        };
        let is_root = crate::discover::looks_like_root(doc.text.as_bytes());
        self.docs.open(path.clone(), doc.uri, doc.text, doc.version);
        let spec = crate::discover::is_spec_extension(&path) || is_root;
        let loaded_by_unit = self.units.values().any(|u| u.loaded.contains(&path));
        if spec && !is_config(&path) && (is_root || !loaded_by_unit) {
            self.units.entry(path.clone()).or_default();
        }
        self.changed(&path, Instant::now());
    }

    fn close(&mut self, path: &Path) {
        self.docs.close(path);
        if let Some(unit) = self.units.remove(path) {
            self.dirty.remove(path);
            let files: Vec<PathBuf> = unit.files.into_keys().collect();
            self.publish(files);
            self.adopt_orphans();
        }
        // Units that read the buffer read the file on the disk from now on.
        self.changed(path, Instant::now());
    }

    /// Marks the units that `path` (a buffer or a file) concerns, to be linted at `when` at the
    /// latest.
    fn changed(&mut self, path: &Path, when: Instant) {
        if is_config(path) {
            return self.mark_all(when);
        }
        let marked: Vec<PathBuf> = self
            .units
            .iter()
            .filter(|(unit, u)| unit.as_path() == path || u.loaded.iter().any(|p| p == path))
            .map(|(unit, _)| unit.clone())
            .collect();
        self.mark(marked, when);
    }

    fn mark_all(&mut self, when: Instant) {
        let all: Vec<PathBuf> = self.units.keys().cloned().collect();
        self.mark(all, when);
    }

    fn mark(&mut self, units: Vec<PathBuf>, when: Instant) {
        if units.is_empty() {
            return;
        }
        // A save or an open is linted at once; each keystroke pushes the lint of what it
        // touched back to a pause after it.
        self.deadline = when;
        self.dirty.extend(units);
    }

    /// Keeps a unit's result unless it is stale, and publishes the files it changed.
    fn take(&mut self, edits: u64, result: UnitResult) {
        if !self.units.contains_key(&result.unit) || self.dirty.contains(&result.unit) {
            return;
        }
        let stale = std::iter::once(&result.unit)
            .chain(&result.loaded)
            .any(|p| self.docs.changed_at(p) > edits);
        if stale {
            self.mark(vec![result.unit], Instant::now());
            return;
        }
        let unit = self.units.get_mut(&result.unit).expect("checked above");
        let mut touched: Vec<PathBuf> = unit.files.keys().cloned().collect();
        touched.extend(result.files.keys().cloned());
        if result.linted || result.broken.is_empty() {
            // Linted, or nothing to lint: a buffer that is no OpenAPI document (any more: its
            // `openapi:` line commented out, its text deleted) shows nothing.
            unit.loaded = result.loaded;
            unit.files = result.files;
        } else {
            // The document does not parse (mid-typing): its own file shows the error, the
            // other files keep their last good findings.
            for path in &result.broken {
                unit.files.remove(path);
            }
            unit.files.extend(result.files);
        }
        touched.sort();
        touched.dedup();
        self.publish(touched);
        self.drop_covered_fragments();
        self.adopt_orphans();
    }

    /// Open fragments that no unit loads any more (the root that loaded them was closed, or
    /// no longer `$ref`s them) are units of their own again, as when they were opened.
    fn adopt_orphans(&mut self) {
        let orphans: Vec<PathBuf> = self
            .docs
            .iter()
            .filter(|(path, doc)| {
                !self.units.contains_key(*path)
                    && !is_config(path)
                    && (crate::discover::is_spec_extension(path)
                        || crate::discover::looks_like_root(doc.text.as_bytes()))
                    && !self.units.values().any(|u| u.loaded.contains(*path))
            })
            .map(|(path, _)| path.clone())
            .collect();
        for path in &orphans {
            self.units.entry(path.clone()).or_default();
        }
        self.mark(orphans, Instant::now());
    }

    /// Fragments opened before a root that loads them was linted are that root's from then on.
    fn drop_covered_fragments(&mut self) {
        let covered: Vec<PathBuf> = self
            .units
            .keys()
            .filter(|f| {
                self.units
                    .iter()
                    .any(|(u, unit)| u != *f && unit.loaded.contains(f))
                    && self
                        .docs
                        .get(f)
                        .is_some_and(|d| !crate::discover::looks_like_root(d.text.as_bytes()))
            })
            .cloned()
            .collect();
        for f in covered {
            if let Some(unit) = self.units.remove(&f) {
                self.dirty.remove(&f);
                self.publish(unit.files.into_keys().collect());
            }
        }
    }

    /// The diagnostics of `path` over every unit (a file two roots load is reported once).
    fn items(&self, path: &Path) -> (Option<i32>, Vec<&Item>) {
        let mut version = None;
        let mut items: Vec<&Item> = Vec::new();
        let mut seen = HashSet::new();
        let mut units: Vec<(&PathBuf, &Unit)> = self.units.iter().collect();
        units.sort_by_key(|(p, _)| *p);
        for (_, unit) in units {
            let Some(file) = unit.files.get(path) else {
                continue;
            };
            version = version.or(file.version);
            for item in &file.items {
                let d = &item.diagnostic;
                let key = (
                    d.range.start,
                    d.range.end,
                    d.code.clone().map(|c| format!("{c:?}")),
                    d.message.clone(),
                );
                if seen.insert(key) {
                    items.push(item);
                }
            }
        }
        (version, items)
    }

    fn publish(&mut self, paths: Vec<PathBuf>) {
        for path in paths {
            let (version, items) = self.items(&path);
            // A file with nothing to show is as the lint just taken read it: its buffer now.
            let version = version.or_else(|| self.docs.get(&path).map(|d| d.version));
            let diagnostics: Vec<_> = items.iter().map(|i| i.diagnostic.clone()).collect();
            let uri = match self.docs.get(&path) {
                Some(doc) => Some(doc.uri.clone()),
                None => self
                    .published
                    .get(&path)
                    .cloned()
                    .or_else(|| uri::from_path(&path)),
            };
            let Some(uri) = uri else { continue };
            if diagnostics.is_empty() {
                // Only files that showed something need telling that it went away.
                if self.published.remove(&path).is_none() {
                    continue;
                }
            } else {
                self.published.insert(path.clone(), uri.clone());
            }
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            };
            let n = Notification::new(notif::PublishDiagnostics::METHOD.to_string(), params);
            self.send(n.into());
        }
    }

    fn hover(&self, p: HoverParams) -> Option<lsp_types::Hover> {
        let at = p.text_document_position_params;
        let path = self.path(&at.text_document.uri)?;
        let (_, items) = self.items(&path);
        let mut rules = Vec::new();
        let mut range = None;
        for item in items {
            let Some(f) = &item.finding else { continue };
            if hover::contains(&item.diagnostic.range, at.position) && !rules.contains(&f.rule) {
                rules.push(f.rule);
                range.get_or_insert(item.diagnostic.range);
            }
        }
        hover::hover(&rules, range?)
    }

    /// How each file a fix edits is addressed, when the text the fix was made against is
    /// still the buffer's (else the fix is stale and not offered).
    fn targets(&self, items: &[Item]) -> HashMap<PathBuf, Option<Target>> {
        let mut targets = HashMap::new();
        for f in items.iter().filter_map(|i| i.finding.as_deref()) {
            let sources = std::iter::once(&f.source).chain(
                f.fix
                    .iter()
                    .flat_map(|fix| fix.edits.iter().map(|e| &e.source)),
            );
            for source in sources {
                targets.entry(source.path.clone()).or_insert_with(|| {
                    match self.docs.get(&source.path) {
                        Some(doc) => (doc.text == source.text).then(|| Target {
                            uri: doc.uri.clone(),
                            version: Some(doc.version),
                        }),
                        None => {
                            uri::from_path(&source.path).map(|uri| Target { uri, version: None })
                        }
                    }
                });
            }
        }
        targets
    }

    /// Code actions at a range; built on a thread of their own (a suppression parses the
    /// file), so the loop goes on.
    fn code_actions(&mut self, id: RequestId, p: CodeActionParams) {
        let Some(path) = self.path(&p.text_document.uri) else {
            self.send(Response::new_ok(id, Vec::<CodeActionOrCommand>::new()).into());
            return;
        };
        let only = p.context.only.clone();
        let (_, all) = self.items(&path);
        let in_range: Vec<Item> = all
            .iter()
            .filter(|i| i.finding.is_some())
            .filter(|i| {
                let r = &i.diagnostic.range;
                r.start <= p.range.end && p.range.start <= r.end
            })
            .map(|i| (*i).clone())
            .collect();
        let fix_all = self.docs.get(&path).and_then(|doc| {
            let safe_fix = all.iter().any(|i| {
                i.finding
                    .as_ref()
                    .and_then(|f| f.fix.as_ref())
                    .is_some_and(|fix| fix.applicability == crate::fix::Applicability::Safe)
            });
            let asked = match only.as_deref() {
                Some(only) => actions::wanted(Some(only), FIX_ALL),
                None => self.client.resolve_edit,
            };
            (safe_fix && asked && crate::discover::looks_like_root(doc.text.as_bytes())).then(
                || {
                    let target = Target {
                        uri: doc.uri.clone(),
                        version: Some(doc.version),
                    };
                    // (Resolved later, the action carries no text: clients ask for actions
                    // at every move of the cursor.)
                    let text = (!self.client.resolve_edit)
                        .then(|| (doc.text.clone(), self.docs.snapshot()));
                    (target, text)
                },
            )
        });
        let targets = self.targets(&in_range);
        let (enc, client, opts) = (self.enc, self.client, Arc::clone(&self.opts));
        let sender = self.conn.sender.clone();
        spawn(move || {
            let mut out: Vec<CodeActionOrCommand> = Vec::new();
            let target = |p: &Path| targets.get(p).cloned().flatten();
            if actions::wanted(only.as_deref(), CodeActionKind::QUICKFIX.as_str()) {
                for item in &in_range {
                    let f = item.finding.as_deref().expect("findings only");
                    let d = &item.diagnostic;
                    let dc = client.document_changes;
                    out.extend(actions::quick_fix(f, d, enc, &target, dc).map(Into::into));
                    // (Both suppressions read the finding's file as a tree: parsed once.)
                    if let Some(t) = target(&f.source.path)
                        && crate::filter::suppressible(f.rule)
                        && let Ok(loaded) = f.source.parse(&crate::limits::Limits::default())
                    {
                        let root = &loaded.root;
                        out.extend(
                            actions::ignore_for_operation(f, root, d, enc, &t, dc).map(Into::into),
                        );
                        out.extend(
                            actions::ignore_on_line(f, root, d, enc, &t, dc).map(Into::into),
                        );
                    }
                }
            }
            if let Some((target, text)) = fix_all {
                let mut action = CodeAction {
                    title: "Fix all idemlint problems".to_string(),
                    kind: Some(CodeActionKind::new(FIX_ALL)),
                    data: serde_json::to_value((target.uri.as_str(), target.version)).ok(),
                    ..CodeAction::default()
                };
                if let Some((text, buffers)) = text {
                    action.edit = fix_all_edit(&target, &text, &buffers, &opts, enc, client);
                }
                if action.edit.is_some() || client.resolve_edit {
                    out.push(action.into());
                }
            }
            let _ = sender.send(Response::new_ok(id, out).into());
        });
    }

    /// Fills in "Fix all"'s edit, on a thread of its own (its passes lint the document again).
    fn resolve(&mut self, id: RequestId, mut action: CodeAction) {
        let asked: Option<(String, Option<i32>)> = action
            .data
            .clone()
            .and_then(|d| serde_json::from_value(d).ok());
        let doc = asked.and_then(|(u, version)| {
            let uri: Uri = u.parse().ok()?;
            let doc = self.docs.get(&self.path(&uri)?)?;
            (Some(doc.version) == version).then(|| {
                (
                    Target {
                        uri: doc.uri.clone(),
                        version,
                    },
                    doc.text.clone(),
                )
            })
        });
        let buffers = self.docs.snapshot();
        let Some((target, text)) = doc else {
            let message = "the document changed; ask for the action again".to_string();
            self.send(Response::new_err(id, ErrorCode::ContentModified as i32, message).into());
            return;
        };
        let (enc, client, opts) = (self.enc, self.client, Arc::clone(&self.opts));
        let sender = self.conn.sender.clone();
        spawn(move || {
            action.edit = fix_all_edit(&target, &text, &buffers, &opts, enc, client)
                .or_else(|| Some(lsp_types::WorkspaceEdit::default()));
            let _ = sender.send(Response::new_ok(id, action).into());
        });
    }
}

/// The edit of "Fix all idemlint problems" for the buffer `text`: of the buffer, and of the
/// files it `$ref`s that the fixes change (a shared response's `Retry-After`), each addressed
/// at its open buffer's version, or unversioned when it is not open.
fn fix_all_edit(
    target: &Target,
    text: &str,
    buffers: &[documents::Snapshot],
    opts: &Options,
    enc: Encoding,
    client: Client,
) -> Option<lsp_types::WorkspaceEdit> {
    let path = uri::to_path(&target.uri)?;
    let changed = actions::fixed_files(&path, text, opts, buffers);
    if changed.is_empty() {
        return None;
    }
    let root = crate::files::normalize(&path);
    let mut edits = actions::Edits::new();
    for c in &changed {
        let to = if c.path == root {
            target.clone()
        } else {
            match buffers.iter().find(|b| b.path == c.path) {
                Some(b) => Target {
                    uri: b.uri.clone(),
                    version: Some(b.version),
                },
                None => Target {
                    uri: uri::from_path(&c.path)?,
                    version: None,
                },
            }
        };
        for e in actions::line_edits(&c.before, &c.after, enc) {
            edits.push(&to, e);
        }
    }
    Some(edits.into_workspace_edit(client.document_changes))
}

/// A thread for one request, with the stack a parse of a deeply nested document needs.
fn spawn(f: impl FnOnce() + Send + 'static) {
    let _ = std::thread::Builder::new()
        .name("idemlint-request".to_string())
        .stack_size(crate::limits::Limits::default().stack_bytes())
        .spawn(f);
}

fn invalid(id: RequestId, e: serde_json::Error) -> Response {
    Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string())
}

fn is_config(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| crate::config::CONFIG_NAMES.contains(&n))
}

/// Where `$ref`s may read from: the first workspace folder, else the root the client named,
/// else the server's working directory (as for `check`).
fn workspace_root(params: &InitializeParams) -> Option<PathBuf> {
    let folder = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| &f.uri);
    #[allow(deprecated)]
    let uri = folder.or(params.root_uri.as_ref())?;
    uri::to_path(uri)
}
