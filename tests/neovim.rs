//! A real editor as the server's client: headless Neovim opens the README's example with
//! `idemlint lsp` configured, and `tests/editors/neovim.lua` asserts what Neovim received (count,
//! rule codes, line numbers), applies the key's quick fix with Neovim's own edit code and reads
//! a hover. `.ci/run` installs Debian's `neovim`; without it the test skips, saying so.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_idemlint");
const EXAMPLE: &str = "examples/payments-api.yaml";
/// Neovim waits at most a minute for each step; this bounds the whole run.
const LIMIT: Duration = Duration::from_secs(300);

fn nvim() -> Option<PathBuf> {
    let out = Command::new("nvim").arg("--version").output().ok()?;
    out.status.success().then(|| PathBuf::from("nvim"))
}

/// `check --format json` of the example: `(rule, line, column)` of each finding, sorted.
fn check_findings(dir: &Path) -> Vec<(String, u64, u64)> {
    let out = Command::new(BIN)
        .current_dir(dir)
        .args([
            "check",
            "--format",
            "json",
            "--fail-on",
            "never",
            "api.yaml",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found: Vec<_> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    found
}

#[test]
fn neovim_shows_the_findings_applies_a_fix_and_hovers() {
    let Some(nvim) = nvim() else {
        eprintln!("skipped: Neovim is not installed (apt-get install neovim; .ci/run does it)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("api.yaml");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE), &spec).unwrap();
    let report = dir.path().join("neovim.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/editors/neovim.lua");

    let mut child = Command::new(nvim)
        .current_dir(dir.path())
        .args(["--headless", "--clean", "-u", "NONE", "-i", "NONE", "-n"])
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .env("IDEMLINT_BIN", BIN)
        .env("IDEMLINT_SPEC", &spec)
        .env("IDEMLINT_OUT", &report)
        // Neovim keeps its state and logs under these; a test must not touch the user's.
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvim starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > LIMIT {
            child.kill().ok();
            panic!("Neovim did not finish in {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        std::io::Read::read_to_string(&mut e, &mut stderr).ok();
    }
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap_or_else(|e| {
        panic!("the script wrote no report ({e}); Neovim exited {status}, stderr:\n{stderr}")
    }))
    .unwrap();
    let log = seen["log"].as_array().cloned().unwrap_or_default();
    let log: Vec<_> = log.iter().filter_map(Value::as_str).collect();
    assert!(
        status.success() && seen["ok"] == Value::Bool(true),
        "Neovim's script failed ({status}):\n{}\nstderr:\n{stderr}",
        log.join("\n")
    );

    // What Neovim showed is what `check` reports, to the column (Neovim's columns are 0-based
    // UTF-16 units; the example is ASCII).
    let received: Vec<(String, u64, u64)> = seen["received"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["col"].as_u64().unwrap() + 1,
            )
        })
        .collect();
    assert_eq!(received, check_findings(dir.path()));
    for d in seen["received"].as_array().unwrap() {
        assert_eq!(d["source"], "idemlint");
        let href = d["href"].as_str().unwrap_or("");
        assert!(
            href.ends_with(&format!("/rules/{}.md", d["code"].as_str().unwrap())),
            "{href}"
        );
    }
    // The fix was applied to the buffer, not written: the file on disk is the example.
    assert_eq!(
        std::fs::read_to_string(&spec).unwrap(),
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE)).unwrap()
    );
}
