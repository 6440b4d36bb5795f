//! The binary as a user runs it: exit codes, formats, colour, stdin.

use assert_cmd::Command;

const BAD: &str = "fixtures/rules/missing-idempotency-key/bad_oas30_post.yaml";
const GOOD: &str = "fixtures/clean/payments.yaml";
const WARN_ONLY: &str = "fixtures/rules/unprotected-patch/bad_unknown_body.yaml";

fn idemlint() -> Command {
    let mut cmd = Command::cargo_bin("idemlint").unwrap();
    cmd.env_remove("NO_COLOR").env_remove("COLUMNS");
    cmd
}

fn stdout(cmd: &mut Command) -> (i32, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn exit_0_when_nothing_is_found() {
    let (code, out) = stdout(idemlint().args(["check", GOOD]));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("No problems found in 1 file (2 operations)"),
        "{out}"
    );
}

#[test]
fn exit_1_on_an_error_finding() {
    let (code, out) = stdout(idemlint().args(["check", BAD]));
    assert_eq!(code, 1);
    assert!(out.contains("missing-idempotency-key"), "{out}");
    assert!(
        out.contains(
            "POST /payments moves money (body has `amount` and `currency`) without an idempotency \
             key"
        ),
        "{out}"
    );
}

#[test]
fn fail_on_sets_the_threshold() {
    // A warning alone passes by default, fails with --fail-on warning.
    assert_eq!(stdout(idemlint().args(["check", WARN_ONLY])).0, 0);
    assert_eq!(
        stdout(idemlint().args(["check", WARN_ONLY, "--fail-on", "warning"])).0,
        1
    );
    assert_eq!(
        stdout(idemlint().args(["check", WARN_ONLY, "--fail-on", "info"])).0,
        1
    );
    assert_eq!(
        stdout(idemlint().args(["check", BAD, "--fail-on", "never"])).0,
        0
    );
}

#[test]
fn exit_2_on_usage_errors() {
    let out = idemlint()
        .args(["check", "--format", "xml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("xml"));
    assert_eq!(
        idemlint()
            .args(["frobnicate"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn exit_2_on_a_broken_file_and_the_other_files_are_still_linted() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.yaml");
    std::fs::write(&broken, "openapi: 3.0.0\ninfo: {title: x\npaths: {}\n").unwrap();
    let (code, out) = stdout(idemlint().current_dir(dir.path()).args([
        "check",
        "broken.yaml",
        &format!("{}/{BAD}", env!("CARGO_MANIFEST_DIR")),
        "--format",
        "concise",
    ]));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("broken.yaml:3:6: error[input] invalid YAML: while parsing a flow mapping"),
        "{out}"
    );
    assert!(out.contains("error[missing-idempotency-key]"), "{out}");
}

#[test]
fn exit_2_on_a_missing_path_or_a_non_openapi_file() {
    let (code, out) =
        stdout(idemlint().args(["check", "no/such/file.yaml", "--format", "concise"]));
    assert_eq!(code, 2);
    assert!(
        out.contains("no/such/file.yaml:1:1: error[input] no such file"),
        "{out}"
    );
    let (code, out) = stdout(idemlint().args(["check", "Cargo.toml", "--format", "concise"]));
    assert_eq!(code, 2);
    assert!(out.contains("not an OpenAPI document"), "{out}");
}

#[test]
fn concise_format() {
    let (code, out) = stdout(idemlint().args(["check", BAD, "--format", "concise"]));
    assert_eq!(code, 1);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "{BAD}:10:5: error[missing-idempotency-key] POST /payments moves money (body has \
             `amount` and `currency`) without an idempotency key"
        )),
        "{first}"
    );
    assert!(
        out.trim_end().ends_with("in 1 file (3 operations)."),
        "{out}"
    );
}

#[test]
fn json_format_follows_the_version_1_schema() {
    let (code, out) = stdout(idemlint().args(["check", BAD, "--format", "json"]));
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["tool"]["name"], "idemlint");
    assert_eq!(v["tool"]["version"], env!("CARGO_PKG_VERSION"));
    let f = &v["findings"][0];
    assert_eq!(f["rule"], "missing-idempotency-key");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["file"], BAD);
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(10), Some(5))
    );
    assert_eq!(
        (f["end_line"].as_u64(), f["end_column"].as_u64()),
        (Some(10), Some(9))
    );
    assert_eq!(f["pointer"], "/paths/~1payments/post");
    assert_eq!(f["operation"]["method"], "POST");
    assert_eq!(f["operation"]["path"], "/payments");
    assert_eq!(f["fingerprint"].as_str().unwrap().len(), 32);
    assert_eq!(v["errors"], serde_json::json!([]));
    assert_eq!(v["summary"]["files"], 1);
    assert_eq!(
        v["summary"]["findings"],
        v["findings"].as_array().unwrap().len()
    );
    // Field order is part of the contract too: readers diff these reports.
    let fields = [
        "rule",
        "severity",
        "message",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "pointer",
        "operation",
        "fingerprint",
    ];
    let at: Vec<usize> = fields
        .iter()
        .map(|k| out.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{out}");
}

#[test]
fn text_format_shows_the_source_and_no_colour_when_piped() {
    let (code, out) = stdout(idemlint().args(["check", BAD]));
    assert_eq!(code, 1);
    assert!(out.contains(&format!("╭─[{BAD}:10:5]")), "{out}");
    assert!(out.contains("10 │     post:"), "{out}");
    assert!(
        !out.contains('\u{1b}'),
        "no ANSI escapes when not a terminal"
    );
    let (_, out) = stdout(idemlint().args(["check", BAD, "--color", "always"]));
    assert!(out.contains('\u{1b}'), "--color always colours");
    let (_, out) = stdout(idemlint().env("NO_COLOR", "1").args(["check", BAD]));
    assert!(!out.contains('\u{1b}'));
}

#[test]
fn stdin_is_read_for_dash() {
    let text = std::fs::read_to_string(BAD).unwrap();
    let (code, out) = stdout(
        idemlint()
            .args(["check", "-", "--format", "concise"])
            .write_stdin(text),
    );
    assert_eq!(code, 1);
    assert!(
        out.starts_with("<stdin>:10:5: error[missing-idempotency-key]"),
        "{out}"
    );
}

#[test]
fn directories_are_walked_for_openapi_roots_only() {
    // fixtures/refs/multi holds one root and four fragments: only the root is linted, and the
    // fragments' findings are reported in the fragments.
    let (code, out) =
        stdout(idemlint().args(["check", "fixtures/refs/multi", "--format", "concise"]));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("in 1 file"), "{out}");
    assert!(
        out.contains("fixtures/refs/multi/paths/payments.yaml:9:1: error[missing-idempotency-key]"),
        "{out}"
    );
}

#[test]
fn version_and_help() {
    let out = idemlint().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));
    let out = idemlint().args(["check", "--help"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("--fail-on"));
}

#[test]
fn directory_walks_honour_gitignore() {
    let dir = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(BAD).unwrap();
    std::fs::create_dir_all(dir.path().join("api")).unwrap();
    std::fs::create_dir_all(dir.path().join("generated")).unwrap();
    std::fs::write(dir.path().join("api/openapi.yaml"), &spec).unwrap();
    std::fs::write(dir.path().join("generated/openapi.yaml"), &spec).unwrap();
    std::fs::write(dir.path().join(".gitignore"), "generated/\n").unwrap();
    let (code, out) = stdout(
        idemlint()
            .current_dir(dir.path())
            .args(["check", ".", "--format", "concise"]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("api/openapi.yaml:10:5"), "{out}");
    assert!(!out.contains("generated/"), "{out}");
    assert!(out.contains("in 1 file"), "{out}");
}

#[test]
fn findings_on_a_very_long_line_show_a_window_of_it() {
    // Minified JSON: one 70 kB line. The snippet shows the neighbourhood of the span only.
    let dir = tempfile::tempdir().unwrap();
    let long = format!(
        "{{\"openapi\": \"3.0.0\", \"info\": {{\"title\": \"t\", \"version\": \"1\", \"description\": \"{}\"}}, \"paths\": {{\"/a\": {{\"post\": {{\"responses\": {{}}}}}}}}}}",
        "x".repeat(70_000)
    );
    std::fs::write(dir.path().join("min.json"), long).unwrap();
    let (code, out) = stdout(
        idemlint()
            .current_dir(dir.path())
            // A plain create is a warning: fail on it, so the exit code says it was found.
            .args(["check", "min.json", "--fail-on", "warning"]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("╭─[min.json:1:70098]"), "{out}");
    assert!(out.contains("\"post\": {\"responses\""), "{out}");
    assert!(out.len() < 2_000, "{} bytes of output", out.len());
}

#[test]
fn concise_output_stays_one_line_a_finding() {
    // A YAML key may hold a newline; the message quotes it escaped.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("nl.yaml"),
        "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  ? |\n    /multi\n    line\n  : post: {responses: {}}\n",
    )
    .unwrap();
    let (_, out) = stdout(
        idemlint()
            .current_dir(dir.path())
            .args(["check", "nl.yaml", "--format", "concise"]),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0]
            .starts_with("nl.yaml:7:5: warning[missing-idempotency-key] POST /multi\\nline\\n has"),
        "{out}"
    );
}

#[test]
fn flow_style_yaml_is_found_in_directories_and_read_from_stdin() {
    let spec =
        "{openapi: 3.0.0, info: {title: t, version: '1'}, paths: {/a: {post: {responses: {}}}}}\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("flow.yaml"), spec).unwrap();
    let (code, out) = stdout(idemlint().current_dir(dir.path()).args([
        "check",
        ".",
        "--format",
        "concise",
        "--fail-on",
        "warning",
    ]));
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("flow.yaml:1:"), "{out}");
    let (code, out) = stdout(
        idemlint()
            .args(["check", "-", "--format", "concise", "--fail-on", "warning"])
            .write_stdin(spec),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("<stdin>:1:"), "{out}");
}

#[test]
fn rules_lists_every_rule_and_explain_shows_one() {
    let (code, out) = stdout(idemlint().args(["rules"]));
    assert_eq!(code, 0);
    assert!(out.starts_with("id "), "{out}");
    assert_eq!(
        out.lines().count(),
        idemlint::rules::RULES.len() + 1,
        "{out}"
    );
    assert!(
        out.contains("missing-idempotency-key           error     retry-safety"),
        "{out}"
    );
    let (code, out) = stdout(idemlint().args(["rules", "--format", "json"]));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), idemlint::rules::RULES.len());
    assert_eq!(v[0]["id"], "missing-idempotency-key");
    assert_eq!(v[0]["severity"], "error");
    let (code, out) = stdout(idemlint().args(["explain", "conflict-without-retry-after"]));
    assert_eq!(code, 0);
    assert!(
        out.starts_with("conflict-without-retry-after (warning, concurrency, since 0.1.0)"),
        "{out}"
    );
    assert!(
        out.contains("WHAT IT CHECKS") && out.contains("HOW TO FIX"),
        "{out}"
    );
    assert!(!out.contains("\n\n\n") && !out.contains("```"), "{out}");
}

#[test]
fn explain_an_unknown_rule_suggests_the_closest() {
    let out = idemlint()
        .args(["explain", "conflict-without-retry"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: unknown rule `conflict-without-retry`; did you mean `conflict-without-retry-after`?"
    );
}

#[test]
fn skip_non_openapi_lets_hooks_pass_every_yaml_file() {
    let (code, out) = stdout(idemlint().args([
        "check",
        "Cargo.toml",
        ".pre-commit-hooks.yaml",
        GOOD,
        "--skip-non-openapi",
        "--format",
        "concise",
    ]));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("No problems found in 1 file"), "{out}");
}

#[test]
fn timings_name_every_phase_on_stderr_and_leave_stdout_alone() {
    let with = idemlint()
        .args(["check", BAD, GOOD, "--format", "json", "--timings"])
        .output()
        .unwrap();
    let without = idemlint()
        .args(["check", BAD, GOOD, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(with.status.code(), Some(1));
    assert_eq!(with.stdout, without.stdout, "the report is the same");
    let stderr = String::from_utf8(with.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0], "Timings (2 documents; phases summed over threads):",
        "{stderr}"
    );
    let phases: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        phases,
        [
            "read", "parse", "resolve", "model", "rules", "report", "wall"
        ]
    );
    for line in &lines[1..] {
        let ms: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(line.ends_with(" ms") && ms >= 0.0, "{line}");
    }
}

#[test]
fn jobs_change_the_speed_not_the_report() {
    let run = |jobs: &str| {
        idemlint()
            .args([
                "check",
                "fixtures/rules",
                "--format",
                "json",
                "--jobs",
                jobs,
            ])
            .output()
            .unwrap()
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(one.stdout, two.stdout);
    assert!(
        String::from_utf8(one.stdout)
            .unwrap()
            .contains("\"findings\"")
    );
}

#[path = "../bench/spec_gen.rs"]
#[allow(dead_code)]
mod spec_gen;

/// `idemlint check big.yaml | head`: the report streams, so the reader leaving early must cost
/// neither an error message nor another exit code.
#[test]
fn a_reader_that_leaves_early_is_no_error() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("big.yaml");
    std::fs::write(&spec, spec_gen::yaml(1_000_000)).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("idemlint");
    let full = std::process::Command::new(&bin)
        .args(["check", "--format", "text"])
        .arg(&spec)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        full.stdout.len() > 1 << 18,
        "enough to fill a pipe several times"
    );
    let mut child = std::process::Command::new(&bin)
        .args(["check", "--format", "text"])
        .arg(&spec)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(&first[..], &full.stdout[..100]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), full.status.code());
}

/// A report that cannot be written (a full disk) is an error, unlike a reader leaving early.
#[test]
fn a_report_that_cannot_be_written_is_an_error() {
    let Ok(full_disk) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("idemlint"))
        .args(["check", BAD, "--format", "json"])
        .stdout(full_disk)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: cannot write the report: No space left on device"),
        "{stderr}"
    );
}

/// Mistakes inside idemlint's own extensions, as a user running the binary sees them: each at
/// its key or value, with the closest valid word.
#[test]
fn typos_in_x_idempotency_and_x_idemlint_ignore_are_findings_with_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("api.yaml"),
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /orders:\n    post:\n      \
         x-idempotency: {keyy: Idempotency-Key}\n      responses: {'201': {description: ok}}\n  \
         /carts:\n    post:\n      x-idempotency: \"false\"\n      \
         responses: {'201': {description: ok}}\n  /baskets:\n    post:\n      \
         x-idemlint-ignore: [missing-idempotency-keys]\n      \
         responses: {'201': {description: ok}}\n",
    )
    .unwrap();
    let (code, out) = stdout(idemlint().current_dir(dir.path()).args([
        "check",
        "api.yaml",
        "--format",
        "concise",
        "--select",
        "invalid-extension,unused-suppression",
    ]));
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        "api.yaml:6:23: warning[invalid-extension] unknown key `keyy` in `x-idempotency`; did \
         you mean `key`?\n\
         api.yaml:10:22: warning[invalid-extension] `x-idempotency: \"false\"` is a string; write \
         `false` (a boolean) to say duplicates are harmless\n\
         api.yaml:14:27: info[unused-suppression] suppression names unknown rule \
         `missing-idempotency-keys`; did you mean `missing-idempotency-key`?\n\
         Found 3 problems (2 warnings, 1 info) in 1 file (3 operations).\n"
    );
}

/// A 429 without Retry-After names the operations it belongs to, in every human format.
#[test]
fn retry_after_missing_names_its_operations() {
    let spec = "fixtures/rules/retry-after-missing/bad_shared_by_many.yaml";
    let (_, concise) = stdout(idemlint().args([
        "check",
        spec,
        "--format",
        "concise",
        "--select",
        "retry-after-missing",
    ]));
    assert!(
        concise.contains(
            "bad_shared_by_many.yaml:12:9: warning[retry-after-missing] 429 response of GET \
             /exports/{id} has no Retry-After header"
        ),
        "{concise}"
    );
    assert!(
        concise.contains(
            "bad_shared_by_many.yaml:36:5: warning[retry-after-missing] 429 response used by GET \
             /exports and 3 other operations has no Retry-After header"
        ),
        "{concise}"
    );
    let (_, text) = stdout(idemlint().args([
        "check",
        spec,
        "--color",
        "never",
        "--select",
        "retry-after-missing",
    ]));
    assert!(
        text.contains("⚠ 429 response used by GET /exports and 3 other operations has no"),
        "{text}"
    );
}
