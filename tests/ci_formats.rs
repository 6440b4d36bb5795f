//! The CI formats: GitHub annotations, JUnit XML, GitLab Code Quality, and `--output`.

use assert_cmd::Command;

#[path = "support/example.rs"]
mod example;

use example::EXAMPLE;

/// `check` run where the example (see `support/example.rs`) is at [`EXAMPLE`].
fn run(args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    example::write(dir.path());
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn github_annotations() {
    let (code, out) = run(&[EXAMPLE, "--format", "github"]);
    assert_eq!(code, 1);
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        "::error file=examples/payments-api.yaml,line=79,col=5,endLine=79,endColumn=9,title=idemlint missing-idempotency-key::POST /refunds moves money (path word `refunds`) without an idempotency key: a retry after a lost response can move (or record) the money twice (3 of 3 other POST operations declare one, e.g. header `Idempotency-Key`)"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("::warning ")).count(),
        3,
        "{out}"
    );
    // An info is a notice: the deprecated PATCH.
    assert_eq!(
        out.lines().filter(|l| l.starts_with("::notice ")).count(),
        1,
        "{out}"
    );
}

#[test]
fn junit_has_a_suite_per_document_and_a_case_per_operation() {
    let (code, out) = run(&[EXAMPLE, "--format", "junit"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"idemlint\" tests=\"11\" failures=\"5\" errors=\"0\">"), "{out}");
    assert!(out.contains("<testsuite name=\"examples/payments-api.yaml\" tests=\"11\" failures=\"5\" errors=\"0\">"), "{out}");
    // 10 operations and the document itself.
    assert_eq!(out.matches("<testcase ").count(), 11);
    assert!(out.contains("<testcase classname=\"examples/payments-api.yaml\" name=\"POST /refunds\">\n      <failure type=\"missing-idempotency-key\""), "{out}");
    assert!(
        out.contains(
            "<testcase classname=\"examples/payments-api.yaml\" name=\"POST /payments\"/>"
        ),
        "{out}"
    );
}

#[test]
fn gitlab_code_quality() {
    let (_, out) = run(&[EXAMPLE, "--format", "gitlab"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let issues = v.as_array().unwrap();
    assert_eq!(issues.len(), 5);
    assert_eq!(issues[0]["check_name"], "missing-idempotency-key");
    assert_eq!(issues[0]["severity"], "critical");
    assert_eq!(issues[0]["location"]["path"], EXAMPLE);
    assert_eq!(issues[0]["location"]["lines"]["begin"], 79);
    assert_eq!(issues[0]["fingerprint"].as_str().unwrap().len(), 32);
}

#[test]
fn output_writes_the_report_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.sarif");
    let (code, out) = run(&[
        EXAMPLE,
        "--format",
        "sarif",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "the exit code still says what was found");
    assert!(out.is_empty(), "nothing on stdout: {out}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["runs"][0]["results"].as_array().unwrap().len(), 5);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no temporary file is left: {leftovers:?}"
    );
}

#[test]
fn findings_go_to_their_own_operation_when_names_repeat() {
    // A webhook and a path operation both called `POST /a`: JUnit and review keep them apart.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("api.yaml"),
        "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    post:\n      x-idempotency: false\n      responses: {'201': {description: ok}}\nwebhooks:\n  /a:\n    post:\n      responses: {'200': {description: ok}}\n",
    )
    .unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "api.yaml", "--format", "junit"])
        .output()
        .unwrap();
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(
        xml.contains("<testcase classname=\"api.yaml\" name=\"POST /a\"/>"),
        "{xml}"
    );
    assert!(xml.contains("<testcase classname=\"api.yaml\" name=\"POST webhook `/a`\">\n      <failure type=\"missing-idempotency-key\""), "{xml}");
    assert!(xml.contains("tests=\"3\" failures=\"1\""), "{xml}");
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["review", "api.yaml"])
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    let path_row = md.lines().find(|l| l.starts_with("| `POST /a`")).unwrap();
    assert!(path_row.contains("✅ declared harmless"), "{md}");
    let hook_row = md
        .lines()
        .find(|l| l.starts_with("| `` POST webhook `/a` ``"))
        .unwrap();
    assert!(
        hook_row.contains("❌ a redelivery looks new to the receiver: no delivery or event id"),
        "{md}"
    );
}
