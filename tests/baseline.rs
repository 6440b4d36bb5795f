//! Baselines: adopt idemlint on an API with findings, then see only new ones, however the
//! document moves.

use assert_cmd::Command;

fn idemlint(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// An unrelated GET path of 40 lines, inserted first under `paths:`.
fn unrelated_path() -> String {
    let mut s = String::from("  /health:\n    get:\n      description: |\n");
    for i in 0..35 {
        s.push_str(&format!(
            "        Line {i} of a long description of the health check.\n"
        ));
    }
    s.push_str("      responses:\n        '200': {description: OK}\n");
    assert_eq!(s.lines().count(), 40);
    s
}

#[test]
fn a_baseline_survives_every_operation_moving_down_40_lines() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string("examples/payments-api.yaml").unwrap();
    std::fs::write(dir.path().join("api.yaml"), &original).unwrap();

    let (code, _) = idemlint(
        dir.path(),
        &["api.yaml", "--write-baseline", "baseline.json"],
    );
    assert_eq!(code, 0, "writing a baseline is not a failure");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("baseline.json")).unwrap())
            .unwrap();
    let recorded = recorded["findings"].as_array().unwrap().len();
    assert!(
        recorded >= 5,
        "the example has findings to record: {recorded}"
    );

    // Insert an unrelated path first: every operation moves down 40 lines.
    let moved = original.replacen("paths:\n", &format!("paths:\n{}", unrelated_path()), 1);
    assert_ne!(moved, original);
    std::fs::write(dir.path().join("api.yaml"), &moved).unwrap();
    let (code, out) = idemlint(dir.path(), &["api.yaml", "--format", "concise"]);
    assert_eq!(
        code, 1,
        "without the baseline the findings are all still there:\n{out}"
    );
    assert!(
        out.contains("api.yaml:119:5:"),
        "they moved down 40 lines:\n{out}"
    );

    let (code, out) = idemlint(
        dir.path(),
        &[
            "api.yaml",
            "--format",
            "concise",
            "--baseline",
            "baseline.json",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.trim(),
        format!("No problems found in 1 file (11 operations). {recorded} suppressed.")
    );

    // A new problem is reported, and only it.
    let new = moved.replacen(
        "  /health:\n",
        "  /audits:\n    post:\n      responses:\n        '201': {description: Created}\n  /health:\n",
        1,
    );
    std::fs::write(dir.path().join("api.yaml"), &new).unwrap();
    let (code, out) = idemlint(
        dir.path(),
        &[
            "api.yaml",
            "--format",
            "concise",
            "--baseline",
            "baseline.json",
        ],
    );
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("api.yaml")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].contains("error[missing-idempotency-key] POST /audits"),
        "{out}"
    );
}

#[test]
fn a_broken_baseline_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("fixtures/clean/payments.yaml", dir.path().join("api.yaml")).unwrap();
    std::fs::write(
        dir.path().join("b.json"),
        "{\"version\": 7, \"findings\": []}",
    )
    .unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "api.yaml", "--baseline", "b.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("baseline version 7 is not supported"));
}
