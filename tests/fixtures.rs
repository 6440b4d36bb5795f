//! Snapshot tests of the rules' fixtures, one test a rule, named after it (`cargo test --test
//! fixtures missing_idempotency_key`). Each fixture under `fixtures/rules/<id>/` is linted with only
//! its folder's rule selected (a few rules need others beside them: [`ALSO_SELECTED`]), and that
//! rule's findings (line, column, severity, message, then the summary line) are compared with the
//! stored snapshot `tests/snapshots/fixtures__<id>__<file>.snap`, so another rule's change does
//! not touch it. The findings must be those a run of every rule gives; `bad_*` files must raise
//! the rule, `good_*` files must not, and every file must load without errors. A
//! `bad_<name>.fixed.<ext>` beside a fixture is no fixture: it is the fixture with the rule's fixes
//! applied ([`expected_fixed`]).
//!
//! A contract-change rule compares two versions of a spec: each of its fixtures is the version
//! after a change, and `<same stem>.base.<ext>` beside it the version before; the fixture is
//! linted against it as `idemlint diff BASE FIXTURE` does ([`contract_report`]).

mod common;

use std::path::{Path, PathBuf};

use idemlint::change::Version;
use idemlint::lint::Options;
use idemlint::report::Report;
use idemlint::rules::RULES;

/// One `#[test]` a rule, named after its id in snake case, and [`TESTED`], the list of them.
macro_rules! rule_tests {
    ($($name:ident: $id:literal,)*) => {
        $(
            #[test]
            fn $name() {
                check_rule($id);
            }
        )*

        /// Each rule test's name and rule id.
        const TESTED: &[(&str, &str)] = &[$((stringify!($name), $id)),*];
    };
}

rule_tests! {
    missing_idempotency_key: "missing-idempotency-key",
    unprotected_patch: "unprotected-patch",
    money_movement_optional_key: "money-movement-optional-key",
    idempotency_key_optional: "idempotency-key-optional",
    idempotency_key_schema: "idempotency-key-schema",
    idempotency_key_fixed_value: "idempotency-key-fixed-value",
    idempotency_key_location: "idempotency-key-location",
    idempotency_key_on_safe_method: "idempotency-key-on-safe-method",
    inconsistent_idempotency_key: "inconsistent-idempotency-key",
    missing_conflict_response: "missing-conflict-response",
    conflict_without_retry_after: "conflict-without-retry-after",
    missing_mismatch_response: "missing-mismatch-response",
    missing_missing_key_response: "missing-missing-key-response",
    replay_reported_as_error: "replay-reported-as-error",
    server_error_for_concurrency: "server-error-for-concurrency",
    undocumented_key_ttl: "undocumented-key-ttl",
    short_key_ttl: "short-key-ttl",
    incremental_update: "incremental-update",
    non_idempotent_put: "non-idempotent-put",
    json_patch_without_precondition: "json-patch-without-precondition",
    missing_precondition_on_update: "missing-precondition-on-update",
    retry_after_missing: "retry-after-missing",
    retry_after_schema: "retry-after-schema",
    repeatability_headers_incomplete: "repeatability-headers-incomplete",
    unresolved_ref: "unresolved-ref",
    remote_ref_not_fetched: "remote-ref-not-fetched",
    duplicate_key: "duplicate-key",
    invalid_structure: "invalid-structure",
    invalid_extension: "invalid-extension",
    unused_suppression: "unused-suppression",
    idempotency_key_removed: "idempotency-key-removed",
    idempotency_key_made_optional: "idempotency-key-made-optional",
    conflict_response_removed: "conflict-response-removed",
    retry_after_removed: "retry-after-removed",
    mismatch_response_removed: "mismatch-response-removed",
    key_ttl_shortened: "key-ttl-shortened",
    if_match_removed: "if-match-removed",
    became_relative: "became-relative",
}

/// Every rule has its test above, so a new rule cannot be left without one.
#[test]
fn every_rule_has_a_fixture_test() {
    for (name, id) in TESTED {
        assert_eq!(
            name.replace('_', "-"),
            *id,
            "the test of `{id}` is named `{name}`"
        );
    }
    let mut tested: Vec<&str> = TESTED.iter().map(|(_, id)| *id).collect();
    // (The runtime rules judge a running server: tests/probe.rs tests them against servers.)
    let mut rules: Vec<&str> = RULES
        .iter()
        .filter(|r| !r.id.is_runtime())
        .map(|r| r.id.as_str())
        .collect();
    tested.sort_unstable();
    rules.sort_unstable();
    assert_eq!(
        tested, rules,
        "each rule needs a line in `rule_tests!` (and each line a rule)"
    );
    for (rule, beside) in ALSO_SELECTED {
        for id in std::iter::once(rule).chain(beside.iter()) {
            assert!(
                rules.contains(id),
                "ALSO_SELECTED names unknown rule `{id}`"
            );
        }
    }
}

/// Rules selected beside a rule when its fixtures are linted, each line with why. Their own
/// findings are left out of the snapshot, whose summary still counts their suppressed findings
/// ("N suppressed"); the rules they need are selected in turn. A rule whose findings change when
/// every rule runs fails [`check_rule`] until it is given its line here.
const ALSO_SELECTED: &[(&str, &[&str])] = &[
    // Shadowing: a finding of these rules about an operation that one of the rules named reports
    // too is dropped, since that rule says more (the `shadowed_by` of each rule's diagnostics).
    // Alone, the rule would report operations no run of every rule shows it on. (No fixture of
    // `unprotected-patch` has such an operation today; the others' do.)
    ("idempotency-key-optional", &["money-movement-optional-key"]),
    ("incremental-update", &["missing-idempotency-key"]),
    (
        "money-movement-optional-key",
        &[
            "missing-idempotency-key",
            "unprotected-patch",
            "incremental-update",
            "json-patch-without-precondition",
        ],
    ),
    (
        "unprotected-patch",
        &["incremental-update", "json-patch-without-precondition"],
    ),
    // A suppression is reported as silencing nothing only when the rule it names runs: these are
    // the rules the fixtures' suppressions name.
    (
        "unused-suppression",
        &["missing-idempotency-key", "unprotected-patch"],
    ),
    // The fixtures show that each form of `x-idemlint-ignore` the rule accepts still silences
    // the rules it names, which the snapshot's "N suppressed" counts: these are those rules.
    (
        "invalid-extension",
        &[
            "missing-idempotency-key",
            "missing-conflict-response",
            "missing-mismatch-response",
        ],
    ),
];

/// `rule`, then the rules selected beside it ([`ALSO_SELECTED`]), and theirs in turn.
fn selection(rule: &str) -> Vec<String> {
    let mut out = vec![rule.to_string()];
    let mut i = 0;
    while i < out.len() {
        let beside = ALSO_SELECTED
            .iter()
            .find(|(r, _)| *r == out[i])
            .map_or(&[][..], |(_, beside)| *beside);
        for id in beside {
            if !out.iter().any(|o| o == id) {
                out.push(id.to_string());
            }
        }
        i += 1;
    }
    out
}

/// The category of the rules that compare two versions of a spec.
const CONTRACT_CHANGE: &str = "contract-change";

/// Every contract-change rule: what `idemlint diff` runs.
fn contract_rules() -> Vec<String> {
    RULES
        .iter()
        .filter(|r| r.id.meta().category == CONTRACT_CHANGE)
        .map(|r| r.id.to_string())
        .collect()
}

/// The version before `fixture`: `<stem>.base.<ext>` beside it.
fn base_of(fixture: &Path) -> PathBuf {
    let stem = fixture.file_stem().unwrap().to_str().unwrap();
    let ext = fixture.extension().unwrap().to_str().unwrap();
    fixture.with_file_name(format!("{stem}.base.{ext}"))
}

/// `fixture` linted against its base, as `idemlint diff` does, with `select`.
fn contract_report(fixture: &Path, select: &[String]) -> Report {
    let base = base_of(fixture);
    assert!(
        base.is_file(),
        "{}: a contract-change fixture needs its version before the change, {}",
        fixture.display(),
        base.display()
    );
    idemlint::change::diff(
        &Version::File(base),
        &Version::File(fixture.to_path_buf()),
        &Options {
            select: select.to_vec(),
            ..Options::default()
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", fixture.display()))
}

/// Lints each fixture of `rule` with the rule selected (a contract-change rule's against its
/// base), checks its findings and compares them with the snapshot.
fn check_rule(rule: &str) {
    let select = selection(rule);
    let scoped = Options {
        select: select.clone(),
        ..Options::default()
    };
    let contract = idemlint::rules::meta(rule).category == CONTRACT_CHANGE;
    let (mut bad, mut good) = (0, 0);
    for file in fixtures(&Path::new("fixtures/rules").join(rule)) {
        let name = file.file_name().unwrap().to_str().unwrap();
        let path = file.to_str().unwrap();
        let mut report = if contract {
            contract_report(&file, &select)
        } else {
            assert!(
                !base_of(&file).exists(),
                "{}: only a contract-change rule's fixtures have a `.base` version",
                file.display()
            );
            common::lint_with(&[path], &scoped)
        };
        assert!(
            report.errors.is_empty(),
            "{}: {:?}",
            file.display(),
            report.errors
        );
        assert!(
            report
                .findings
                .iter()
                .all(|f| select.iter().any(|s| s == f.rule.as_str())),
            "{}: a rule that was not selected ran:\n{}",
            file.display(),
            common::concise(&report)
        );
        // The rules selected beside this one only decide its findings; the snapshot shows its own.
        report.findings.retain(|f| f.rule == rule);
        // Every rule that a run would run beside it: every rule, or for a change every
        // contract-change rule (what `idemlint diff` runs).
        let everything = if contract {
            contract_report(&file, &contract_rules())
        } else {
            common::lint(&[path])
        };
        assert_eq!(
            common::lines_of(&report, &[rule]),
            common::lines_of(&everything, &[rule]),
            "{}: `{rule}` finds otherwise (left) than when every rule runs (right): does it need \
             a rule beside it in ALSO_SELECTED?",
            file.display()
        );
        if name.starts_with("bad_") {
            bad += 1;
            assert!(
                !report.findings.is_empty(),
                "{} should raise {rule}",
                file.display()
            );
        } else {
            good += 1;
            assert!(
                report.findings.is_empty(),
                "{} should not raise {rule}:\n{}",
                file.display(),
                common::concise(&report)
            );
        }
        insta::assert_snapshot!(format!("{rule}__{name}"), common::concise(&report));
        if !contract {
            check_fixed(&file, &report, &scoped, rule);
        }
    }
    assert!(bad > 0 && good > 0, "{rule} needs bad_ and good_ fixtures");
}

/// The fixtures in `dir`: its `bad_*` and `good_*` YAML and JSON files, sorted, without the
/// `.fixed` files and the `.base` versions beside them.
fn fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("yaml" | "json")
            )
        })
        .collect();
    files.sort();
    files.retain(|p| {
        let stem = p.file_stem().unwrap().to_str().unwrap();
        if let Some(fixture) = stem.strip_suffix(".base") {
            let ext = p.extension().unwrap().to_str().unwrap();
            assert!(
                dir.join(format!("{fixture}.{ext}")).is_file(),
                "{}: a `.base` file goes beside the fixture it is the version before of",
                p.display()
            );
            return false;
        }
        if let Some(fixture) = stem.strip_suffix(".fixed") {
            let ext = p.extension().unwrap().to_str().unwrap();
            assert!(
                fixture.starts_with("bad_") && dir.join(format!("{fixture}.{ext}")).is_file(),
                "{}: a `.fixed` file goes beside the `bad_` fixture it fixes",
                p.display()
            );
            return false;
        }
        assert!(
            stem.starts_with("bad_") || stem.starts_with("good_"),
            "{}: fixture names start with bad_ or good_",
            p.display()
        );
        true
    });
    files
}

/// The fixture with its rule's fixes applied (safe and unsafe, in passes as `--fix
/// --unsafe-fixes` applies them, with the rules the fixture is linted with) must be its
/// `.fixed` file byte for byte; fixing that again changes nothing, and it raises none of the
/// findings that had a fix. A fixture whose findings have no fix has no `.fixed` file.
/// `IDEMLINT_UPDATE_FIXED=1` writes the `.fixed` files (read each before committing it).
fn check_fixed(fixture: &Path, report: &Report, scoped: &Options, rule: &str) {
    let fixable = report.findings.iter().any(|f| f.fix.is_some());
    let expected = expected_fixed(fixture);
    let update = std::env::var_os("IDEMLINT_UPDATE_FIXED").is_some();
    if !fixable {
        assert!(
            expected.is_none(),
            "{}: no finding has a fix, so there is no `.fixed` file",
            fixture.display()
        );
        return;
    }
    // The rule's folder, copied: a fixture may `$ref` its neighbours, and the fixes may change
    // them too (only the fixture's own result is compared).
    let dir = tempfile::tempdir().unwrap();
    copy_tree(fixture.parent().unwrap(), dir.path());
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let copy = root.join(fixture.file_name().unwrap());
    let opts = Options {
        root: Some(root.clone()),
        ..scoped.clone()
    };
    let mode = idemlint::fix::run::FixMode {
        unsafe_fixes: true,
        diff: false,
    };
    let fix = |path: &Path| idemlint::fix::run::run(&[path.to_path_buf()], &opts, None, mode);
    let (after, fixed) = fix(&copy);
    let text = fixed
        .changed
        .iter()
        .find(|c| c.path == copy)
        .map(|c| c.after.to_string())
        .unwrap_or_else(|| panic!("{}: its fixes changed nothing", fixture.display()));
    let name = fixture.file_name().unwrap().to_str().unwrap();
    let (stem, ext) = name.rsplit_once('.').unwrap();
    let fixed_path = fixture.with_file_name(format!("{stem}.fixed.{ext}"));
    if update {
        std::fs::write(&fixed_path, &text).unwrap();
    } else {
        let expected = expected.unwrap_or_else(|| {
            panic!(
                "{}: its findings have fixes, but there is no {} (IDEMLINT_UPDATE_FIXED=1 writes it)",
                fixture.display(),
                fixed_path.display()
            )
        });
        let want = std::fs::read_to_string(&expected).unwrap();
        assert!(
            text == want,
            "{}: the fixed text differs from {}:\n{}",
            fixture.display(),
            expected.display(),
            similar_lines(&want, &text)
        );
    }
    assert!(
        after.errors.is_empty(),
        "{}: {:?}",
        fixture.display(),
        after.errors
    );
    assert!(
        !after
            .findings
            .iter()
            .any(|f| f.rule == rule && f.fix.is_some()),
        "{}: a finding of {rule} with a fix is left after fixing:\n{}",
        fixture.display(),
        common::concise(&after)
    );
    // Fixing the fixed files again changes nothing.
    assert!(idemlint::fix::run::write(&fixed.changed).is_empty());
    let (_, again) = fix(&copy);
    assert!(
        again.changed.is_empty(),
        "{}: a second --fix changed it again",
        fixture.display()
    );
}

/// Copies the folder `from` into `to`, subfolders and all.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The lines of `want` and `got` that differ, marked `-` and `+`.
fn similar_lines(want: &str, got: &str) -> String {
    let mut out = String::new();
    for (i, (a, b)) in want.lines().zip(got.lines()).enumerate() {
        if a != b {
            out.push_str(&format!("line {}:\n- {a}\n+ {b}\n", i + 1));
        }
    }
    out.push_str(&format!(
        "({} lines expected, {} got)",
        want.lines().count(),
        got.lines().count()
    ));
    out
}

/// The file that `fixture` should become once the rule's fixes are applied: `bad_<name>.fixed.<ext>`
/// beside `bad_<name>.<ext>`, when there is one.
fn expected_fixed(fixture: &Path) -> Option<PathBuf> {
    let stem = fixture.file_stem()?.to_str()?;
    let ext = fixture.extension()?.to_str()?;
    let fixed = fixture.with_file_name(format!("{stem}.fixed.{ext}"));
    fixed.is_file().then_some(fixed)
}

#[test]
fn fixed_files_are_no_fixtures() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "bad_x.yaml",
        "bad_x.fixed.yaml",
        "good_y.json",
        "good_y.base.json",
        "README.md",
    ] {
        std::fs::write(dir.path().join(name), "").unwrap();
    }
    let names: Vec<String> = fixtures(dir.path())
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["bad_x.yaml", "good_y.json"]);
    assert_eq!(
        expected_fixed(&dir.path().join("bad_x.yaml")),
        Some(dir.path().join("bad_x.fixed.yaml"))
    );
    assert_eq!(expected_fixed(&dir.path().join("good_y.json")), None);
    assert_eq!(
        base_of(&dir.path().join("good_y.json")),
        dir.path().join("good_y.base.json")
    );
}

/// The text report, wide enough that no message wraps.
fn text(report: &idemlint::report::Report) -> String {
    idemlint::report::render(
        report,
        idemlint::report::Format::Text,
        &idemlint::report::RenderOptions {
            color: false,
            quiet: false,
            width: 200,
        },
    )
}

#[test]
fn retry_after_findings_name_their_operations_in_text_output() {
    let report = common::lint(&["fixtures/rules/retry-after-missing/bad_shared_by_many.yaml"]);
    let out = text(&report);
    for (message, at) in [
        (
            "429 response of GET /exports/{id} has no Retry-After header",
            "bad_shared_by_many.yaml:12:9]",
        ),
        (
            "429 response used by GET /exports and 3 other operations has no Retry-After header",
            "bad_shared_by_many.yaml:36:5]",
        ),
        (
            "503 response used by POST /exports has no Retry-After header",
            "bad_shared_by_many.yaml:36:5]",
        ),
    ] {
        let line = out
            .lines()
            .position(|l| l.contains(message))
            .unwrap_or_else(|| panic!("no `{message}` in:\n{out}"));
        let next = out.lines().nth(line + 1).unwrap();
        assert!(next.ends_with(at), "{message}: {next}");
    }
    let report = common::lint(&["fixtures/rules/retry-after-missing/bad_shared_response.yaml"]);
    assert!(
        text(&report).contains(
            "429 response used by GET /reports and GET /reports/{id} has no Retry-After header"
        ),
        "{}",
        text(&report)
    );
}

#[test]
fn invalid_extension_findings_point_at_the_key_or_value_in_text_output() {
    let report = common::lint(&["fixtures/rules/invalid-extension/bad_x_idempotency.yaml"]);
    let out = text(&report);
    // The unknown key is underlined, with the closest known key in the message.
    let at = out
        .find("unknown key `keyy` in `x-idempotency`; did you mean `key`?")
        .unwrap_or_else(|| panic!("{out}"));
    let snippet: Vec<&str> = out[at..].lines().take(8).collect();
    assert!(
        snippet[1].ends_with("bad_x_idempotency.yaml:12:9]"),
        "{snippet:#?}"
    );
    assert!(
        snippet.contains(&" 12 │         keyy: Order-Token")
            && snippet.contains(&"    ·         ────"),
        "{snippet:#?}"
    );
    // A quoted `"false"` is shown as written, and its value underlined.
    let at = out
        .find("`x-idempotency: \"false\"` is a string; write `false` (a boolean) to say duplicates are harmless")
        .unwrap_or_else(|| panic!("{out}"));
    let snippet: Vec<&str> = out[at..].lines().take(8).collect();
    assert!(
        snippet[1].ends_with("bad_x_idempotency.yaml:19:22]"),
        "{snippet:#?}"
    );
    assert!(
        snippet.contains(&"    ·                      ───────"),
        "{snippet:#?}"
    );
}
