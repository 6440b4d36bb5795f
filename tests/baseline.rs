//! Baselines: adopt idemlint on an API with findings, then see only new ones, however the
//! document moves.

use assert_cmd::Command;

#[path = "support/example.rs"]
mod example;

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
    let original = example::text();
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

    // A new problem is reported, and only it: an unkeyed POST that moves money, an error.
    let new = moved.replacen(
        "  /health:\n",
        "  /charges:\n    post:\n      responses:\n        '201': {description: Created}\n  /health:\n",
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
        lines[0].contains("error[missing-idempotency-key] POST /charges moves money"),
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
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("baseline b.json: format version 7 is not supported")
    );
}

fn run_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .unwrap()
}

/// `check SPEC --baseline BASELINE --format concise`, run in `dir`.
fn against_baseline(dir: &std::path::Path, spec: &str, baseline: &str) -> std::process::Output {
    run_in(dir, &[spec, "--baseline", baseline, "--format", "concise"])
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `repo/api/payments.yaml`, the example spec (see `support/example.rs`), in a fresh folder (no git work tree: baselines
/// must not need one).
fn project() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = std::fs::canonicalize(dir.path()).unwrap().join("repo");
    std::fs::create_dir_all(repo.join("api")).unwrap();
    std::fs::write(repo.join("api/payments.yaml"), example::text()).unwrap();
    (dir, repo)
}

#[test]
fn a_baseline_matches_from_any_folder_and_any_spelling_of_the_path() {
    let (_dir, repo) = project();
    let out = run_in(
        &repo,
        &[
            "api/payments.yaml",
            "--write-baseline",
            ".idemlint-baseline.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "Wrote 5 findings to the baseline .idemlint-baseline.json.\n"
    );
    let written: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join(".idemlint-baseline.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(written["version"], 2);
    let entries = written["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 5);
    assert!(
        entries.iter().all(|e| e["file"] == "api/payments.yaml"),
        "paths are relative to the baseline's folder: {written:#}"
    );
    assert_eq!(entries[0]["pointer"], "/paths/~1refunds/post");

    let abs = repo.join("api/payments.yaml");
    let dotted = format!("{}/api/../api/./payments.yaml", repo.display());
    let baseline_abs = repo.join(".idemlint-baseline.json");
    let parent = repo.parent().unwrap();
    let api = repo.join("api");
    let runs: [(&std::path::Path, &str, &str); 5] = [
        (&repo, "./api/payments.yaml", ".idemlint-baseline.json"),
        (&api, "payments.yaml", "../.idemlint-baseline.json"),
        (&api, abs.to_str().unwrap(), baseline_abs.to_str().unwrap()),
        (
            parent,
            "repo/api/payments.yaml",
            "repo/.idemlint-baseline.json",
        ),
        (parent, &dotted, "./repo/../repo/.idemlint-baseline.json"),
    ];
    for (cwd, spec, baseline) in runs {
        let out = run_in(cwd, &[spec, "--format", "concise", "--baseline", baseline]);
        assert_eq!(
            (out.status.code(), text(&out.stdout).trim()),
            (
                Some(0),
                "No problems found in 1 file (10 operations). 5 suppressed."
            ),
            "from {} with {spec} and {baseline}: {}",
            cwd.display(),
            text(&out.stderr)
        );
        assert_eq!(text(&out.stderr), "", "every entry matched: nothing to say");
    }
}

#[test]
fn hand_written_paths_are_normalised_before_matching() {
    let (_dir, repo) = project();
    run_in(&repo, &["api/payments.yaml", "--write-baseline", "b.json"]);
    let original = std::fs::read_to_string(repo.join("b.json")).unwrap();
    let abs = repo.join("api/payments.yaml");
    // An absolute path, `./` and `..`: each entry spelt another way.
    let edited = original
        .replacen(
            "\"file\": \"api/payments.yaml\"",
            &format!("\"file\": \"{}\"", abs.display()),
            1,
        )
        .replacen(
            "\"file\": \"api/payments.yaml\"",
            "\"file\": \"./api/payments.yaml\"",
            1,
        )
        .replacen(
            "\"file\": \"api/payments.yaml\"",
            "\"file\": \"api/../api/payments.yaml\"",
            1,
        );
    assert_eq!(edited.matches("\"file\": \"api/payments.yaml\"").count(), 2);
    std::fs::write(repo.join("b.json"), edited).unwrap();
    let out = against_baseline(&repo, "api/payments.yaml", "b.json");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("5 suppressed"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn stale_entries_are_reported_and_a_baseline_that_matches_nothing_is_a_warning() {
    let (_dir, repo) = project();
    run_in(&repo, &["api/payments.yaml", "--write-baseline", "b.json"]);
    // Fix the unkeyed POST /refunds: its entry no longer matches anything.
    let spec = repo.join("api/payments.yaml");
    let fixed = std::fs::read_to_string(&spec).unwrap().replacen(
        "  /refunds:\n    post:\n",
        "  /refunds:\n    post:\n      x-idempotency: false\n",
        1,
    );
    std::fs::write(&spec, fixed).unwrap();
    let out = against_baseline(&repo, "api/payments.yaml", "b.json");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout).trim(),
        "No problems found in 1 file (10 operations). 4 suppressed."
    );
    assert_eq!(
        text(&out.stderr),
        "note: 1 baseline entry is stale (no such finding any more): `missing-idempotency-key` \
         in api/payments.yaml at /paths/~1refunds/post; rerun --write-baseline to drop it.\n"
    );
    // `-q` says nothing but the findings; JSON carries the same.
    let quiet = run_in(&repo, &["api/payments.yaml", "--baseline", "b.json", "-q"]);
    assert_eq!(text(&quiet.stderr), "");
    let json = run_in(
        &repo,
        &[
            "api/payments.yaml",
            "--baseline",
            "b.json",
            "--format",
            "json",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        report["baseline"],
        serde_json::json!({
            "file": "b.json",
            "entries": 5,
            "matched": 4,
            "stale": [{
                "rule": "missing-idempotency-key",
                "file": "api/payments.yaml",
                "pointer": "/paths/~1refunds/post",
                "message": "POST /refunds moves money (path word `refunds`) without an \
                            idempotency key: a retry after a lost response can move (or record) \
                            the money twice (3 of 3 other POST operations declare one, e.g. \
                            header `Idempotency-Key`)",
            }],
        })
    );

    // The spec moves to another folder: nothing matches, and every finding is new again.
    std::fs::create_dir(repo.join("v2")).unwrap();
    std::fs::rename(&spec, repo.join("v2/payments.yaml")).unwrap();
    let out = against_baseline(&repo, "v2/payments.yaml", "b.json");
    assert_eq!(
        out.status.code(),
        Some(0),
        "the four left are warnings and infos"
    );
    let shown = text(&out.stdout);
    assert_eq!(
        shown
            .lines()
            .filter(|l| l.starts_with("v2/payments.yaml:"))
            .count(),
        4,
        "{shown}"
    );
    assert_eq!(
        text(&out.stderr),
        "warning: baseline b.json matched no finding: none of the files its 5 entries name \
         exists (the first: api/payments.yaml); paths in a baseline are relative to its folder. \
         Rerun --write-baseline if the files moved.\n"
    );
}

/// A hook lints only the changed files, and `--select` only some rules: the entries of other
/// files and rules are not stale, only out of this run's sight.
#[test]
fn entries_the_run_did_not_look_for_are_not_stale() {
    let (_dir, repo) = project();
    std::fs::write(repo.join("api/other.yaml"), example::text()).unwrap();
    run_in(&repo, &["api", "--write-baseline", "b.json"]);
    let written = std::fs::read_to_string(repo.join("b.json")).unwrap();
    assert_eq!(written.matches("\"file\": \"api/other.yaml\"").count(), 5);

    let only_one = against_baseline(&repo, "api/payments.yaml", "b.json");
    assert_eq!(only_one.status.code(), Some(0));
    assert!(
        text(&only_one.stdout).contains("5 suppressed"),
        "{}",
        text(&only_one.stdout)
    );
    assert_eq!(
        text(&only_one.stderr),
        "",
        "other.yaml's entries are not stale"
    );

    let one_rule = run_in(
        &repo,
        &[
            "api",
            "--baseline",
            "b.json",
            "--select",
            "unprotected-patch",
            "--format",
            "concise",
        ],
    );
    assert_eq!(one_rule.status.code(), Some(0));
    assert_eq!(text(&one_rule.stderr), "", "the other rules did not run");

    // A file that does not parse is not linted: its entries are not stale either.
    std::fs::write(repo.join("api/other.yaml"), "openapi: 3.0.3\npaths: [\n").unwrap();
    let broken = against_baseline(&repo, "api", "b.json");
    assert_eq!(broken.status.code(), Some(2));
    assert_eq!(text(&broken.stderr), "");

    // A deleted file's entries are stale: nothing will ever match them again.
    std::fs::remove_file(repo.join("api/other.yaml")).unwrap();
    let deleted = against_baseline(&repo, "api", "b.json");
    assert_eq!(deleted.status.code(), Some(0));
    assert!(
        text(&deleted.stderr).starts_with(
            "note: 5 baseline entries are stale (no such finding any more): \
             `missing-idempotency-key` in api/other.yaml at /paths/~1refunds/post, "
        ),
        "{}",
        text(&deleted.stderr)
    );
}

/// A baseline reached through a symlink keeps its paths relative to the file itself, where
/// `--write-baseline` wrote it, so either name of it matches.
#[test]
fn a_baseline_behind_a_symlink_matches_by_either_name() {
    let (_dir, repo) = project();
    std::fs::create_dir(repo.join("ci")).unwrap();
    std::os::unix::fs::symlink("ci/baseline.json", repo.join("baseline.json")).unwrap();
    let out = run_in(
        &repo,
        &["api/payments.yaml", "--write-baseline", "baseline.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(repo.join("ci/baseline.json")).unwrap();
    assert!(
        written.contains("\"file\": \"../api/payments.yaml\""),
        "{written}"
    );
    for name in ["baseline.json", "ci/baseline.json"] {
        let out = against_baseline(&repo, "api/payments.yaml", name);
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(
            text(&out.stdout).contains("5 suppressed"),
            "{name}: {}",
            text(&out.stdout)
        );
        assert_eq!(text(&out.stderr), "", "{name}");
    }
}

#[test]
fn fingerprints_do_not_depend_on_the_working_directory_or_the_spelling() {
    let (_dir, repo) = project();
    let fingerprints = |cwd: &std::path::Path, spec: &str, extra: &[&str]| {
        let mut args = vec![spec, "--format", "json"];
        args.extend_from_slice(extra);
        let out = run_in(cwd, &args);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["fingerprint"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let abs = repo.join("api/payments.yaml");
    let abs = abs.to_str().unwrap();
    let parent = repo.parent().unwrap().to_path_buf();
    let api = repo.join("api");

    // In a git work tree the basis is the path from its top.
    std::fs::create_dir(repo.join(".git")).unwrap();
    let at_top = fingerprints(&repo, "api/payments.yaml", &[]);
    assert_eq!(at_top.len(), 5);
    assert_eq!(fingerprints(&repo, "./api/payments.yaml", &[]), at_top);
    assert_eq!(fingerprints(&api, "payments.yaml", &[]), at_top);
    assert_eq!(
        fingerprints(&parent, abs, &["--allow-outside-root"]),
        at_top
    );
    assert_eq!(
        fingerprints(&parent, "repo/api/../api/payments.yaml", &[]),
        at_top
    );

    // Outside one, the root (`--root`, else the working directory) is the basis.
    std::fs::remove_dir(repo.join(".git")).unwrap();
    if repo.ancestors().any(|a| a.join(".git").exists()) {
        eprintln!("note: the temporary folder is inside a git work tree; its fallback is untested");
        return;
    }
    assert_eq!(fingerprints(&repo, "api/payments.yaml", &[]), at_top);
    assert_eq!(fingerprints(&api, abs, &["--root", ".."]), at_top);
    assert_eq!(
        fingerprints(&parent, "repo/api/payments.yaml", &["--root", "repo"]),
        at_top
    );
}

#[test]
fn a_baseline_of_an_earlier_format_asks_to_be_written_anew() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("fixtures/clean/payments.yaml", dir.path().join("api.yaml")).unwrap();
    std::fs::write(
        dir.path().join("b.json"),
        r#"{"version": 1, "findings": [{"rule": "missing-idempotency-key", "fingerprint": "00", "file": "api.yaml", "message": "m"}]}"#,
    )
    .unwrap();
    let out = run_in(dir.path(), &["api.yaml", "--baseline", "b.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: baseline b.json: format version 1 is not supported (2 is); write it anew with \
         --write-baseline\n"
    );
}

/// A fragment shared by two documents holds findings of both. A run over one of them (a hook)
/// matches only its own: the other document's entries there are not stale.
#[test]
fn entries_in_a_shared_fragment_are_not_stale_when_one_document_is_linted() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(
        root.join("params.yaml"),
        "Key:\n  name: Idempotency-Key\n  in: header\n  required: false\n  description: A UUID; \
         keys are kept for 24 hours.\n  schema: {type: string, format: uuid, maxLength: 64}\n",
    )
    .unwrap();
    for name in ["api", "other"] {
        std::fs::write(
            root.join(format!("{name}.yaml")),
            format!(
                "openapi: 3.0.3\ninfo: {{title: {name}, version: '1'}}\npaths:\n  /{name}:\n    \
                 post:\n      parameters: [{{$ref: 'params.yaml#/Key'}}]\n      \
                 responses: {{'201': {{description: ok}}}}\n"
            ),
        )
        .unwrap();
    }
    run_in(
        &root,
        &["api.yaml", "other.yaml", "--write-baseline", "b.json"],
    );
    let written = std::fs::read_to_string(root.join("b.json")).unwrap();
    assert_eq!(
        written.matches("\"file\": \"params.yaml\"").count(),
        2,
        "{written}"
    );
    let out = against_baseline(&root, "other.yaml", "b.json");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stderr),
        "",
        "api.yaml's entry in params.yaml is not stale"
    );
    // Once the fragment's problem is fixed, its entries are stale, whichever document is linted.
    let params = std::fs::read_to_string(root.join("params.yaml")).unwrap();
    std::fs::write(
        root.join("params.yaml"),
        params.replace("required: false", "required: true"),
    )
    .unwrap();
    let out = against_baseline(&root, "other.yaml", "b.json");
    assert_eq!(
        text(&out.stderr),
        "note: 2 baseline entries are stale (no such finding any more): \
         `idempotency-key-optional` in params.yaml at /Key/required, \
         `idempotency-key-optional` in params.yaml at /Key/required; rerun --write-baseline to \
         drop them.\n"
    );
}

/// A baseline of another service of a monorepo names files that exist, just not these: said in
/// a note, since every finding is reported as new.
#[test]
fn a_baseline_that_names_none_of_the_files_linted_says_so() {
    let (_dir, repo) = project();
    std::fs::create_dir(repo.join("billing")).unwrap();
    std::fs::write(repo.join("billing/api.yaml"), example::text()).unwrap();
    run_in(
        &repo,
        &["api/payments.yaml", "--write-baseline", "api/baseline.json"],
    );
    let out = against_baseline(&repo, "billing/api.yaml", "api/baseline.json");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "note: baseline api/baseline.json matched no finding: its 5 entries name none of the \
         files linted here (paths in a baseline are relative to its folder).\n"
    );
}

/// Findings of several operations on one shared place (an optional key parameter component)
/// are told apart by their operation: one going away leaves the others' fingerprints as they
/// were (a counter in order of place would renumber them).
#[test]
fn fingerprints_on_a_shared_place_survive_another_operation_going_away() {
    let spec = |paths: &[&str]| {
        let mut text = shared_key_spec("Shared key");
        for p in paths {
            text.push_str(&format!(
                "  /{p}:\n    post:\n      summary: Create a {p}\n      parameters: [{{$ref: '#/components/parameters/Key'}}]\n\
                 \x20     requestBody: {{content: {{application/json: {{schema: {{type: object, properties: {{note: {{type: string}}}}}}}}}}}}\n\
                 \x20     responses:\n        '201': {{description: Created}}\n        '409': {{description: In progress}}\n        '422': {{description: Another payload}}\n"
            ));
        }
        text
    };
    let dir = tempfile::tempdir().unwrap();
    let fingerprints = |paths: &[&str]| {
        optional_key_findings(dir.path(), &spec(paths))
            .iter()
            .map(|f| {
                (
                    f["operation"]["path"].as_str().unwrap().to_string(),
                    f["fingerprint"].as_str().unwrap().to_string(),
                )
            })
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let three = fingerprints(&["notes", "tasks", "lists"]);
    assert_eq!(three.len(), 3, "{three:?}");
    let two = fingerprints(&["tasks", "lists"]);
    assert_eq!(two.len(), 2, "{two:?}");
    for (path, print) in &two {
        assert_eq!(three.get(path), Some(print), "{path}");
    }
}

/// A finding at its operation's own method key keeps the fingerprint of rule, file and pointer
/// alone, the one README shows for the example's `POST /refunds`: code scanning alerts of
/// earlier builds stay the same alerts.
#[test]
fn a_finding_at_its_operation_keeps_the_fingerprint_readme_shows() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    example::write(dir.path());
    let out = run_in(dir.path(), &[example::EXAMPLE, "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let refunds = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["operation"]["path"] == "/refunds")
        .expect("a finding of POST /refunds");
    let shown = "14f02d1b0522a1193b3b5ebb57e52f10";
    assert_eq!(refunds["fingerprint"], shown);
    let readme = std::fs::read_to_string("README.md").unwrap();
    assert!(readme.contains(&format!("\"fingerprint\": \"{shown}\"")));
}

/// Two callbacks with one URL expression that share a parameter component are told apart by
/// where their method keys are: one going away leaves the other's fingerprint as it was.
#[test]
fn fingerprints_tell_callbacks_with_one_url_apart() {
    let callback = |name: &str| {
        format!(
            "  /{name}:\n    post:\n      parameters: [{{$ref: '#/components/parameters/Key'}}]\n\
             \x20     requestBody: {{content: {{application/json: {{schema: {{type: object, properties: {{url: {{type: string}}}}}}}}}}}}\n\
             \x20     responses: {{'201': {{description: Created, headers: {{Retry-After: {{schema: {{type: integer}}}}}}}}, '409': {{description: In progress, headers: {{Retry-After: {{schema: {{type: integer}}}}}}}}, '422': {{description: Another payload}}}}\n\
             \x20     callbacks:\n        done:\n          '{{$request.body#/url}}':\n            post:\n\
             \x20             parameters: [{{$ref: '#/components/parameters/Key'}}]\n\
             \x20             requestBody: {{content: {{application/json: {{schema: {{type: object, properties: {{note: {{type: string}}}}}}}}}}}}\n\
             \x20             responses: {{'200': {{description: Received}}, '409': {{description: In progress, headers: {{Retry-After: {{schema: {{type: integer}}}}}}}}, '422': {{description: Another payload}}}}\n"
        )
    };
    let spec = |names: &[&str]| {
        let mut text = shared_key_spec("Callbacks");
        for n in names {
            text.push_str(&callback(n));
        }
        text
    };
    let dir = tempfile::tempdir().unwrap();
    let fingerprints = |names: &[&str]| {
        optional_key_findings(dir.path(), &spec(names))
            .iter()
            .map(|f| f["fingerprint"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let both = fingerprints(&["a", "b"]);
    assert_eq!(both.len(), 4, "{both:?}");
    let second = fingerprints(&["b"]);
    assert_eq!(second.len(), 2, "{second:?}");
    for print in &second {
        assert!(both.contains(print), "{print} not in {both:?}");
    }
}

/// The head of a spec whose operations share an optional `Idempotency-Key` parameter component
/// (`#/components/parameters/Key`), up to its `paths:` key.
fn shared_key_spec(title: &str) -> String {
    format!(
        "openapi: 3.0.3\ninfo: {{title: {title}, version: 1.0.0}}\n\
         components:\n  parameters:\n    Key:\n      name: Idempotency-Key\n      in: header\n\
         \x20     required: false\n      description: Keys are kept for 24 hours.\n\
         \x20     schema: {{type: string, maxLength: 64}}\npaths:\n"
    )
}

/// The `idempotency-key-optional` findings of `text`, written to `dir/api.yaml` and checked
/// there as JSON.
fn optional_key_findings(dir: &std::path::Path, text: &str) -> Vec<serde_json::Value> {
    std::fs::write(dir.join("api.yaml"), text).unwrap();
    let out = run_in(
        dir,
        &[
            "api.yaml",
            "--format",
            "json",
            "--select",
            "idempotency-key-optional",
        ],
    );
    let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    report["findings"]
        .as_array_mut()
        .unwrap()
        .drain(..)
        .collect()
}
