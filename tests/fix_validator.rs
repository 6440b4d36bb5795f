//! The corpus specs fixed by `check --fix --unsafe-fixes` still validate with
//! `openapi-spec-validator` (PyPI) wherever the originals did.
//!
//! Skipped, saying why, when ../shared/corpus is not beside this checkout or the validator is
//! not installed (`.ci/run` installs it from tools/openapi-validator/requirements.txt). The
//! `openapi-spec-validator` command stops at the first invalid file and costs a second of
//! Python start-up a call, so tools/openapi-validator/validate.py runs the same validation
//! (the package's `validate`, `$ref`s resolved from the file's place) over many files in one
//! process, one process per core.
//!
//! Which specs: every root document of MANIFEST.tsv whose original validates (46 of the 54; the
//! others fail on their own: a remote `$ref` not fetched, an enum value of the wrong type,
//! duplicate `required` entries...), each fixed in a fresh copy of its vendor's folder; the
//! copies `--fix` changed (26) are validated again. No subset: the specs the fixes change most
//! are the big ones (the three Stripe specs, Okta, Asana, Box), and measured on a two-core
//! machine the whole test takes about 90 s (85 s of CPU: a 4 MB spec costs the validator 6-7 s,
//! a small one well under a second; Python's start-up, a second a call, is paid once a
//! process). For a quick local run, `IDEMLINT_VALIDATOR_MAX_MIB=N` keeps only the specs under N
//! MiB (1: 45 specs in about 15 s); each file's validation is cut after
//! `IDEMLINT_VALIDATOR_TIMEOUT` seconds (default 300: an original cut off counts as not
//! validating, a fixed copy cut off fails the test).

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const DRIVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tools/openapi-validator/validate.py"
);

/// Whether the validator is installed: the command, and its package for `python3`.
fn validator_installed() -> bool {
    let runs = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !runs("openapi-spec-validator", &["--version"]) {
        eprintln!(
            "skipped: openapi-spec-validator is not installed \
             (python3 -m pip install -r tools/openapi-validator/requirements.txt)"
        );
        return false;
    }
    if !runs("python3", &["-c", "import openapi_spec_validator"]) {
        eprintln!(
            "skipped: openapi-spec-validator is installed, but python3 cannot import its package"
        );
        return false;
    }
    true
}

/// The verdict on each of `files` (with their sizes): valid, or the validator's first line of
/// complaint. The files are shared out by size between one validating process per core.
fn validate(files: &[(PathBuf, u64)]) -> BTreeMap<PathBuf, Result<(), String>> {
    let timeout = std::env::var("IDEMLINT_VALIDATOR_TIMEOUT").unwrap_or_else(|_| "300".into());
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut shares: Vec<(u64, Vec<&PathBuf>)> = vec![(0, Vec::new()); cores.min(files.len())];
    let mut by_size: Vec<&(PathBuf, u64)> = files.iter().collect();
    by_size.sort_by_key(|f| std::cmp::Reverse(f.1));
    for (file, size) in by_size {
        let least = shares.iter_mut().min_by_key(|s| s.0).unwrap();
        least.0 += size;
        least.1.push(file);
    }
    let verdicts = common::par_map(&shares, |(_, share)| {
        let out = Command::new("python3")
            .arg(DRIVER)
            .args(["--timeout", &timeout])
            .args(share.iter())
            .output()
            .expect("python3 runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let mut found: BTreeMap<PathBuf, Result<(), String>> = stdout
            .lines()
            .filter_map(|l| {
                let mut cols = l.splitn(3, '\t');
                let verdict = cols.next()?;
                let file = PathBuf::from(cols.next()?);
                let why = cols.next().unwrap_or("").to_string();
                Some((file, if verdict == "OK" { Ok(()) } else { Err(why) }))
            })
            .collect();
        for file in share {
            found.entry(file.to_path_buf()).or_insert_with(|| {
                Err(format!(
                    "no verdict (the validator ended: {}{})",
                    out.status,
                    stderr.lines().last().unwrap_or("")
                ))
            });
        }
        found
    });
    verdicts.into_iter().flatten().collect()
}

#[test]
fn fixed_corpus_specs_validate_where_the_originals_did() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    if !validator_installed() {
        return;
    }
    let started = Instant::now();
    let mut roots = common::corpus_roots(&corpus);
    if let Some(mib) = std::env::var("IDEMLINT_VALIDATOR_MAX_MIB")
        .ok()
        .and_then(|m| m.parse::<u64>().ok())
    {
        roots.retain(|(_, bytes)| *bytes < mib << 20);
        println!("note: only the {} roots under {mib} MiB", roots.len());
    }
    let originals: Vec<(PathBuf, u64)> = roots
        .iter()
        .map(|(root, bytes)| (corpus.join(root), *bytes))
        .collect();
    let verdicts = validate(&originals);
    let valid: Vec<(String, u64)> = roots
        .iter()
        .filter(|(root, _)| verdicts[&corpus.join(root)].is_ok())
        .cloned()
        .collect();
    let validated = started.elapsed().as_secs_f64();

    // Fix each valid one in a fresh copy of its folder.
    let copies = common::par_map(&valid, |(root, bytes)| {
        let tmp = tempfile::tempdir().unwrap();
        common::copy_corpus_project(&corpus, root, tmp.path());
        let (code, _, stderr) = common::idemlint_in(
            tmp.path(),
            &[
                "check",
                "--fix",
                "--unsafe-fixes",
                "--fail-on",
                "never",
                root,
            ],
        );
        // (A fix that breaks the file makes the run exit 2: the validator says how.)
        if code != 0 {
            eprintln!("{root}: check --fix exited {code}: {stderr}");
        }
        let fixed = tmp.path().join(root);
        let changed = common::tree_bytes(&tmp.path().join(common::corpus_project(root)))
            .iter()
            .any(|(name, text)| {
                let project = corpus.join(common::corpus_project(root));
                std::fs::read(project.join(name)).ok().as_ref() != Some(text)
            });
        (root.clone(), tmp, (fixed, *bytes), changed)
    });
    let changed: Vec<(PathBuf, u64)> = copies.iter().filter(|c| c.3).map(|c| c.2.clone()).collect();
    let fixed_verdicts = validate(&changed);

    let mut table = String::from("| spec | original | fixed |\n|:---|:---|:---|\n");
    let mut failures = Vec::new();
    let mut names: Vec<&String> = roots.iter().map(|(root, _)| root).collect();
    names.sort();
    for root in names {
        let original = match &verdicts[&corpus.join(root)] {
            Ok(()) => "valid".to_string(),
            Err(why) => format!(
                "invalid: {}",
                why.chars().take(80).collect::<String>().replace('|', "\\|")
            ),
        };
        let fixed = match copies.iter().find(|c| c.0 == *root) {
            None => "not fixed (the original is invalid)".to_string(),
            Some((_, _, _, false)) => "unchanged by --fix".to_string(),
            Some((_, _, (path, _), true)) => match &fixed_verdicts[path] {
                Ok(()) => "valid".to_string(),
                Err(why) => {
                    failures.push(format!("{root}: {why}"));
                    format!("**INVALID**: {why}")
                }
            },
        };
        writeln!(table, "| {root} | {original} | {fixed} |").unwrap();
    }
    writeln!(
        table,
        "\n{} root documents, {} valid as they are, {} changed by --fix and validated again; \
         {:.1} s ({validated:.1} s for the originals).",
        roots.len(),
        valid.len(),
        changed.len(),
        started.elapsed().as_secs_f64()
    )
    .unwrap();
    println!("{table}");
    assert!(
        failures.is_empty(),
        "fixed specs that no longer validate:\n{}",
        failures.join("\n")
    );
}
