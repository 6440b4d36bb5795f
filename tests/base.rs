//! `check --base REF`, `diff OLD NEW` and `review --base REF` on real git repositories made by
//! the test with the `git` CLI: what a change brings is new, what it removes is fixed, lines that
//! move and files that are renamed change nothing, and the contract-change rules say how each
//! operation's retry contract changed.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn has_git() -> bool {
    Command::new("git").arg("--version").output().is_ok()
}

fn idemlint(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_idemlint"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("idemlint runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "commit.gpgsign", "false"]);
}

fn commit(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message]);
}

/// The API before the change: a keyed payment and payout, an order endpoint without a key,
/// keys kept 24 hours, a 409 (with `Retry-After`) shared from a fragment, a PATCH guarded by
/// `If-Match`.
const API: &str = r##"openapi: 3.0.3
info:
  title: Payments
  version: '1'
  description: Idempotency keys are kept for 24 hours.
paths:
  /payments:
    post:
      operationId: createPayment
      summary: Create a payment
      parameters:
        - $ref: '#/components/parameters/IdempotencyKey'
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                amount: {type: integer}
                currency: {type: string}
      responses:
        '201': {description: The payment. A retry with the same key gets this response again.}
        '409': {$ref: 'fragments/responses.yaml#/Conflict'}
        '422': {description: The key was used with another request}
  /payouts:
    post:
      operationId: createPayout
      summary: Create a payout
      parameters:
        - $ref: '#/components/parameters/IdempotencyKey'
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                amount: {type: integer}
                destination: {type: string}
      responses:
        '201': {description: The payout. A retry with the same key gets this response again.}
        '409': {$ref: 'fragments/responses.yaml#/Conflict'}
        '422': {description: The key was used with another request}
  /orders:
    post:
      operationId: createOrder
      summary: Create an order
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                sku: {type: string}
                quantity: {type: integer}
      responses:
        '201': {description: The order}
  /customers/{id}:
    patch:
      operationId: updateCustomer
      summary: Update a customer
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: If-Match, in: header, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                email: {type: string}
      responses:
        '200': {description: The customer}
        '412': {description: The customer changed since it was read}
components:
  parameters:
    IdempotencyKey:
      name: Idempotency-Key
      in: header
      required: true
      description: A client-generated UUID. Keys are kept for 24 hours.
      schema: {type: string, maxLength: 255}
"##;

const RESPONSES: &str = r#"Conflict:
  description: A request with the same key is in progress
  headers:
    Retry-After:
      schema: {type: integer}
"#;

/// A repository at the base commit, and its path.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    init(top);
    std::fs::create_dir_all(top.join("fragments")).unwrap();
    std::fs::write(top.join("api.yaml"), API).unwrap();
    std::fs::write(top.join("fragments/responses.yaml"), RESPONSES).unwrap();
    commit(top, "base");
    dir
}

fn concise(dir: &Path, args: &[&str]) -> (i32, Vec<String>, String) {
    let mut all = vec!["check", "--format", "concise", "--color", "never"];
    all.extend_from_slice(args);
    let (code, out, err) = idemlint(dir, &all);
    let mut lines: Vec<String> = out.lines().map(str::to_string).collect();
    let summary = lines.pop().unwrap_or_default();
    (code, lines, format!("{summary}\n{err}"))
}

/// `file:line:col: severity[rule]` of each line, and its rule.
fn rules_of(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let rule = &l[l.find('[').unwrap() + 1..l.find(']').unwrap()];
            let place = l.split(": ").next().unwrap();
            format!("{place} {rule}")
        })
        .collect()
}

#[test]
fn a_change_reports_what_it_brings_and_counts_what_it_fixes() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let repo = repository();
    let top = repo.path();
    let (code, before, _) = concise(top, &["."]);
    assert_eq!(
        rules_of(&before),
        [
            "api.yaml:21:7 missing-missing-key-response",
            "api.yaml:44:5 missing-idempotency-key",
        ]
    );
    assert_eq!(code, 0, "warnings and infos only");

    // The change: 40 unrelated lines above everything, the spec renamed, a new unkeyed POST,
    // the payout's key removed, keys now kept 1 hour, and the fragment's 409 without its
    // Retry-After.
    let mut api = String::new();
    for i in 0..40 {
        api.push_str(&format!("# An unrelated comment line, number {i}.\n"));
    }
    api.push_str(
        &API.replace("kept for 24 hours", "kept for 1 hour")
            .replace(
                "      operationId: createPayout\n      summary: Create a payout\n      parameters:\n        - $ref: '#/components/parameters/IdempotencyKey'\n",
                "      operationId: createPayout\n      summary: Create a payout\n",
            )
            .replace(
                "components:\n",
                "  /refunds:\n    post:\n      operationId: createRefund\n      summary: Refund a payment\n      responses:\n        '201': {description: The refund}\ncomponents:\n",
            ),
    );
    std::fs::remove_file(top.join("api.yaml")).unwrap();
    std::fs::write(top.join("openapi.yaml"), &api).unwrap();
    std::fs::write(
        top.join("fragments/responses.yaml"),
        "Conflict:\n  description: A request with the same key is in progress\n",
    )
    .unwrap();
    git(top, &["add", "-A"]);

    let (code, lines, summary) = concise(top, &["--base", "main", "."]);
    let found = rules_of(&lines);
    assert_eq!(
        found,
        [
            // The fragment's 409 lost its Retry-After: found where the operation uses it.
            "openapi.yaml:63:9 conflict-without-retry-after",
            // The payout's key removed: the contract change, and what it leaves.
            "openapi.yaml:66:5 idempotency-key-removed",
            "openapi.yaml:66:5 missing-idempotency-key",
            // The refund added without a key.
            "openapi.yaml:113:5 missing-idempotency-key",
            // Keys kept 1 hour instead of 24.
            "openapi.yaml:124:7 short-key-ttl",
        ],
        "{lines:#?}\n{summary}"
    );
    assert_eq!(code, 1, "{summary}");
    // The order endpoint's missing key and the missing 400 were there before: unchanged, and
    // not shown; the payout's findings that needed its key are fixed.
    assert!(summary.starts_with("Against main ("), "{summary}");
    assert!(
        summary
            .contains("): 5 new, 0 fixed, 2 unchanged (not shown). 1 file linted (5 operations)."),
        "{summary}"
    );
    let (_, shown, _) = concise(top, &["--base", "main", "--show-unchanged", "."]);
    let unchanged: Vec<&String> = shown
        .iter()
        .filter(|l| l.ends_with("(unchanged)"))
        .collect();
    assert_eq!(unchanged.len(), 2, "{shown:#?}");
    assert!(
        unchanged[0].starts_with("openapi.yaml:61:7: info[missing-missing-key-response]"),
        "{shown:#?}"
    );
    assert!(
        unchanged[1]
            .starts_with("openapi.yaml:82:5: warning[missing-idempotency-key] POST /orders"),
        "{shown:#?}"
    );
}

#[test]
fn a_shallow_clone_without_the_base_says_how_to_fetch_it() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let repo = repository();
    let top = repo.path();
    std::fs::write(top.join("api.yaml"), API.replace("Payments", "Payments v2")).unwrap();
    commit(top, "second");
    let clones = tempfile::tempdir().unwrap();
    let clone = clones.path().join("clone");
    let url = format!("file://{}", top.display());
    git(
        clones.path(),
        &["clone", "-q", "--depth", "1", &url, clone.to_str().unwrap()],
    );
    let (code, out, err) = idemlint(&clone, &["check", "--base", "HEAD~1", "."]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("error: --base HEAD~1:"), "{err}");
    assert!(err.contains("shallow clone"), "{err}");
    assert!(err.contains("fetch-depth: 0"), "{err}");
    let (code, _, err) = idemlint(&clone, &["check", "--base", "origin/nowhere", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("git fetch --no-tags --depth=1 origin nowhere"),
        "{err}"
    );
}
