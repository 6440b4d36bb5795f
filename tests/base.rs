//! `check --base REF`, `diff OLD NEW` and `review --base REF` on real git repositories made by
//! the test with the `git` CLI: what a change brings is new, what it removes is fixed, lines that
//! move and files that are renamed change nothing, and the contract-change rules say how each
//! operation's retry contract changed.

mod common;

use std::path::Path;
use std::process::Command;

use common::git;

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
    change(top);

    let (code, lines, summary) = concise(top, &["--base", "main", "."]);
    let found = rules_of(&lines);
    assert_eq!(
        found,
        [
            // The fragment's 409 lost its Retry-After: the contract change, once, where the
            // shared response is defined (both operations lost it) ...
            "fragments/responses.yaml:1:1 retry-after-removed",
            // ... and what it leaves, found where the operation uses it.
            "openapi.yaml:63:9 conflict-without-retry-after",
            // The payout's key removed: the contract change, and what it leaves.
            "openapi.yaml:66:5 idempotency-key-removed",
            "openapi.yaml:66:5 missing-idempotency-key",
            // The refund added without a key.
            "openapi.yaml:113:5 missing-idempotency-key",
            // Keys kept 1 hour instead of 24: the contract change, and what it leaves.
            "openapi.yaml:124:7 key-ttl-shortened",
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
            .contains("): 7 new, 0 fixed, 2 unchanged (not shown). 1 file linted (5 operations)."),
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
        err.contains("git fetch --no-tags origin nowhere:refs/remotes/origin/nowhere"),
        "{err}"
    );
}

/// The change the tests make in `top` (staged, not committed): 40 unrelated lines above
/// everything, the spec renamed, a new unkeyed POST, the payout's key removed, keys kept 1 hour
/// instead of 24, and the fragment's 409 without its Retry-After.
fn change(top: &Path) {
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
}

#[test]
fn json_and_sarif_mark_each_finding_against_the_base() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let repo = repository();
    let top = repo.path();
    change(top);
    let (code, out, err) = idemlint(
        top,
        &[
            "check",
            "--base",
            "main",
            "--show-unchanged",
            "--format",
            "json",
            ".",
        ],
    );
    assert_eq!(code, 1, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let base = &json["base"];
    assert_eq!(base["ref"], "main");
    assert_eq!(base["commit"].as_str().unwrap().len(), 40);
    assert_eq!(
        (base["new"].as_u64(), base["unchanged"].as_u64()),
        (Some(7), Some(2))
    );
    let findings = json["findings"].as_array().unwrap();
    let count = |change: &str| findings.iter().filter(|f| f["change"] == change).count();
    assert_eq!((count("new"), count("unchanged")), (7, 2), "{out}");
    assert_eq!(count("fixed") as u64, base["fixed"].as_u64().unwrap());
    let removed = findings
        .iter()
        .find(|f| f["rule"] == "idempotency-key-removed")
        .unwrap();
    assert_eq!(
        removed["before"],
        serde_json::json!({"file": "api.yaml", "line": 77, "column": 7})
    );
    assert_eq!(
        removed["after"],
        serde_json::json!({"file": "openapi.yaml", "line": 66, "column": 5})
    );
    // A contract-change finding has its places before and after; a finding of a plain rule
    // none.
    for f in findings {
        let category = idemlint::rules::meta(f["rule"].as_str().unwrap())
            .category
            .clone();
        assert_eq!(
            f.get("before").is_some() && f.get("after").is_some(),
            category == "contract-change",
            "{f}"
        );
    }

    let (_, out, err) = idemlint(
        top,
        &[
            "check",
            "--base",
            "main",
            "--show-unchanged",
            "--format",
            "sarif",
            ".",
        ],
    );
    let sarif: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let states: Vec<&str> = results
        .iter()
        .map(|r| r["baselineState"].as_str().unwrap())
        .collect();
    assert_eq!(states.iter().filter(|s| **s == "new").count(), 7);
    assert_eq!(states.iter().filter(|s| **s == "unchanged").count(), 2);
    let related = results
        .iter()
        .find(|r| r["ruleId"] == "idempotency-key-removed")
        .unwrap();
    assert_eq!(
        related["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
        77
    );

    // The fixed findings are absent, in SARIF's words: a deleted document's.
    std::fs::remove_file(top.join("openapi.yaml")).unwrap();
    // (Unlike the deleted one, so that git sees no rename.)
    std::fs::write(
        top.join("other.yaml"),
        "openapi: 3.0.3\ninfo: {title: Shop, version: '2'}\npaths:\n  /baskets:\n    post:\n      \
         responses: {'201': {description: The basket}}\n  /transfers:\n    post:\n      \
         responses: {'201': {description: The transfer}}\n",
    )
    .unwrap();
    git(top, &["add", "-A"]);
    let (_, out, _) = idemlint(top, &["check", "--base", "main", "--format", "sarif", "."]);
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let state = |uri: &str, state: &str| {
        results
            .iter()
            .filter(|r| {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
                    && r["baselineState"] == state
            })
            .count()
    };
    // api.yaml is gone: its two findings are fixed; other.yaml is new: its two are new.
    assert_eq!(state("api.yaml", "absent"), 2, "{out}");
    assert_eq!(state("other.yaml", "new"), 2, "{out}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("base.sarif");
    std::fs::write(&path, &out).unwrap();
    if let Some(validator) = common::sarif_validator() {
        common::assert_valid_sarif(&validator, &[path]);
    }
}

#[test]
fn a_merge_base_a_named_file_and_diff_of_a_revision() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let repo = repository();
    let top = repo.path();
    // A branch that removes the payout's key; main moves on meanwhile (a new operation there
    // is not the branch's doing).
    git(top, &["checkout", "-q", "-b", "feature"]);
    std::fs::write(
        top.join("api.yaml"),
        API.replace(
            "      operationId: createPayout\n      summary: Create a payout\n      parameters:\n        - $ref: '#/components/parameters/IdempotencyKey'\n",
            "      operationId: createPayout\n      summary: Create a payout\n",
        ),
    )
    .unwrap();
    commit(top, "feature");
    git(top, &["checkout", "-q", "main"]);
    std::fs::write(
        top.join("api.yaml"),
        API.replace("components:\n", "  /refunds:\n    post:\n      responses:\n        '201': {description: ok}\ncomponents:\n"),
    )
    .unwrap();
    commit(top, "main moves on");
    git(top, &["checkout", "-q", "feature"]);

    // Against main's tip, the refund main added looks removed (fixed); against the merge base
    // only the branch's change is there.
    let (_, lines, summary) = concise(top, &["--base", "main...HEAD", "api.yaml"]);
    assert_eq!(
        rules_of(&lines),
        [
            "api.yaml:26:5 idempotency-key-removed",
            "api.yaml:26:5 missing-idempotency-key"
        ],
        "{summary}"
    );
    assert!(summary.contains("2 new, 0 fixed, 2 unchanged"), "{summary}");
    let (_, _, summary) = concise(top, &["--base", "main", "api.yaml"]);
    assert!(summary.contains("2 new, 1 fixed, 2 unchanged"), "{summary}");

    // `diff` of a revision's file and the work tree's: only the contract change.
    let (code, out, err) = idemlint(
        top,
        &["diff", "main~1:api.yaml", "api.yaml", "--format", "concise"],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        out.lines().next().unwrap(),
        "api.yaml:26:5: error[idempotency-key-removed] POST /payouts no longer takes an \
         idempotency key: before, header `Idempotency-Key`, required (api.yaml:77:7) → after, \
         none (api.yaml:26:5): a retry now runs again"
    );
    // Two files, with nothing changed: nothing to say.
    std::fs::write(top.join("copy.yaml"), API).unwrap();
    let (code, out, _) = idemlint(
        top,
        &["diff", "copy.yaml", "copy.yaml", "--format", "concise"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("No problems found"), "{out}");
}

#[test]
fn review_of_a_change_lists_what_it_changed_regressions_first() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let repo = repository();
    let top = repo.path();
    change(top);
    let (code, md, err) = idemlint(top, &["review", "--base", "main", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(
        md.starts_with("## Idempotency review of the change: Payments (`openapi.yaml`, was `api.yaml`) against main ("),
        "{md}"
    );
    assert!(
        md.contains(
            "**2 regressions**, 0 improved, 0 changed otherwise, 1 added (1 wrong under retry), 0 removed, 2 unchanged."
        ),
        "{md}"
    );
    // Changed, regressions first, with only the answers that changed.
    let payments = md.find("#### `POST /payments` — regression").expect(&md);
    let payouts = md.find("#### `POST /payouts` — regression").expect(&md);
    assert!(payments < payouts);
    let section = &md[payouts..];
    assert!(
        section.contains("| Same request twice? | ✅ keyed by header `Idempotency-Key`"),
        "{section}"
    );
    assert!(
        !section[..section.find("### Added").unwrap()].contains("| Relative changes |"),
        "{section}"
    );
    assert!(
        md.contains("- **error** `idempotency-key-removed`: POST /payouts no longer takes"),
        "{md}"
    );
    let added = &md[md.find("### Added operations").expect(&md)..];
    assert!(
        added.contains("| `POST /refunds`<br>`openapi.yaml:113:5` | ❌ processed twice"),
        "{added}"
    );
    assert!(
        md.contains("\n2 operations answered as before the change.\n"),
        "{md}"
    );
    assert!(
        !md.contains("POST /orders"),
        "unchanged operations are one line: {md}"
    );
}

/// The shared corpus's largest spec, when this checkout has the corpus beside it.
fn largest_corpus_spec() -> Option<std::path::PathBuf> {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/stripe/spec3.2022-04-12.json");
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("skipped: ../shared/corpus is not here");
        None
    }
}

/// `spec` with a required `Idempotency-Key` header on the POST of each of `paths` (every POST
/// when `paths` is empty).
fn keyed(spec: &serde_json::Value, paths: &[&str]) -> String {
    let mut spec = spec.clone();
    let key = serde_json::json!({
        "name": "Idempotency-Key", "in": "header", "required": true,
        "description": "Keys are kept for 24 hours.", "schema": {"type": "string"}
    });
    for (path, item) in spec["paths"].as_object_mut().unwrap() {
        if !paths.is_empty() && !paths.contains(&path.as_str()) {
            continue;
        }
        if let Some(post) = item.get_mut("post") {
            let parameters = post
                .as_object_mut()
                .unwrap()
                .entry("parameters")
                .or_insert_with(|| serde_json::json!([]));
            parameters.as_array_mut().unwrap().push(key.clone());
        }
    }
    serde_json::to_string_pretty(&spec).unwrap()
}

#[test]
fn the_review_of_a_change_to_the_largest_corpus_spec_fits_a_comment() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let Some(corpus) = largest_corpus_spec() else {
        return;
    };
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&corpus).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    init(top);
    // The spec as it is, written as the test writes the changed one: only the change differs.
    std::fs::write(top.join("spec.json"), keyed(&spec, &["/none"])).unwrap();
    commit(top, "base");

    // Three operations get a key.
    let three = ["/v1/customers", "/v1/charges", "/v1/refunds"];
    std::fs::write(top.join("spec.json"), keyed(&spec, &three)).unwrap();
    let (code, md, err) = idemlint(top, &["review", "--base", "main", "spec.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        md.chars().count() < 6_000,
        "{} characters:\n{md}",
        md.chars().count()
    );
    let listed: Vec<&str> = md
        .lines()
        .filter_map(|l| l.strip_prefix("#### `POST "))
        .map(|l| l.split('`').next().unwrap())
        .collect();
    assert_eq!(
        listed,
        ["/v1/charges", "/v1/customers", "/v1/refunds"],
        "{md}"
    );
    assert!(
        md.contains("**0 regressions**, 3 improved, 0 changed otherwise, 0 added, 0 removed,"),
        "{md}"
    );

    // Every POST gets one: the review says less, links to the whole page, and still fits.
    std::fs::write(top.join("spec.json"), keyed(&spec, &[])).unwrap();
    let (code, md, err) = idemlint(
        top,
        &[
            "review",
            "--base",
            "main",
            "spec.json",
            "--details-url",
            "https://ci.example.com/review.html",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let length = md.chars().count();
    assert!((10_000..60_000).contains(&length), "{length}");
    assert!(
        md.contains("[the whole review](https://ci.example.com/review.html)"),
        "{md}"
    );

    // The review of the whole spec, with no base, fits too.
    let (code, md, err) = idemlint(top, &["review", "spec.json"]);
    assert_eq!(code, 0, "{err}");
    let length = md.chars().count();
    assert!((10_000..60_000).contains(&length), "{length}");
    assert!(
        md.contains("`idemlint review --format html` writes the whole review"),
        "{md}"
    );
    // With no limit, it is the whole review.
    let (_, whole, _) = idemlint(top, &["review", "spec.json", "--max-chars", "0"]);
    assert!(whole.chars().count() > 60_000);
}

#[test]
fn moves_silenced_findings_and_other_spellings_change_nothing() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let top = &std::fs::canonicalize(dir.path()).unwrap().join("repo");
    std::fs::create_dir_all(top.join("v1/fragments")).unwrap();
    std::fs::create_dir_all(top.join("drafts")).unwrap();
    init(top);
    std::fs::write(top.join("v1/api.yaml"), API).unwrap();
    std::fs::write(top.join("v1/fragments/responses.yaml"), RESPONSES).unwrap();
    // A second document, elsewhere for now.
    let shop = "openapi: 3.0.3\ninfo: {title: Shop, version: '1'}\npaths:\n  /baskets:\n    \
                post:\n      responses: {'201': {description: The basket}}\n";
    std::fs::write(top.join("drafts/shop.yaml"), shop).unwrap();
    commit(top, "base");
    let (_, before, _) = concise(top, &["v1", "drafts"]);
    assert_eq!(before.len(), 3, "{before:#?}");

    // The folder renamed and the draft moved into it: nothing changed.
    git(top, &["mv", "v1", "v2"]);
    git(top, &["mv", "drafts/shop.yaml", "v2/shop.yaml"]);
    let (code, lines, summary) = concise(top, &["--base", "main", "v2"]);
    assert_eq!(lines, Vec::<String>::new(), "{summary}");
    assert!(summary.contains("0 new, 0 fixed, 3 unchanged"), "{summary}");
    assert_eq!(code, 0);
    // Named through a link to the repository, and by its absolute path: the same.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(top, &link).unwrap();
    let through = link.join("v2/api.yaml");
    let (_, lines, summary) = concise(top, &["--base", "main", through.to_str().unwrap()]);
    assert!(
        lines.is_empty() && summary.contains("0 new, 0 fixed, 2 unchanged"),
        "{summary}"
    );
    let (code, md, err) = idemlint(
        top,
        &[
            "review",
            "--base",
            "main",
            top.join("v2/api.yaml").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(md.contains(", was `v1/api.yaml`) against main"), "{md}");
    assert!(md.contains("0 added, 0 removed, 4 unchanged"), "{md}");
    assert!(!md.contains("added by the change"), "{md}");

    // A document moved out of the folder named is neither linted now nor fixed.
    git(top, &["mv", "v2/shop.yaml", "shop.yaml"]);
    let (_, _, summary) = concise(top, &["--base", "main", "v2"]);
    assert!(summary.contains("0 new, 0 fixed, 2 unchanged"), "{summary}");

    // Findings a baseline or the spec silences now are not fixed.
    let (code, _, err) = idemlint(top, &["check", "v2", "--write-baseline", "bl.json"]);
    assert_eq!(code, 0, "{err}");
    let (_, lines, summary) = concise(top, &["--base", "main", "--baseline", "bl.json", "v2"]);
    assert!(lines.is_empty(), "{lines:#?}");
    assert!(summary.contains("0 new, 0 fixed, 0 unchanged"), "{summary}");

    // A path of another repository is an error, not a comparison with nothing.
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    init(&other);
    std::fs::write(other.join("api.yaml"), API).unwrap();
    commit(&other, "other");
    let (code, out, err) = idemlint(
        top,
        &[
            "check",
            "--base",
            "main",
            other.join("api.yaml").to_str().unwrap(),
        ],
    );
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("is not in the repository at"), "{err}");
}

#[test]
fn accepting_a_contract_change_in_the_spec_is_no_unused_suppression() {
    let dir = tempfile::tempdir().unwrap();
    let spec = API.replace(
        "      operationId: createPayout\n",
        "      operationId: createPayout\n      x-idemlint-ignore:\n        \
         idempotency-key-removed: payouts are deduplicated by the bank\n",
    );
    std::fs::write(dir.path().join("api.yaml"), spec).unwrap();
    std::fs::create_dir_all(dir.path().join("fragments")).unwrap();
    std::fs::write(dir.path().join("fragments/responses.yaml"), RESPONSES).unwrap();
    let (_, out, _) = idemlint(dir.path(), &["check", "--format", "concise", "api.yaml"]);
    assert!(!out.contains("unused-suppression"), "{out}");
}

#[test]
fn a_file_moved_out_of_a_folder_leaves_the_rest_of_it_where_it_was() {
    if !has_git() {
        eprintln!("skipped: no git");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    init(top);
    let unkeyed = |title: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: {title}, version: '1'}}\npaths:\n  /{title}:\n    \
             post:\n      responses: {{'201': {{description: made}}}}\n"
        )
    };
    for (path, text) in [
        ("v1/a.yaml", unkeyed("a")),
        ("v1/b.yaml", unkeyed("b")),
        ("x/x1.yaml", unkeyed("x")),
        ("xa/b.yaml", unkeyed("xb")),
        // A document whose operation lives in a fragment beside it.
        (
            "api/api.yaml",
            "openapi: 3.0.3\ninfo: {title: f, version: '1'}\npaths:\n  /f:\n    $ref: ./frag.yaml\n"
                .to_string(),
        ),
        (
            "api/frag.yaml",
            "post:\n  responses: {'201': {description: made}}\n".to_string(),
        ),
    ] {
        std::fs::create_dir_all(top.join(path).parent().unwrap()).unwrap();
        std::fs::write(top.join(path), text).unwrap();
    }
    commit(top, "base");
    // One file of `v1` moves to `v2`, one of `xa` to `v2/a` (whose name ends as `x`'s does):
    // neither `v1/b.yaml` nor `x/x1.yaml` is linted at the base as if it had moved too.
    std::fs::create_dir_all(top.join("v2/a")).unwrap();
    git(top, &["mv", "v1/a.yaml", "v2/a.yaml"]);
    git(top, &["mv", "xa/b.yaml", "v2/a/b.yaml"]);
    let (_, lines, summary) = concise(top, &["--base", "main", "v2"]);
    assert!(lines.is_empty(), "{lines:#?}");
    assert!(summary.contains("0 new, 0 fixed, 2 unchanged"), "{summary}");
    // A fragment moved out of the folder named, still reached from it: unchanged.
    std::fs::create_dir_all(top.join("common")).unwrap();
    git(top, &["mv", "api/frag.yaml", "common/frag.yaml"]);
    std::fs::write(
        top.join("api/api.yaml"),
        "openapi: 3.0.3\ninfo: {title: f, version: '1'}\npaths:\n  /f:\n    $ref: ../common/frag.yaml\n",
    )
    .unwrap();
    git(top, &["add", "-A"]);
    let (_, lines, summary) = concise(top, &["--base", "main", "--root", ".", "api"]);
    assert!(lines.is_empty(), "{lines:#?}");
    assert!(summary.contains("0 new, 0 fixed, 1 unchanged"), "{summary}");
}
