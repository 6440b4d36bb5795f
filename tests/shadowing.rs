//! Rules that say more about an operation shadow the general ones, but only while they are on:
//! for each pair that dedupes, turning the stronger rule off, whichever way (`--ignore`,
//! `--select`, a configuration's `rules`, an override by file and pointer), brings the weaker
//! finding back. No profile turns one of the stronger rules off, so profiles need no case here.

use std::collections::BTreeSet;
use std::path::Path;

mod common;

const SPEC: &str = "\
openapi: 3.0.3
info: {title: Shadows, version: '1'}
paths:
  /accounts/{id}/balance:
    patch:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                action: {type: string, enum: [add_balance]}
                amount: {type: integer}
      responses: {'200': {description: OK}}
  /documents/{id}:
    patch:
      requestBody:
        content:
          application/json-patch+json:
            schema:
              type: array
              items:
                type: object
                properties: {op: {type: string}, path: {type: string}, value: {}}
      responses: {'200': {description: OK}}
  /payouts:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: {amount: {type: integer}, currency: {type: string}}
      responses: {'201': {description: Created}}
  /transfers/{id}:
    patch:
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {description: {type: string}}}
      responses: {'200': {description: OK}}
  /refunds:
    post:
      parameters:
        - {name: Idempotency-Key, in: header, required: false, schema: {type: string}}
      responses: {'201': {description: Created}}
  /inventory/{id}/adjustments:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: {quantity_delta: {type: integer}}
      responses: {'201': {description: Created}}
";

/// Each pair: the operation, the rule that says more, and the one it shadows.
const PAIRS: &[(&str, &str, &str)] = &[
    (
        "/accounts/{id}/balance",
        "incremental-update",
        "unprotected-patch",
    ),
    (
        "/documents/{id}",
        "json-patch-without-precondition",
        "unprotected-patch",
    ),
    (
        "/payouts",
        "missing-idempotency-key",
        "money-movement-optional-key",
    ),
    (
        "/transfers/{id}",
        "unprotected-patch",
        "money-movement-optional-key",
    ),
    (
        "/refunds",
        "money-movement-optional-key",
        "idempotency-key-optional",
    ),
    // On a POST both report the relative change; `missing-idempotency-key` as an error.
    (
        "/inventory/{id}/adjustments",
        "missing-idempotency-key",
        "incremental-update",
    ),
];

/// The (rule, operation path) pairs a run reports.
fn reported(dir: &Path, args: &[&str]) -> BTreeSet<(String, String)> {
    let report = common::check_json(dir, args);
    assert_eq!(report["errors"], serde_json::json!([]), "{report:#}");
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| {
            Some((
                f["rule"].as_str()?.to_string(),
                f["operation"]["path"].as_str()?.to_string(),
            ))
        })
        .collect()
}

fn project(config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), SPEC).unwrap();
    if let Some(config) = config {
        std::fs::write(dir.path().join(".idemlint.yaml"), config).unwrap();
    }
    dir
}

fn has(found: &BTreeSet<(String, String)>, rule: &str, path: &str) -> bool {
    found.contains(&(rule.to_string(), path.to_string()))
}

#[test]
fn with_every_rule_on_the_one_that_says_more_speaks_alone() {
    let dir = project(None);
    let found = reported(dir.path(), &[]);
    for (path, strong, weak) in PAIRS {
        assert!(has(&found, strong, path), "{strong} on {path}: {found:#?}");
        assert!(!has(&found, weak, path), "{weak} on {path}: {found:#?}");
    }
}

#[test]
fn turning_the_stronger_rule_off_in_any_way_brings_the_weaker_one_back() {
    for (path, strong, weak) in PAIRS {
        let pointer = format!("/paths/{}", path.replace('~', "~0").replace('/', "~1"));
        let ways: Vec<(String, Option<String>, Vec<String>)> = vec![
            (
                "--ignore".into(),
                None,
                vec!["--ignore".into(), strong.to_string()],
            ),
            (
                "--select".into(),
                None,
                vec!["--select".into(), weak.to_string()],
            ),
            (
                "rules: off".into(),
                Some(format!("rules: {{{strong}: off}}\n")),
                vec![],
            ),
            (
                "an override".into(),
                Some(format!(
                    "overrides:\n  - files: [api.yaml]\n    pointer: '{pointer}'\n    rules: \
                     {{{strong}: off}}\n"
                )),
                vec![],
            ),
        ];
        for (way, config, args) in ways {
            let dir = project(config.as_deref());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let found = reported(dir.path(), &args);
            assert!(
                !has(&found, strong, path),
                "{strong} off by {way} on {path}: {found:#?}"
            );
            assert!(
                has(&found, weak, path),
                "{weak} back on {path} with {strong} off by {way}: {found:#?}"
            );
        }
    }
}

/// The findings (severity, rule, message) a run reports on `path`.
fn messages(dir: &Path, args: &[&str], path: &str) -> Vec<(String, String, String)> {
    let report = common::check_json(dir, args);
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["operation"]["path"] == path)
        .map(|f| {
            let text = |k: &str| f[k].as_str().unwrap().to_string();
            (text("severity"), text("rule"), text("message"))
        })
        .collect()
}

/// The POST's relative change is one finding: `missing-idempotency-key`'s error, which says
/// what `incremental-update` would (a warning, when the stronger rule is off).
#[test]
fn a_relative_change_on_a_post_is_reported_once_as_an_error() {
    let dir = project(None);
    let path = "/inventory/{id}/adjustments";
    assert_eq!(
        messages(dir.path(), &[], path),
        [(
            "error".to_string(),
            "missing-idempotency-key".to_string(),
            "POST /inventory/{id}/adjustments sends a relative change (property \
             `quantity_delta`) without an idempotency key: a retry after a lost response applies \
             it twice (1 of 2 other POST operations declares one, e.g. header `Idempotency-Key`)"
                .to_string()
        )]
    );
    assert_eq!(
        messages(dir.path(), &["--ignore", "missing-idempotency-key"], path),
        [(
            "warning".to_string(),
            "incremental-update".to_string(),
            "POST /inventory/{id}/adjustments sends a relative change (property \
             `quantity_delta`) without an idempotency key or If-Match: a retry applies it twice"
                .to_string()
        )]
    );
}
