//! `idemlint probe` against real HTTP servers on loopback, written for these tests
//! (`examples/probe_server.rs`): a correct implementation finds nothing, each planted bug exactly
//! its finding; and the probe's safety: only loopback hosts unless allowed (refused before
//! anything is looked up), redirects not followed, `--dry-run` sends nothing.

#[path = "../examples/probe_server.rs"]
#[allow(dead_code)]
mod probe_server;

use std::path::PathBuf;
use std::process::Output;
use std::sync::atomic::Ordering;
use std::time::Duration;

use probe_server::{Bug, Server, start};

const SPEC: &str = r#"openapi: 3.0.3
info: {title: Orders, version: '1'}
paths:
  /orders:
    post:
      operationId: createOrder
      parameters:
        - name: Idempotency-Key
          in: header
          required: true
          description: A client-generated UUID v4. Keys are kept for 24 hours.
          schema: {type: string, format: uuid, maxLength: 36}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [sku, quantity]
              properties:
                sku: {type: string, example: ABC-1}
                quantity: {type: integer, minimum: 1}
      responses:
        '201': {description: Created. A retry with the same key gets this response again.}
        '400': {description: The Idempotency-Key header is missing or malformed.}
        '409':
          description: A request with this key is still being processed.
          headers:
            Retry-After: {schema: {type: integer, minimum: 1}}
        '422': {description: The key was used before with a different payload.}
  /orders/{id}:
    get:
      operationId: getOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: The order.}
  /notes:
    post:
      operationId: createNote
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [text], properties: {text: {type: string}}}
      responses:
        '201': {description: Created.}
"#;

/// The spec in a temporary directory (kept while the value lives).
fn spec() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("api.yaml");
    std::fs::write(&path, SPEC).unwrap();
    (dir, path)
}

/// A server with a processing time long enough for concurrent requests to overlap, even on a
/// busy machine.
fn server(bug: Bug) -> Server {
    start("127.0.0.1", bug, Duration::from_millis(300)).unwrap()
}

fn probe(spec: &std::path::Path, base: &str, extra: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_idemlint"))
        .arg("probe")
        .arg(spec)
        .args(["--base-url", base, "--color", "never"])
        .args(extra)
        .output()
        .unwrap()
}

fn url(server: &Server) -> String {
    format!("http://{}", server.addr)
}

/// The rule of each finding of a JSON report.
fn rules_found(out: &Output) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_correct_server_has_no_findings() {
    let (_dir, spec) = spec();
    let server = server(Bug::None);
    let out = probe(&spec, &url(&server), &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("No problems found"), "{text}");
    // The summary: every check judged POST /orders, and passed; the GET is not probed.
    let row = text
        .lines()
        .find(|l| l.starts_with("POST /orders"))
        .unwrap();
    assert_eq!(
        row.split_whitespace().filter(|w| *w == "ok").count(),
        4,
        "{text}"
    );
    assert!(!text.contains("GET /orders"), "{text}");
    let out = probe(&spec, &url(&server), &["--format", "json"]);
    assert_eq!(rules_found(&out), Vec::<String>::new());
}

#[test]
fn each_planted_bug_gives_exactly_its_finding() {
    let (_dir, spec) = spec();
    let cases = [
        (
            Bug::NoDedupe,
            "replay-not-idempotent",
            "created a second resource",
        ),
        (
            Bug::ConflictOnReplay,
            "replay-not-idempotent",
            "got 409 instead of the original 201",
        ),
        (
            Bug::ReplayDifferentBody,
            "replay-not-idempotent",
            "a different body",
        ),
        (
            Bug::ErrorOnConcurrency,
            "concurrent-retry-mishandled",
            "got 500",
        ),
        (Bug::ReuseAccepted, "key-reuse-accepted", "it was accepted"),
        (
            Bug::MissingKeyAccepted,
            "missing-key-accepted",
            "it was processed",
        ),
    ];
    // (Each server on its own thread: the cases run at once.)
    std::thread::scope(|s| {
        for (bug, rule, words) in cases {
            let spec = &spec;
            s.spawn(move || {
                let server = server(bug.clone());
                let out = probe(spec, &url(&server), &["--format", "json"]);
                assert_eq!(out.status.code(), Some(1), "{bug:?}");
                assert_eq!(rules_found(&out), vec![rule.to_string()], "{bug:?}");
                let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
                let f = &report["findings"][0];
                let message = f["message"].as_str().unwrap();
                assert!(message.contains(words), "{bug:?}: {message}");
                // At the operation's method key in the spec, with the exchanges as evidence.
                assert_eq!(
                    (f["line"].as_u64(), f["column"].as_u64()),
                    (Some(5), Some(5))
                );
                let help = f["evidence"].as_str().unwrap();
                assert!(help.contains("request 1: POST http://127.0.0.1:"), "{help}");
                assert!(help.contains("response 1: "), "{help}");
            });
        }
    });
}

#[test]
fn unkeyed_operations_sent_twice_show_the_duplicate() {
    let (_dir, spec) = spec();
    let server = server(Bug::None);
    let out = probe(&spec, &url(&server), &["--format", "json", "--unkeyed"]);
    assert_eq!(rules_found(&out), vec!["duplicate-created".to_string()]);
    // A warning by default: under --fail-on error, exit 0.
    assert_eq!(out.status.code(), Some(0));
    let out = probe(&spec, &url(&server), &["--unkeyed", "--fail-on", "warning"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn every_report_format_shows_runtime_findings() {
    let (_dir, spec) = spec();
    let server = server(Bug::MissingKeyAccepted);
    for format in ["sarif", "junit", "github", "concise"] {
        let out = probe(&spec, &url(&server), &["--format", format]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{format}: {text}");
        assert!(text.contains("missing-key-accepted"), "{format}: {text}");
    }
}

#[test]
fn secrets_in_headers_are_masked_in_the_evidence() {
    let (_dir, spec) = spec();
    let server = server(Bug::MissingKeyAccepted);
    let out = probe(
        &spec,
        &url(&server),
        &[
            "--header",
            "Authorization: Bearer s3cr3t-value",
            "--header",
            "X-Api-Key: k3y-value",
            "--format",
            "json",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("s3cr3t") && !text.contains("k3y-value"),
        "{text}"
    );
    assert!(text.contains("Authorization: ****"), "{text}");
}

#[test]
fn a_host_that_is_not_loopback_is_refused_before_anything_is_read_or_looked_up() {
    // The spec does not even exist: the base URL is judged first, from its text alone.
    let out = probe(
        std::path::Path::new("no-such-spec.yaml"),
        "http://orders.example.invalid:8080",
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("refusing to probe `orders.example.invalid`"),
        "{err}"
    );
    assert!(err.contains("--allow-host"), "{err}");
    assert!(out.stdout.is_empty());
    // The same for a private address written as an IP, and for --dry-run.
    let (_dir, spec) = spec();
    let out = probe(&spec, "http://10.0.0.1", &["--dry-run"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn redirects_are_not_followed_to_another_host_or_port() {
    let (_dir, spec) = spec();
    // Another loopback host (Linux routes all of 127.0.0.0/8 to lo) and another port.
    let Ok(elsewhere) = start("127.0.0.2", Bug::None, Duration::ZERO) else {
        eprintln!("skipped the 127.0.0.2 case: cannot listen on 127.0.0.2 here");
        return;
    };
    let other_port = start("127.0.0.1", Bug::None, Duration::ZERO).unwrap();
    for target in [&elsewhere, &other_port] {
        let redirecting = start(
            "127.0.0.1",
            Bug::Redirect(format!("http://{}/orders", target.addr)),
            Duration::ZERO,
        )
        .unwrap();
        let out = probe(&spec, &url(&redirecting), &["--format", "json"]);
        assert!(redirecting.connections.load(Ordering::SeqCst) > 0);
        assert_eq!(target.connections.load(Ordering::SeqCst), 0);
        // The 307 is reported as it is: no request with a key succeeded, so no check could
        // judge (a request without the key getting 307 too says nothing): exit 2.
        assert_eq!(rules_found(&out), Vec::<String>::new());
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("no check could be judged"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_dry_run_prints_the_plan_with_its_keys_and_sends_nothing() {
    let (_dir, spec) = spec();
    let server = server(Bug::None);
    let out = probe(&spec, &url(&server), &["--dry-run", "--unkeyed"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(server.connections.load(Ordering::SeqCst), 0);
    assert!(text.contains("nothing was sent"), "{text}");
    assert!(text.contains("13 requests would be sent"), "{text}");
    // The replay's two requests carry one key; the concurrent check has its own.
    let keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("Idempotency-Key: ").nth(1))
        .map(|rest| &rest[..36])
        .collect();
    assert_eq!(keys.len(), 6, "{text}");
    assert_eq!(keys[0], keys[1]);
    assert_ne!(keys[1], keys[2]);
    assert!(text.contains("5 at once: POST"), "{text}");
}

#[test]
fn an_unreachable_server_is_an_error() {
    let (_dir, spec) = spec();
    // A port nobody listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = probe(&spec, &format!("http://127.0.0.1:{port}"), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot reach"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn the_request_budget_is_kept() {
    let (_dir, spec) = spec();
    let server = server(Bug::None);
    let out = probe(&spec, &url(&server), &["--max-requests", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    // (And the one connection made before any request, to see the server is there.)
    assert!(server.connections.load(Ordering::SeqCst) <= 4);
    assert!(
        text.contains("not judged: the request budget is spent"),
        "{text}"
    );
}

#[test]
fn operations_can_be_chosen_and_given_a_body() {
    let (dir, spec) = spec();
    let server = server(Bug::None);
    let body = dir.path().join("order.json");
    std::fs::write(&body, r#"{"sku": "XYZ-9", "quantity": 3}"#).unwrap();
    let out = probe(
        &spec,
        &url(&server),
        &[
            "--operation",
            "POST /orders",
            "--data",
            &format!("createOrder=@{}", body.display()),
            "--dry-run",
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(r#"{"quantity":3,"sku":"XYZ-9"}"#), "{text}");
    assert!(!text.contains("POST /notes"), "{text}");
}

#[test]
fn check_never_reports_a_runtime_rule_nor_sends_anything() {
    // The spec's servers name a listener on loopback: `check` must not connect to it.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        SPEC.replacen(
            "paths:",
            &format!("servers: [{{url: 'http://{addr}'}}]\npaths:"),
            1,
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_idemlint"))
        .args(["check", "--format", "json", "--fail-on", "never"])
        .arg(&spec)
        .output()
        .unwrap();
    let mut connections = 0;
    while listener.accept().is_ok() {
        connections += 1;
    }
    assert_eq!(connections, 0);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for f in report["findings"].as_array().unwrap() {
        let rule = idemlint::rules::RuleId::parse(f["rule"].as_str().unwrap()).unwrap();
        assert!(!rule.is_runtime(), "{f}");
    }
}

/// express-idempotency (npm), the Ville de Montréal's middleware, in a minimal Express app
/// (`tools/probe-app`, installed by `.ci/run`): an implementation nobody here wrote. What the
/// probe finds is what its code does: a completed retry gets the stored response (right), a
/// request whose key is in flight gets 409 (right) but without Retry-After, a key reused with
/// another payload gets 417 Expectation Failed rather than 422, and a request without the key
/// is processed (the middleware only acts when a key is sent).
#[test]
fn express_idempotency_as_the_probe_finds_it() {
    let app = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/probe-app");
    if !app.join("node_modules/express-idempotency").is_dir() {
        eprintln!(
            "skipped: express-idempotency is not installed (`cd tools/probe-app && npm ci`, as \
             .ci/run does)"
        );
        return;
    }
    let child = std::process::Command::new("node")
        .arg(app.join("app.js"))
        .arg("400")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            eprintln!("skipped: cannot run node: {e}");
            return;
        }
    };
    let mut line = String::new();
    let read = std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    );
    let (_dir, spec) = spec();
    let out = (read.is_ok() && line.starts_with("http://127.0.0.1:")).then(|| {
        probe(
            &spec,
            line.trim(),
            &["--operation", "createOrder", "--format", "json"],
        )
    });
    let _ = child.kill();
    let _ = child.wait();
    let out = out.unwrap_or_else(|| panic!("the app did not start: {line:?}"));
    let mut rules = rules_found(&out);
    rules.sort();
    assert_eq!(
        rules,
        [
            "concurrent-retry-mishandled",
            "key-reuse-accepted",
            "missing-key-accepted"
        ],
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let messages: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("409 without the Retry-After header")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("got 417, not the mismatch status 422"))
    );
}

/// Requests are made from the spec: parameters from their examples, defaults and enums, bodies
/// from the media type's example, else a minimal instance of the schema (required properties,
/// formats, `minLength`, `oneOf`'s first branch, `allOf` merged, `$ref`s followed).
#[test]
fn requests_are_made_from_the_spec() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        r#"openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /accounts/{account}/payments:
    post:
      operationId: pay
      parameters:
        - {name: account, in: path, required: true, schema: {type: string}, example: acc 1}
        - {name: mode, in: query, required: true, schema: {type: string, enum: [live, test]}}
        - {name: page, in: query, schema: {type: integer}}
        - {name: X-Tenant, in: header, required: true, schema: {type: string, default: t1}}
        - name: Idempotency-Key
          in: header
          required: true
          schema: {type: string, maxLength: 64}
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Payment'}
      responses:
        '201': {description: Created.}
  /refunds:
    post:
      operationId: refund
      parameters:
        - {name: Idempotency-Key, in: header, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object}
            examples:
              small: {value: {payment: p_1, amount: 5}}
      responses:
        '201': {description: Created.}
components:
  schemas:
    Payment:
      allOf:
        - type: object
          required: [amount, currency]
          properties:
            amount: {type: integer, minimum: 100}
            currency: {type: string, minLength: 3, maxLength: 3}
            note: {type: string}
        - type: object
          required: [payer, at]
          properties:
            payer:
              oneOf:
                - {type: object, required: [email], properties: {email: {type: string, format: email}}}
                - {type: object, required: [iban], properties: {iban: {type: string}}}
            at: {type: string, format: date-time}
"#,
    )
    .unwrap();
    let out = probe(&spec, "http://127.0.0.1:9", &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("POST http://127.0.0.1:9/accounts/acc%201/payments?mode=live  X-Tenant: t1  Idempotency-Key: "),
        "{text}"
    );
    assert!(
        text.contains(
            r#"{"amount":100,"at":"2026-01-01T00:00:00Z","currency":"pro","payer":{"email":"probe@example.com"}}"#
        ),
        "{text}"
    );
    assert!(text.contains(r#"{"amount":5,"payment":"p_1"}"#), "{text}");
    // The key reuse changes one field: the number.
    assert!(text.contains(r#"{"amount":6,"payment":"p_1"}"#), "{text}");
}

/// Reads one HTTP request from `stream`: its header lines (names lowercased) and body; `None`
/// when the peer sent nothing (a connection made only to see the server is there).
/// A request's header lines and body.
type Received = (Vec<(String, String)>, Vec<u8>);

fn read_request(stream: &std::net::TcpStream) -> Option<Received> {
    use std::io::{BufRead, Read};
    let mut reader = std::io::BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((headers, body))
}

fn reply(mut stream: &std::net::TcpStream, status: u16, body: &str) {
    use std::io::Write;
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
}

/// A server that answers a key's first request 201 (the key as the resource's id) and a
/// request without a key 400, and gives a key's later requests no answer: the replay's gets its
/// status line and headers and then nothing of its body, the others nothing at all.
fn hanging_retry_server() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(std::collections::HashSet::new()));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let seen = std::sync::Arc::clone(&seen);
            std::thread::spawn(move || {
                let Some((headers, _)) = read_request(&stream) else {
                    return;
                };
                let key = headers
                    .iter()
                    .find(|(n, _)| n == "idempotency-key")
                    .map(|(_, v)| v.clone());
                let Some(key) = key else {
                    return reply(&stream, 400, r#"{"error": "no key"}"#);
                };
                let first = seen.lock().unwrap().insert(key.clone());
                if first {
                    return reply(&stream, 201, &format!(r#"{{"id": "{key}"}}"#));
                }
                // Half an answer: headers, then a body that never comes.
                use std::io::Write;
                let _ = (&stream).write_all(
                    b"HTTP/1.1 201 X\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"id\"",
                );
                std::thread::sleep(Duration::from_secs(4));
            });
        }
    });
    addr
}

#[test]
fn a_retry_that_gets_no_answer_is_a_finding_not_a_pass() {
    let (_dir, spec) = spec();
    let addr = hanging_retry_server();
    let out = probe(
        &spec,
        &format!("http://{addr}"),
        &["--format", "json", "--timeout", "1"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let mut rules = rules_found(&out);
    rules.sort();
    assert_eq!(
        rules,
        [
            "concurrent-retry-mishandled",
            "key-reuse-accepted",
            "replay-not-idempotent"
        ],
        "{text}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for f in report["findings"].as_array().unwrap() {
        let message = f["message"].as_str().unwrap();
        assert!(message.contains("no answer within --timeout"), "{message}");
    }
}

#[test]
fn client_side_problems_end_the_run_before_anything_is_sent() {
    let (_dir, spec) = spec();
    let server = server(Bug::None);
    // A header that cannot be sent, a base URL whose authority is not HOST:PORT.
    for (base, extra) in [
        (url(&server), vec!["--header", "Bad Name: x"]),
        (url(&server), vec!["--header", "X-Note: caf\u{e9}"]),
        (format!("{}:99", url(&server)), vec![]),
        (format!("http://127.0.0.1:{}", 70000), vec![]),
    ] {
        let out = probe(&spec, &base, &extra);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{base} {extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{base} {extra:?}");
        assert!(err.contains("error: "), "{err}");
    }
    assert_eq!(server.connections.load(Ordering::SeqCst), 0);
    // https to a port that speaks plain HTTP: the handshake fails before a request is
    // written: the server cannot be reached, which is no finding of its.
    let out = probe(
        &spec,
        &format!("https://{}", server.addr),
        &["--format", "json"],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot reach"), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn localhost_with_the_roots_dot_or_in_capitals_is_loopback() {
    let (_dir, spec) = spec();
    let server = server(Bug::None);
    for host in ["localhost.", "LOCALHOST"] {
        let base = format!("http://{host}:{}", server.addr.port());
        let out = probe(&spec, &base, &["--operation", "createOrder"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{host}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_header_parameter_whose_value_cannot_be_sent_skips_its_operation() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        SPEC.replace(
            "      requestBody:\n        required: true",
            "        - {name: X-City, in: header, required: true, schema: {type: string}, example: Montr\u{e9}al}\n      requestBody:\n        required: true",
        ),
    )
    .unwrap();
    let out = probe(&spec, "http://127.0.0.1:9", &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("POST /orders (createOrder)  skipped"),
        "{text}"
    );
    assert!(
        text.contains("`X-City` has a character a header cannot carry"),
        "{text}"
    );
}

#[test]
fn an_operation_that_names_nothing_is_an_error_with_a_suggestion() {
    let (_dir, spec) = spec();
    let server = server(Bug::None);
    let out = probe(&spec, &url(&server), &["--operation", "createOrdr"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("did you mean `createOrder`?"), "{err}");
}

#[test]
fn a_run_that_judged_nothing_says_so_and_exits_2() {
    let (_dir, spec) = spec();
    // Every request refused: nothing can be judged, and a refusal without the key is no
    // finding when a request with one is refused too.
    let refusing = server(Bug::Unauthorized);
    let out = probe(&spec, &url(&refusing), &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}{err}");
    assert!(!text.contains("No problems found"), "{text}");
    assert!(text.contains("4 checks were not judged"), "{text}");
    assert!(text.contains("the first request got 401"), "{text}");
    assert!(err.contains("no check could be judged"), "{err}");
    let out = probe(&spec, &url(&refusing), &["--format", "json"]);
    assert_eq!(rules_found(&out), Vec::<String>::new());
    // Some judged, some not: no "No problems found" either, exit 0.
    let server = server(Bug::None);
    let out = probe(&spec, &url(&server), &["--max-requests", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("No problems found"), "{text}");
    assert!(text.contains("3 checks were not judged"), "{text}");
}

/// A server that answers two requests, each creating another resource, and then goes away.
fn server_that_dies_after_two_requests() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut served = 0;
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            if read_request(&stream).is_none() {
                continue;
            }
            served += 1;
            reply(&stream, 201, &format!(r#"{{"id": "o{served}"}}"#));
            if served == 2 {
                break;
            }
        }
        // (The listener is dropped: later connections are refused.)
    });
    addr
}

#[test]
fn a_server_that_stops_answering_keeps_the_findings_made_and_exits_2() {
    let (_dir, spec) = spec();
    let addr = server_that_dies_after_two_requests();
    let out = probe(&spec, &format!("http://{addr}"), &["--format", "json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("stopped answering after 2 responses"), "{err}");
    assert!(err.contains("(last: POST http://"), "{err}");
    assert!(!err.contains("cannot reach"), "{err}");
    assert_eq!(rules_found(&out), vec!["replay-not-idempotent".to_string()]);
}

#[test]
fn key_reuse_wants_the_mismatch_status_the_spec_declares() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        SPEC.replace(
            "      operationId: createOrder\n",
            "      operationId: createOrder\n      x-idempotency: {key: Idempotency-Key, mismatch: 409}\n",
        ),
    )
    .unwrap();
    let server = server(Bug::MismatchConflict);
    let out = probe(&spec, &url(&server), &["--format", "json"]);
    assert_eq!(
        rules_found(&out),
        Vec::<String>::new(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(out.status.code(), Some(0));
    // The spec's status wins over the profile's; without it, 409 is not the profile's 422.
    let (_dir, plain) = self::spec();
    let out = probe(&plain, &url(&server), &["--format", "json"]);
    assert_eq!(rules_found(&out), vec!["key-reuse-accepted".to_string()]);
}

#[test]
fn a_servers_control_characters_do_not_reach_the_terminal() {
    let (_dir, spec) = spec();
    // Each request answered 201 with a body that would clear the screen and set the title.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(stream) = stream else { continue };
            if read_request(&stream).is_some() {
                reply(
                    &stream,
                    201,
                    &format!("\x1b[2J\x1b]0;owned\x07created {n}\r"),
                );
            }
        }
    });
    let out = probe(
        &spec,
        &format!("http://{addr}"),
        &["--operation", "createOrder"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("replay-not-idempotent"), "{text}");
    assert!(
        !text.contains(['\x1b', '\x07', '\r']),
        "{}",
        text.escape_debug()
    );
    assert!(text.contains(r"\x1B[2J\x1B]0;owned\x07created"), "{text}");
}

/// The key-reuse check changes a field to another value its schema allows (the next enum value
/// here, not a currency with a suffix), a simple `pattern` is kept, and `format: uuid` body
/// fields are fresh for each check.
#[test]
fn the_changed_body_stays_valid_and_uuid_fields_are_fresh_per_check() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        r#"openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /orders:
    post:
      operationId: createOrder
      parameters:
        - {name: Idempotency-Key, in: header, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [account_id, currency, plan, ref]
              properties:
                account_id: {type: string, example: acc_1}
                currency: {type: string, minLength: 3, maxLength: 3, pattern: '^[A-Z]{3}$'}
                plan: {type: string, enum: [basic, pro]}
                ref: {type: string, format: uuid}
      responses:
        '201': {description: Created.}
"#,
    )
    .unwrap();
    let out = probe(&spec, "http://127.0.0.1:9", &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let bodies: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| serde_json::from_str(&l[l.find('{').unwrap()..]).unwrap())
        .collect();
    // replay (2), concurrent (1 line), key reuse (2), missing key (2).
    assert_eq!(bodies.len(), 7, "{text}");
    assert_eq!(bodies[0]["currency"], "AAA", "{text}");
    assert_eq!(bodies[0]["plan"], "basic", "{text}");
    // The key reuse: only the plan changed, to the next enum value.
    let (first, changed) = (&bodies[3], &bodies[4]);
    assert_eq!(changed["plan"], "pro", "{text}");
    assert_eq!(changed["currency"], first["currency"]);
    assert_eq!(changed["account_id"], "acc_1");
    assert_eq!(changed["ref"], first["ref"]);
    // The replay's two requests share their `ref`; each check has its own.
    assert_eq!(bodies[0]["ref"], bodies[1]["ref"]);
    assert_ne!(bodies[1]["ref"], bodies[2]["ref"]);
    assert_ne!(bodies[2]["ref"], bodies[3]["ref"]);
}

#[test]
fn a_dry_run_is_text_says_what_the_budget_leaves_out_and_names_multipart_bodies() {
    let (_dir, spec) = spec();
    let out = probe(
        &spec,
        "http://127.0.0.1:9",
        &["--dry-run", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--dry-run prints its plan as text"));
    let out = probe(
        &spec,
        "http://127.0.0.1:9",
        &["--dry-run", "--max-requests", "3"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Only the first 3 would be sent"), "{text}");
    // A multipart body is not probed, and --data is no way to give one.
    let dir = tempfile::tempdir().unwrap();
    let form = dir.path().join("api.yaml");
    std::fs::write(
        &form,
        SPEC.replace("application/json:\n            schema:\n              type: object\n              required: [sku, quantity]", "multipart/form-data:\n            schema:\n              type: object\n              required: [sku, quantity]"),
    )
    .unwrap();
    let out = probe(&form, "http://127.0.0.1:9", &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "its body is multipart/form-data: only JSON and form (urlencoded) bodies are probed"
        ),
        "{text}"
    );
    assert!(!text.contains("give one with --data"), "{text}");
}

/// The SPEC's order as a form: a 3.x `application/x-www-form-urlencoded` body (with a nested
/// object), and Swagger 2.0 `formData` parameters.
fn form_specs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let v3 = dir.path().join("form3.yaml");
    std::fs::write(
        &v3,
        SPEC.replace(
            "application/json:\n            schema:\n              type: object\n              required: [sku, quantity]\n              properties:\n",
            "application/x-www-form-urlencoded:\n            schema:\n              type: object\n              required: [sku, quantity, metadata]\n              properties:\n                metadata: {type: object, required: [ref], properties: {ref: {type: string, example: 'a b'}}}\n",
        ),
    )
    .unwrap();
    let v2 = dir.path().join("form2.yaml");
    std::fs::write(
        &v2,
        r#"swagger: '2.0'
info: {title: Orders, version: '1'}
consumes: [application/x-www-form-urlencoded]
paths:
  /orders:
    post:
      operationId: createOrder
      parameters:
        - name: Idempotency-Key
          in: header
          required: true
          type: string
          format: uuid
          description: A client-generated UUID v4. Keys are kept for 24 hours.
        - {name: sku, in: formData, required: true, type: string, enum: [ABC-1, XYZ-9]}
        - {name: quantity, in: formData, required: true, type: integer, minimum: 1}
        - {name: note, in: formData, type: string}
        - {name: tags, in: formData, required: true, type: array, minItems: 2, collectionFormat: pipes, items: {type: string, enum: [red]}}
      responses:
        '201': {description: Created. A retry with the same key gets this response again.}
        '400': {description: The Idempotency-Key header is missing or malformed.}
        '409':
          description: A request with this key is still being processed.
          headers:
            Retry-After: {type: integer}
        '422': {description: The key was used before with a different payload.}
"#,
    )
    .unwrap();
    (dir, v3, v2)
}

#[test]
fn form_bodies_are_sent_form_encoded_and_probed() {
    let (_dir, v3, v2) = form_specs();
    // What is sent: the form's required fields, a nested object in brackets, percent-encoded.
    let out = probe(&v3, "http://127.0.0.1:9", &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Content-Type: application/x-www-form-urlencoded  metadata%5Bref%5D=a%20b&quantity=1&sku=ABC-1"),
        "{text}"
    );
    let out = probe(&v2, "http://127.0.0.1:9", &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "Content-Type: application/x-www-form-urlencoded  quantity=1&sku=ABC-1&tags=red%7Cred\n"
        ),
        "{text}"
    );
    // A correct server finds nothing; one that accepts a reused key, that finding only (the
    // changed field is the form's next enum value, or another quantity).
    for spec in [&v3, &v2] {
        let correct = server(Bug::None);
        let out = probe(spec, &url(&correct), &["--format", "json"]);
        assert_eq!(
            rules_found(&out),
            Vec::<String>::new(),
            "{}",
            spec.display()
        );
        assert_eq!(out.status.code(), Some(0), "{}", spec.display());
        let reuse = server(Bug::ReuseAccepted);
        let out = probe(spec, &url(&reuse), &["--format", "json"]);
        assert_eq!(
            rules_found(&out),
            vec!["key-reuse-accepted".to_string()],
            "{}",
            spec.display()
        );
    }
    // --data gives a form's fields as a JSON object; anything else skips the operation.
    let out = probe(
        &v2,
        "http://127.0.0.1:9",
        &[
            "--dry-run",
            "--data",
            r#"createOrder={"sku": "XYZ-9", "quantity": 3, "tags": ["a", "b"]}"#,
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("quantity=3&sku=XYZ-9&tags=a%7Cb"), "{text}");
    let out = probe(
        &v2,
        "http://127.0.0.1:9",
        &["--dry-run", "--data", "createOrder=[1]"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("its --data is not a JSON object of the form's fields"),
        "{text}"
    );
}

#[test]
fn a_suppressed_finding_is_not_a_finding_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        SPEC.replace(
            "      operationId: createOrder\n",
            "      operationId: createOrder\n      x-idemlint-ignore: [missing-key-accepted]\n",
        ),
    )
    .unwrap();
    let server = server(Bug::MissingKeyAccepted);
    let out = probe(&spec, &url(&server), &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("POST /orders"))
        .unwrap();
    assert!(!row.contains("FINDING"), "{text}");
    assert!(row.contains("suppressed"), "{text}");
}

#[test]
fn check_leaves_a_suppression_of_a_runtime_rule_alone() {
    // `check` never runs the runtime rules: the suppression is for the probe, not unused.
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        SPEC.replace(
            "      operationId: createOrder\n",
            "      operationId: createOrder\n      x-idemlint-ignore: [missing-key-accepted, replay-not-idempotent]\n",
        ),
    )
    .unwrap();
    let check = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_idemlint"))
            .args(["check", "--format", "json", "--fail-on", "never"])
            .args(extra)
            .arg(&spec)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let rules = check(&[]);
    assert!(
        !rules.iter().any(|r| r == "unused-suppression"),
        "{rules:?}"
    );
    // Nor does `--fix` take it out.
    let before = std::fs::read_to_string(&spec).unwrap();
    check(&["--fix"]);
    assert!(
        std::fs::read_to_string(&spec)
            .unwrap()
            .contains("x-idemlint-ignore: [missing-key-accepted, replay-not-idempotent]"),
        "{before}"
    );
}

#[test]
fn what_a_spec_or_its_arguments_cannot_send_is_said_and_nothing_else_goes_out() {
    let (dir, spec) = spec();
    // One document: a folder is refused.
    let out = probe(dir.path(), "http://127.0.0.1:9", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("is a folder; probe takes one OpenAPI document")
    );
    // A misspelt --data is an error, as a misspelt --operation is.
    let out = probe(
        &spec,
        "http://127.0.0.1:9",
        &["--dry-run", "--data", r#"creatOrder={"sku": "X"}"#],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --data `creatOrder` names no operation of the spec (did you mean `createOrder`?); nothing was sent\n"
    );
    // A --header naming the key is left out: the probe's own keys go, and none at all where the
    // request without one is the point.
    let out = probe(
        &spec,
        "http://127.0.0.1:9",
        &["--dry-run", "--header", "idempotency-key: mine"],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("mine"), "{text}");
    // A path with what a URI cannot hold is encoded; a +json media type is sent as itself.
    let odd = dir.path().join("odd.yaml");
    std::fs::write(
        &odd,
        SPEC.replace("  /orders:\n", "  /my orders:\n")
            .replace("          application/json:\n            schema:\n              type: object\n              required: [sku, quantity]", "          application/vnd.api+json:\n            schema:\n              type: object\n              required: [sku, quantity]"),
    )
    .unwrap();
    let out = probe(&odd, "http://127.0.0.1:9", &["--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "POST http://127.0.0.1:9/my%20orders  Content-Type: application/vnd.api+json"
        ),
        "{text}"
    );
}

#[test]
fn a_run_that_probes_nothing_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::write(
        &spec,
        SPEC.replace("application/json:\n            schema:\n              type: object\n              required: [sku, quantity]", "multipart/form-data:\n            schema:\n              type: object\n              required: [sku, quantity]"),
    )
    .unwrap();
    let server = server(Bug::None);
    let out = probe(&spec, &url(&server), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("error: nothing was probed: of 2 operations, 1 skipped and 1 with no check that applies (the summary says which)\n"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // (One connection, the check that the server is there, with no request on it.)
    assert_eq!(server.connections.load(Ordering::SeqCst), 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"findings\": []"));
}

#[test]
fn a_server_slower_than_the_timeout_is_not_judged_rather_than_found() {
    // A correct server whose work takes longer than --timeout: the concurrent retries get 409
    // while the original is still working; that is right, and nothing else can be judged.
    let (_dir, spec) = spec();
    let server = start("127.0.0.1", Bug::None, Duration::from_millis(2500)).unwrap();
    let out = probe(
        &spec,
        &url(&server),
        &["--timeout", "1", "--format", "json"],
    );
    assert_eq!(rules_found(&out), Vec::<String>::new());
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_rule_turned_off_sends_nothing() {
    let (dir, spec) = spec();
    let config = dir.path().join("idemlint.yaml");
    std::fs::write(&config, "rules:\n  key-reuse-accepted: off\n").unwrap();
    let server = server(Bug::ReuseAccepted);
    let out = probe(
        &spec,
        &url(&server),
        &["--config", config.to_str().unwrap()],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    // The key-reuse check's two requests are not sent.
    assert!(text.contains("9 requests sent"), "{text}");
    assert!(!text.contains("FINDING"), "{text}");
}
