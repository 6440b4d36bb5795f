//! A Language Server client for tests and the bench: starts `idemlint lsp`, speaks JSON-RPC
//! to it over its standard input and output (`Content-Length` frames), answers its requests
//! (the file watchers' registration) and keeps what it sends until asked for.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Notifications received while waiting for something else.
    pending: VecDeque<Value>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
    /// The `initialize` result.
    pub capabilities: Value,
}

impl Client {
    /// Starts `binary lsp` in `cwd` and initializes it with `capabilities`, for the workspace
    /// `root`.
    pub fn start(binary: &Path, cwd: &Path, root: &Path, capabilities: Value) -> Client {
        let mut child = Command::new(binary)
            .arg("lsp")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("idemlint lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            while let Some(message) = read_frame(&mut stdout) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let mut client = Client {
            child,
            stdin,
            messages,
            pending: VecDeque::new(),
            stderr,
            next_id: 0,
            capabilities: Value::Null,
        };
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": file_uri(root),
                "capabilities": capabilities,
            }),
        );
        client.capabilities = result;
        client.notify("initialized", json!({}));
        client
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its answer: the result, or the error object as
    /// `{"error": …}`.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive(Duration::from_secs(120), method);
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return match message.get("error") {
                    Some(e) => json!({ "error": e }),
                    None => message["result"].clone(),
                };
            }
            self.pending.push_back(message);
        }
    }

    /// The next message from the server; requests from it are answered on the way.
    fn receive(&mut self, timeout: Duration, waiting_for: &str) -> Value {
        loop {
            let message = match self.messages.recv_timeout(timeout) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "no answer to {waiting_for} in {timeout:?}; stderr:\n{}",
                        self.stderr()
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "the server closed its output while waiting for {waiting_for}; stderr:\n{}",
                        self.stderr()
                    )
                }
            };
            if message.get("method").is_some() && message.get("id").is_some() {
                let id = message["id"].clone();
                self.send(json!({"jsonrpc": "2.0", "id": id, "result": null}));
                continue;
            }
            return message;
        }
    }

    /// The next `publishDiagnostics` for `uri` (its params), the ones received before first.
    pub fn next_publish(&mut self, uri: &str, timeout: Duration) -> Value {
        let is_it = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(at) = self.pending.iter().position(is_it) {
            return self.pending.remove(at).unwrap()["params"].clone();
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.receive(left.max(Duration::from_millis(1)), "publishDiagnostics");
            if is_it(&message) {
                return message["params"].clone();
            }
            self.pending.push_back(message);
        }
    }

    /// The first publish for `uri` that `pred` accepts, skipping the others.
    pub fn publish_where(
        &mut self,
        uri: &str,
        timeout: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let params = self.next_publish(uri, left);
            if pred(&params) {
                return params;
            }
        }
    }

    /// Every notification received and not yet asked for, taken.
    pub fn drain_pending(&mut self) -> Vec<Value> {
        while let Ok(m) = self.messages.try_recv() {
            self.pending.push_back(m);
        }
        self.pending.drain(..).collect()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
        );
    }

    /// `shutdown` then `exit`: the exit code.
    pub fn shutdown(mut self) -> (Option<i32>, String) {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer, Value::Null, "shutdown answers null");
        self.notify("exit", Value::Null);
        self.wait()
    }

    /// Waits for the server to end: its exit code and standard error.
    pub fn wait(mut self) -> (Option<i32>, String) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(50));
                return (status.code(), self.stderr());
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit; stderr:\n{}", self.stderr());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// The `file:` URI of an absolute path (spaces and other bytes outside the URI's own set
/// percent-encoded).
pub fn file_uri(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// UTF-16 code units of `s`.
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The byte offset of an LSP position (UTF-16 or UTF-8 characters) in `text`.
pub fn offset_of(text: &str, line: u64, character: u64, utf8: bool) -> usize {
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[start..];
    let content = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let content = content.strip_suffix('\r').unwrap_or(content);
    if utf8 {
        return start + (character as usize).min(content.len());
    }
    let mut units = 0;
    for (i, c) in content.char_indices() {
        if units >= character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    start + content.len()
}

/// Applies a workspace edit's edits of `uri` (`documentChanges` or `changes`) to `text`.
pub fn apply_workspace_edit(text: &str, edit: &Value, uri: &str, utf8: bool) -> String {
    let mut edits: Vec<Value> = Vec::new();
    if let Some(changes) = edit["documentChanges"].as_array() {
        for c in changes {
            if c["textDocument"]["uri"] == uri {
                edits.extend(c["edits"].as_array().unwrap().iter().cloned());
            }
        }
    }
    if let Some(list) = edit["changes"][uri].as_array() {
        edits.extend(list.iter().cloned());
    }
    apply_edits(text, &edits, utf8)
}

/// Applies LSP text edits (ranges in the original text) to `text`.
pub fn apply_edits(text: &str, edits: &[Value], utf8: bool) -> String {
    let spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let at = |p: &Value| {
                offset_of(
                    text,
                    p["line"].as_u64().unwrap(),
                    p["character"].as_u64().unwrap(),
                    utf8,
                )
            };
            (
                at(&r["start"]),
                at(&r["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // From the end of the text back, and at one place the last given first, so that inserts
    // at one place appear in the order given, as the LSP spec has it.
    let mut spans: Vec<_> = spans.into_iter().enumerate().collect();
    spans.sort_by_key(|(i, s)| std::cmp::Reverse((s.0, *i)));
    let mut out = text.to_string();
    for (_, (start, end, new)) in spans {
        out.replace_range(start..end, &new);
    }
    out
}
