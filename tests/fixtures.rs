//! Snapshot tests: every fixture under `fixtures/rules/<id>/` linted, its findings (rule, line,
//! column, message) compared with the stored snapshot. `bad_*` files must raise their folder's
//! rule, `good_*` files must not.

mod common;

use std::path::Path;

use idemlint::rules::RULES;

#[test]
fn rule_fixtures() {
    let root = Path::new("fixtures/rules");
    let mut checked = 0;
    for rule in RULES {
        let dir = root.join(rule.id);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
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
        let (mut bad, mut good) = (0, 0);
        for file in files {
            let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
            let ext = file.extension().unwrap().to_str().unwrap();
            let report = common::lint(&[file.to_str().unwrap()]);
            assert!(
                report.errors.is_empty(),
                "{}: {:?}",
                file.display(),
                report.errors
            );
            let hits = report.findings.iter().filter(|f| f.rule == rule.id).count();
            if stem.starts_with("bad_") {
                bad += 1;
                assert!(hits > 0, "{} should raise {}", file.display(), rule.id);
            } else if stem.starts_with("good_") {
                good += 1;
                assert_eq!(
                    hits,
                    0,
                    "{} should not raise {}:\n{}",
                    file.display(),
                    rule.id,
                    common::concise(&report)
                );
            } else {
                panic!("{}: fixture names start with bad_ or good_", file.display());
            }
            insta::assert_snapshot!(
                format!("{}__{stem}.{ext}", rule.id),
                common::concise(&report)
            );
            checked += 1;
        }
        assert!(
            bad > 0 && good > 0,
            "{} needs bad_ and good_ fixtures",
            rule.id
        );
    }
    assert!(checked >= RULES.len() * 2);
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
