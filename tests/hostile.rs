//! Hostile and broken input: each case gets a clear error with its position and exit code 2,
//! never a panic or a hang, and the other files of the run are still linted.

use assert_cmd::Command;

const GOOD: &str = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    post: {responses: {'201': {description: ok}}}\n";

/// Lints `bad` (written as `name`) together with a good file; returns (exit code, concise output).
fn lint_beside_a_good_file(name: &str, bad: &[u8]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), bad).unwrap();
    std::fs::write(dir.path().join("good.yaml"), GOOD).unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", name, "good.yaml", "--format", "concise"])
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("good.yaml:5:5: error[missing-idempotency-key]"),
        "{name}: the good file is still linted:\n{stdout}"
    );
    (out.status.code().unwrap(), stdout)
}

fn expect_error(name: &str, bad: &[u8], message: &str) {
    let (code, out) = lint_beside_a_good_file(name, bad);
    assert_eq!(code, 2, "{name}:\n{out}");
    assert!(
        out.contains(message),
        "{name}: expected `{message}` in\n{out}"
    );
}

#[test]
fn alias_bomb() {
    let mut text = String::from("openapi: 3.1.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let prev = format!("*a{}", i - 1);
        text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 10].join(", ")));
    }
    expect_error("bomb.yaml", text.as_bytes(), "bomb.yaml:7:45:");
    expect_error(
        "bomb.yaml",
        text.as_bytes(),
        "alias expansion exceeds the budget of 1000000 nodes",
    );
}

#[test]
fn deep_nesting() {
    let yaml = format!(
        "openapi: 3.1.0\nx: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    expect_error("deep.yaml", yaml.as_bytes(), "deep.yaml:2:");
    let json = format!(
        "{{\"openapi\": \"3.1.0\", \"x\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    expect_error(
        "deep.json",
        json.as_bytes(),
        "deep.json:1:282: error[input] nesting deeper than 256 levels (raise the limit with --max-depth)",
    );
    let maps = format!(
        "openapi: 3.1.0\nx: {}1{}\n",
        "{a: ".repeat(50_000),
        "}".repeat(50_000)
    );
    expect_error("maps.yaml", maps.as_bytes(), "maps.yaml:2:");
}

#[test]
fn encodings() {
    expect_error(
        "latin1.yaml",
        b"openapi: 3.1.0\ninfo: {title: caf\xE9}\n",
        "latin1.yaml:2:18: error[input] not UTF-8 text",
    );
    let mut utf16 = vec![0xFF, 0xFE];
    for c in "openapi: 3.1.0\n".encode_utf16() {
        utf16.extend(c.to_le_bytes());
    }
    expect_error(
        "utf16.yaml",
        &utf16,
        "utf16.yaml:1:1: error[input] UTF-16 text",
    );
    expect_error(
        "nul.yaml",
        b"openapi: 3.1.0\n\0\n",
        "nul.yaml:2:1: error[input] invalid YAML",
    );
}

#[test]
fn not_openapi_or_not_one_document() {
    expect_error(
        "empty.yaml",
        b"",
        "empty.yaml:1:1: error[input] empty document",
    );
    expect_error(
        "k8s.yaml",
        b"apiVersion: v1\nkind: Pod\n",
        "not an OpenAPI document",
    );
    expect_error(
        "v4.yaml",
        b"openapi: 4.0.0\n",
        "unsupported `openapi` version `4.0.0`",
    );
    expect_error(
        "old.yaml",
        b"swagger: '1.2'\n",
        "unsupported `swagger` version `1.2`",
    );
    expect_error(
        "two.yaml",
        b"openapi: 3.1.0\n---\nopenapi: 3.0.0\n",
        "two.yaml:2:1: error[input] a second YAML document",
    );
    expect_error(
        "comments.json",
        b"{\"openapi\": \"3.1.0\" // no\n}",
        "comments.json:1:21: error[input] invalid JSON: comments are not allowed in JSON",
    );
    expect_error(
        "trailing.json",
        b"{\"openapi\": \"3.1.0\",}",
        "trailing.json:1:20: error[input] invalid JSON: trailing comma before `}`",
    );
}

#[test]
fn tags_are_data() {
    let text = b"openapi: 3.1.0\ninfo: {title: !custom T, version: !!str 1}\nx: !!binary aGVsbG8=\npaths: {}\n";
    let (code, out) = lint_beside_a_good_file("tags.yaml", text);
    assert_eq!(code, 1, "{out}");
    assert!(
        !out.contains("tags.yaml"),
        "no complaint about tags.yaml: {out}"
    );
}

#[test]
fn references_that_must_not_be_followed() {
    let spec = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    $ref: '#/paths/~1a'\n  /b:\n    get:\n      responses:\n        '200': {$ref: 'http://169.254.169.254/latest/meta-data'}\n        '201': {$ref: '/etc/passwd'}\n        '202': {$ref: '../../../../../../outside.yaml'}\n        '203': {$ref: 'missing.yaml'}\n";
    let (code, out) = lint_beside_a_good_file("refs.yaml", spec.as_bytes());
    assert_eq!(code, 1, "findings, not errors: {out}");
    for expected in [
        "refs.yaml:5:5: error[unresolved-ref] $ref `#/paths/~1a` is part of a reference cycle",
        "refs.yaml:9:17: error[unresolved-ref] remote $ref `http://169.254.169.254/latest/meta-data` is not fetched",
        "refs.yaml:10:17: error[unresolved-ref] $ref `/etc/passwd` leaves the project root",
        "refs.yaml:11:17: error[unresolved-ref] $ref `../../../../../../outside.yaml` leaves the project root",
        "refs.yaml:12:17: error[unresolved-ref] $ref target file `missing.yaml` not found",
    ] {
        assert!(out.contains(expected), "expected `{expected}` in\n{out}");
    }
}
