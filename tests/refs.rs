//! `$ref` resolution end to end: across files, missing targets, refusal to leave the root.

mod common;

#[test]
fn findings_behind_a_ref_are_reported_in_the_referenced_file_once() {
    // The root and the directory both name the same root: still one finding each.
    let report = common::lint(&["fixtures/refs/multi/openapi.yaml", "fixtures/refs/multi"]);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let rules = ["missing-idempotency-key", "conflict-without-retry-after"];
    insta::assert_snapshot!(common::lines_of(&report, &rules), @r"
    fixtures/refs/multi/paths/payments.yaml:9:1: error[missing-idempotency-key] POST /payments moves money (body has `amount` and `currency`) without an idempotency key: a retry after a lost response can move (or record) the money twice (1 of 1 other POST operation declares one, e.g. header `Idempotency-Key`)
    fixtures/refs/multi/paths/refunds.yaml:10:5: warning[conflict-without-retry-after] 409 response of POST /refunds has no Retry-After header: clients cannot tell when to retry the in-progress request
    ");
    assert_eq!(report.files, 1);
    let f = report
        .findings
        .iter()
        .find(|f| f.rule == "conflict-without-retry-after")
        .unwrap();
    assert_eq!(f.labels.len(), 1, "points at the shared response");
    assert_eq!(
        f.labels[0].file,
        "fixtures/refs/multi/components/responses.yaml"
    );
}

#[test]
fn missing_targets_are_reported_at_the_ref() {
    let report = common::lint(&["fixtures/refs/missing-target/openapi.yaml"]);
    insta::assert_snapshot!(common::concise(&report), @r"
    fixtures/refs/missing-target/openapi.yaml:16:24: error[unresolved-ref] $ref target file `./nope.yaml` not found
    fixtures/refs/missing-target/openapi.yaml:21:24: error[unresolved-ref] $ref target `#/components/schemas/Nope` does not exist
    Found 2 problems (2 errors) in 1 file (1 operation).
    ");
    assert_eq!(
        report.findings[0].pointer,
        "/paths/~1things~1{id}/get/responses/200/content/application~1json/schema/$ref"
    );
}

#[test]
fn refs_that_leave_the_root_are_refused_not_read() {
    let report = common::lint(&["fixtures/refs/escape/openapi.yaml"]);
    let refused: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == "unresolved-ref")
        .collect();
    assert_eq!(refused.len(), 2, "{}", common::concise(&report));
    for f in refused {
        assert!(
            f.message.contains("leaves the project root"),
            "{}",
            f.message
        );
    }
    assert!(
        report.errors.is_empty(),
        "nothing outside the root was opened: {:?}",
        report.errors
    );
}

#[test]
fn broken_targets_are_reported_at_each_ref_once() {
    // A target that does not parse (also an input error: exit 2), a directory, and a chain whose
    // second link is broken: that link is reported at its own `$ref`, the first is fine.
    let report = common::lint(&["fixtures/refs/broken-targets/openapi.yaml"]);
    insta::assert_snapshot!(common::concise(&report), @r"
    fixtures/refs/broken-targets/parts/broken.yaml:4:1: error[input] invalid YAML: while parsing a flow sequence, expected ',' or ']'
    fixtures/refs/broken-targets/openapi.yaml:13:24: error[unresolved-ref] $ref target file `parts/broken.yaml` could not be read: invalid YAML: while parsing a flow sequence, expected ',' or ']' (line 4, column 1)
    fixtures/refs/broken-targets/openapi.yaml:15:11: error[unresolved-ref] $ref target `parts/empty-dir` is a directory, not a file
    fixtures/refs/broken-targets/parts/chain.yaml:2:3: error[unresolved-ref] $ref target file `./missing.yaml` not found
    Found 3 problems (3 errors) in 1 file (1 operation). 1 input could not be linted.
    ");
}
