//! The pages' structure, from reviews built by hand: what the command line cannot produce yet
//! (the page of a change) and what a spec rarely holds (a code span in a name, a `#` in a path).

use super::{Links, html, html_change};
use crate::diagnostic::Severity;
use crate::review::change::{ChangeNote, compare};
use crate::review::{Answer, ApiReview, NotReviewed, OperationReview, Verdict};

fn answer(verdict: Verdict, text: &str, at: Option<&str>) -> Answer {
    Answer {
        verdict,
        text: text.to_string(),
        at: at.map(str::to_string),
    }
}

fn op(identity: &str, line: u32, answers: [Answer; 5]) -> OperationReview {
    OperationReview {
        operation: identity.to_string(),
        method: identity.split(' ').next().unwrap().to_string(),
        tags: vec!["Payments".to_string()],
        operation_id: Some(format!("op{line}")),
        identity: identity.to_string(),
        at: format!("specs/api.yaml:{line}:5"),
        answers,
        contract: Vec::new(),
    }
}

fn na(text: &str) -> Answer {
    answer(Verdict::NotApplicable, text, None)
}

/// A keyed POST whose answers are all good, with `verdict` and `text` as its first answer.
fn keyed(identity: &str, line: u32, verdict: Verdict, text: &str) -> OperationReview {
    op(
        identity,
        line,
        [
            answer(
                verdict,
                text,
                Some(&format!("specs/api.yaml:{}:7", line + 4)),
            ),
            answer(Verdict::Good, "documented on the 201 response", None),
            answer(Verdict::Good, "24 hours", Some("specs/common.yaml:3:1")),
            answer(Verdict::Gap, "not documented: no 409 response", None),
            answer(
                Verdict::Good,
                "absolute values (no relative change found)",
                None,
            ),
        ],
    )
}

fn read(identity: &str, line: u32) -> OperationReview {
    op(
        identity,
        line,
        [
            answer(Verdict::Good, "safe method: no state change", None),
            na("no key, no replay"),
            na("no key"),
            na("no key"),
            na("no change"),
        ],
    )
}

fn review(ops: Vec<OperationReview>) -> ApiReview {
    ApiReview {
        key: "specs/api.yaml".to_string(),
        title: "Payments & <Refunds>".to_string(),
        file: "specs/api.yaml".to_string(),
        unsafe_operations: ops.len(),
        protected: 1,
        optional_keys: 0,
        carriers: vec![("header `Idempotency-Key`".to_string(), 2)],
        lifetimes: vec![("24 hours".to_string(), "specs/common.yaml:3:1".to_string())],
        gaps: vec![(
            "missing-idempotency-key".to_string(),
            Severity::Error,
            1,
            "POST that changes state but accepts no idempotency key".to_string(),
        )],
        operations: ops,
    }
}

/// The page's text as a reader gets it: no markup, style or script.
fn text(page: &str) -> String {
    let mut s = page.to_string();
    for tag in ["style", "script"] {
        while let Some(open) = s.find(&format!("<{tag}>")) {
            let close = s[open..].find(&format!("</{tag}>")).unwrap() + open;
            s.replace_range(open..close + tag.len() + 3, "");
        }
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

fn assert_self_contained(page: &str) {
    for remote in ["src=", "<link", "url(", "@import", "http:", "https:"] {
        assert!(!page.contains(remote), "{remote} in the page");
    }
    assert!(
        !page
            .chars()
            .any(|c| matches!(c as u32, 0x2600..=0x27BF | 0x1F000.. | 0xFE0F)),
        "an emoji in the page"
    );
    assert!(!text(page).contains('`'), "a backtick in\n{}", text(page));
}

#[test]
fn a_review_is_one_page_with_code_for_backticks_and_links_to_each_line() {
    let mut webhook = read("POST webhook `refund.created`", 90);
    webhook.answers[0] = answer(
        Verdict::Good,
        "declared harmless (`x-idempotency: false`)",
        Some("specs/a#b.yaml:4:3"),
    );
    let mut old = read("GET /v1/refunds/{id}", 70);
    old.operation.push_str(" (deprecated)");
    let r = review(vec![
        keyed(
            "POST /payments",
            10,
            Verdict::Good,
            "keyed by header `Idempotency-Key`",
        ),
        old,
        webhook,
    ]);
    let not_reviewed = [NotReviewed {
        place: "specs/broken.yaml:3:1".to_string(),
        reason: "invalid YAML: did not find expected node content".to_string(),
    }];
    let page = html(std::slice::from_ref(&r), &not_reviewed, &Links::relative());
    assert_self_contained(&page);
    assert_eq!(page.matches("<!DOCTYPE html>").count(), 1);
    assert!(
        page.contains("<title>Idempotency review: Payments &amp; &lt;Refunds&gt;</title>"),
        "{page}"
    );
    assert_eq!(page.matches("<tr class=\"operation ").count(), 3);
    assert!(page.contains("<code>x-idempotency: false</code>"), "{page}");
    assert!(
        page.contains("webhook <code>refund.created</code>"),
        "{page}"
    );
    assert!(
        page.contains("<span class=\"flag\">deprecated</span>"),
        "{page}"
    );
    // Every place is a link to its line, relative to the page, its name escaped for a URL.
    assert!(
        page.contains(
            "<a class=\"at\" href=\"specs/api.yaml#L14\" title=\"specs/api.yaml:14:7\">api.yaml:14</a>"
        ),
        "{page}"
    );
    assert!(page.contains("href=\"specs/a%23b.yaml#L4\""), "{page}");
    assert!(page.contains("href=\"specs/common.yaml#L3\""), "{page}");
    // The filters read each row's verdicts, method and tags.
    assert!(
        page.contains("data-v=\"good good good gap good\" data-m=\"POST\" data-t=\"Payments\""),
        "{page}"
    );
    assert!(
        page.contains("<option value=\"GET\">GET</option>"),
        "{page}"
    );
    assert!(
        page.contains("<form id=\"filters\" class=\"filters\" hidden"),
        "{page}"
    );
    // The chart: question 4 is a gap for the keyed POST, not applicable for the other two.
    assert!(
        page.contains("<span class=\"seg gap\" style=\"flex:1 1 0\" title=\"1 gap\" data-q=\"3\" data-v=\"gap\"></span><span class=\"seg na\" style=\"flex:2 1 0\""),
        "{page}"
    );
    let not_reviewed_at = page
        .find("<h2>Not reviewed</h2>")
        .expect("a not-reviewed part");
    assert!(
        page[not_reviewed_at..].contains(
            "<a href=\"specs/broken.yaml#L3\"><code>specs/broken.yaml:3:1</code></a>: invalid YAML"
        ),
        "{page}"
    );
    // Under a source browser's address, every link is.
    let linked = html(
        &[r],
        &[],
        &Links::under("https://github.com/o/r/blob/0123abc"),
    );
    assert!(
        linked.contains("href=\"https://github.com/o/r/blob/0123abc/specs/api.yaml#L14\""),
        "{linked}"
    );
    assert!(!linked.contains("href=\"specs/"), "{linked}");
}

#[test]
fn nothing_reviewed_is_said_so() {
    let page = html(&[], &[], &Links::relative());
    assert_self_contained(&page);
    assert!(text(&page).contains("Nothing could be reviewed."));
}

/// A change with one of each: a regression, an improvement with a contract-change note, an
/// operation added with a risk, one removed and two unchanged.
fn change() -> crate::review::change::ChangeReview {
    let before = review(vec![
        keyed(
            "POST /payments",
            10,
            Verdict::Good,
            "keyed by header `Idempotency-Key`",
        ),
        keyed(
            "POST /refunds",
            30,
            Verdict::Risk,
            "processed twice: no idempotency key",
        ),
        read("GET /payments/{id}", 50),
        read("GET /refunds/{id}", 60),
        read("GET /legacy", 80),
    ]);
    let mut after = review(vec![
        keyed(
            "POST /payments",
            12,
            Verdict::Risk,
            "processed twice: no idempotency key",
        ),
        keyed(
            "POST /refunds",
            32,
            Verdict::Good,
            "keyed by header `Idempotency-Key`",
        ),
        read("GET /payments/{id}", 52),
        read("GET /refunds/{id}", 62),
        keyed(
            "POST /payouts",
            90,
            Verdict::Risk,
            "processed twice: no idempotency key",
        ),
    ]);
    after.protected = 2;
    // A line inserted above the lifetime moves it, which is no change of what it says.
    after.lifetimes[0].1 = "specs/common.yaml:4:1".to_string();
    let mut change = compare(
        "origin/main (3f2a9c1)".to_string(),
        vec![before],
        vec![after],
    );
    let refunds = change.documents[0]
        .changed
        .iter_mut()
        .find(|c| c.after.identity == "POST /refunds")
        .unwrap();
    refunds.findings.push(ChangeNote {
        rule: "idempotency-key-added".to_string(),
        severity: Severity::Info,
        message: "POST /refunds now takes `Idempotency-Key`".to_string(),
        at: "specs/api.yaml:36:7".to_string(),
    });
    change
}

#[test]
fn a_change_shows_regressions_first_each_changed_answer_before_and_after() {
    let change = change();
    let page = html_change(&change, &[], &Links::relative());
    assert_self_contained(&page);
    assert!(
        page.contains("<h1>Idempotency review of a change: <span>Payments &amp; &lt;Refunds&gt;, against <code>origin/main (3f2a9c1)</code></span></h1>"),
        "{page}"
    );
    // The added operation that a retry gets wrong is counted with the added ones.
    let tally = "<p class=\"tally\"><span class=\"regressions\">1 regression</span>\
                 <span class=\"improvements\">1 improvement</span><span>2 changed</span>\
                 <span>1 added (1 wrong under retry)</span><span>1 removed</span><span>2 unchanged</span></p>";
    assert!(page.contains(tally), "{page}");
    let regression = page
        .find("<tr class=\"operation w-risk changed regression\"")
        .expect("a regression row");
    let improvement = page
        .find("<tr class=\"operation w-gap changed improvement\"")
        .expect("an improvement row");
    assert!(regression < improvement);
    // Of a changed operation, the first answer changed and the other four are dimmed.
    assert_eq!(
        page.matches(" changed\" title=\"Same request twice?: changed\">")
            .count(),
        2
    );
    assert_eq!(page.matches("<td class=\"a good same\">").count(), 6);
    assert!(
        page.contains(
            "<div class=\"was\"><span class=\"when-label\">was</span><p><span class=\"v good\">"
        ),
        "{page}"
    );
    // The base's places are named, not linked: the links address the tree after the change.
    assert!(
        page.contains(
            "<span class=\"at\" title=\"specs/api.yaml:14:7 (at the base)\">api.yaml:14</span>"
        ),
        "{page}"
    );
    assert!(page.contains("href=\"specs/api.yaml#L16\""), "{page}");
    // The note follows its operation's row.
    let note = page.find("<tr class=\"notes\">").expect("a notes row");
    assert!(improvement < note && note < page.find("Added operations").unwrap());
    assert!(
        page[note..].contains(
            "<span class=\"sev info\">info</span><code>idempotency-key-added</code> POST /refunds now takes <code>Idempotency-Key</code>"
        ),
        "{page}"
    );
    let added = page
        .find("<h3>Added operations <span class=\"count\">(1)</span></h3>")
        .unwrap();
    let removed = page
        .find("<h3>Removed operations <span class=\"count\">(1)</span></h3>")
        .unwrap();
    assert!(added < removed);
    assert!(page[added..removed].contains("/<wbr>payouts"), "{page}");
    assert!(page[removed..].contains("/<wbr>legacy"), "{page}");
    assert!(page.contains("<p class=\"unchanged\">2 other operations are answered as before.</p>"));
    // The chart has a bar before and one after each question; the facts say what moved.
    assert_eq!(page.matches("<span class=\"bar before\">").count(), 5);
    assert_eq!(page.matches("<span class=\"bar\">").count(), 5);
    assert!(
        page.contains("<dt>Protected</dt><dd><span class=\"when-label\">was</span><span class=\"big\">1 of 5</span> <span class=\"when-label\">now</span><span class=\"big\">2 of 5</span></dd>"),
        "{page}"
    );
    assert!(
        page.contains("<dt>Key carrier</dt><dd>header <code>Idempotency-Key</code> (2)</dd>"),
        "{page}"
    );
    assert!(
        page.contains(
            "<dt>Key lifetime</dt><dd>24 hours <a class=\"at\" href=\"specs/common.yaml#L4\""
        ),
        "{page}"
    );
    assert_eq!(page, html_change(&change, &[], &Links::relative()));
}

#[test]
fn a_document_the_change_adds_or_deletes_has_one_side() {
    let new = compare(
        "main".to_string(),
        Vec::new(),
        vec![review(vec![read("GET /a", 5)])],
    );
    let page = html_change(&new, &[], &Links::relative());
    assert_self_contained(&page);
    assert!(
        page.contains("specs/api.yaml</a>, new in this change"),
        "{page}"
    );
    assert_eq!(page.matches("<span class=\"bar before\">").count(), 0);
    assert_eq!(page.matches("<span class=\"bar\">").count(), 5);
    let gone = compare(
        "main".to_string(),
        vec![review(vec![read("GET /a", 5)])],
        Vec::new(),
    );
    let page = html_change(&gone, &[], &Links::relative());
    assert!(
        page.contains("<code>specs/api.yaml</code>, deleted by this change"),
        "{page}"
    );
    assert!(page.contains("<h3>Removed operations <span class=\"count\">(1)</span></h3>"));
    assert!(!page.contains("<a class=\"at\""), "{page}");
    let none = html_change(
        &crate::review::change::ChangeReview {
            base: "main".to_string(),
            documents: Vec::new(),
        },
        &[],
        &Links::relative(),
    );
    assert!(text(&none).contains("No document was reviewed on either side."));
}

#[test]
fn several_documents_are_linked_from_the_top_by_title_and_file() {
    let one = review(vec![read("GET /a", 5)]);
    let mut two = one.clone();
    two.file = "specs/v2/api.yaml".to_string();
    let page = html(&[one, two], &[], &Links::relative());
    assert!(page.contains("<title>Idempotency review: 2 documents</title>"));
    assert!(
        page.contains(
            "<nav class=\"docs\" aria-label=\"Documents\"><a href=\"#doc-1\">Payments &amp; \
             &lt;Refunds&gt; <span>specs/api.yaml</span></a><a href=\"#doc-2\">Payments &amp; \
             &lt;Refunds&gt; <span>specs/v2/api.yaml</span></a></nav>"
        ),
        "{page}"
    );
    assert_eq!(page.matches("<section class=\"doc\" id=\"doc-").count(), 2);
}
