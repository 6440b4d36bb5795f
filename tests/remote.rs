//! Remote `$ref`s: off by default (no connection at all), fetched with `--allow-remote-refs`
//! from a local test server, resolved relative to their URL, and never sent to a link-local
//! (cloud metadata) address.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use assert_cmd::Command;

/// A tiny HTTP server on 127.0.0.1 serving `files` by path; counts the connections it accepts.
struct Server {
    base: String,
    hits: Arc<AtomicUsize>,
}

fn serve(files: &'static [(&'static str, &'static str)]) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counter.fetch_add(1, Ordering::SeqCst);
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            let _ = reader.read_line(&mut request);
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
            }
            let path = request.split(' ').nth(1).unwrap_or("/").to_string();
            let reply = match files.iter().find(|(p, _)| *p == path) {
                Some((_, body)) if body.starts_with("REDIRECT ") => format!(
                    "HTTP/1.1 302 Found\r\nLocation: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    &body["REDIRECT ".len()..]
                ),
                Some((_, body)) => format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                ),
                None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_string(),
            };
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    Server { base, hits }
}

const FILES: &[(&str, &str)] = &[
    (
        "/v1/params.yaml",
        "IdempotencyKey:\n  name: Idempotency-Key\n  in: header\n  required: true\n  schema: {type: string, format: uuid}\n  description: Keys are kept for 24 hours.\n",
    ),
    (
        "/v1/responses.yaml",
        "Conflict:\n  description: A request with this key is in progress\n  headers:\n    Retry-After:\n      $ref: 'shared/headers.yaml#/RetryAfter'\n",
    ),
    (
        "/v1/shared/headers.yaml",
        "RetryAfter:\n  schema: {type: integer}\n",
    ),
];

fn spec(base: &str) -> String {
    format!(
        "openapi: 3.1.0\ninfo: {{title: T, version: '1'}}\npaths:\n  /payments:\n    post:\n      parameters:\n        - $ref: '{base}/v1/params.yaml#/IdempotencyKey'\n      responses:\n        '201': {{description: Created}}\n        '409': {{$ref: '{base}/v1/responses.yaml#/Conflict'}}\n        '422': {{description: Key reused with another payload}}\n        '400': {{description: Missing key}}\n        '404': {{$ref: '{base}/v1/missing.yaml'}}\n"
    )
}

fn check(dir: &std::path::Path, extra: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .args(["check", "api.yaml", "--format", "concise"])
        .args(extra)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn remote_refs_are_off_by_default_and_nothing_connects() {
    let server = serve(FILES);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), spec(&server.base)).unwrap();
    let (code, out) = check(dir.path(), &[]);
    let base = &server.base;
    // One warning for the document, not an error a reference; the POST, whose key is remote,
    // is not checked rather than reported as unkeyed.
    assert_eq!(
        out,
        format!(
            "api.yaml:7:11: warning[remote-ref-not-fetched] 3 remote $refs not fetched (remote \
             references are off; use --allow-remote-refs); the first is \
             `{base}/v1/params.yaml#/IdempotencyKey`\n\
             Found 1 problem (1 warning) in 1 file (1 operation, 1 not checked: a $ref they need \
             was not loaded).\n"
        )
    );
    assert_eq!(code, 0, "a warning does not fail the run");
    // A second document with the same remote refs gets its own one warning.
    std::fs::write(dir.path().join("other.yaml"), spec(&server.base)).unwrap();
    let (code, out) = check(dir.path(), &["other.yaml"]);
    assert_eq!(code, 0);
    let warnings: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("warning[remote-ref-not-fetched]"))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(warnings, ["api.yaml:7:11:", "other.yaml:7:11:"], "{out}");
    assert!(out.ends_with("Found 2 problems (2 warnings) in 2 files (2 operations, 2 not checked: a $ref they need was not loaded).\n"), "{out}");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        server.hits.load(Ordering::SeqCst),
        0,
        "no connection at all"
    );
}

#[test]
fn allowed_remote_refs_are_fetched_and_resolve_relative_to_their_url() {
    let server = serve(FILES);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), spec(&server.base)).unwrap();
    let (code, out) = check(dir.path(), &["--allow-remote-refs"]);
    let base = &server.base;
    // The key, the 409 and its Retry-After (one more hop, relative to responses.yaml) are all
    // found remotely, so the only findings are the missing file and the key's missing maxLength.
    let expected = [
        format!(
            "api.yaml:13:17: error[unresolved-ref] remote $ref `{base}/v1/missing.yaml` could not be fetched: HTTP 404"
        ),
        format!(
            "{base}/v1/params.yaml:5:3: info[idempotency-key-schema] idempotency key `Idempotency-Key` has no maxLength: servers must bound what they store and index"
        ),
    ];
    let findings: Vec<&str> = out.lines().filter(|l| l.contains("]")).collect();
    assert_eq!(findings, expected, "{out}");
    assert_eq!(code, 1);
    assert_eq!(
        server.hits.load(Ordering::SeqCst),
        4,
        "each document fetched once"
    );
}

#[test]
fn link_local_addresses_are_refused_even_when_remote_refs_are_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    $ref: 'http://169.254.169.254/latest/meta-data/iam'\n";
    std::fs::write(dir.path().join("api.yaml"), spec).unwrap();
    let (code, out) = check(dir.path(), &["--allow-remote-refs"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("api.yaml:5:5: error[unresolved-ref] remote $ref `http://169.254.169.254/latest/meta-data/iam` could not be fetched: refused: `169.254.169.254` is a link-local or metadata address (169.254.169.254), where cloud metadata services live"),
        "{out}"
    );
}

#[test]
fn a_redirected_document_resolves_its_refs_from_where_it_was_served() {
    static MOVED: &[(&str, &str)] = &[
        ("/old/params.yaml", "REDIRECT /v2/params.yaml"),
        (
            "/v2/params.yaml",
            "IdempotencyKey:\n  $ref: 'shared/key.yaml#/Key'\n",
        ),
        (
            "/v2/shared/key.yaml",
            "Key:\n  name: Idempotency-Key\n  in: header\n  required: true\n  schema: {type: string, format: uuid, maxLength: 64}\n  description: Kept for 24 hours.\n",
        ),
        ("/evil.yaml", "REDIRECT file:///etc/passwd"),
    ];
    let server = serve(MOVED);
    let base = &server.base;
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "openapi: 3.1.0\ninfo: {{title: T, version: '1'}}\npaths:\n  /payments:\n    post:\n      parameters:\n        - $ref: '{base}/old/params.yaml#/IdempotencyKey'\n      responses:\n        '201': {{description: Created}}\n        '409': {{$ref: '{base}/evil.yaml'}}\n"
    );
    std::fs::write(dir.path().join("api.yaml"), spec).unwrap();
    let (code, out) = check(dir.path(), &["--allow-remote-refs"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "api.yaml:10:17: error[unresolved-ref] remote $ref `{base}/evil.yaml` could not be fetched: redirected to `file:///etc/passwd`, which is not http or https"
        )),
        "{out}"
    );
    // The key two hops away (through the redirect, then relative to /v2/) is found.
    assert!(!out.contains("missing-idempotency-key"), "{out}");
    assert!(!out.contains("shared/key.yaml` could not"), "{out}");
}

#[test]
fn review_fetches_each_remote_document_once() {
    let server = serve(FILES);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), spec(&server.base)).unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["review", "api.yaml", "--allow-remote-refs"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("keyed by header `Idempotency-Key`"), "{text}");
    assert_eq!(
        server.hits.load(Ordering::SeqCst),
        4,
        "one fetch a document"
    );
}
