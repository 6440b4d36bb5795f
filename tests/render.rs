//! Rendering as a user sees it: findings at any span, with labels, in every format; long source
//! lines cut in `text`; colour in `concise`.

use assert_cmd::Command;
use idemlint::report::{Format, RenderOptions, render};

#[path = "support/span_findings.rs"]
mod span_findings;

use span_findings::{Bytes, FILE};

const FORMATS: [Format; 7] = [
    Format::Text,
    Format::Concise,
    Format::Json,
    Format::Sarif,
    Format::Github,
    Format::Junit,
    Format::Gitlab,
];

/// Characters a line of `text` output may hold: a 240-column window of source, its `…` marks and
/// the gutter; messages wrap at the width (100 here).
const MAX_LINE: usize = 280;

/// xorshift64*: a fixed seed gives the same cases on every run, with no new dependency.
struct Rng(u64);

impl Rng {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                self.0 ^= self.0 >> 12;
                self.0 ^= self.0 << 25;
                self.0 ^= self.0 >> 27;
                (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
            })
            .collect()
    }
}

/// Renders the report `data` makes (see `support/span_findings`) in every format: nothing
/// panics, `text` lines stay bounded, each snippet is headed by its finding's own line and
/// column, each label is shown (drawn, or as a note), and the JSON formats parse.
fn check_case(data: &[u8]) {
    let report = span_findings::report(&mut Bytes::new(data));
    let opts = RenderOptions {
        color: false,
        quiet: false,
        width: 100,
    };
    let outputs: Vec<String> = FORMATS
        .iter()
        .map(|&format| {
            std::panic::catch_unwind(|| render(&report, format, &opts))
                .unwrap_or_else(|_| panic!("{format:?} panicked on bytes {data:?}"))
        })
        .collect();
    let text = &outputs[0];
    let why = || format!("bytes {data:?}:\n{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= MAX_LINE, "{}", why());
    }
    for f in &report.findings {
        let at = f.source.line_col(f.span.start.min(f.span.end) as usize);
        let header = format!("[{FILE}:{}:{}]", at.line, at.column);
        assert!(text.contains(&header), "{header} missing; {}", why());
        for l in &f.labels {
            assert!(
                text.contains(&*l.message),
                "{} missing; {}",
                l.message,
                why()
            );
        }
    }
    let json = serde_json::from_str::<serde_json::Value>(&outputs[2]).expect("json parses");
    let sarif = serde_json::from_str::<serde_json::Value>(&outputs[3]).expect("sarif parses");
    // Each fix is in both, edit by edit, with its text as it is.
    for (i, f) in report.findings.iter().enumerate() {
        let in_json = &json["findings"][i]["fix"];
        let in_sarif = &sarif["runs"][0]["results"][i]["fixes"];
        let Some(fix) = &f.fix else {
            assert!(in_json.is_null() && in_sarif.is_null(), "{}", why());
            continue;
        };
        assert_eq!(in_json["title"], fix.title.as_str(), "{}", why());
        assert_eq!(in_sarif[0]["description"]["text"], fix.title.as_str());
        let replacements: Vec<&serde_json::Value> = in_sarif[0]["artifactChanges"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["replacements"].as_array().unwrap())
            .collect();
        assert_eq!(replacements.len(), fix.edits.len(), "{}", why());
        for (k, e) in fix.edits.iter().enumerate() {
            let edit = &json["findings"][i]["fix"]["edits"][k];
            assert_eq!(edit["content"], e.text.as_str());
            let place = [e.line, e.column, e.end_line, e.end_column].map(u64::from);
            let in_json = ["line", "column", "end_line", "end_column"].map(|k| edit[k].as_u64());
            assert_eq!(in_json, place.map(Some), "{}", why());
            let region = &replacements[k]["deletedRegion"];
            let in_sarif =
                ["startLine", "startColumn", "endLine", "endColumn"].map(|k| region[k].as_u64());
            assert_eq!(in_sarif, place.map(Some), "{}", why());
            assert_eq!(replacements[k]["insertedContent"]["text"], e.text.as_str());
        }
    }
    serde_json::from_str::<serde_json::Value>(&outputs[6]).expect("gitlab parses");
}

/// Findings at random spans with random labels over hostile text, from a fixed seed (override
/// with `IDEMLINT_RENDER_SEED`, and the number of cases with `IDEMLINT_RENDER_CASES`).
#[test]
fn findings_at_any_span_render_in_every_format() {
    let env = |name: &str| std::env::var(name).ok().and_then(|s| s.parse().ok());
    let mut rng = Rng(env("IDEMLINT_RENDER_SEED").unwrap_or(0x1de5_11a7));
    for _ in 0..env("IDEMLINT_RENDER_CASES").unwrap_or(250) {
        check_case(&rng.bytes(96));
    }
}

/// The case that crashed `text` before excerpts: a label 70,000 columns along the line of its
/// finding.
#[test]
fn a_label_70_000_columns_along_the_line() {
    #[rustfmt::skip]
    let data = [
        0, 0, 0, 11, 0, 1,       // one line of 70,000 `x`, then a line break
        0,                       // one finding,
        0, 0, 0, 0, 5, 0, 0, 0, 3, 1, // at 0..5,
        1,                       // with one label,
        0x66, 0x11, 0x01, 0x00, 3, 0, 0, 0, 3, 1, 1, // at 69,990..69,993, in the same file
    ];
    let report = span_findings::report(&mut Bytes::new(&data));
    let f = &report.findings[0];
    assert_eq!(f.source.text.len(), 70_001);
    assert_eq!((f.span.start, f.span.end), (0, 5));
    let label = &f.labels[0];
    assert_eq!(
        (label.span.start, label.span.end, label.same_file),
        (69_990, 69_993, true)
    );
    check_case(&data);
    let text = render(
        &report,
        Format::Text,
        &RenderOptions {
            color: false,
            quiet: false,
            width: 100,
        },
    );
    assert!(text.contains("label 0.0 at spec.json:1:69991\n"), "{text}");
}

fn idemlint() -> Command {
    let mut cmd = Command::cargo_bin("idemlint").unwrap();
    cmd.env_remove("NO_COLOR").env_remove("COLUMNS");
    cmd
}

const GOOD: &str = "fixtures/hostile/good.yaml";

#[test]
fn concise_is_coloured_like_rustc_when_asked() {
    let out = idemlint()
        .args(["check", GOOD, "--format", "concise", "--color", "always"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.starts_with(
            "\u{1b}[1mfixtures/hostile/good.yaml:5:5:\u{1b}[0m \u{1b}[1;31merror[missing-idempotency-key]\u{1b}[0m POST /refunds moves money"
        ),
        "{out:?}"
    );
    assert!(
        out.ends_with("\nFound 1 problem (1 error) in 1 file (1 operation).\n"),
        "{out:?}"
    );
}

#[test]
fn concise_has_no_colour_when_not_asked_or_piped() {
    for args in [&["--color", "never"][..], &[]] {
        let out = idemlint()
            .args(["check", GOOD, "--format", "concise"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "fixtures/hostile/good.yaml:5:5: error[missing-idempotency-key] POST /refunds moves money (path word `refunds`) without an idempotency key: a retry after a lost response can move (or record) the money twice\nFound 1 problem (1 error) in 1 file (1 operation).\n",
            "{args:?}"
        );
    }
}

/// Warnings are yellow and infos cyan, as rustc and clippy print them.
#[test]
fn concise_colours_each_severity() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("spec.yaml"),
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    patch:\n      parameters: [{name: Idempotency-Key, in: header, schema: {type: string, maxLength: 64}}]\n      responses: {'200': {description: ok}}\n",
    )
    .unwrap();
    let out = idemlint()
        .current_dir(dir.path())
        .args([
            "check",
            "spec.yaml",
            "--format",
            "concise",
            "--color",
            "always",
        ])
        .args(["--fail-on", "never"])
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.contains(
            "\u{1b}[1mspec.yaml:6:21:\u{1b}[0m \u{1b}[1;36minfo[idempotency-key-optional]\u{1b}[0m idempotency key header"
        ),
        "{out:?}"
    );
    assert!(
        out.contains(
            "\u{1b}[1mspec.yaml:6:21:\u{1b}[0m \u{1b}[1;33mwarning[undocumented-key-ttl]\u{1b}[0m idempotency key"
        ),
        "{out:?}"
    );
    assert!(!out.contains("\u{1b}[1;31m"), "no error, no red: {out:?}");
}

/// `--color auto` (the default) colours on a real terminal and nowhere else: run under a
/// pseudo-terminal (util-linux `script`), the concise report is coloured; with NO_COLOR it is not.
#[test]
fn concise_is_coloured_on_a_terminal_by_default() {
    let available = std::process::Command::new("script")
        .args(["-qec", "true", "/dev/null"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        eprintln!("skipped: util-linux `script` is not installed to give a pseudo-terminal");
        return;
    }
    let binary = env!("CARGO_BIN_EXE_idemlint");
    let on_terminal = |no_color: Option<&str>| {
        let mut cmd = std::process::Command::new("script");
        cmd.args([
            "-qec",
            &format!("{binary} check {GOOD} --format concise"),
            "/dev/null",
        ])
        .env_remove("NO_COLOR");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        String::from_utf8(cmd.output().unwrap().stdout).unwrap()
    };
    let coloured = on_terminal(None);
    assert!(
        coloured.starts_with(
            "\u{1b}[1mfixtures/hostile/good.yaml:5:5:\u{1b}[0m \u{1b}[1;31merror[missing-idempotency-key]\u{1b}[0m POST /refunds"
        ),
        "{coloured:?}"
    );
    let plain = on_terminal(Some("1"));
    assert!(
        plain.starts_with(
            "fixtures/hostile/good.yaml:5:5: error[missing-idempotency-key] POST /refunds"
        ),
        "{plain:?}"
    );
}
