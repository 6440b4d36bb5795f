//! A small HTTP server with idempotency keys, for `idemlint probe`'s tests and bench
//! (`bench/probe.sh`): std::net and a thread a connection, one request a connection.
//!
//! `POST /<anything>` with an `Idempotency-Key` header creates an order. The correct server keeps
//! a store keyed by (path, key) with a unique-index discipline: the first request claims the key
//! (in flight) under a lock, with a fingerprint of its payload; a request with a claimed key and
//! the same payload gets `409` with `Retry-After` while the first is in flight and the stored
//! response once it completed; another payload gets `422`; a request without the key `400`.
//! `POST /notes` takes no key and creates a note each time. Each bug mode plants one mistake.
//!
//! `cargo run --example probe_server -- [BUG] [DELAY_MS]` prints its address and serves until
//! killed. BUG: correct, no-dedupe, conflict-on-replay, error-on-concurrency, reuse-accepted,
//! missing-key-accepted, replay-different-body, unauthorized, mismatch-409,
//! redirect=URL.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the server gets wrong, if anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bug {
    None,
    /// The key is ignored: every request creates an order.
    NoDedupe,
    /// A completed retry gets `409 duplicate` instead of the stored response.
    ConflictOnReplay,
    /// A request whose key is in flight gets `500`.
    ErrorOnConcurrency,
    /// A key reused with another payload creates another order.
    ReuseAccepted,
    /// A request without the key is processed.
    MissingKeyAccepted,
    /// A completed retry gets the stored status with another body.
    ReplayDifferentBody,
    /// Every request is answered `307` to this URL.
    Redirect(String),
    /// Every request is answered `401` (the probe was given no credentials).
    Unauthorized,
    /// Correct, but a key reused with another payload gets `409` (as a spec's
    /// `x-idempotency: {mismatch: 409}` may say), not `422`.
    MismatchConflict,
}

impl Bug {
    pub fn parse(s: &str) -> Option<Bug> {
        Some(match s {
            "correct" => Bug::None,
            "no-dedupe" => Bug::NoDedupe,
            "conflict-on-replay" => Bug::ConflictOnReplay,
            "error-on-concurrency" => Bug::ErrorOnConcurrency,
            "reuse-accepted" => Bug::ReuseAccepted,
            "missing-key-accepted" => Bug::MissingKeyAccepted,
            "replay-different-body" => Bug::ReplayDifferentBody,
            "unauthorized" => Bug::Unauthorized,
            "mismatch-409" => Bug::MismatchConflict,
            _ => Bug::Redirect(s.strip_prefix("redirect=")?.to_string()),
        })
    }
}

enum Entry {
    InFlight {
        fingerprint: String,
    },
    Done {
        fingerprint: String,
        response: Reply,
    },
}

#[derive(Clone)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

struct State {
    bug: Bug,
    delay: Duration,
    store: Mutex<HashMap<(String, String), Entry>>,
    next_id: AtomicUsize,
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    /// Connections accepted so far.
    pub connections: Arc<AtomicUsize>,
}

/// Starts a server on `ip`, port 0, on threads of its own (they live as long as the process).
pub fn start(ip: &str, bug: Bug, delay: Duration) -> std::io::Result<Server> {
    let listener = TcpListener::bind((ip, 0))?;
    let addr = listener.local_addr()?;
    let connections = Arc::new(AtomicUsize::new(0));
    let state = Arc::new(State {
        bug,
        delay,
        store: Mutex::new(HashMap::new()),
        next_id: AtomicUsize::new(1),
    });
    let counted = Arc::clone(&connections);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            let state = Arc::clone(&state);
            std::thread::spawn(move || {
                let _ = serve(stream, &state);
            });
        }
    });
    Ok(Server { addr, connections })
}

fn serve(mut stream: TcpStream, state: &State) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("/").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let length: usize = header("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length.min(1 << 20)];
    reader.read_exact(&mut body)?;
    // A form's fields are read as a JSON object of strings (a form API's store sees the same).
    if header("content-type").is_some_and(|t| t.starts_with("application/x-www-form-urlencoded")) {
        body = form_as_json(&body).to_string().into_bytes();
    }
    let reply = handle(state, &method, &path, header("idempotency-key"), &body);
    let mut out = format!("HTTP/1.1 {} X\r\n", reply.status);
    for (n, v) in &reply.headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    out.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        reply.body.len(),
        reply.body
    ));
    stream.write_all(out.as_bytes())?;
    stream.flush()
}

/// `a=1&b%5Bc%5D=x` as `{"a": "1", "b[c]": "x"}`.
fn form_as_json(body: &[u8]) -> serde_json::Value {
    fn decode(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                    match u8::from_str_radix(hex, 16) {
                        Ok(b) => {
                            out.push(b);
                            i += 2;
                        }
                        Err(_) => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    let text = String::from_utf8_lossy(body);
    let fields = text
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), serde_json::Value::String(decode(v)))
        })
        .collect();
    serde_json::Value::Object(fields)
}

fn json(status: u16, body: String) -> Reply {
    Reply {
        status,
        headers: Vec::new(),
        body,
    }
}

fn error(status: u16, message: &str) -> Reply {
    json(status, format!("{{\"error\": \"{message}\"}}"))
}

fn handle(state: &State, method: &str, path: &str, key: Option<String>, body: &[u8]) -> Reply {
    if let Bug::Redirect(to) = &state.bug {
        return Reply {
            status: 307,
            headers: vec![("Location".into(), to.clone())],
            body: String::new(),
        };
    }
    if state.bug == Bug::Unauthorized {
        return error(401, "credentials are required");
    }
    if method != "POST" {
        return error(405, "only POST");
    }
    let Ok(payload) = serde_json::from_slice::<serde_json::Value>(body) else {
        return error(400, "the body is not JSON");
    };
    if path == "/notes" {
        return create(state, "note", &payload);
    }
    let Some(key) = key else {
        if state.bug == Bug::MissingKeyAccepted {
            return create(state, "ord", &payload);
        }
        return error(400, "the Idempotency-Key header is required");
    };
    if state.bug == Bug::NoDedupe {
        return create(state, "ord", &payload);
    }
    // (serde_json's maps are sorted: the text is a canonical fingerprint.)
    let fingerprint = payload.to_string();
    let slot = (path.to_string(), key);
    let mut reused = false;
    {
        let mut store = state.store.lock().unwrap();
        match store.get(&slot) {
            None => {
                store.insert(
                    slot.clone(),
                    Entry::InFlight {
                        fingerprint: fingerprint.clone(),
                    },
                );
            }
            Some(Entry::InFlight { fingerprint: f }) => {
                if *f != fingerprint {
                    return error(422, "this key was used with a different payload");
                }
                if state.bug == Bug::ErrorOnConcurrency {
                    return error(500, "duplicate key value violates unique constraint");
                }
                let mut reply = error(409, "a request with this key is in progress");
                reply.headers.push(("Retry-After".into(), "1".into()));
                return reply;
            }
            Some(Entry::Done {
                fingerprint: f,
                response,
            }) => {
                if *f != fingerprint && state.bug != Bug::ReuseAccepted {
                    let status = if state.bug == Bug::MismatchConflict {
                        409
                    } else {
                        422
                    };
                    return error(status, "this key was used with a different payload");
                }
                reused = *f != fingerprint;
                if !reused {
                    return match state.bug {
                        Bug::ConflictOnReplay => {
                            let mut reply = error(409, "duplicate request");
                            reply.headers.push(("Retry-After".into(), "1".into()));
                            reply
                        }
                        Bug::ReplayDifferentBody => {
                            let mut reply = response.clone();
                            reply.body = "{\"status\": \"already processed\"}".to_string();
                            reply
                        }
                        _ => {
                            let mut reply = response.clone();
                            reply
                                .headers
                                .push(("Idempotent-Replayed".into(), "true".into()));
                            reply
                        }
                    };
                }
            }
        }
    }
    if reused {
        return create(state, "ord", &payload);
    }
    std::thread::sleep(state.delay);
    let reply = create(state, "ord", &payload);
    state.store.lock().unwrap().insert(
        slot,
        Entry::Done {
            fingerprint,
            response: reply.clone(),
        },
    );
    reply
}

fn create(state: &State, kind: &str, payload: &serde_json::Value) -> Reply {
    let n = state.next_id.fetch_add(1, Ordering::SeqCst);
    let id = format!("{kind}_{n}");
    let mut object = serde_json::Map::new();
    object.insert("id".into(), id.clone().into());
    if let serde_json::Value::Object(fields) = payload {
        object.extend(fields.clone());
    }
    Reply {
        status: 201,
        headers: vec![(
            "Location".into(),
            format!("/{}/{id}", if kind == "ord" { "orders" } else { "notes" }),
        )],
        body: serde_json::Value::Object(object).to_string(),
    }
}

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bug = match args.first() {
        Some(b) => Bug::parse(b).unwrap_or_else(|| panic!("unknown mode {b}")),
        None => Bug::None,
    };
    let delay = args
        .get(1)
        .and_then(|d| d.parse().ok())
        .map_or(Duration::from_millis(50), Duration::from_millis);
    let server = start("127.0.0.1", bug, delay).expect("bind 127.0.0.1");
    println!("http://{}", server.addr);
    loop {
        std::thread::park();
    }
}
