//! `check --fix`, `--unsafe-fixes`, `--diff` and `--fix -` as a user runs them: what is written,
//! what is printed, the exit codes, and what is never touched.

use std::path::Path;

use assert_cmd::Command;

fn idemlint(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("idemlint").unwrap();
    cmd.current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "200");
    cmd
}

/// A POST that moves money without a key: an unsafe fix (the key parameter).
const PAYMENTS: &str = "openapi: 3.0.3
info: {title: Payments, version: '1'}
paths:
  /payments:
    post:
      summary: Create a payment
      responses:
        '201':
          description: Created
";

/// What the unsafe fix makes of [`PAYMENTS`].
const PAYMENTS_FIXED_TAIL: &str = "          description: Created
      parameters:
        - $ref: '#/components/parameters/IdempotencyKey'
components:
  parameters:
    IdempotencyKey:
      name: Idempotency-Key
      in: header
      required: true
";

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn an_unsafe_fix_waits_for_unsafe_fixes_and_then_is_written_once() {
    let dir = project(&[("api.yaml", PAYMENTS)]);
    let safe_only = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--fix",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&safe_only.stdout);
    assert_eq!(read(dir.path(), "api.yaml"), PAYMENTS, "unsafe fixes wait");
    assert!(stdout.contains("0 fixed, 1 remaining."), "{stdout}");
    assert!(
        stdout.contains("fix (--fix --unsafe-fixes): Require the `Idempotency-Key` header"),
        "{stdout}"
    );
    assert_eq!(safe_only.status.code(), Some(1));

    let fixed = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--fix",
            "--unsafe-fixes",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&fixed.stdout);
    assert!(
        stdout.contains("No problems found") && stdout.contains("1 fixed, 0 remaining."),
        "{stdout}"
    );
    assert_eq!(fixed.status.code(), Some(0));
    let text = read(dir.path(), "api.yaml");
    assert!(
        text.starts_with(&PAYMENTS[..PAYMENTS.len() - "          description: Created\n".len()])
    );
    assert!(text.contains(PAYMENTS_FIXED_TAIL), "{text}");
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["api.yaml"]);

    // A second run changes nothing.
    let again = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--fix",
            "--unsafe-fixes",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    assert_eq!(read(dir.path(), "api.yaml"), text);
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 fixed, 0 remaining."));
}

#[test]
fn diff_prints_what_fix_would_do_and_writes_nothing() {
    let dir = project(&[("api.yaml", PAYMENTS)]);
    let out = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--diff",
            "--unsafe-fixes",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("--- a/api.yaml\n+++ b/api.yaml\n@@ -7,3 +7,15 @@\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "+      parameters:\n+        - $ref: '#/components/parameters/IdempotencyKey'\n"
        ),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("Would apply 1 fix in 1 file."));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(read(dir.path(), "api.yaml"), PAYMENTS);

    // Without --unsafe-fixes there is nothing to do, and it says what more there is.
    let out = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--diff",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "Nothing to fix. 1 fix more with --unsafe-fixes.\n"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn fix_from_standard_input_writes_the_fixed_document_to_standard_output() {
    let dir = project(&[]);
    let out = idemlint(dir.path())
        .args([
            "check",
            "-",
            "--fix",
            "--unsafe-fixes",
            "--select",
            "missing-idempotency-key",
        ])
        .write_stdin(PAYMENTS)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("openapi: 3.0.3\n"), "{stdout}");
    assert!(stdout.contains(PAYMENTS_FIXED_TAIL), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 fixed, 0 remaining."));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn a_node_shared_through_an_anchor_is_not_edited_and_diff_says_why() {
    let spec = "openapi: 3.0.3
info: {title: Anchored, version: '1'}
paths:
  /payments:
    post: &create
      summary: Create a payment
      responses:
        '201': {description: Created}
  /v2/payments:
    post: *create
";
    let dir = project(&[("api.yaml", spec)]);
    let out = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--diff",
            "--unsafe-fixes",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "note: api.yaml:5:5: missing-idempotency-key: no fix: it is shared through the YAML \
             anchor `&create` (line 5): an edit there would change every place that uses it"
        ),
        "{stderr}"
    );
    assert_eq!(out.stdout, b"");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_configuration_may_count_a_rules_fix_safe() {
    let dir = project(&[
        ("api.yaml", PAYMENTS),
        (".idemlint.yaml", "fix: {safe: [missing-idempotency-key]}\n"),
    ]);
    let out = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--fix",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 fixed, 0 remaining."));
    assert!(read(dir.path(), "api.yaml").contains(PAYMENTS_FIXED_TAIL));
    let bad = project(&[
        ("api.yaml", PAYMENTS),
        (".idemlint.yaml", "fix: {safe: [missing-idempotency-kee]}\n"),
    ]);
    let out = idemlint(bad.path())
        .args(["check", "api.yaml", "--fix"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("did you mean `missing-idempotency-key`?"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn files_outside_the_root_are_never_written_and_a_byte_order_mark_is_kept() {
    let outside = project(&[(
        "shared/payments.yaml",
        "post:\n  summary: Create a payment\n  responses:\n    '201': {description: Created}\n",
    )]);
    let root_text = format!(
        "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n  /payments:\n    $ref: '{}'\n",
        outside.path().join("shared/payments.yaml").display()
    );
    let dir = project(&[("api.yaml", &root_text)]);
    let before = read(outside.path(), "shared/payments.yaml");
    idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--fix",
            "--unsafe-fixes",
            "--allow-outside-root",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    assert_eq!(read(outside.path(), "shared/payments.yaml"), before);

    let bom = project(&[]);
    std::fs::write(bom.path().join("api.yaml"), format!("\u{feff}{PAYMENTS}")).unwrap();
    idemlint(bom.path())
        .args([
            "check",
            "api.yaml",
            "--fix",
            "--unsafe-fixes",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    let bytes = std::fs::read(bom.path().join("api.yaml")).unwrap();
    assert!(bytes.starts_with(b"\xEF\xBB\xBFopenapi: 3.0.3\n"));
    assert!(String::from_utf8_lossy(&bytes).contains(PAYMENTS_FIXED_TAIL));
}

#[test]
fn statistics_mark_the_fixable_rows() {
    let dir = project(&[("api.yaml", PAYMENTS)]);
    let out = idemlint(dir.path())
        .args([
            "check",
            "api.yaml",
            "--statistics",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("1  error    missing-idempotency-key  "),
        "{stdout}"
    );
    assert!(stdout.lines().next().unwrap().ends_with(" [*]"), "{stdout}");
    assert!(
        stdout.contains("1 fix available with --fix --unsafe-fixes"),
        "{stdout}"
    );
}

#[test]
fn an_operation_in_a_referenced_file_gets_a_relative_ref_in_that_file() {
    let dir = project(&[
        (
            "api/openapi.yaml",
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /payments:\n    \
             $ref: '../paths/payments.yaml'\n",
        ),
        (
            "paths/payments.yaml",
            "post:\n  summary: Create a payment\n  responses:\n    '201':\n      description: Created\n",
        ),
    ]);
    let out = idemlint(dir.path())
        .args([
            "check",
            "api/openapi.yaml",
            "--fix",
            "--unsafe-fixes",
            "--select",
            "missing-idempotency-key",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 fixed, 0 remaining."));
    assert_eq!(
        read(dir.path(), "paths/payments.yaml"),
        "post:\n  summary: Create a payment\n  responses:\n    '201':\n      description: Created\n  \
         parameters:\n    - $ref: ../api/openapi.yaml#/components/parameters/IdempotencyKey\n"
    );
    assert!(read(dir.path(), "api/openapi.yaml").contains(
        "components:\n  parameters:\n    IdempotencyKey:\n      name: Idempotency-Key\n"
    ));
}

/// A key added brings the responses a keyed operation needs (the 409 with Retry-After, the 400
/// for a missing key): one fix writes them with the key, in one pass, unless their rules are
/// turned off or suppressed there.
#[test]
fn a_key_comes_with_its_responses_as_their_rules_ask_for_them() {
    const RESPONSES: &str = "        '409':
          description: A request with the same idempotency key is still being processed; retry after Retry-After seconds.
          headers:
            Retry-After:
              description: Seconds to wait before retrying with the same key.
              schema:
                type: integer
        '400':
          description: The idempotency key is missing or malformed.
      parameters:
";
    let fix = |dir: &Path| {
        let out = idemlint(dir)
            .args([
                "check",
                "api.yaml",
                "--fix",
                "--unsafe-fixes",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (report, read(dir, "api.yaml"))
    };

    let dir = project(&[("api.yaml", PAYMENTS)]);
    let (report, text) = fix(dir.path());
    assert_eq!(report["fixes"]["applied"], 1, "{report}");
    assert_eq!(report["findings"], serde_json::json!([]), "{report}");
    assert!(
        text.contains(&format!("          description: Created\n{RESPONSES}")),
        "{text}"
    );
    let key = &PAYMENTS_FIXED_TAIL["          description: Created\n".len()..];
    assert!(text.contains(key), "{text}");
    let (again, same) = fix(dir.path());
    assert_eq!(again["fixes"]["applied"], 0);
    assert_eq!(same, text);

    // The 409's rule turned off: no 409.
    let dir = project(&[
        ("api.yaml", PAYMENTS),
        (
            ".idemlint.yaml",
            "rules:\n  missing-conflict-response: off\n",
        ),
    ]);
    let (report, text) = fix(dir.path());
    assert_eq!(report["fixes"]["applied"], 1, "{report}");
    assert!(!text.contains("'409'") && text.contains("'400':"), "{text}");

    // A suppression of the 400's rule on an operation without a key silences nothing yet:
    // `check` reports it, `--fix` takes it out, and the 400 comes once the key is there.
    let suppressed = PAYMENTS.replace(
        "      summary: Create a payment\n",
        "      summary: Create a payment\n      x-idemlint-ignore: [missing-missing-key-response]\n",
    );
    let dir = project(&[("api.yaml", &suppressed)]);
    let out = idemlint(dir.path())
        .args(["check", "api.yaml", "--format", "concise"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("unused-suppression"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let (report, text) = fix(dir.path());
    assert_eq!(report["findings"], serde_json::json!([]), "{report}");
    assert!(
        !text.contains("x-idemlint-ignore") && text.contains("'409':") && text.contains("'400':"),
        "{text}"
    );

    // On a deprecated operation, the responses that would only be advice there are left out,
    // as the rules leave out their findings.
    let deprecated = PAYMENTS.replace(
        "      summary: Create a payment\n",
        "      summary: Create a payment\n      deprecated: true\n",
    );
    let dir = project(&[("api.yaml", &deprecated)]);
    let (_, text) = fix(dir.path());
    assert!(text.contains("'409':") && !text.contains("'400'"), "{text}");
}

/// The 400 for a missing key is asked only of a required key: an operation given the API's
/// optional key parameter gets its 409 and no 400.
#[test]
fn an_optional_key_brings_no_400() {
    let api = "openapi: 3.0.3
info: {title: Payments, version: '1'}
paths:
  /refunds:
    post:
      parameters:
        - $ref: '#/components/parameters/Key'
      responses:
        '201':
          description: Created
        '409':
          description: In progress
          headers:
            Retry-After:
              schema: {type: integer}
  /payments:
    post:
      summary: Create a payment
      responses:
        '201':
          description: Created
components:
  parameters:
    Key:
      name: Idempotency-Key
      in: header
      required: false
      schema: {type: string, maxLength: 255}
";
    let dir = project(&[
        ("api.yaml", api),
        (".idemlint.yaml", "fix: {safe: [missing-idempotency-key]}\n"),
    ]);
    idemlint(dir.path())
        .args(["check", "api.yaml", "--fix"])
        .output()
        .unwrap();
    let text = read(dir.path(), "api.yaml");
    let payments = &text[text.find("  /payments:").unwrap()..text.find("components:").unwrap()];
    assert!(
        payments.contains("- $ref: '#/components/parameters/Key'")
            && payments.contains("'409':")
            && !payments.contains("'400'"),
        "{text}"
    );
}

/// `--diff` shows what `--fix` does with a suppression that silences nothing, whatever rule it
/// names (a rule without fixes included).
#[test]
fn diff_takes_out_an_unused_suppression_of_any_rule() {
    let api = "openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      x-idemlint-ignore: [non-idempotent-put]
      responses:
        '200':
          description: OK
";
    let dir = project(&[("api.yaml", api)]);
    let out = idemlint(dir.path())
        .args(["check", "api.yaml", "--diff"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("-      x-idemlint-ignore: [non-idempotent-put]\n"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
    idemlint(dir.path())
        .args(["check", "api.yaml", "--fix"])
        .output()
        .unwrap();
    assert!(!read(dir.path(), "api.yaml").contains("x-idemlint-ignore"));
}

/// `--timings` with `--diff` or `--fix` shows each pass (the last one found nothing to apply),
/// then the diff or the writes.
#[test]
fn timings_show_each_pass_of_a_fix() {
    let dir = project(&[("api.yaml", PAYMENTS)]);
    for (flag, last) in [("--diff", "  diff "), ("--fix", "  write ")] {
        let out = idemlint(dir.path())
            .args(["check", "api.yaml", flag, "--unsafe-fixes", "--timings"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let table = &stderr[stderr.find("Fix passes").expect("a table of passes")..];
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5, "{table}");
        assert!(
            lines[1].starts_with("  pass 1 ") && lines[1].ends_with("(1 fixed)"),
            "{table}"
        );
        assert!(
            lines[2].starts_with("  pass 2 ") && lines[2].ends_with("(0 fixed)"),
            "{table}"
        );
        assert!(
            lines[3].starts_with(last) && lines[4].starts_with("  wall "),
            "{table}"
        );
    }
}

/// A fix's edits as the JSON report (and the editor server) lists them, applied in the order
/// given, with inserts at one place written in that order (as an LSP client and a SARIF
/// consumer apply them), give what `--fix` writes: the key's 409 and 422 go into `responses`
/// before the `parameters` that follow it, at the same byte.
#[test]
fn a_fixs_edits_are_listed_in_the_order_they_are_written() {
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payments-api.yaml"),
    )
    .unwrap();
    let dir = project(&[("api.yaml", &example)]);
    let out = idemlint(dir.path())
        .args(["check", "api.yaml", "--format", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "missing-idempotency-key")
        .unwrap();
    let edits = finding["fix"]["edits"].as_array().unwrap();
    assert!(edits.len() >= 3, "{edits:?}");
    // Line starts, to turn the (ASCII) example's 1-based lines and columns into offsets.
    let mut starts = vec![0];
    starts.extend(example.match_indices('\n').map(|(i, _)| i + 1));
    let offset = |line: &serde_json::Value, column: &serde_json::Value| {
        starts[line.as_u64().unwrap() as usize - 1] + column.as_u64().unwrap() as usize - 1
    };
    let mut spans: Vec<(usize, usize, usize, &str)> = edits
        .iter()
        .enumerate()
        .map(|(i, e)| {
            (
                offset(&e["line"], &e["column"]),
                i,
                offset(&e["end_line"], &e["end_column"]),
                e["content"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse((s.0, s.1)));
    let mut text = example.clone();
    for (start, _, end, content) in spans {
        text.replace_range(start..end, content);
    }
    let refunds = text.find("  /refunds:").unwrap();
    let customers = text.find("  /customers/{customerId}:").unwrap();
    assert_eq!(
        &text[refunds..customers],
        "  /refunds:
    post:
      # DELIBERATE: no idempotency key (missing-idempotency-key).
      operationId: createRefund
      summary: Refund all or part of a payment
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [payment_id]
              properties:
                payment_id: { type: string }
                amount: { type: integer, description: Amount to refund in minor units; default is all }
                reason: { type: string, enum: [duplicate, fraudulent, requested_by_customer] }
      responses:
        \"201\":
          description: Refund created
        \"400\": { $ref: \"#/components/responses/BadRequest\" }
        \"409\":
          $ref: '#/components/responses/IdempotencyConflict'
        \"422\":
          $ref: '#/components/responses/IdempotencyKeyReused'
      parameters:
        - $ref: '#/components/parameters/IdempotencyKey'
"
    );
    std::fs::write(dir.path().join("api.yaml"), &text).unwrap();
    let out = idemlint(dir.path())
        .args(["check", "api.yaml", "--select", "missing-idempotency-key"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
