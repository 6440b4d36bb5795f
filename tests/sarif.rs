//! SARIF 2.1.0: parses back with `serde-sarif`, locations are exact, suppressed findings stay
//! present as suppressed, and fingerprints survive lines moving.

mod common;

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
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "idemlint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        driver["informationUri"],
        "https://crates.io/crates/idemlint"
    );
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), idemlint::rules::RULES.len());
    for r in rules {
        for field in [
            "shortDescription",
            "fullDescription",
            "help",
            "helpUri",
            "defaultConfiguration",
            "properties",
        ] {
            assert!(!r[field].is_null(), "{} has no {field}", r["id"]);
        }
        let page = format!("/rules/{}.md", r["id"].as_str().unwrap());
        assert!(r["helpUri"].as_str().unwrap().ends_with(&page), "{r}");
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
    // A plain create: a warning, below the rule's default level of error.
    assert_eq!(missing["level"], "warning");
    let index = missing["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "missing-idempotency-key");
    assert_eq!(rules[index]["defaultConfiguration"]["level"], "error");
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

#[test]
fn microsofts_validator_accepts_the_sarif_of_every_corpus_document() {
    let Some(validator) = common::sarif_validator() else {
        return;
    };
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut inputs: Vec<String> = vec![
        "fixtures/rules/unused-suppression/good_used.yaml".into(),
        "examples/payments-api.yaml".into(),
    ];
    if corpus.join("MANIFEST.tsv").is_file() {
        let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
        inputs.extend(
            manifest
                .lines()
                .skip(1)
                .filter(|l| {
                    let version = l.split('\t').nth(5).unwrap_or("");
                    version.starts_with("openapi") || version.starts_with("swagger")
                })
                .map(|l| format!("../shared/corpus/{}", l.split('\t').next().unwrap())),
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let out = Command::cargo_bin("idemlint")
            .unwrap()
            .args([
                "check",
                input,
                "--format",
                "sarif",
                "--fail-on",
                "never",
                "--root",
                "..",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{input}");
        let path = dir.path().join(format!("{i}.sarif"));
        std::fs::write(&path, out.stdout).unwrap();
        files.push(path);
    }
    common::assert_valid_sarif(&validator, &files);
}

#[test]
fn at_most_25000_results_most_severe_first() {
    // 25,001 POSTs without a key, in one generated document.
    let mut spec = String::from("openapi: 3.0.3\ninfo: {title: Big, version: '1'}\npaths:\n");
    for i in 0..25_001 {
        spec.push_str(&format!(
            "  /r{i}:\n    post: {{responses: {{'201': {{description: ok}}}}}}\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.yaml"), spec).unwrap();
    let (_, v) = sarif(dir.path(), "big.yaml");
    let run = &v["runs"][0];
    assert_eq!(run["results"].as_array().unwrap().len(), 25_000);
    let note = &run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"];
    assert_eq!(
        note,
        "25001 results; the 25000 most severe are reported (code scanning takes no more)"
    );
}

/// A fix, as the rules will propose them: an insertion and a replacement in the finding's own
/// file, on the first finding of a fixture.
fn report_with_a_fix() -> idemlint::report::Report {
    use idemlint::fix::Applicability;
    use idemlint::report::{ResolvedEdit, ResolvedFix};
    let mut report = idemlint::lint::run(
        &["fixtures/rules/missing-idempotency-key/bad_oas30_orders.json".into()],
        &idemlint::lint::Options::default(),
        || unreachable!(),
    );
    let f = &mut report.findings[0];
    let edit = |start: usize, end: usize, text: &str| {
        let (a, b) = (f.source.line_col(start), f.source.line_col(end));
        ResolvedEdit {
            source: std::sync::Arc::clone(&f.source),
            span: idemlint::source::Span {
                start: start as u32,
                end: end as u32,
            },
            text: text.to_string(),
            line: a.line,
            column: a.column,
            end_line: b.line,
            end_column: b.column,
        }
    };
    let start = f.span.start as usize;
    f.fix = Some(Box::new(ResolvedFix {
        title: "Require an Idempotency-Key header".to_string(),
        applicability: Applicability::Unsafe,
        edits: vec![edit(start, start, "\"x\": 1, "), edit(0, 1, "{")],
    }));
    report
}

#[test]
fn a_fix_is_a_sarif_fix_and_a_json_fix() {
    let report = report_with_a_fix();
    let opts = idemlint::report::RenderOptions {
        color: false,
        quiet: true,
        width: 100,
    };
    let text = idemlint::report::render(&report, idemlint::report::Format::Sarif, &opts);
    let typed: Sarif = serde_json::from_str(&text).expect("valid SARIF for serde-sarif");
    let fixes = typed.runs[0].results.as_ref().unwrap()[0]
        .fixes
        .as_ref()
        .expect("the fix");
    assert_eq!(fixes.len(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let fix = &v["runs"][0]["results"][0]["fixes"][0];
    assert_eq!(
        fix["description"]["text"],
        "Require an Idempotency-Key header"
    );
    assert_eq!(fix["properties"]["applicability"], "unsafe");
    let change = &fix["artifactChanges"][0];
    assert_eq!(
        change["artifactLocation"]["uri"],
        "fixtures/rules/missing-idempotency-key/bad_oas30_orders.json"
    );
    let f = &report.findings[0];
    assert_eq!(
        change["replacements"][0],
        serde_json::json!({
            "deletedRegion": {
                "startLine": f.line, "startColumn": f.column,
                "endLine": f.line, "endColumn": f.column,
            },
            "insertedContent": {"text": "\"x\": 1, "},
        })
    );
    assert_eq!(
        change["replacements"][1]["deletedRegion"],
        serde_json::json!({"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 2})
    );
    // No other result has one.
    assert!(v["runs"][0]["results"][1].get("fixes").is_none());

    let json = idemlint::report::render(&report, idemlint::report::Format::Json, &opts);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["findings"][0]["fix"],
        serde_json::json!({
            "title": "Require an Idempotency-Key header",
            "applicability": "unsafe",
            "edits": [
                {"file": "fixtures/rules/missing-idempotency-key/bad_oas30_orders.json",
                 "line": f.line, "column": f.column, "end_line": f.line, "end_column": f.column,
                 "content": "\"x\": 1, "},
                {"file": "fixtures/rules/missing-idempotency-key/bad_oas30_orders.json",
                 "line": 1, "column": 1, "end_line": 1, "end_column": 2, "content": "{"},
            ],
        })
    );
    assert!(v["findings"][1].get("fix").is_none());

    if let Some(validator) = common::sarif_validator() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fix.sarif");
        std::fs::write(&path, &text).unwrap();
        common::assert_valid_sarif(&validator, &[path]);
    }
}

/// Each rule's `helpUri` is its doc as docs.rs shows this version's published package: an
/// absolute URI, as SARIF's schema asks (`"format": "uri"`), that exists only if `rules/` is
/// packaged, so Cargo.toml's `include` must keep it.
#[test]
fn every_rule_links_its_packaged_doc() {
    let here = std::env::current_dir().unwrap();
    let (_, v) = sarif(
        &here,
        "fixtures/rules/missing-idempotency-key/bad_oas30_post.yaml",
    );
    let rules = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), idemlint::rules::RULES.len());
    for r in rules {
        let id = r["id"].as_str().unwrap();
        assert_eq!(
            r["helpUri"],
            format!(
                "https://docs.rs/crate/idemlint/{}/source/rules/{id}.md",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert!(
            std::path::Path::new(&format!("rules/{id}.md")).is_file(),
            "{id}"
        );
    }
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap();
    let include = manifest
        .lines()
        .find(|l| l.starts_with("include = "))
        .expect("Cargo.toml lists what is packaged");
    assert!(include.contains("\"/rules/\""), "{include}");
}
