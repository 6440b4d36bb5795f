//! `idemlint review`: the five questions per operation, as Markdown and as an HTML page.

use assert_cmd::Command;

#[path = "support/example.rs"]
mod example;

fn review(args: &[&str]) -> String {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .arg("review")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn row<'a>(md: &'a str, operation: &str) -> &'a str {
    md.lines()
        .find(|l| l.starts_with(&format!("| `{operation}`<br>")))
        .unwrap_or_else(|| panic!("no row for {operation} in\n{md}"))
}

#[test]
fn markdown_answers_the_five_questions_for_every_operation() {
    // The example as `support/example.rs` has it: its PATCH /customers is reported (an info).
    let dir = tempfile::tempdir().unwrap();
    example::write(dir.path());
    let (code, md, err) = run(dir.path(), &[example::EXAMPLE], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        md.starts_with("## Idempotency review: Acme Payments (`examples/payments-api.yaml`)"),
        "{md}"
    );
    assert!(
        md.contains("- **3 of 6** operations whose duplicates matter are protected"),
        "{md}"
    );
    assert!(
        md.contains("- **Key lifetime:** 24 hours (`examples/payments-api.yaml:211:7`)."),
        "{md}"
    );
    assert_eq!(
        md.lines()
            .filter(|l| l.starts_with("| `") && l.contains("<br>`examples/"))
            .count(),
        10
    );
    let refunds = row(&md, "POST /refunds");
    assert!(
        refunds.contains(
            "❌ processed twice: no idempotency key<br>`examples/payments-api.yaml:79:5`"
        ),
        "{refunds}"
    );
    let transfers = row(&md, "POST /transfers");
    assert!(
        transfers.contains("⚠️ 409, but no Retry-After<br>`examples/payments-api.yaml:201:9`"),
        "{transfers}"
    );
    assert!(
        transfers.contains("✅ keyed by header `Idempotency-Key`"),
        "{transfers}"
    );
    let balance = row(&md, "PATCH /accounts/{accountId}/balance");
    assert!(
        balance.contains("❌ relative (enum value `add_balance` of `action`): unprotected"),
        "{balance}"
    );
    let search = row(&md, "POST /payments/search");
    assert!(search.contains("✅ only reads (`search`)"), "{search}");
    // Gaps come worst first, from the same findings as `check`.
    let gaps = md.find("### Gaps").unwrap();
    assert!(md[gaps..].find("missing-idempotency-key") < md[gaps..].find("unprotected-patch"));
}

#[test]
fn the_html_page_is_self_contained_and_renders_a_row_per_operation() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("review.html");
    review(&[
        "examples/payments-api.yaml",
        "--format",
        "html",
        "--output",
        page.to_str().unwrap(),
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains(" src="),
        "no external assets"
    );
    assert_eq!(html.matches("<tr class=\"operation ").count(), 10);
    let Some(chromium) = ["chromium", "chromium-browser"].iter().find(|b| which(b)) else {
        eprintln!("skipped: no Chromium to render the page");
        return;
    };
    let profile = dir.path().join("profile");
    let out = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &format!("file://{}", page.display()),
        ])
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout);
    assert_eq!(dom.matches("<tr class=\"operation ").count(), 10, "{dom}");
    assert!(dom.contains("Idempotency review: Acme Payments"), "{dom}");
}

fn which(binary: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|p| p.join(binary).is_file()))
}

#[test]
fn adyen_answers_agree_with_the_spec() {
    let corpus = std::path::Path::new("../shared/corpus/adyen/CheckoutService-v72.yaml");
    if !corpus.is_file() {
        eprintln!("skipped: ../shared/corpus is not here");
        return;
    }
    let md = review(&[corpus.to_str().unwrap(), "--root", "../shared/corpus"]);
    // Adyen's shared key is optional, has no lifetime, and no POST declares a 409.
    let payments = row(&md, "POST /payments");
    assert!(
        payments.contains("⚠️ keyed by header `Idempotency-Key`, optional"),
        "{payments}"
    );
    assert!(payments.contains("⚠️ not documented<br>"), "{payments}");
    assert!(
        payments.contains("⚠️ not documented: no 409 response"),
        "{payments}"
    );
    let methods = row(&md, "POST /paymentMethods");
    assert!(methods.contains("✅ only reads"), "{methods}");
    // Its body can only say `status: expired`: a retry repeats the same change.
    let links = row(&md, "PATCH /paymentLinks/{linkId}");
    assert!(
        links.contains("✅ repeats the same change (the body can only set fixed values: status)"),
        "{links}"
    );
    // A read-only POST that takes a key: its contract does not matter.
    let apple = row(&md, "POST /applePay/sessions");
    assert!(
        apple.contains("— only reads: the key's contract does not matter"),
        "{apple}"
    );
    assert!(
        md.contains("- **0 of 17** operations whose duplicates matter are protected (a required key or If-Match); 16 more take an optional key."),
        "{md}"
    );
    // It forwards stored card details to a third party's `baseUrl`: what a repeat does is the
    // target's.
    let forward = row(&md, "POST /forward");
    assert!(forward.contains("passes the request through"), "{forward}");
    let get = row(&md, "GET /paymentLinks/{linkId}");
    assert!(get.contains("✅ safe method"), "{get}");
    assert!(
        md.contains("**Key carrier:** header `Idempotency-Key` (22)"),
        "{md}"
    );
}

fn run(dir: &std::path::Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .arg("review")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The headings of a Markdown review's document sections, in order.
fn sections(md: &str) -> Vec<&str> {
    md.lines()
        .filter(|l| l.starts_with("## Idempotency review"))
        .collect()
}

/// Two APIs and a fragment one of them uses, as a repository holds them.
fn two_apis() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("specs/orders")).unwrap();
    std::fs::write(dir.path().join("specs/payments.yaml"), example::text()).unwrap();
    std::fs::write(
        dir.path().join("specs/orders/openapi.yaml"),
        "openapi: 3.0.3\ninfo: {title: Orders, version: '1'}\npaths:\n  /orders:\n    \
         $ref: 'paths.yaml#/orders'\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("specs/orders/paths.yaml"),
        "orders:\n  post:\n    responses: {'201': {description: Created}}\n",
    )
    .unwrap();
    dir
}

#[test]
fn review_takes_directories_several_files_and_stdin_as_check_does() {
    let dir = two_apis();
    // A directory: a section a document, in path order.
    let (code, md, err) = run(dir.path(), &["specs"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        sections(&md),
        [
            "## Idempotency review: Orders (`specs/orders/openapi.yaml`)",
            "## Idempotency review: Acme Payments (`specs/payments.yaml`)",
        ]
    );
    let orders = row(&md, "POST /orders");
    assert!(
        orders.contains("❌ processed twice: no idempotency key<br>`specs/orders/paths.yaml:2:3`"),
        "{orders}"
    );
    // Each section has its own gaps: the payments API's are not the orders API's.
    let orders_section = &md[..md.find("## Idempotency review: Acme").unwrap()];
    assert!(
        !orders_section.contains("unprotected-patch"),
        "{orders_section}"
    );
    assert!(md.contains("| `unprotected-patch` | info | 1 |"), "{md}");

    // Several files; a fragment stands for the documents that reach it.
    let (code, md2, _) = run(
        dir.path(),
        &["specs/payments.yaml", "specs/orders/paths.yaml"],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(md2, md);

    // Standard input, named with --stdin-filename so its $refs resolve.
    let text = std::fs::read_to_string(dir.path().join("specs/orders/openapi.yaml")).unwrap();
    let (code, md, err) = run(
        dir.path(),
        &["-", "--stdin-filename", "specs/orders/openapi.yaml"],
        &text,
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        sections(&md),
        ["## Idempotency review: Orders (`specs/orders/openapi.yaml`)"]
    );
    assert!(
        row(&md, "POST /orders").contains("❌ processed twice"),
        "{md}"
    );
    let (code, md, _) = run(
        dir.path(),
        &["-"],
        &text.replace(
            "$ref: 'paths.yaml#/orders'",
            "post: {responses: {'201': {description: ok}}}",
        ),
    );
    assert_eq!(code, 0);
    assert_eq!(sections(&md), ["## Idempotency review: Orders (`<stdin>`)"]);
}

#[test]
fn what_cannot_be_reviewed_is_an_error_and_the_rest_is_still_reviewed() {
    let dir = two_apis();
    std::fs::write(
        dir.path().join("specs/broken.yaml"),
        "openapi: 3.0.3\npaths: [\n",
    )
    .unwrap();
    let (code, md, err) = run(
        dir.path(),
        &["specs/broken.yaml", "specs/payments.yaml"],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.starts_with("error: specs/broken.yaml:3:1: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(
        sections(&md),
        ["## Idempotency review: Acme Payments (`specs/payments.yaml`)"]
    );
    // Sections are in path order whatever the order of the command line, a failure among them.
    let (code, md_all, _) = run(
        dir.path(),
        &[
            "specs/payments.yaml",
            "specs/broken.yaml",
            "specs/orders/openapi.yaml",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert_eq!(
        sections(&md_all),
        [
            "## Idempotency review: Orders (`specs/orders/openapi.yaml`)",
            "## Idempotency review: Acme Payments (`specs/payments.yaml`)",
        ]
    );
    // The review says so too: a pull-request comment never skips a document in silence.
    let not_reviewed = &md[md.find("## Not reviewed").expect("a not-reviewed part")..];
    assert!(
        not_reviewed.starts_with("## Not reviewed\n\n- `specs/broken.yaml:3:1`: invalid YAML"),
        "{not_reviewed}"
    );
    // Nothing to review at all: an error, and a review that says so, written over an old one.
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    std::fs::write(dir.path().join("review.md"), "yesterday's review").unwrap();
    let (code, md, err) = run(dir.path(), &["empty", "-o", "review.md"], "");
    assert_eq!((code, md.as_str()), (2, ""));
    assert_eq!(
        err,
        "error: empty:1:1: no OpenAPI documents found in empty (looked for *.yaml, *.yml, \
         *.json with an openapi or swagger key)\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("review.md")).unwrap(),
        "## Idempotency review\n\nNothing could be reviewed.\n\n## Not reviewed\n\n- \
         `empty:1:1`: no OpenAPI documents found in empty (looked for *.yaml, *.yml, *.json with \
         an openapi or swagger key)\n"
    );
    // A document under a broken configuration is named as not reviewed.
    std::fs::write(
        dir.path().join("specs/orders/.idemlint.yaml"),
        "rulez: {}\n",
    )
    .unwrap();
    let (code, md, err) = run(dir.path(), &["specs"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("note: specs/orders/openapi.yaml not reviewed: its configuration"),
        "{err}"
    );
    assert_eq!(
        sections(&md),
        ["## Idempotency review: Acme Payments (`specs/payments.yaml`)"]
    );
    assert!(
        md.contains("- `specs/orders/openapi.yaml`: its configuration"),
        "{md}"
    );
    let (code, _, err) = run(dir.path(), &["specs", "--stdin-filename", "a.yaml"], "");
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --stdin-filename names the document read from `-`, which is not among the paths\n"
    );
}

#[test]
fn one_html_page_holds_a_section_a_document() {
    let dir = two_apis();
    let (code, html, _) = run(dir.path(), &["specs", "--format", "html"], "");
    assert_eq!(code, 0);
    assert_eq!(html.matches("<section class=\"doc\"").count(), 2);
    assert!(
        html.contains("<title>Idempotency review: 2 documents</title>"),
        "{html}"
    );
    assert!(html.contains("<h2>Orders</h2>"), "{html}");
    assert!(html.contains("<h2>Acme Payments</h2>"), "{html}");
    assert_eq!(html.matches("<tr class=\"operation ").count(), 11);
    assert_eq!(html.matches("<!DOCTYPE html>").count(), 1);
}

#[test]
fn a_deprecated_operation_is_marked_in_its_row() {
    // `check` leaves advice about it out and marks its other findings; `review` marks the row,
    // whose answers are for the clients still calling it.
    let dir = tempfile::tempdir().unwrap();
    let spec = "\
openapi: 3.0.3
info: {title: Old, version: '1'}
paths:
  /v1/recipients/{id}/verify:
    post:
      deprecated: true
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: The recipient}}
  /v2/recipients/{id}/verify:
    post:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: The recipient}}
";
    std::fs::write(dir.path().join("api.yaml"), spec).unwrap();
    let (code, md, _) = run(dir.path(), &["api.yaml"], "");
    assert_eq!(code, 0, "{md}");
    row(&md, "POST /v1/recipients/{id}/verify (deprecated)");
    row(&md, "POST /v2/recipients/{id}/verify");
}

/// A resend is judged as `check` judges it: a retry's extra message is what the call is for, so
/// its first answer is good, while a plain send repeated is a gap.
#[test]
fn a_resend_is_good_and_a_send_a_gap() {
    let md = review(&[
        "fixtures/rules/missing-idempotency-key/good_resends.yaml",
        "--format",
        "markdown",
    ]);
    let resend = row(&md, "POST /sign_requests/{sign_request_id}/resend");
    assert!(
        resend.contains("✅ a retry sends once more, which a resend is for (`resend`)"),
        "{resend}"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("send.yaml"),
        "openapi: 3.0.3\ninfo: {title: Send, version: 1.0.0}\npaths:\n  /messages/send:\n    post:\n      summary: Send a message\n      requestBody: {content: {application/json: {schema: {type: object, properties: {text: {type: string}}}}}}\n      responses: {'200': {description: Sent}}\n",
    )
    .unwrap();
    let (code, md, err) = run(dir.path(), &["send.yaml"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    let send = row(&md, "POST /messages/send");
    assert!(
        send.contains("a retry sends it again (`send`): no key"),
        "{send}"
    );
}

#[test]
fn a_call_said_to_be_the_same_as_a_protected_one_is_answered_as_that_one() {
    // Moov's `/files/{fileID}/new`, "the same as POST /files/{fileID}", whose path names the new
    // file: as `check` judges it (no finding), the review says why.
    let md = review(&["fixtures/rules/missing-idempotency-key/good_created_at_its_own_path.yaml"]);
    let alias = row(&md, "POST /files/{fileID}/new");
    assert!(
        alias.contains("| ✅ the same call as POST /files/{fileID}, which is protected<br>"),
        "{alias}"
    );
}

#[test]
fn only_gaps_leaves_out_the_operations_with_nothing_to_say() {
    let all = review(&["examples/payments-api.yaml"]);
    let gaps = review(&["examples/payments-api.yaml", "--only-gaps"]);
    let operations = |md: &str| {
        md.lines()
            .filter(|l| l.starts_with("| `") && l.contains("<br>`examples/"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // The safe reads and the operations answered well on every question are left out.
    assert_eq!(
        (operations(&all).len(), operations(&gaps).len()),
        (10, 5),
        "{gaps}"
    );
    assert!(
        gaps.contains("5 of 10 operations with nothing to say (every answer safe or not applicable) are left out."),
        "{gaps}"
    );
    assert!(!row(&all, "GET /payments/{paymentId}").is_empty());
    assert!(!gaps.contains("`GET /payments/{paymentId}`"), "{gaps}");
    // Every operation left is one with a gap or a risk.
    for line in operations(&gaps) {
        assert!(line.contains("⚠️") || line.contains("❌"), "{line}");
    }
}
