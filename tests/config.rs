//! `.idemlint.yaml`, profiles, `--select`/`--ignore`: what a team tunes, and the errors it gets
//! when it mistypes.

use assert_cmd::Command;

const SPEC: &str = "\
openapi: 3.1.0
info: {title: Shop, version: '1'}
paths:
  /orders:
    post:
      parameters:
        - {name: Idempotency-Key, in: header, schema: {type: string, maxLength: 64, format: uuid}, description: Kept 24 hours.}
      responses:
        '201': {description: Created}
        '400': {description: Bad request}
        '409': {description: In progress, headers: {Retry-After: {schema: {type: integer}}}}
        '422': {description: Reused with a different payload}
  /legacy/carts:
    post:
      responses:
        '201': {description: Created}
";

/// A temporary project holding `api.yaml` and, when given, `.idemlint.yaml`.
fn project(config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), SPEC).unwrap();
    if let Some(c) = config {
        std::fs::write(dir.path().join(".idemlint.yaml"), c).unwrap();
    }
    dir
}

fn run(dir: &tempfile::TempDir, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "api.yaml", "--format", "concise"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn rules_in(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| Some(l.split_once('[')?.1.split_once(']')?.0.to_string()))
        .collect()
}

#[test]
fn defaults_without_a_configuration() {
    let dir = project(None);
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(
        code, 0,
        "an info and a warning (a plain create) do not fail by default: {out}"
    );
    assert_eq!(
        rules_in(&out),
        ["idempotency-key-optional", "missing-idempotency-key"],
        "{out}"
    );
    assert!(
        out.contains("api.yaml:14:5: warning[missing-idempotency-key]"),
        "{out}"
    );
}

#[test]
fn rule_levels_turn_rules_off_and_change_severity() {
    let dir = project(Some(
        "rules:\n  idempotency-key-optional: off\n  missing-idempotency-key: error\n",
    ));
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(
        code, 1,
        "the plain create's warning, raised to an error, fails: {out}"
    );
    assert!(
        out.starts_with("api.yaml:14:5: error[missing-idempotency-key]"),
        "{out}"
    );
    assert_eq!(rules_in(&out), ["missing-idempotency-key"]);
}

#[test]
fn a_mistyped_rule_id_is_an_error_at_its_line_and_column_with_the_closest_id() {
    let dir = project(Some(
        "# team settings\nrules:\n  idempotency-key-optional: off\n  missing-idempotency-keys: warning\n",
    ));
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(".idemlint.yaml:4:3: error[configuration] unknown rule `missing-idempotency-keys`; did you mean `missing-idempotency-key`?"),
        "{out}"
    );
    assert!(
        out.contains("in 0 files"),
        "files under a broken configuration are not linted: {out}"
    );
}

#[test]
fn unknown_settings_and_bad_values_are_errors_with_positions() {
    let dir = project(Some(
        "extend: stripe\nrules:\n  unprotected-patch: loud\nmin-ttl: soon\n",
    ));
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 2);
    assert!(out.contains(".idemlint.yaml:1:1: error[configuration] unknown setting `extend`; did you mean `extends`?"), "{out}");
    assert!(out.contains(".idemlint.yaml:3:22: error[configuration] rule `unprotected-patch` takes off, info, warning or error, not `loud`"), "{out}");
    assert!(out.contains(".idemlint.yaml:4:10: error[configuration] `min-ttl` takes whole seconds or a duration like `24h`, `90m`, `1 day` or `1d 12h`, not `soon`"), "{out}");
}

/// A configuration file with no settings (nothing, comments only, or YAML's null) is the
/// defaults, as ruff and ESLint read one: a team can create the file before filling it in.
#[test]
fn an_empty_configuration_is_the_defaults() {
    let (code, defaults, err) = run(&project(None), &[]);
    assert_eq!((code, &err[..]), (0, ""), "{defaults}");
    let (_, stripe, _) = run(&project(None), &["--profile", "stripe"]);
    assert_ne!(rules_in(&stripe), rules_in(&defaults), "{stripe}");
    for empty in [
        "",
        "\n",
        "# idemlint settings, to come\n",
        "# one\n\n   # two\n",
        "~\n",
        "null\n",
        "---\n",
        "--- # nothing yet\n...\n",
    ] {
        let dir = project(Some(empty));
        let (code, out, err) = run(&dir, &[]);
        assert_eq!((code, &out, &err[..]), (0, &defaults, ""), "{empty:?}");
        // `--profile` still applies over a file with nothing in it.
        let (code, out, err) = run(&dir, &["--profile", "stripe"]);
        assert_eq!(
            (code, &out, &err[..]),
            (0, &stripe, ""),
            "{empty:?} --profile stripe"
        );
        // Named with --config too.
        let (code, out, _) = run(&dir, &["--config", ".idemlint.yaml"]);
        assert_eq!((code, &out), (0, &defaults), "{empty:?} --config");
    }
}

/// `extends` is checked when `--profile` overrides it, so whether a file is valid does not
/// depend on the command line.
#[test]
fn a_wrong_extends_is_an_error_even_when_profile_wins_over_it() {
    let dir = project(Some("extends: stripes\n"));
    for args in [&[][..], &["--profile", "zalando"][..]] {
        let (code, out, _) = run(&dir, args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(
            out.contains(".idemlint.yaml:1:10: error[configuration] unknown profile `stripes`; did you mean `stripe`?"),
            "{args:?}: {out}"
        );
    }
    // A valid one is still overridden by the flag.
    let dir = project(Some("extends: google-aip\n"));
    let (_, with_flag, _) = run(&dir, &["--profile", "stripe"]);
    let (_, stripe, _) = run(&project(None), &["--profile", "stripe"]);
    assert_eq!(with_flag, stripe);
}

/// Values YAML reads as numbers or booleans, where names are wanted, and statuses and
/// durations the loader cannot read, are errors at their place that say what they are.
#[test]
fn values_of_the_wrong_kind_are_errors_that_say_what_they_are() {
    let dir = project(Some(
        "key-headers: [Idempotency-Key, 1, true]\nmismatch-status: '0422'\nmin-ttl: 1d, 12h\n\
         overrides:\n  - files: []\n    rules: {}\n",
    ));
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 2, "{out}");
    for error in [
        ".idemlint.yaml:1:32: error[configuration] `key-headers` lists words (non-empty strings), not the number 1; quote it ('1') to mean the text",
        ".idemlint.yaml:1:35: error[configuration] `key-headers` lists words (non-empty strings), not the boolean true; quote it ('true') to mean the text",
        ".idemlint.yaml:2:18: error[configuration] `mismatch-status` takes an HTTP status from 100 to 599, like 422, not `0422`",
        ".idemlint.yaml:3:10: error[configuration] `min-ttl` takes whole seconds or a duration like `24h`, `90m`, `1 day` or `1d 12h`, not `1d, 12h`",
        ".idemlint.yaml:5:12: error[configuration] `files` needs at least one glob; leave `files` out for every file",
    ] {
        assert!(out.contains(error), "{error}\nin:\n{out}");
    }
    // Unquoted, `0422` is YAML's integer 422, to idemlint as to an editor's schema.
    let dir = project(Some("mismatch-status: 0422\nmin-ttl: 1d 12h\n"));
    let (code, out, err) = run(&dir, &[]);
    assert_eq!((code, &err[..]), (0, ""), "{out}");
}

#[test]
fn profiles_change_carriers_and_what_is_worth_a_word() {
    // Stripe style: optional keys are normal.
    let dir = project(Some("extends: stripe\n"));
    let (_, out, _) = run(&dir, &[]);
    assert_eq!(rules_in(&out), ["missing-idempotency-key"], "{out}");
    // Google AIP-155: the key is a body `request_id`; this header is no key at all.
    let (_, out, _) = run(&dir, &["--profile", "google-aip"]);
    assert_eq!(
        rules_in(&out),
        ["missing-idempotency-key", "missing-idempotency-key"],
        "{out}"
    );
    // A mistyped `--profile` wins over nothing: it is a usage error even beside a valid file.
    let (code, out, err) = run(&dir, &["--profile", "stripes"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        err,
        "error: unknown profile `stripes`; did you mean `stripe`?\n"
    );
    assert_eq!(out, "", "nothing is linted");
}

#[test]
fn an_unknown_profile_on_the_command_line_is_a_usage_error_before_any_linting() {
    let dir = project(None);
    let (code, out, err) = run(&dir, &["--profile", "googel-aip"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(
        err,
        "error: unknown profile `googel-aip`; did you mean `google-aip`?\n"
    );
    assert_eq!(out, "", "no report, not even an empty one");
    let (code, _, err) = run(&dir, &["--profile", "acme"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: unknown profile `acme`; profiles: ietf, stripe, zalando, google-aip, azure\n"
    );
    // `review` checks it the same way, before reading the spec.
    for spec in ["api.yaml", "missing.yaml"] {
        let out = Command::cargo_bin("idemlint")
            .unwrap()
            .current_dir(dir.path())
            .args(["review", spec, "--profile", "strpe"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            "error: unknown profile `strpe`; did you mean `stripe`?\n"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn profile_names_are_case_insensitive() {
    let dir = project(None);
    let (code, lower, _) = run(&dir, &["--profile", "stripe"]);
    assert_eq!(code, 0, "a warning: {lower}");
    assert_eq!(rules_in(&lower), ["missing-idempotency-key"], "{lower}");
    for name in ["Stripe", "STRIPE"] {
        let (code, out, err) = run(&dir, &["--profile", name]);
        assert_eq!((code, &out, &err[..]), (0, &lower, ""), "--profile {name}");
    }
    // In a configuration file too, where the profile is then known by its own name.
    let dir = project(Some("extends: Zalando\n"));
    let (code, out, err) = run(&dir, &[]);
    assert_eq!((code, &out, &err[..]), (0, &lower, ""), "extends: Zalando");
    let config = idemlint::config::Config::load(
        &idemlint::files::Disk,
        &dir.path().join(".idemlint.yaml"),
        ".idemlint.yaml",
        None,
    )
    .unwrap();
    assert_eq!(config.profile, "zalando");
    assert_eq!(config.settings.mismatch_status, "400");
    let dir = project(Some("extends: Zalandoo\n"));
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 2);
    assert!(
        out.contains(".idemlint.yaml:1:10: error[configuration] unknown profile `Zalandoo`; did you mean `zalando`?"),
        "{out}"
    );
}

#[test]
fn overrides_apply_by_file_glob_and_pointer() {
    let dir = project(Some(
        "overrides:\n  - files: ['*.yaml']\n    pointer: /paths/~1legacy~1carts\n    rules: {missing-idempotency-key: off}\n",
    ));
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(rules_in(&out), ["idempotency-key-optional"], "{out}");
    // A pointer elsewhere leaves it alone.
    let dir = project(Some(
        "overrides:\n  - pointer: /paths/~1orders\n    rules: {missing-idempotency-key: off}\n",
    ));
    let (_, out, _) = run(&dir, &[]);
    assert!(
        rules_in(&out).contains(&"missing-idempotency-key".to_string()),
        "{out}"
    );
}

#[test]
fn select_and_ignore() {
    let dir = project(None);
    let (_, out, _) = run(&dir, &["--select", "idempotency-key-optional"]);
    assert_eq!(rules_in(&out), ["idempotency-key-optional"]);
    let (_, out, _) = run(
        &dir,
        &[
            "--ignore",
            "idempotency-key-optional,missing-idempotency-key",
        ],
    );
    assert!(rules_in(&out).is_empty(), "{out}");
    let (code, _, err) = run(&dir, &["--select", "missing-idempotency"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: unknown rule or category `missing-idempotency`; did you mean `missing-idempotency-key`?\n"
    );
}

/// One finding of each of four categories: retry-safety (two rules), key-lifetime (both of
/// its rules), rate-limit.
const CATEGORIES_SPEC: &str = "\
openapi: 3.1.0
info: {title: Shop, version: '1'}
paths:
  /orders:
    post:
      parameters:
        - {name: Idempotency-Key, in: header, required: true, schema: {type: string, maxLength: 64, format: uuid}, description: Kept 10 minutes.}
      responses:
        '201': {description: Created}
        '400': {description: No key}
        '409': {description: In progress, headers: {Retry-After: {schema: {type: integer}}}}
        '422': {description: Key reused}
        '429': {description: Slow down}
  /returns:
    post:
      parameters:
        - {name: Idempotency-Key, in: header, required: true, schema: {type: string, maxLength: 64, format: uuid}}
      responses:
        '201': {description: Created}
        '400': {description: No key}
        '409': {description: In progress, headers: {Retry-After: {schema: {type: integer}}}}
        '422': {description: Key reused}
  /carts:
    post:
      responses:
        '201': {description: Created}
  /carts/{id}:
    patch:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses:
        '200': {description: Updated}
";

#[test]
fn select_and_ignore_take_categories() {
    let dir = project(None);
    std::fs::write(dir.path().join("api.yaml"), CATEGORIES_SPEC).unwrap();
    let (_, all, _) = run(&dir, &[]);
    assert_eq!(
        rules_in(&all),
        [
            "short-key-ttl",
            "retry-after-missing",
            "undocumented-key-ttl",
            "missing-idempotency-key",
            "unprotected-patch"
        ],
        "{all}"
    );
    let (code, out, _) = run(&dir, &["--select", "key-lifetime"]);
    assert_eq!(code, 0, "a warning and an info: {out}");
    assert_eq!(
        out,
        "api.yaml:7:116: info[short-key-ttl] idempotency keys are kept 10 minutes, less than the 24 hours clients commonly retry within\n\
         api.yaml:17:12: warning[undocumented-key-ttl] idempotency key `Idempotency-Key` does not say how long keys are kept: clients cannot tell whether a late retry is still safe (draft §2.3)\n\
         Found 2 problems (1 warning, 1 info) in 1 file (4 operations).\n"
    );
    let (code, out, _) = run(&dir, &["--ignore", "retry-safety"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        rules_in(&out),
        [
            "short-key-ttl",
            "retry-after-missing",
            "undocumented-key-ttl"
        ],
        "{out}"
    );
    // Categories and ids mix, in one list or several, and `--ignore` still wins.
    let (_, out, _) = run(
        &dir,
        &[
            "--select",
            "retry-safety,short-key-ttl",
            "--select",
            "rate-limit",
            "--ignore",
            "unprotected-patch",
        ],
    );
    assert_eq!(
        rules_in(&out),
        [
            "short-key-ttl",
            "retry-after-missing",
            "missing-idempotency-key"
        ],
        "{out}"
    );
    // A near miss of a category is suggested like a near miss of an id; a name near nothing
    // lists the categories.
    let (code, out, err) = run(&dir, &["--select", "key-lifetim"]);
    assert_eq!((code, &out[..]), (2, ""));
    assert_eq!(
        err,
        "error: unknown rule or category `key-lifetim`; did you mean `key-lifetime`?\n"
    );
    let (code, _, err) = run(&dir, &["--ignore", "retry-safety,frobnicate"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: unknown rule or category `frobnicate`; categories: retry-safety, key-design, \
         concurrency, response-contract, key-lifetime, update-semantics, rate-limit, document, \
         contract-change, runtime; \
         `idemlint rules` lists the rules\n"
    );
}

#[test]
fn every_category_of_the_rule_docs_selects_exactly_its_rules() {
    use idemlint::rules::{RULES, categories, expand_selector, meta};
    let cats = categories();
    assert_eq!(
        cats,
        [
            "retry-safety",
            "key-design",
            "concurrency",
            "response-contract",
            "key-lifetime",
            "update-semantics",
            "rate-limit",
            "document",
            "contract-change",
            "runtime"
        ]
    );
    for c in &cats {
        let ids = expand_selector(c).unwrap();
        let expected: Vec<&str> = RULES
            .iter()
            .map(|r| r.id.as_str())
            .filter(|id| meta(id).category == *c)
            .collect();
        assert_eq!(ids, expected, "{c}");
    }
    assert_eq!(expand_selector("short-key-ttl").unwrap(), ["short-key-ttl"]);
    assert_eq!(expand_selector("Key-Lifetime"), None, "names are exact");
}

#[test]
fn config_flag_names_one_file_for_every_input() {
    let dir = project(None);
    std::fs::write(
        dir.path().join("strict.yaml"),
        "rules: {idempotency-key-optional: error}\n",
    )
    .unwrap();
    let (code, out, _) = run(&dir, &["--config", "strict.yaml"]);
    assert_eq!(code, 1);
    assert!(out.contains("error[idempotency-key-optional]"), "{out}");
}

#[test]
fn the_readme_example_configuration_loads() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let after = &readme[readme
        .find("A complete example:")
        .expect("README has the example")..];
    let start = after.find("```yaml\n").unwrap() + "```yaml\n".len();
    let end = after[start..].find("```").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".idemlint.yaml");
    std::fs::write(&path, &after[start..start + end]).unwrap();
    let config =
        idemlint::config::Config::load(&idemlint::files::Disk, &path, ".idemlint.yaml", None)
            .expect("loads");
    assert_eq!(config.profile, "stripe");
    assert_eq!(
        config.settings.key_headers,
        ["Idempotency-Key", "X-Request-Key"]
    );
    assert_eq!(config.settings.min_ttl_seconds, 24 * 3600);
    assert_eq!(config.overrides.len(), 2);
}

#[test]
fn a_relative_config_path_keeps_its_globs_and_star_stays_in_one_folder() {
    let dir = project(None);
    std::fs::create_dir_all(dir.path().join("legacy/v1")).unwrap();
    std::fs::write(dir.path().join("legacy/v1/old.yaml"), SPEC).unwrap();
    std::fs::write(
        dir.path().join("cfg.yaml"),
        "overrides:\n  - files: ['./*.yaml']\n    rules: {missing-idempotency-key: error}\n",
    )
    .unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "check", "api.yaml", "legacy", "--config", "cfg.yaml", "--format", "concise",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.contains("api.yaml:14:5: error[missing-idempotency-key]"),
        "`*.yaml` matches api.yaml: {out}"
    );
    assert!(
        out.contains("legacy/v1/old.yaml:14:5: warning[missing-idempotency-key]"),
        "but not legacy/v1/old.yaml: {out}"
    );
}

#[test]
fn a_setting_given_twice_is_an_error() {
    let dir = project(Some(
        "rules: {short-key-ttl: off}\nrules: {short-key-ttl: error}\n",
    ));
    let (code, out, _) = run(&dir, &[]);
    assert_eq!(code, 2);
    assert!(
        out.contains(
            ".idemlint.yaml:2:1: error[configuration] `rules` is set twice; the first is at line 1"
        ),
        "{out}"
    );
}

#[test]
fn suppressions_of_rules_turned_off_are_not_stale() {
    let dir = project(Some("rules: {idempotency-key-optional: off}\n"));
    let spec = SPEC.replace("    post:\n      parameters:", "    post:\n      x-idemlint-ignore: {idempotency-key-optional: optional by design}\n      parameters:");
    std::fs::write(dir.path().join("api.yaml"), spec).unwrap();
    let (_, out, _) = run(&dir, &["--ignore", " missing-idempotency-key "]);
    assert!(!out.contains("unused-suppression"), "{out}");
    assert!(out.contains("No problems found"), "{out}");
}

/// Asserts that the suppression `written` under the POST of `/legacy/carts`, which never spells
/// `x-idemlint-ignore` in the text, silences its `missing-idempotency-key`.
fn assert_suppression_read_as_the_key(written: &str) {
    let dir = project(None);
    let spec = SPEC.replace(
        "  /legacy/carts:\n    post:\n",
        &format!("  /legacy/carts:\n    post:\n{written}"),
    );
    assert!(!spec.contains("x-idemlint-ignore"));
    std::fs::write(dir.path().join("api.yaml"), spec).unwrap();
    let (_, out, _) = run(&dir, &[]);
    assert!(
        !rules_in(&out).contains(&"missing-idempotency-key".to_string()),
        "{out}"
    );
    assert!(out.contains("1 suppressed"), "{out}");
}

#[test]
fn a_suppression_spelled_with_escapes_still_silences() {
    // `x-idemlint-ignore` written with a YAML escape: the text never spells the extension, yet
    // the key is the extension once read.
    assert_suppression_read_as_the_key(
        "      \"x-idemlint-\\x69gnore\": {missing-idempotency-key: carts are throwaway}\n",
    );
}

#[test]
fn a_suppression_key_split_by_an_escaped_line_break_still_silences() {
    // A double-quoted YAML key continued on the next line with `\` joins its halves with nothing
    // between: the text never spells the extension, the key does.
    assert_suppression_read_as_the_key(
        "      ? \"x-idemlint-\\\n        ignore\"\n      : {missing-idempotency-key: carts are throwaway}\n",
    );
}

/// A path file shared by two documents, each under its own configuration: its finding is
/// reported once, as the first document in plan order (by name) sees it, whatever the sizes of
/// the files (they are linted largest first).
#[test]
fn a_shared_file_is_reported_as_the_first_document_sees_it_whatever_the_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(
        shared.join("paths.yaml"),
        "orders: {post: {summary: Create an order, requestBody: {content: {application/json: \
         {schema: {type: object, properties: {item: {type: string}}}}}}, responses: {'201': \
         {description: created}}}}\n",
    )
    .unwrap();
    let root = |name: &str, padding: usize| {
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("api.yaml"),
            format!(
                "openapi: 3.0.0\ninfo: {{title: Shop, version: '1', description: '{}'}}\n\
                 paths: {{/orders: {{$ref: '../shared/paths.yaml#/orders'}}}}\n",
                "x".repeat(padding)
            ),
        )
        .unwrap();
        folder
    };
    // `a` comes first and raises the rule to an error; `b`, larger, is linted first.
    let a = root("a", 0);
    std::fs::write(
        a.join(".idemlint.yaml"),
        "rules: {missing-idempotency-key: error}\n",
    )
    .unwrap();
    root("b", 20_000);
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", ".", "--format", "concise"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let shared_lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("missing-idempotency-key"))
        .collect();
    assert_eq!(shared_lines.len(), 1, "{stdout}");
    assert!(
        shared_lines[0].contains("error[missing-idempotency-key]"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1), "{stdout}");
}
