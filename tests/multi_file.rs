//! Large multi-file specs, laid out like the public ones that split one file per operation
//! (generated at test time by `bench/multi_gen.rs`): they load whole under the default limits,
//! `$ref`s to code samples and examples are not followed, and a document past the `$ref` budget
//! gets one error, with the operations it could not read left unreported instead of reported as
//! unkeyed.

#[path = "../bench/multi_gen.rs"]
mod multi_gen;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;

/// Resources in the generated spec: 3,009 files.
const RESOURCES: usize = 334;

fn check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out: Output = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (
        out.status.code().expect("exited"),
        String::from_utf8_lossy(&out.stdout).to_string(),
        stderr,
    )
}

#[test]
fn a_spec_of_three_thousand_files_loads_whole_with_the_default_limits() {
    let dir = tempfile::tempdir().unwrap();
    let spec = multi_gen::write(dir.path(), RESOURCES).unwrap();
    assert!(spec.files >= 3_000, "{} files", spec.files);
    assert!(
        spec.loaded > 1_000,
        "more files than the old default limit are loaded"
    );

    // The generator gives every create the shared 409 of a key still in progress, and every
    // model a required `name`: idemlint reads a required name beside a declared 409 as a
    // natural key, and would report none of the unkeyed creates. They have no key to be in
    // progress with, so here they lose that 409.
    let conflict = "  '409':\n    $ref: '../../shared/responses.yml#/conflict'\n";
    for i in (0..RESOURCES).filter(|&i| multi_gen::unkeyed(i)) {
        let file = dir.path().join(format!("resources/r{i}/r{i}_create.yml"));
        let create = std::fs::read_to_string(&file).unwrap();
        assert_eq!(create.matches(conflict).count(), 1, "{create}");
        std::fs::write(&file, create.replacen(conflict, "", 1)).unwrap();
    }
    // The unkeyed POSTs are plain creates, warnings: fail on them, so the exit code says so.
    let (code, out, err) = check(dir.path(), &["--format", "concise", "--fail-on", "warning"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!out.contains("unresolved-ref"), "{out}");
    assert!(!out.contains("error[input]"), "{out}");
    // Every finding, exactly: the unkeyed POSTs, at their `post:` key in the root.
    let mut expected = String::new();
    let keyed = RESOURCES - spec.unkeyed_posts.len();
    for (line, path) in &spec.unkeyed_posts {
        expected.push_str(&format!(
            "openapi.yaml:{line}:5: warning[missing-idempotency-key] POST {path} has no \
             idempotency key: a retry after a lost response is processed again and can leave a \
             duplicate ({keyed} of {} other POST operations declare one, e.g. header \
             `Idempotency-Key`)\n",
            RESOURCES - 1
        ));
    }
    expected.push_str(&format!(
        "Found 34 problems (34 warnings) in 1 file ({} operations).\n",
        spec.operations
    ));
    assert_eq!(out, expected);
    // The first of them as a user reads it, written out.
    assert!(out.starts_with(
        "openapi.yaml:10:5: warning[missing-idempotency-key] POST /v2/r0 has no idempotency key: \
         a retry after a lost response is processed again and can leave a duplicate (300 of 333 \
         other POST operations declare one, e.g. header `Idempotency-Key`)\n"
    ));

    // The JSON report agrees, and counts nothing unchecked.
    let (code, json, _) = check(
        dir.path(),
        &["openapi.yaml", "--format", "json", "--fail-on", "warning"],
    );
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["summary"]["operations"], 668);
    assert_eq!(json["summary"]["findings"], 34);
    assert_eq!(json["summary"]["unchecked"], 0);
    assert_eq!(json["errors"].as_array().unwrap().len(), 0);
}

#[test]
fn past_the_ref_budget_one_error_and_no_finding_on_what_was_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let spec = multi_gen::write(dir.path(), RESOURCES).unwrap();
    let (code, out, err) = check(
        dir.path(),
        &[
            "openapi.yaml",
            "--format",
            "concise",
            "--max-ref-files",
            "200",
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    // Files load breadth first: the root, then the operation files its paths name in order, so
    // the 200th file is r99's list and the first `$ref` refused is r99's create (root line
    // 6 + 5 * 99 + 5). Not followed: the root's other 469 operation refs, the 3 of each of the
    // 100 loaded lists and the 5 or 6 of each of the 99 loaded creates (10 of them unkeyed):
    // 469 + 300 + 89 * 6 + 10 * 5 = 1353. Code samples are never followed, so never counted.
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("error[input]")).collect();
    assert_eq!(
        errors,
        [
            "openapi.yaml:1:1: error[input] this document reaches more than 200 files through \
             `$ref` (raise the limit with --max-ref-files): 1353 `$ref`s were not followed, the \
             first at openapi.yaml:506:7; operations that need them were not checked"
        ],
        "{out}"
    );
    assert!(!out.contains("unresolved-ref"), "{out}");
    // Every operation needs a shared file the budget left out: none is reported as unkeyed.
    assert!(!out.contains("missing-idempotency-key"), "{out}");
    assert!(
        out.ends_with(&format!(
            "No problems found in 1 file ({} operations, {} not checked: a $ref they need was not \
             loaded). 1 input could not be linted.\n",
            spec.operations, spec.operations
        )),
        "{out}"
    );
}

#[test]
fn an_operation_behind_the_budget_is_not_checked_and_the_others_are() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("api.yaml"),
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
         responses: {'201': {description: ok}}\n  /b:\n    post:\n      parameters:\n        \
         - $ref: 'params.yaml#/key'\n      responses: {'201': {description: ok}}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("params.yaml"),
        "key: {name: Idempotency-Key, in: header, required: true, schema: {type: string}}\n",
    )
    .unwrap();
    let (code, out, _) = check(
        dir.path(),
        &["api.yaml", "--format", "concise", "--max-ref-files", "1"],
    );
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        out,
        "api.yaml:1:1: error[input] this document reaches more than 1 file through `$ref` (raise \
         the limit with --max-ref-files): 1 `$ref` was not followed, the first at api.yaml:10:11; \
         operations that need them were not checked\n\
         api.yaml:5:5: warning[missing-idempotency-key] POST /a has no idempotency key: a retry \
         after a lost response is processed again and can leave a duplicate\n\
         Found 1 problem (1 warning) in 1 file (2 operations, 1 not checked: a $ref they need was \
         not loaded). 1 input could not be linted.\n"
    );
    // Within the default limits, POST /b is keyed and checked: POST /a's warning is all.
    let (code, out, _) = check(
        dir.path(),
        &["api.yaml", "--format", "json", "--fail-on", "warning"],
    );
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["summary"]["unchecked"], 0);
    let (code, out, _) = check(
        dir.path(),
        &["api.yaml", "--format", "json", "--max-ref-files", "1"],
    );
    assert_eq!(code, 2);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["summary"]["unchecked"], 1);
    assert_eq!(json["unchecked"][0]["operation"], "POST /b");
    assert_eq!(json["unchecked"][0]["line"], 8);
    assert_eq!(
        json["unchecked"][0]["reason"],
        "$ref `params.yaml#/key` at api.yaml:10:11 was not loaded"
    );
}

#[test]
fn the_byte_budget_counts_the_referenced_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("api.yaml"),
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /b:\n    post:\n      \
         parameters:\n        - $ref: 'params.yaml#/key'\n      \
         responses: {'201': {description: ok}}\n",
    )
    .unwrap();
    let long = "x".repeat(1_200_000);
    std::fs::write(
        dir.path().join("params.yaml"),
        format!(
            "key: {{name: Idempotency-Key, in: header, required: true, description: {long}, \
             schema: {{type: string}}}}\n"
        ),
    )
    .unwrap();
    let (code, out, _) = check(
        dir.path(),
        &["api.yaml", "--format", "concise", "--max-ref-size", "1"],
    );
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        out,
        "api.yaml:1:1: error[input] this document reaches more than 1 MiB of files through `$ref` \
         (raise the limit with --max-ref-size): 1 `$ref` was not followed, the first at \
         api.yaml:7:11; operations that need them were not checked\n\
         No problems found in 1 file (1 operation, 1 not checked: a $ref they need was not \
         loaded). 1 input could not be linted.\n"
    );
    let (code, out, _) = check(
        dir.path(),
        &["api.yaml", "--format", "concise", "--max-ref-size", "2"],
    );
    assert!(!out.contains("error[input]"), "{out}");
    assert!(!out.contains("not checked"), "{out}");
    assert_eq!(code, 0, "{out}");
}
