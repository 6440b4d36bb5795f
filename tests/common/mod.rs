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
        .filter(|f| rules.contains(&f.rule))
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
