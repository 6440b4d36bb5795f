//! Wording that decides a finding, each against its near miss: what a verb at a path starts,
//! what a 409 or a 503 says, whether a session expires, whether a request can differ.

mod common;

/// `(severity, rule, operation path)` of each finding `check --format json` reports on `spec`.
fn findings(spec: &str) -> Vec<(String, String, String)> {
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
            )
        })
        .collect()
}

fn spec(paths: &str) -> String {
    format!("openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths:\n{paths}")
}

fn found(list: &[(String, String, String)], severity: &str, rule: &str, path: &str) -> bool {
    list.iter()
        .any(|f| f.0 == severity && f.1 == rule && f.2 == path)
}

#[test]
fn start_transitions_only_the_resource_its_segment_acts_on() {
    let list = findings(&spec(
        "  /repos/{owner}/{repo}/tasks:
    post:
      summary: Start a task
      responses: {'201': {description: Created}}
  /pipelines/{id}/start:
    post:
      summary: Start a pipeline
      responses: {'200': {description: Started}}
",
    ));
    // A new task each time: a create.
    assert!(
        found(
            &list,
            "warning",
            "missing-idempotency-key",
            "/repos/{owner}/{repo}/tasks"
        ),
        "{list:#?}"
    );
    // The pipeline the path names moves to a state: what does a repeat answer?
    assert!(
        found(
            &list,
            "info",
            "missing-idempotency-key",
            "/pipelines/{id}/start"
        ),
        "{list:#?}"
    );
}

#[test]
fn a_409_about_a_request_in_progress_is_no_natural_key() {
    let create = |conflict: &str| {
        spec(&format!(
            "  /projects:
    post:
      requestBody:
        content:
          application/json:
            schema: {{type: object, required: [name], properties: {{name: {{type: string}}}}}}
      responses:
        '201': {{description: Created}}
        '409': {{description: {conflict}}}
"
        ))
    };
    // "Already exists": a second create with that name is refused.
    assert!(findings(&create("A project with this name already exists")).is_empty());
    // "Already in progress" answers concurrency: nothing refuses a later duplicate.
    let list = findings(&create(
        "Another request for this project is already in progress",
    ));
    assert!(
        found(&list, "warning", "missing-idempotency-key", "/projects"),
        "{list:#?}"
    );
}

#[test]
fn a_503_is_skipped_only_when_it_names_a_state() {
    let with_503 = |said: &str| {
        spec(&format!(
            "  /swarm/join:
    get:
      responses:
        '200': {{description: OK}}
        '503': {{description: {said}}}
"
        ))
    };
    for state in [
        "Node is not part of a swarm",
        "Node isn't part of a swarm",
        "Node is no longer part of a swarm",
        "Node is not currently part of a swarm",
        "Node is already part of a swarm",
    ] {
        assert!(findings(&with_503(state)).is_empty(), "{state}");
    }
    let list = findings(&with_503(
        "Unavailable as part of a scheduled maintenance window",
    ));
    assert!(
        found(&list, "warning", "retry-after-missing", "/swarm/join"),
        "{list:#?}"
    );
}

#[test]
fn a_session_that_never_expires_is_a_create() {
    let session = |summary: &str| {
        spec(&format!(
            "  /training/sessions:
    post:
      summary: {summary}
      requestBody:
        content:
          application/json:
            schema: {{type: object, properties: {{room: {{type: string}}}}}}
      responses: {{'201': {{description: Created}}}}
"
        ))
    };
    assert!(findings(&session("Create a session; it expires after use")).is_empty());
    let list = findings(&session("Create a session. Sessions never expire"));
    assert!(
        found(
            &list,
            "warning",
            "missing-idempotency-key",
            "/training/sessions"
        ),
        "{list:#?}"
    );
}

#[test]
fn a_fixed_body_with_query_parameters_can_still_differ() {
    let keyed = |parameters: &str| {
        spec(&format!(
            "  /invoices/{{id}}/void:
    post:
      parameters:
        - {{name: id, in: path, required: true, schema: {{type: string}}}}
        - {{name: Idempotency-Key, in: header, required: true, description: Kept for 24 hours., schema: {{type: string, maxLength: 64}}}}
{parameters}      requestBody:
        content:
          application/json:
            schema: {{type: object, properties: {{status: {{type: string, enum: [VOID]}}}}}}
      responses:
        '200': {{description: OK}}
        '400': {{description: The Idempotency-Key header is missing}}
        '409': {{description: A request with this key is in progress, headers: {{Retry-After: {{schema: {{type: integer}}}}}}}}
"
        ))
    };
    let mismatch =
        |list: &[(String, String, String)]| list.iter().any(|f| f.1 == "missing-mismatch-response");
    assert!(!mismatch(&findings(&keyed(""))));
    let list = findings(&keyed(
        "        - {name: memo, in: query, schema: {type: string}}\n",
    ));
    assert!(mismatch(&list), "{list:#?}");
}

/// A non-breaking space between words (as specs exported from rich text have) reads as a
/// space: "must\u{a0}have a unique `email`" says what the thing made is unique by, as "must have
/// a unique `email`" does; the same with a plain word in its place says nothing of it.
#[test]
fn a_non_breaking_space_is_a_space_between_words() {
    let paths = |said: &str| {
        spec(&format!(
            "  /users:
    post:
      summary: Create a user
      description: \"Every user {said} a unique `email`.\"
      requestBody: {{content: {{application/json: {{schema: {{type: object, properties: {{email: {{type: string}}}}}}}}}}}}
      responses:
        '201': {{description: Created}}
"
        ))
    };
    let nbsp = findings(&paths("must\u{a0}have"));
    assert!(
        !nbsp.iter().any(|f| f.1 == "missing-idempotency-key"),
        "{nbsp:?}"
    );
    let plain = findings(&paths("may\u{a0}have"));
    assert!(
        found(&plain, "warning", "missing-idempotency-key", "/users"),
        "{plain:?}"
    );
}

/// A field's description is read by its opening words, cut on a character: an accented
/// letter that straddles the cut (byte 80 here) neither panics nor hides the id it names.
#[test]
fn a_description_cut_inside_a_multibyte_letter_is_read_not_a_panic() {
    let paths = |opening: &str| {
        let padded = format!("{opening} {}", "a".repeat(79 - opening.len() - 1));
        assert_eq!(padded.len(), 79);
        spec(&format!(
            "  /usergroups.enable:
    post:
      operationId: usergroups_enable
      description: Enable a User Group
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                usergroup: {{type: string, description: \"{padded}\u{e9}t\u{e9}\"}}
      responses: {{'200': {{description: OK}}}}
"
        ))
    };
    // Named as an id: the switch only names what it acts on.
    let id = findings(&paths("The encoded ID of the User Group to enable"));
    assert!(
        !id.iter().any(|f| f.1 == "missing-idempotency-key"),
        "{id:?}"
    );
    // A name, not an id: a body that carries data of its own is still reported.
    let name = findings(&paths("The name of the User Group to enable"));
    assert!(
        name.iter()
            .any(|f| f.1 == "missing-idempotency-key" && f.2 == "/usergroups.enable"),
        "{name:?}"
    );
}
