//! `idemlint review`: the five questions per operation, as Markdown and as an HTML page.

use assert_cmd::Command;

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
    let md = review(&["examples/payments-api.yaml"]);
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
        !html.contains("http://") && !html.contains("https://") && !html.contains("<script"),
        "no external assets"
    );
    assert_eq!(html.matches("<tr class=\"operation\">").count(), 10);
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
    assert_eq!(dom.matches("<tr class=\"operation\">").count(), 10, "{dom}");
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
        links.contains("⚠️ repeats the same change (the body can only set fixed values: status)"),
        "{links}"
    );
    // A read-only POST that takes a key: its contract does not matter.
    let apple = row(&md, "POST /applePay/sessions");
    assert!(
        apple.contains("— only reads: the key's contract does not matter"),
        "{apple}"
    );
    assert!(
        md.contains("- **0 of 18** operations whose duplicates matter are protected (a required key or If-Match); 17 more take an optional key."),
        "{md}"
    );
    let get = row(&md, "GET /paymentLinks/{linkId}");
    assert!(get.contains("✅ safe method"), "{get}");
    assert!(
        md.contains("**Key carrier:** header `Idempotency-Key` (22)"),
        "{md}"
    );
}
