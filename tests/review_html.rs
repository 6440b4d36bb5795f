//! `idemlint review --format html` as a browser shows it: one file that fetches nothing, fits a
//! 1,280 px window however long the spec's paths and answers, shows no emoji (a machine without
//! an emoji font draws them as empty boxes) and no Markdown backtick, and filters its
//! operations. Rendered with headless Chromium where there is one; skipped, saying so, where
//! there is not.
//!
//! [`assert_reads_well`] takes any page's path, so the page of `review --base` can be held to
//! the same checks.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::git;

/// Writes `review <args> --format html` to `page`.
fn review_html(args: &[&str], page: &Path) {
    review_html_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, page, 0);
}

/// The same, run from `dir`, exiting with `code`.
fn review_html_in(dir: &Path, args: &[&str], page: &Path, code: i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_idemlint"))
        .current_dir(dir)
        .arg("review")
        .args(args)
        .args(["--format", "html", "--output"])
        .arg(page)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Code points a font without emoji draws as a box: emoji and dingbats, symbols drawn as emoji,
/// and the joiner and selector that make emoji of plain characters.
fn is_emoji(c: char) -> bool {
    matches!(
        c as u32,
        0x231A..=0x231B
            | 0x23E9..=0x23FA
            | 0x2600..=0x27BF
            | 0x2B00..=0x2BFF
            | 0x1F000..
            | 0x200D
            | 0xFE0F
    )
}

/// What a page must be before any browser: one document, nothing it would fetch.
fn assert_self_contained(html: &str) {
    assert_eq!(html.matches("<!DOCTYPE html>").count(), 1);
    for fetch in [
        "src=", "<link", "url(", "@import", "<iframe", "<object", "<embed",
    ] {
        assert!(
            !html.contains(fetch),
            "the page would fetch something: {fetch}"
        );
    }
    if let Some(c) = html.chars().find(|c| is_emoji(*c)) {
        panic!("an emoji in the page: U+{:04X}", c as u32);
    }
}

/// Headless Chromium, when this machine has one.
fn chromium() -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|b| std::env::split_paths(&paths).map(move |p| p.join(b)))
        .find(|p| p.is_file())
}

/// The DOM of `page` (with `fragment` after its address) once its script ran, in a window
/// 1,280 px wide; `None` when there is no Chromium.
fn render(page: &Path, fragment: &str) -> Option<String> {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: no Chromium to render {}", page.display());
        return None;
    };
    let profile = tempfile::tempdir().unwrap();
    let page = page.canonicalize().unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,900",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium runs");
    // Read while it writes: a 1 MB DOM does not fit a pipe's buffer.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut dom = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut dom).map(|_| dom)
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("chromium did not finish rendering {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = reader.join().unwrap().unwrap();
    assert!(dom.contains("</html>"), "no DOM from chromium: {dom}");
    Some(dom)
}

/// A value the page's script wrote on `<html>`.
fn root_attribute<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let root = &dom[dom.find("<html")?..];
    let root = &root[..root.find('>')?];
    let at = root.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&root[at..at + root[at..].find('"')?])
}

/// The text of a DOM as a reader can get it: every element's, visible or not, without style
/// or script (more than `innerText`, so what it lacks `innerText` lacks too).
fn text(dom: &str) -> String {
    let mut s = dom.to_string();
    for tag in ["style", "script"] {
        while let Some(open) = s.find(&format!("<{tag}")) {
            let close = s[open..].find(&format!("</{tag}>")).expect("closed") + open;
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
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

/// The checks every review page passes in a 1,280 px window: nothing wider than the window,
/// no emoji and no backtick in its text. Returns the DOM, or `None` when there is no Chromium.
pub fn assert_reads_well(page: &Path) -> Option<String> {
    assert_self_contained(&std::fs::read_to_string(page).unwrap());
    let dom = render(page, "")?;
    let width: u32 = root_attribute(&dom, "data-width")
        .expect("the script measured the page")
        .parse()
        .unwrap();
    // The window less a scrollbar: the page was laid out as wide as asked.
    assert!((1200..=1280).contains(&width), "laid out {width} px wide");
    assert_eq!(
        root_attribute(&dom, "data-overflow"),
        Some("0"),
        "{} is wider than a 1,280 px window",
        page.display()
    );
    let text = text(&dom);
    if let Some(c) = text.chars().find(|c| is_emoji(*c)) {
        panic!("an emoji in the page's text: U+{:04X}", c as u32);
    }
    if let Some(at) = text.find('`') {
        panic!(
            "a backtick in the page's text: {}",
            &text[text[..at].char_indices().nth_back(40).map_or(0, |(i, _)| i)..]
                .chars()
                .take(120)
                .collect::<String>()
        );
    }
    Some(dom)
}

fn rows(dom: &str) -> usize {
    dom.matches("<tr class=\"operation ").count()
}

fn hidden_rows(dom: &str) -> usize {
    dom.split("<tr class=\"operation ")
        .skip(1)
        .filter(|row| row[..row.find('>').unwrap()].contains(" hidden"))
        .count()
}

#[test]
fn the_example_page_fits_its_window_with_no_tofu_and_no_backticks() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("review.html");
    review_html(&["examples/payments-api.yaml"], &page);
    let html = std::fs::read_to_string(&page).unwrap();
    // Without a source address, no address is remote.
    assert!(!html.contains("http:") && !html.contains("https:"));
    assert_eq!(html.matches("<tr class=\"operation ").count(), 10);
    // Each cell that cites a place links to its line, beside the page.
    assert!(
        html.contains(
            "<a class=\"at\" href=\"examples/payments-api.yaml#L151\" \
             title=\"examples/payments-api.yaml:151:48\">payments-api.yaml:151</a>"
        ),
        "{html}"
    );
    assert!(html.contains("enum value <code>add_balance</code> of <code>action</code>"));
    let Some(dom) = assert_reads_well(&page) else {
        return;
    };
    assert_eq!(rows(&dom), 10);
    assert_eq!(hidden_rows(&dom), 0);
    // The script shows the filters and counts what they show.
    assert!(
        dom.contains("<form id=\"filters\" class=\"filters\" aria-label"),
        "{dom}"
    );
    assert!(dom.contains("<output id=\"shown\">10 of 10 operations</output>"));
}

#[test]
fn a_filtered_view_is_a_link_and_without_script_everything_shows() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("review.html");
    review_html(&["examples/payments-api.yaml"], &page);
    // Operations with a risk: POST /refunds and the two PATCHes.
    let Some(dom) = render(&page, "#v=risk") else {
        return;
    };
    assert_eq!((rows(&dom), hidden_rows(&dom)), (10, 7));
    assert!(dom.contains("<output id=\"shown\">3 of 10 operations</output>"));
    // GETs whose fourth answer does not arise; then a chart's bar: gaps of question 4.
    let dom = render(&page, "#m=GET&pick=3:na").unwrap();
    assert_eq!(hidden_rows(&dom), 7);
    let dom = render(&page, "#pick=3:gap").unwrap();
    assert_eq!(hidden_rows(&dom), 8);
    assert!(dom.contains("Concurrent request with the same key: only gap (clear)"));
    // Text: the answer's words, an operationId.
    let dom = render(&page, "#q=createrefund").unwrap();
    assert_eq!(hidden_rows(&dom), 9);
    // Without script (which `--dump-dom` needs, so read from the file): no filters that would
    // do nothing, every operation shown.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<form id=\"filters\" class=\"filters\" hidden"));
    assert_eq!((rows(&html), hidden_rows(&html)), (10, 0));
}

#[test]
fn the_largest_corpus_spec_fits_too_at_a_reasonable_size() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let spec = root.join("stripe/spec3.2022-04-12.json");
    if !spec.is_file() {
        eprintln!("skipped: ../shared/corpus is not here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("stripe.html");
    review_html(
        &[spec.to_str().unwrap(), "--root", root.to_str().unwrap()],
        &page,
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let operations = html.matches("<tr class=\"operation ").count();
    assert!(operations > 400, "{operations} operations");
    // A row an operation, a few hundred bytes each: not the 4 MB spec again.
    assert!(
        html.len() < 2_500 * operations,
        "{} bytes for {operations} operations",
        html.len()
    );
    let Some(dom) = assert_reads_well(&page) else {
        return;
    };
    assert_eq!(rows(&dom), operations);
}

#[test]
fn names_with_no_place_to_break_wrap_inside_their_column() {
    // The fixture from a folder whose name is as long: the document's path is shown whole, and
    // so is a file that could not be reviewed.
    let dir = tempfile::tempdir().unwrap();
    let folder = "specs-of-the-payments-platform-team-kept-in-one-folder-with-a-long-name";
    std::fs::create_dir(dir.path().join(folder)).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/review/long-names.yaml"),
        dir.path().join(folder).join("long-names.yaml"),
    )
    .unwrap();
    let page = dir.path().join("review.html");
    review_html_in(
        dir.path(),
        &[
            &format!("{folder}/long-names.yaml"),
            &format!("{folder}/missing-{folder}.yaml"),
        ],
        &page,
        2,
    );
    let Some(dom) = assert_reads_well(&page) else {
        return;
    };
    assert_eq!(rows(&dom), 2);
    assert!(dom.contains("<code>add_to_the_balance_an_amount_given_in_the_body_of_this_request_with_a_long_name</code>"));
}

#[test]
fn the_page_of_a_change_reads_as_well() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("skipped: no git");
        return;
    }
    // The example at a commit, then a change: the shared key made optional, a transfer's path
    // renamed (its operationId pairs it), an operation added with a name that cannot break.
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path();
    git(top, &["init", "-q", "-b", "main"]);
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/payments-api.yaml"),
    )
    .unwrap();
    std::fs::write(top.join("payments-api.yaml"), &example).unwrap();
    git(top, &["add", "-A"]);
    git(top, &["commit", "-q", "-m", "base"]);
    // The shared key parameter made optional: every keyed operation changes.
    let optional =
        "      in: header\n      required: false\n      description: >-\n        A unique key";
    let changed = example
        .replace(
            "      in: header\n      required: true\n      description: >-\n        A unique key",
            optional,
        )
        .replace("  /transfers:", "  /money-transfers:")
        .replace(
            "  /payments/search:",
            "  /invoices:\n    post:\n      operationId: createInvoiceWithAVeryLongOperationIdThatDoesNotBreakAnywhere\n      responses:\n        '201': { description: The invoice }\n  /payments/search:",
        );
    assert!(changed.contains(optional) && changed.contains("/invoices"));
    std::fs::write(top.join("payments-api.yaml"), changed).unwrap();
    let page = top.join("change.html");
    review_html_in(top, &["--base", "main", "payments-api.yaml"], &page, 0);
    // (Paths may break after each `/`.)
    let html = std::fs::read_to_string(&page).unwrap().replace("<wbr>", "");
    assert!(
        html.contains("<code>/invoices</code>"),
        "the added operation"
    );
    assert!(
        html.contains("<code>/money-transfers</code>"),
        "the renamed path"
    );
    assert!(
        html.contains("was <code>POST /transfers</code>"),
        "the renamed path, as it was"
    );
    let Some(dom) = assert_reads_well(&page) else {
        return;
    };
    assert!(dom.contains("createInvoiceWithAVeryLongOperationIdThatDoesNotBreakAnywhere"));
}
