//! What an operation's or a whole API's shape does to findings: a finding on an operation
//! marked `deprecated: true` is an info, and in an API that declares no 4xx response anywhere,
//! or never the status a rule asks for,
//! the response-contract rules report their gap once.

mod common;

/// `(severity, rule, operation path, message)` of each finding `check --format json` reports on
/// `spec`, in report order.
fn findings(spec: &str) -> Vec<(String, String, String, String)> {
    let report = common::check_spec_json(spec, "");
    assert_eq!(report["errors"], serde_json::json!([]), "{report:#}");
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
            (
                text(&f["severity"]),
                text(&f["rule"]),
                text(&f["operation"]["path"]),
                text(&f["message"]),
            )
        })
        .collect()
}

/// Three pairs of operations, each the same under `/v1` (deprecated) and `/v2`: an unkeyed POST
/// that moves money (an error), a PATCH of an undescribed body (a warning), and a POST that moves
/// money with an optional key and no 409 (an error and a warning). Keys are documented as kept
/// for 24 hours, so no finding is about the key they share; the API declares a 409 and a 422
/// (on `/v2/charges`), so a payout's lack of them is its own gap, not the API's.
const DEPRECATED: &str = "\
openapi: 3.0.3
info: {title: Deprecated, version: '1'}
paths:
  /v1/charges:
    post:
      deprecated: true
      summary: Charge a card
      requestBody: {$ref: '#/components/requestBodies/Money'}
      responses: {'201': {description: Created}}
  /v2/charges:
    post:
      deprecated: false
      summary: Charge a card
      requestBody: {$ref: '#/components/requestBodies/Money'}
      responses: {'201': {description: Created}, '409': {description: Conflict}, '422': {description: Unprocessable}}
  /v1/customers/{id}:
    patch:
      deprecated: true
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses: {'200': {description: OK}}
  /v2/customers/{id}:
    patch:
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses: {'200': {description: OK}}
  /v1/payouts:
    post:
      deprecated: true
      parameters: [{$ref: '#/components/parameters/Key'}]
      requestBody: {$ref: '#/components/requestBodies/Money'}
      responses: {'201': {description: Created}, '400': {description: Bad request}}
  /v2/payouts:
    post:
      parameters: [{$ref: '#/components/parameters/Key'}]
      requestBody: {$ref: '#/components/requestBodies/Money'}
      responses: {'201': {description: Created}, '400': {description: Bad request}}
components:
  parameters:
    Key:
      name: Idempotency-Key
      in: header
      required: false
      description: A unique key for the request; keys are kept for 24 hours.
      schema: {type: string, maxLength: 64}
  requestBodies:
    Money:
      content:
        application/json:
          schema:
            type: object
            properties: {amount: {type: integer}, currency: {type: string}}
";

#[test]
fn a_finding_on_a_deprecated_operation_is_an_info_that_says_so_and_its_advice_is_left_out() {
    const SUFFIX: &str = " (the operation is deprecated)";
    let mut found = findings(DEPRECATED);
    // By rule, then path: a finding at the shared key parameter sorts after the operations.
    found.sort_by(|a, b| (&a.1, &a.2).cmp(&(&b.1, &b.2)));
    let (old, new): (Vec<_>, Vec<_>) = found.iter().partition(|f| f.2.starts_with("/v1/"));
    // The current operations keep their severities: errors and warnings, said plainly.
    let severities: Vec<(&str, &str, &str)> = new
        .iter()
        .map(|(s, r, p, _)| (s.as_str(), r.as_str(), p.as_str()))
        .collect();
    assert_eq!(
        severities,
        [
            ("warning", "missing-conflict-response", "/v2/payouts"),
            ("error", "missing-idempotency-key", "/v2/charges"),
            ("info", "missing-mismatch-response", "/v2/payouts"),
            ("error", "money-movement-optional-key", "/v2/payouts"),
            ("warning", "unprotected-patch", "/v2/customers/{id}"),
        ],
        "{found:#?}"
    );
    assert!(new.iter().all(|f| !f.3.ends_with(SUFFIX)), "{found:#?}");
    // The deprecated ones have the same findings, each an info whose message says why, except
    // the advice (a rule's info: the missing 422), which is left out for them.
    let new: Vec<_> = new.into_iter().filter(|f| f.0 != "info").collect();
    assert_eq!(old.len(), new.len(), "{found:#?}");
    for ((severity, rule, path, message), current) in old.iter().zip(&new) {
        assert_eq!(severity, "info", "{rule} on {path}: {message}");
        assert_eq!(rule, &current.1);
        assert_eq!(path.replacen("/v1/", "/v2/", 1), current.2);
        assert_eq!(
            message.replacen("/v1/", "/v2/", 1),
            format!("{}{SUFFIX}", current.3),
            "{rule} on {path}"
        );
    }
    assert_eq!(
        old[1].3,
        "POST /v1/charges moves money (body has `amount` and `currency`) without an idempotency \
         key: a retry after a lost response can move (or record) the money twice (2 of 3 other \
         POST operations declare one, e.g. header `Idempotency-Key`) (the operation is deprecated)"
    );
}

/// Keyed POSTs, and a GET, none of which declares a 4xx response (Square's spec answers every
/// operation with 200 only). `{more}` adds operations or responses.
fn no_4xx(more: &str) -> String {
    format!(
        "\
openapi: 3.0.3
info: {{title: Only 200, version: '1'}}
paths:
  /v2/payments:
    post:
      parameters: [{{$ref: '#/components/parameters/Key'}}]
      requestBody: {{$ref: '#/components/requestBodies/Money'}}
      responses: {{'200': {{description: Success}}}}
  /v2/customers:
    get:
      responses: {{'200': {{description: Success}}}}
    post:
      parameters: [{{$ref: '#/components/parameters/Key'}}]
      requestBody:
        content: {{application/json: {{schema: {{type: object, properties: {{given_name: {{type: string}}}}}}}}}}
      responses: {{'200': {{description: Success}}}}
{more}components:
  parameters:
    Key:
      name: Idempotency-Key
      in: header
      required: true
      description: A unique key for the request; keys are kept for 24 hours.
      schema: {{type: string, maxLength: 45}}
  requestBodies:
    Money:
      content:
        application/json:
          schema:
            type: object
            properties: {{amount: {{type: integer}}, currency: {{type: string}}}}
"
    )
}

const RESPONSE_RULES: [&str; 3] = [
    "missing-conflict-response",
    "missing-mismatch-response",
    "missing-missing-key-response",
];

/// The findings of the three response-contract rules, as `(rule, path, message)`.
fn response_gaps(spec: &str) -> Vec<(String, String, String)> {
    findings(spec)
        .into_iter()
        .filter(|f| RESPONSE_RULES.contains(&f.1.as_str()))
        .map(|(_, rule, path, message)| (rule, path, message))
        .collect()
}

#[test]
fn an_api_without_4xx_responses_has_each_response_gap_reported_once() {
    let refunds = "  /v2/refunds:\n    post:\n      parameters: [{$ref: \
                   '#/components/parameters/Key'}]\n      requestBody: {$ref: \
                   '#/components/requestBodies/Money'}\n      responses: {'200': {description: \
                   Success}}\n";
    let suffix = |n: usize| {
        format!(
            " (no operation of this API declares a 4xx response; {n} other keyed operation{} \
             lack{} it too)",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" }
        )
    };
    let expected = |n: usize| {
        vec![
            (
                "missing-conflict-response".to_string(),
                "/v2/payments".to_string(),
                format!(
                    "POST /v2/payments takes an idempotency key (header `Idempotency-Key`) but \
                     declares no 409 response for a concurrent request with the same key{}",
                    suffix(n)
                ),
            ),
            (
                "missing-mismatch-response".to_string(),
                "/v2/payments".to_string(),
                format!(
                    "POST /v2/payments declares no 422 response for an idempotency key reused \
                     with a different payload{}",
                    suffix(n)
                ),
            ),
            (
                "missing-missing-key-response".to_string(),
                "/v2/payments".to_string(),
                format!(
                    "POST /v2/payments requires an idempotency key but declares no 400 response \
                     for a request without one{}",
                    suffix(n)
                ),
            ),
        ]
    };
    // Each rule once, on the first keyed operation, with how many others share the gap.
    assert_eq!(response_gaps(&no_4xx("")), expected(1));
    assert_eq!(response_gaps(&no_4xx(refunds)), expected(2));

    // One 4xx anywhere (a 401 on the GET), but no 409, 422 or 400 anywhere: each gap is still
    // the API's, one to fix once, named by its status.
    let with_401 = no_4xx(refunds).replacen(
        "    get:\n      responses: {'200': {description: Success}}",
        "    get:\n      responses: {'200': {description: Success}, '401': {description: No}}",
        1,
    );
    let gaps = response_gaps(&with_401);
    assert_eq!(gaps.len(), 3, "{gaps:#?}");
    for (gap, status) in gaps.iter().zip(["409", "422", "400"]) {
        assert_eq!(gap.1, "/v2/payments", "{gaps:#?}");
        assert!(
            gap.2.ends_with(&format!(
                " (no operation of this API declares a {status} response; 2 other keyed \
                 operations lack it too)"
            )),
            "{gaps:#?}"
        );
    }

    // Each status declared somewhere (on the GET): every keyed operation is told of its own gaps.
    let with_each = no_4xx(refunds).replacen(
        "    get:\n      responses: {'200': {description: Success}}",
        "    get:\n      responses: {'200': {description: Success}, '400': {description: Bad}, \
         '409': {description: Conflict}, '422': {description: Unprocessable}}",
        1,
    );
    let gaps = response_gaps(&with_each);
    for rule in RESPONSE_RULES {
        let paths: Vec<&str> = gaps
            .iter()
            .filter(|g| g.0 == rule)
            .map(|g| g.1.as_str())
            .collect();
        assert_eq!(
            paths,
            ["/v2/payments", "/v2/customers", "/v2/refunds"],
            "{rule}: {gaps:#?}"
        );
    }
    assert!(
        gaps.iter()
            .all(|g| !g.2.contains("no operation of this API")),
        "{gaps:#?}"
    );
}

#[test]
fn a_suppressed_operation_leaves_the_shared_gap_to_the_next_one() {
    let refunds = "  /v2/refunds:\n    post:\n      parameters: [{$ref: \
                   '#/components/parameters/Key'}]\n      requestBody: {$ref: \
                   '#/components/requestBodies/Money'}\n      responses: {'200': {description: \
                   Success}}\n";
    // The payment's mismatch gap is silenced where it is; the others still make one finding,
    // now on the refund's POST (the other one that moves money, which stands for the gap before
    // the customer's), and it counts only them.
    let spec = no_4xx(refunds).replacen(
        "  /v2/payments:\n    post:\n",
        "  /v2/payments:\n    post:\n      x-idemlint-ignore: {missing-mismatch-response: the \
         gateway answers 422}\n",
        1,
    );
    let mismatch: Vec<(String, String)> = response_gaps(&spec)
        .into_iter()
        .filter(|g| g.0 == "missing-mismatch-response")
        .map(|g| (g.1, g.2))
        .collect();
    assert_eq!(
        mismatch,
        [(
            "/v2/refunds".to_string(),
            "POST /v2/refunds declares no 422 response for an idempotency key reused with a \
             different payload (no operation of this API declares a 4xx response; 1 other keyed \
             operation lacks it too)"
                .to_string()
        )]
    );
    // The other rules' gaps are untouched: still on the payment, still counting two others.
    assert!(
        response_gaps(&spec)
            .iter()
            .filter(|g| g.0 != "missing-mismatch-response")
            .all(
                |g| g.1 == "/v2/payments" && g.2.ends_with("2 other keyed operations lack it too)")
            ),
        "{:#?}",
        response_gaps(&spec)
    );
}

/// `check --format json` of `spec` with `.idemlint.yaml` holding `config` (when not empty).
fn report_with(spec: &str, config: &str) -> serde_json::Value {
    common::check_spec_json(spec, config)
}

/// The `(severity, path, message)` of each finding of `rule` in a JSON report.
fn of_rule(report: &serde_json::Value, rule: &str) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
            (
                text(&f["severity"]),
                text(&f["operation"]["path"]),
                text(&f["message"]),
            )
        })
        .collect()
}

#[test]
fn a_deprecated_first_operation_does_not_demote_the_shared_gap() {
    let spec = no_4xx("").replacen(
        "  /v2/payments:\n    post:\n",
        "  /v2/payments:\n    post:\n      deprecated: true\n",
        1,
    );
    let conflict = of_rule(&report_with(&spec, ""), "missing-conflict-response");
    assert_eq!(conflict.len(), 1, "{conflict:#?}");
    let (severity, path, message) = &conflict[0];
    assert_eq!(
        (severity.as_str(), path.as_str()),
        ("warning", "/v2/payments")
    );
    assert!(!message.contains("deprecated"), "{message}");
    assert!(
        message.ends_with("1 other keyed operation lacks it too)"),
        "{message}"
    );
}

#[test]
fn a_gap_silenced_everywhere_is_one_suppressed_finding() {
    let spec = no_4xx("").replacen(
        "info: {title: Only 200, version: '1'}\n",
        "info: {title: Only 200, version: '1'}\nx-idemlint-ignore: {missing-conflict-response: \
         the gateway answers 409}\n",
        1,
    );
    let report = report_with(&spec, "");
    assert!(of_rule(&report, "missing-conflict-response").is_empty());
    assert_eq!(report["summary"]["suppressed"], 1, "{report:#}");
}

#[test]
fn the_finding_kept_for_a_gap_has_the_highest_level_any_operation_has() {
    // The payment's level is lowered to info; the customer's POST keeps the warning, and the
    // one finding for both is that warning.
    let config = "overrides:\n  - files: [\"api.yaml\"]\n    pointer: /paths/~1v2~1payments\n    \
                  rules: {missing-conflict-response: info}\n";
    let conflict = of_rule(
        &report_with(&no_4xx(""), config),
        "missing-conflict-response",
    );
    assert_eq!(conflict.len(), 1, "{conflict:#?}");
    let (severity, path, message) = &conflict[0];
    assert_eq!(
        (severity.as_str(), path.as_str()),
        ("warning", "/v2/customers")
    );
    assert!(
        message.ends_with("1 other keyed operation lacks it too)"),
        "{message}"
    );
}

/// Three keyed POSTs under `{paths}`' shared key, keys kept for 24 hours.
fn keyed(paths: &str) -> String {
    format!(
        "\
openapi: 3.0.3
info: {{title: Keyed, version: '1'}}
paths:
{paths}components:
  parameters:
    Key: {{name: Idempotency-Key, in: header, required: true, description: Kept for 24 hours., schema: {{type: string, maxLength: 64}}}}
"
    )
}

#[test]
fn a_default_response_answers_a_missing_key_so_the_gap_is_each_operations_own() {
    // `/a` answers errors with `default`, which the rule takes as its 400: the API answers a
    // missing key somewhere, and `/b` and `/c` each lack it on their own.
    let op = |path: &str, responses: &str| {
        format!(
            "  {path}:\n    post:\n      parameters: [{{$ref: '#/components/parameters/Key'}}]\n      responses: {{'201': {{description: Created}}, {responses}}}\n"
        )
    };
    let spec = keyed(&format!(
        "{}{}{}",
        op("/a", "default: {description: Error}"),
        op(
            "/b",
            "'409': {description: In progress}, '422': {description: Reused}"
        ),
        op(
            "/c",
            "'409': {description: In progress}, '422': {description: Reused}"
        ),
    ));
    let gaps: Vec<(String, String)> = findings(&spec)
        .into_iter()
        .filter(|f| f.1 == "missing-missing-key-response")
        .map(|f| (f.2, f.3))
        .collect();
    assert_eq!(
        gaps.iter().map(|g| g.0.as_str()).collect::<Vec<_>>(),
        ["/b", "/c"],
        "{gaps:#?}"
    );
    assert!(
        gaps.iter()
            .all(|g| !g.1.contains("no operation of this API")),
        "{gaps:#?}"
    );
}

#[test]
fn a_status_an_operation_names_for_itself_is_its_own_gap() {
    // Each POST names 425 for concurrency in `x-idempotency`; `/a` declares it. `/b` and `/c`
    // lack their 425, which the API declares elsewhere: each is told of its own, and nothing
    // says the API lacks a 409.
    let op = |path: &str, extra: &str| {
        format!(
            "  {path}:\n    post:\n      x-idempotency: {{key: Idempotency-Key, ttl: 24h, concurrency: 425}}\n      parameters: [{{$ref: '#/components/parameters/Key'}}]\n      responses: {{'201': {{description: Created}}, '400': {{description: Bad}}, '422': {{description: Reused}}{extra}}}\n"
        )
    };
    let spec = keyed(&format!(
        "{}{}{}",
        op("/a", ", '425': {description: Too early}"),
        op("/b", ""),
        op("/c", ""),
    ));
    let gaps: Vec<(String, String)> = findings(&spec)
        .into_iter()
        .filter(|f| f.1 == "missing-conflict-response")
        .map(|f| (f.2, f.3))
        .collect();
    assert_eq!(
        gaps.iter().map(|g| g.0.as_str()).collect::<Vec<_>>(),
        ["/b", "/c"],
        "{gaps:#?}"
    );
    for (_, message) in &gaps {
        assert!(message.contains("declares no 425 response"), "{message}");
        assert!(!message.contains("no operation of this API"), "{message}");
    }
}

#[test]
fn a_suppression_of_advice_left_out_for_a_deprecated_operation_is_not_unused() {
    // The optional key of a deprecated POST is advice, left out; the suppression written for it
    // still silences it, and is no `unused-suppression`.
    let spec = "\
openapi: 3.0.3
info: {title: Deprecated advice, version: '1'}
paths:
  /v1/widgets:
    post:
      deprecated: true
      x-idemlint-ignore: {idempotency-key-optional: kept for old clients}
      parameters:
        - {name: Idempotency-Key, in: header, description: Kept for 24 hours., schema: {type: string, maxLength: 64}}
      requestBody: {content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses: {'201': {description: Created}, '400': {description: Bad}, '409': {description: In progress, headers: {Retry-After: {schema: {type: integer}}}}, '422': {description: Reused}}
";
    let report = report_with(spec, "");
    assert!(
        of_rule(&report, "unused-suppression").is_empty(),
        "{report:#}"
    );
    assert!(
        of_rule(&report, "idempotency-key-optional").is_empty(),
        "{report:#}"
    );
}

#[test]
fn advice_on_a_deprecated_operation_stays_when_its_rule_level_is_configured() {
    // A deprecated, keyed POST with no 400: the rule's info is left out by default, and kept
    // (at the level set) when the configuration sets the rule's level.
    let spec = "\
openapi: 3.0.3
info: {title: Deprecated, version: '1'}
paths:
  /v1/widgets:
    post:
      deprecated: true
      parameters:
        - {name: Idempotency-Key, in: header, required: true, description: Kept for 24 hours., schema: {type: string, maxLength: 64}}
      requestBody: {content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses: {'201': {description: Created}, '409': {description: In progress, headers: {Retry-After: {schema: {type: integer}}}}, '422': {description: Reused}}
";
    let rule = "missing-missing-key-response";
    assert!(of_rule(&report_with(spec, ""), rule).is_empty());
    let raised = of_rule(
        &report_with(spec, "rules: {missing-missing-key-response: error}\n"),
        rule,
    );
    assert_eq!(raised.len(), 1, "{raised:#?}");
    assert_eq!(raised[0].0, "error", "{raised:#?}");
}
