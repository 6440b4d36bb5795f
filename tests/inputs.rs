//! What a run lints: a run that finds nothing, named fragments, hook mode, `--exclude` and
//! `exclude:`, `--stdin-filename`, broken configurations, `--statistics`, as a user sees them.

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;

/// Three operations without a key: a POST that moves money (an error), a plain create (a
/// warning) and a PATCH with a body (a warning).
const UNKEYED: &str = "\
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /refunds: {post: {responses: {'201': {description: ok}}}}
  /b: {post: {responses: {'201': {description: ok}}}}
  /c: {patch: {requestBody: {content: {application/json: {schema: {type: object}}}}, responses: {'200': {description: ok}}}}
";

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    // Configuration lookup stops at a repository's root: keep the temp dir's parents out.
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run_with_stdin(dir, args, "")
}

fn run_with_stdin(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .args(args)
        .write_stdin(stdin)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_path_with_no_openapi_document_is_an_error() {
    let dir = tree(&[("ci/deploy.yaml", "on: [push]\n"), ("empty/.keep", "")]);
    for path in ["empty", "ci"] {
        let (code, out, _) = run(dir.path(), &["check", path, "--format", "concise"]);
        assert_eq!(code, 2, "{out}");
        assert_eq!(
            out,
            format!(
                "{path}:1:1: error[input] no OpenAPI documents found in {path} (looked for \
                 *.yaml, *.yml, *.json with an openapi or swagger key)\nNo problems found in 0 \
                 files (0 operations). 1 input could not be linted.\n"
            )
        );
    }
    // JSON says so too, in `errors`.
    let (code, out, _) = run(dir.path(), &["check", "empty", "--format", "json"]);
    assert_eq!(code, 2);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["errors"][0]["file"], "empty");
    assert_eq!(json["errors"][0]["kind"], "input");
    // The hook case: named files that are not OpenAPI, with --skip-non-openapi, are fine.
    let (code, out, _) = run(
        dir.path(),
        &[
            "check",
            "--skip-non-openapi",
            "ci/deploy.yaml",
            "--format",
            "concise",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(out, "No problems found in 0 files (0 operations).\n");
}

#[test]
fn hook_mode_leaves_templates_jsonc_and_lookalikes_alone_but_not_broken_documents() {
    let dir = tree(&[
        (
            "chart/templates/api.yaml",
            "openapi: {{ .Values.openapi.version }}\ninfo: {{- toYaml .Values.info | nindent 2 }}\n",
        ),
        ("chart/values.yaml", "swagger:\n  enabled: true\n"),
        (
            "tsconfig.json",
            "{\n  // comment\n  \"compilerOptions\": {},\n}\n",
        ),
        ("broken.yaml", "openapi: 3.0.3\ninfo: [unclosed\n"),
    ]);
    let files = [
        "chart/templates/api.yaml",
        "chart/values.yaml",
        "tsconfig.json",
    ];
    let mut args = vec!["check", "--skip-non-openapi", "--format", "concise"];
    args.extend(files);
    let (code, out, err) = run(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    // Skipped without a word: no error, no note, nothing about the files.
    assert_eq!(out, "No problems found in 0 files (0 operations).\n");
    assert_eq!(err, "");
    args.push("broken.yaml");
    let (code, out, _) = run(dir.path(), &args);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("broken.yaml:3:1: error[input] invalid YAML:"),
        "{out}"
    );
    // Without hook mode, a named file that is not OpenAPI is an error.
    let (code, out, _) = run(
        dir.path(),
        &["check", "tsconfig.json", "--format", "concise"],
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("tsconfig.json:2:3: error[input] invalid JSON: comments are not allowed"),
        "{out}"
    );
}

#[test]
fn a_named_fragment_lints_the_documents_that_reach_it() {
    let dir = tree(&[
        (
            "api/a.yaml",
            "openapi: 3.0.3\ninfo: {title: a, version: '1'}\npaths:\n  /a:\n    $ref: 'paths/shared.yaml'\n",
        ),
        (
            "api/b.yaml",
            "openapi: 3.0.3\ninfo: {title: b, version: '1'}\npaths:\n  /b:\n    $ref: 'paths/shared.yaml'\n",
        ),
        ("api/c.yaml", UNKEYED),
        (
            "api/paths/shared.yaml",
            "post:\n  responses: {'201': {description: ok}}\n",
        ),
        ("api/paths/alone.yaml", "type: string\n"),
    ]);
    // The fragment's plain create is a warning: fail on it, so the exit code says it was found.
    let (code, out, _) = run(
        dir.path(),
        &[
            "check",
            "api/paths/shared.yaml",
            "--format",
            "concise",
            "--fail-on",
            "warning",
        ],
    );
    assert_eq!(code, 1, "{out}");
    // The fragment's operation as each document names it; c.yaml is not linted.
    assert_eq!(
        out,
        "api/paths/shared.yaml:1:1: warning[missing-idempotency-key] POST /a has no idempotency \
         key: a retry after a lost response is processed again and can leave a duplicate\n\
         api/paths/shared.yaml:1:1: warning[missing-idempotency-key] POST /b has no idempotency \
         key: a retry after a lost response is processed again and can leave a duplicate\n\
         api/paths/shared.yaml is a fragment: linted api/a.yaml and api/b.yaml, which reach it \
         through $ref.\n\
         Found 2 problems (2 warnings) in 2 files (2 operations).\n"
    );
    let (_, out, _) = run(
        dir.path(),
        &["check", "api/paths/shared.yaml", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        json["fragments"],
        serde_json::json!([{"file": "api/paths/shared.yaml", "documents": ["api/a.yaml", "api/b.yaml"]}])
    );
    // A fragment no document reaches: an error, unless in hook mode.
    let (code, out, _) = run(
        dir.path(),
        &["check", "api/paths/alone.yaml", "--format", "concise"],
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with(
            "api/paths/alone.yaml:1:1: error[input] not an OpenAPI document: no top-level \
             `openapi` or `swagger` key, and no OpenAPI document under . reaches it through `$ref`\n"
        ),
        "{out}"
    );
    let (code, _, _) = run(
        dir.path(),
        &["check", "--skip-non-openapi", "api/paths/alone.yaml"],
    );
    assert_eq!(code, 0);
    // `--root` is where documents are looked for.
    let (code, out, _) = run(
        &dir.path().join("api"),
        &[
            "check",
            "paths/shared.yaml",
            "--root",
            "..",
            "--format",
            "concise",
            "--fail-on",
            "warning",
        ],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "paths/shared.yaml is a fragment: linted ../api/a.yaml and ../api/b.yaml, which reach \
             it through $ref."
        ),
        "{out}"
    );
}

#[test]
fn excluded_documents_are_not_linted_and_are_counted() {
    let dir = tree(&[
        ("api/openapi.yaml", UNKEYED),
        ("legacy/v1/old.yaml", UNKEYED),
        ("legacy/v2.yaml", UNKEYED),
    ]);
    let (code, out, _) = run(
        dir.path(),
        &["check", ".", "--exclude", "legacy", "--format", "concise"],
    );
    assert_eq!(code, 1);
    assert!(!out.contains("legacy/"), "{out}");
    assert!(
        out.ends_with("in 1 file (3 operations). 2 documents excluded.\n"),
        "{out}"
    );
    let (_, out, _) = run(
        dir.path(),
        &[
            "check",
            ".",
            "--exclude",
            "legacy/*.yaml",
            "--format",
            "concise",
        ],
    );
    assert!(out.contains("legacy/v1/old.yaml"), "{out}");
    assert!(!out.contains("legacy/v2.yaml"), "{out}");
    // The configuration's `exclude`, relative to its folder.
    std::fs::write(dir.path().join(".idemlint.yaml"), "exclude: [legacy/v1]\n").unwrap();
    let (_, out, _) = run(dir.path(), &["check", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["summary"]["excluded"], 1);
    assert_eq!(json["summary"]["files"], 2);
    // Everything excluded: nothing found, and the message says why.
    let (code, out, _) = run(dir.path(), &["check", "legacy/v1", "--format", "concise"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("; 1 excluded by --exclude or a configuration's `exclude`"),
        "{out}"
    );
    let (code, _, err) = run(dir.path(), &["check", ".", "--exclude", "a[b"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --exclude: bad glob `a[b`"), "{err}");
}

#[test]
fn stdin_filename_names_the_document_and_places_it() {
    let dir = tree(&[
        (
            "api/.idemlint.yaml",
            "rules: {missing-idempotency-key: info}\n",
        ),
        (
            "api/params.yaml",
            "Key: {name: Idempotency-Key, in: header, required: true, schema: {type: string}}\n",
        ),
    ]);
    let spec = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
                parameters: [{$ref: 'params.yaml#/Key'}]\n      responses: {'201': {description: ok}}\n  \
                /b: {post: {responses: {'201': {description: ok}}}}\n";
    let (code, out, _) = run_with_stdin(
        dir.path(),
        &[
            "check",
            "-",
            "--stdin-filename",
            "api/openapi.yaml",
            "--format",
            "concise",
            "--select",
            "missing-idempotency-key,unresolved-ref",
        ],
        spec,
    );
    // The $ref resolves beside api/openapi.yaml, and api/.idemlint.yaml applies.
    assert_eq!(
        out,
        "api/openapi.yaml:8:8: info[missing-idempotency-key] POST /b has no idempotency key: \
         a retry after a lost response is processed again and can leave a duplicate (1 of 1 \
         other POST operation declares one, e.g. header `Idempotency-Key`)\n\
         Found 1 problem (1 info) in 1 file (2 operations).\n"
    );
    assert_eq!(code, 0);
    let (code, _, err) = run(
        dir.path(),
        &["check", "x.yaml", "--stdin-filename", "a.yaml"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--stdin-filename names the document read from `-`"),
        "{err}"
    );
}

#[test]
fn documents_under_a_broken_configuration_are_listed_as_skipped() {
    let dir = tree(&[
        ("ok/api.yaml", UNKEYED),
        ("bad/api.yaml", UNKEYED),
        ("bad/more.yaml", UNKEYED),
        (
            "bad/.idemlint.yaml",
            "rules: {missing-idempotency-kye: off}\n",
        ),
    ]);
    let (code, out, _) = run(dir.path(), &["check", ".", "--format", "json"]);
    assert_eq!(code, 2);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["errors"][0]["kind"], "configuration");
    assert_eq!(json["errors"][0]["file"], "bad/.idemlint.yaml");
    assert_eq!(
        json["skipped"],
        serde_json::json!([
            {"file": "bad/api.yaml", "reason": "its configuration bad/.idemlint.yaml has errors"},
            {"file": "bad/more.yaml", "reason": "its configuration bad/.idemlint.yaml has errors"},
        ])
    );
    assert_eq!(json["summary"]["files"], 1);
    let (_, out, _) = run(dir.path(), &["check", ".", "--format", "concise"]);
    assert!(
        out.ends_with(
            "in 1 file (3 operations). 1 error in configuration files: 2 documents not linted.\n"
        ),
        "{out}"
    );
}

#[test]
fn statistics_count_findings_per_rule() {
    let dir = tree(&[("a.yaml", UNKEYED), ("b.yaml", UNKEYED)]);
    let (code, out, _) = run(dir.path(), &["check", ".", "--statistics"]);
    assert_eq!(code, 1, "exit codes as without --statistics");
    assert_eq!(
        out,
        "2  error    missing-idempotency-key  POST that changes state but accepts no idempotency key \
         [*]\n\
         2  warning  missing-idempotency-key  POST that changes state but accepts no idempotency key \
         [*]\n\
         2  warning  unprotected-patch        PATCH with neither an idempotency key nor an If-Match \
         precondition [*]\n\
         Found 6 problems (2 errors, 4 warnings) in 2 files (6 operations).\n\
         6 fixes available with --fix --unsafe-fixes (they change the contract clients see).\n"
    );
    let (_, out, _) = run(
        dir.path(),
        &[
            "check",
            ".",
            "--statistics",
            "--format",
            "json",
            "--ignore",
            "unprotected-patch",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        json,
        serde_json::json!([
            {
                "rule": "missing-idempotency-key",
                "severity": "error",
                "count": 2,
                "fixable": 2,
                "summary": "POST that changes state but accepts no idempotency key"
            },
            {
                "rule": "missing-idempotency-key",
                "severity": "warning",
                "count": 2,
                "fixable": 2,
                "summary": "POST that changes state but accepts no idempotency key"
            }
        ])
    );
    let (code, _, err) = run(
        dir.path(),
        &["check", ".", "--statistics", "--format", "sarif"],
    );
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --statistics prints text or json, not --format sarif\n"
    );
}

#[test]
fn quiet_prints_the_findings_and_nothing_else() {
    let dir = tree(&[
        ("a.yaml", UNKEYED),
        ("bad/.idemlint.yaml", "rulez: {}\n"),
        ("bad/b.yaml", UNKEYED),
    ]);
    let (code, out, err) = run(
        dir.path(),
        &["check", "a.yaml", "-q", "--format", "concise"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "a.yaml:4:14: error[missing-idempotency-key] POST /refunds moves money (path word \
         `refunds`) without an idempotency key: a retry after a lost response can move (or \
         record) the money twice (no POST operation of this API declares one: if the API \
         accepts a key, declare it in the description)\n\
         a.yaml:5:8: warning[missing-idempotency-key] POST /b has no idempotency key: a retry \
         after a lost response is processed again and can leave a duplicate (no POST operation \
         of this API declares one: if the API accepts a key, declare it in the description)\n\
         a.yaml:6:8: warning[unprotected-patch] PATCH /c has neither an idempotency key nor an \
         If-Match precondition: a retry can overwrite a concurrent change or apply twice\n"
    );
    assert_eq!(err, "");
    let (_, out, _) = run(
        dir.path(),
        &["check", "a.yaml", "--quiet", "--color", "never"],
    );
    assert!(out.contains("POST /b has no idempotency key"), "{out}");
    assert!(!out.contains("Found "), "{out}");
    // Errors are still printed, with their kind.
    let (code, out, _) = run(dir.path(), &["check", "bad", "-q", "--format", "concise"]);
    assert_eq!(code, 2);
    assert_eq!(
        out,
        "bad/.idemlint.yaml:1:1: error[configuration] unknown setting `rulez`; \
         did you mean `rules`?\n"
    );
    let (code, _, err) = run(
        dir.path(),
        &["check", "a.yaml", "-q", "--write-baseline", "base.json"],
    );
    assert_eq!(code, 0);
    assert_eq!(err, "", "no note about the baseline written");
}
