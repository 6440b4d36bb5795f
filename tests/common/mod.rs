//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use idemlint::lint::{Options, run};
use idemlint::report::{Finding, Format, RenderOptions, Report, render};

pub fn lint(paths: &[&str]) -> Report {
    lint_with(paths, &Options::default())
}

pub fn lint_with(paths: &[&str], opts: &Options) -> Report {
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    run(&paths, opts, || panic!("no stdin in tests"))
}

/// The concise report, as a user sees it.
pub fn concise(report: &Report) -> String {
    render(
        report,
        Format::Concise,
        &RenderOptions {
            color: false,
            quiet: false,
            width: 100,
        },
    )
}

/// The shared corpus, when this checkout has it beside it.
pub fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if p.join("MANIFEST.tsv").is_file() {
        Some(p)
    } else {
        eprintln!("skipped: ../shared/corpus is not here");
        None
    }
}

/// The source text at a finding's line and column, up to the end of that line.
pub fn text_at(f: &Finding) -> &str {
    let line_start = f.source.lines.line_start(f.line as usize - 1);
    let line = &f.source.text[line_start..];
    let line = line.split(['\n', '\r']).next().unwrap_or("");
    let byte = line
        .char_indices()
        .nth(f.column as usize - 1)
        .map_or(line.len(), |(b, _)| b);
    &line[byte..]
}

/// The key at a finding's position, without quotes: `post`, `409`, `$ref`.
pub fn key_at(f: &Finding) -> String {
    let at = text_at(f);
    let key = match at.chars().next() {
        Some(q @ ('"' | '\'')) => at[1..].split(q).next().unwrap_or(""),
        _ => at.split(':').next().unwrap_or(""),
    };
    key.trim_end().to_string()
}

/// `path:line:col: severity[rule] message` lines of the findings of `rules` only: tests about one
/// mechanism stay stable when unrelated rules are added.
pub fn lines_of(report: &Report, rules: &[&str]) -> String {
    report
        .findings
        .iter()
        .filter(|f| rules.contains(&f.rule.as_str()))
        .map(|f| {
            format!(
                "{}:{}:{}: {}[{}] {}\n",
                f.file(),
                f.line,
                f.column,
                f.severity,
                f.rule,
                f.message
            )
        })
        .collect()
}

/// The JSON report of `idemlint check api.yaml --format json`, run in `dir` with `args` added.
pub fn check_json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = assert_cmd::Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .args(["check", "api.yaml", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// [`check_json`] of `spec`, written as `api.yaml` to a fresh project, with `.idemlint.yaml`
/// holding `config` when it is not empty.
pub fn check_spec_json(spec: &str, config: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("api.yaml"), spec).unwrap();
    if !config.is_empty() {
        std::fs::write(dir.path().join(".idemlint.yaml"), config).unwrap();
    }
    check_json(dir.path(), &[])
}

/// `git` in `dir` as a test's own user (no system configuration, no signing), its output;
/// panics, with git's message, when it fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Microsoft's SARIF validator, when `tools/sarif` has been installed (`.ci/run` does it); the
/// test skips, saying so, when it has not.
pub fn sarif_validator() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tools/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("skipped: the SARIF validator is not installed (cd tools/sarif && npm ci)");
        None
    }
}

/// The validator accepts every one of `files`, with no error and no warning.
pub fn assert_valid_sarif(validator: &Path, files: &[PathBuf]) {
    let out = std::process::Command::new(validator)
        .arg("validate")
        .args(files)
        .output()
        .expect("the validator runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("Analysis completed successfully"), "{text}");
    // The validator exits 0 even when it reports errors: read what it says.
    let problems: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(": error ") || l.contains(": warning "))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
