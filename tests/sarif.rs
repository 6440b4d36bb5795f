//! SARIF 2.1.0: parses back with `serde-sarif`, locations are exact, suppressed findings stay
//! present as suppressed, and fingerprints survive lines moving.

use assert_cmd::Command;
use serde_sarif::sarif::Sarif;

fn sarif(dir: &std::path::Path, file: &str) -> (Sarif, serde_json::Value) {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .args(["check", file, "--format", "sarif", "--fail-on", "never"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let typed: Sarif = serde_json::from_str(&text).expect("valid SARIF for serde-sarif");
    (typed, serde_json::from_str(&text).unwrap())
}

#[test]
fn sarif_parses_back_with_exact_regions_and_every_rule() {
    let here = std::env::current_dir().unwrap();
    let (typed, v) = sarif(
        &here,
        "fixtures/rules/unused-suppression/bad_stale_and_misspelt.yaml",
    );
    assert_eq!(typed.runs.len(), 1);
    let run = &v["runs"][0];
    assert_eq!(v["version"], "2.1.0");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), idemlint::rules::RULES.len());
    for r in rules {
        for field in [
            "shortDescription",
            "fullDescription",
            "help",
            "defaultConfiguration",
            "properties",
        ] {
            assert!(!r[field].is_null(), "{} has no {field}", r["id"]);
        }
    }
    let results = run["results"].as_array().unwrap();
    let missing = results
        .iter()
        .find(|r| r["ruleId"] == "missing-idempotency-key")
        .unwrap();
    let loc = &missing["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "fixtures/rules/unused-suppression/bad_stale_and_misspelt.yaml"
    );
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        (
            loc["region"]["startLine"].as_u64(),
            loc["region"]["startColumn"].as_u64()
        ),
        (Some(17), Some(5))
    );
    assert_eq!(missing["level"], "error");
    let index = missing["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "missing-idempotency-key");
    assert!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .unwrap()
            .starts_with("file:///")
    );
}

#[test]
fn suppressed_findings_are_present_as_suppressed() {
    let here = std::env::current_dir().unwrap();
    let (_, v) = sarif(&here, "fixtures/rules/unused-suppression/good_used.yaml");
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{results:#?}");
    for r in results {
        assert_eq!(r["suppressions"][0]["kind"], "inSource");
        assert!(
            r["suppressions"][0]["justification"]
                .as_str()
                .is_some_and(|j| !j.is_empty())
        );
    }
}

#[test]
fn fingerprints_survive_lines_above_and_change_with_the_operation() {
    let dir = tempfile::tempdir().unwrap();
    let spec =
        std::fs::read_to_string("fixtures/rules/missing-idempotency-key/bad_oas30_post.yaml")
            .unwrap();
    let print = |text: &str| {
        std::fs::write(dir.path().join("api.yaml"), text).unwrap();
        let (_, v) = sarif(dir.path(), "api.yaml");
        let r = v["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["ruleId"] == "missing-idempotency-key")
            .cloned()
            .unwrap();
        (
            r["partialFingerprints"]["idemlint/v1"]
                .as_str()
                .unwrap()
                .to_string(),
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap(),
        )
    };
    let (before, line) = print(&spec);
    let shifted = spec.replacen(
        "paths:\n",
        "paths:\n  /health:\n    get:\n      responses:\n        '200': {description: OK}\n",
        1,
    );
    let (after, moved) = print(&shifted);
    assert_eq!(moved, line + 4, "the finding moved down");
    assert_eq!(before, after, "its fingerprint did not");
    let renamed = spec.replace("/payments:", "/charges:");
    let (other, _) = print(&renamed);
    assert_ne!(before, other, "another operation is another finding");
}
