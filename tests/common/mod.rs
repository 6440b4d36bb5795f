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

/// The root documents of the corpus's MANIFEST.tsv (its `openapi ...` and `swagger ...` rows),
/// each with its size in bytes, largest first: the fragments beside them are reached through
/// their `$ref`s.
pub fn corpus_roots(corpus: &Path) -> Vec<(String, u64)> {
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let mut roots: Vec<(String, u64)> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let version = cols.get(5)?;
            (version.starts_with("openapi") || version.starts_with("swagger"))
                .then(|| (cols[0].to_string(), cols[4].parse().unwrap()))
        })
        .collect();
    roots.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    roots
}

/// Every file the corpus's MANIFEST.tsv lists: root documents, fragments and the rest.
pub fn corpus_files(corpus: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    manifest
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .map(str::to_string)
        .collect()
}

/// The folder of the corpus a root document's `$ref`s stay in: its vendor's, the first
/// component of its path (`lob` for `lob/lob-api-public.yml`).
pub fn corpus_project(root: &str) -> &str {
    root.split('/').next().unwrap()
}

/// Copies `root`'s project folder ([`corpus_project`]) of the corpus to `into`, at the same
/// relative path, as fresh files the test may write (the corpus itself may be read-only).
pub fn copy_corpus_project(corpus: &Path, root: &str, into: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let (from, to) = (entry.path(), to.join(entry.file_name()));
            if entry.file_type().unwrap().is_dir() {
                copy(&from, &to);
            } else {
                std::fs::write(&to, std::fs::read(&from).unwrap()).unwrap();
            }
        }
    }
    let project = corpus_project(root);
    copy(&corpus.join(project), &into.join(project));
}

/// Every file under `dir`, by its `/`-separated path relative to `dir`, with its bytes.
pub fn tree_bytes(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, prefix: &str, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), &format!("{name}/"), out);
            } else {
                out.insert(name, std::fs::read(entry.path()).unwrap());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, "", &mut out);
    out
}

/// `f` of every item, on as many threads as the machine has cores (at most `items.len()`),
/// each taking the next item not yet taken: give the longest jobs first. The results are in
/// the items' order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(at) else { break };
                    let r = f(item);
                    results.lock().unwrap()[at] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(Option::unwrap)
        .collect()
}

/// `idemlint ARGS` run in `dir`: its exit code (-1 when a signal ended it), standard output and
/// standard error.
pub fn idemlint_in(dir: &Path, args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_idemlint"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
