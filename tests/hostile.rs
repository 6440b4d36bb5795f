//! Hostile and broken input: each case gets its exact outcome (exit code, message, line and
//! column), never a panic or a hang, and the other files of the run are still linted.
//!
//! The static cases are files in `fixtures/hostile/` (its README lists them); the ones that
//! cannot live in a repository (100,000-deep nesting, a 100 MB spec, symlink loops, pipes,
//! unreadable files) are made here, in a temporary folder.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;

const HOSTILE: &str = "fixtures/hostile";
const GOOD: &str = "good.yaml";
const GOOD_FINDING: &str = "good.yaml:5:5: error[missing-idempotency-key]";

/// Runs `idemlint check ARGS --format concise` in `dir`; no run may panic or take long.
fn check_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out: Output = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .args(["--format", "concise"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let code = out.status.code().expect("exited, not killed by a signal");
    assert!((0..=2).contains(&code), "{args:?}: exit code {code}");
    (code, stdout, stderr)
}

/// Lints a file of `fixtures/hostile` beside `good.yaml`; the good file must still be linted.
fn lint_fixture(name: &str) -> (i32, String) {
    let (code, out, _) = check_in(Path::new(HOSTILE), &[name, GOOD]);
    assert!(
        out.contains(GOOD_FINDING),
        "{name}: the good file is still linted:\n{out}"
    );
    (code, out)
}

/// Every file under `fixtures/hostile` (except the good one and the parts of a cross-file case).
fn fixture_files(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "parts" && !name.ends_with(".yaml") {
                fixture_files(&path, out);
            }
        } else if (name.ends_with(".yaml") || name.ends_with(".json")) && name != GOOD {
            let rel = path.strip_prefix(HOSTILE).unwrap();
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// Each fixture, the exit code it gives, and every line it reports (the good file's aside).
const EXPECTED: &[(&str, i32, &[&str])] = &[
    (
        "alias-bomb.yaml",
        2,
        &[
            "alias-bomb.yaml:7:45: error[input] alias expansion exceeds the budget of 1000000 nodes (an alias bomb? raise the limit with --max-alias-nodes)",
        ],
    ),
    (
        "empty.yaml",
        2,
        &["empty.yaml:1:1: error[input] empty document: no YAML content"],
    ),
    (
        "latin1.yaml",
        2,
        &[
            "latin1.yaml:2:18: error[input] not UTF-8 text: byte 0xE9 is not valid UTF-8 (OpenAPI documents must be UTF-8)",
        ],
    ),
    (
        "utf16.yaml",
        2,
        &[
            "utf16.yaml:1:1: error[input] UTF-16 text (byte order mark FF FE or FE FF): save the file as UTF-8",
        ],
    ),
    (
        "nul.yaml",
        2,
        &["nul.yaml:3:1: error[input] invalid YAML: found unprintable character"],
    ),
    (
        "not-openapi.yaml",
        2,
        &[
            "not-openapi.yaml:1:1: error[input] not an OpenAPI document: no top-level `openapi` or `swagger` key, and no OpenAPI document under . reaches it through `$ref`",
        ],
    ),
    (
        "openapi-4.yaml",
        2,
        &[
            "openapi-4.yaml:1:1: error[input] unsupported `openapi` version `4.0.0`: idemlint reads 2.0, 3.0 and 3.1",
        ],
    ),
    (
        "swagger-1.2.yaml",
        2,
        &[
            "swagger-1.2.yaml:1:1: error[input] unsupported `swagger` version `1.2`: idemlint reads 2.0, 3.0 and 3.1",
        ],
    ),
    (
        "two-documents.yaml",
        2,
        &[
            "two-documents.yaml:2:1: error[input] a second YAML document starts here; an OpenAPI file holds one document",
        ],
    ),
    (
        "comments.json",
        2,
        &["comments.json:1:21: error[input] invalid JSON: comments are not allowed in JSON"],
    ),
    (
        "trailing-comma.json",
        2,
        &["trailing-comma.json:1:20: error[input] invalid JSON: trailing comma before `}`"],
    ),
    (
        "tab-in-string.json",
        2,
        &[
            "tab-in-string.json:1:42: error[input] invalid JSON: control character U+0009 in a string must be escaped",
        ],
    ),
    // Tags are data: `!custom` and `!!binary` values load as strings, with no complaint.
    ("tags.yaml", 1, &[]),
    (
        "wrong-types.yaml",
        1,
        &[
            "wrong-types.yaml:5:5: warning[missing-idempotency-key] POST /a has no idempotency key: a retry after a lost response is processed again and can leave a duplicate",
            "wrong-types.yaml:6:19: error[invalid-structure] `parameters` must be a sequence, not a mapping; idemlint skips it",
            "wrong-types.yaml:7:18: error[invalid-structure] `responses` must be a mapping, not a string; idemlint skips it",
            "wrong-types.yaml:8:7: error[invalid-structure] path item `/b` must be a mapping, not a sequence; idemlint skips it",
        ],
    ),
    (
        "paths-list.json",
        1,
        &[
            "paths-list.json:1:71: error[invalid-structure] `paths` must be a mapping, not a sequence; idemlint skips it",
        ],
    ),
    (
        "refs/cycle-1.yaml",
        1,
        &[
            "refs/cycle-1.yaml:5:5: error[unresolved-ref] $ref `#/paths/~1a` is part of a reference cycle with no content",
        ],
    ),
    (
        "refs/cycle-2.yaml",
        1,
        &[
            "refs/cycle-2.yaml:5:5: error[unresolved-ref] $ref `#/paths/~1b` is part of a reference cycle with no content",
            "refs/cycle-2.yaml:7:5: error[unresolved-ref] $ref `#/paths/~1a` is part of a reference cycle with no content",
        ],
    ),
    (
        "refs/cycle-files.yaml",
        1,
        &[
            "refs/cycle-files.yaml:5:5: error[unresolved-ref] $ref `parts/a.yaml` is part of a reference cycle with no content",
            "refs/parts/a.yaml:1:1: error[unresolved-ref] $ref `b.yaml` is part of a reference cycle with no content",
            "refs/parts/b.yaml:1:1: error[unresolved-ref] $ref `a.yaml` is part of a reference cycle with no content",
        ],
    ),
    (
        "refs/escape.yaml",
        1,
        &[
            "refs/escape.yaml:7:17: warning[remote-ref-not-fetched] remote $ref `http://169.254.169.254/latest/meta-data` not fetched: remote references are off (use --allow-remote-refs)",
            "refs/escape.yaml:8:17: error[unresolved-ref] $ref `/etc/passwd` leaves the project root and was not read (pass --root DIR for a wider root, or --allow-outside-root)",
            "refs/escape.yaml:9:17: error[unresolved-ref] $ref `../../../../../../outside.yaml` leaves the project root and was not read (pass --root DIR for a wider root, or --allow-outside-root)",
            "refs/escape.yaml:10:17: error[unresolved-ref] $ref target file `missing.yaml` not found",
            "refs/escape.yaml:11:17: error[unresolved-ref] $ref target `dir.yaml` is a directory, not a file",
            "refs/escape.yaml:12:17: error[unresolved-ref] $ref `file:///etc/passwd` is a `file:` URI, which idemlint does not follow: write a relative path",
        ],
    ),
];

#[test]
fn every_hostile_fixture_gets_its_exact_outcome() {
    let mut files = Vec::new();
    fixture_files(Path::new(HOSTILE), &mut files);
    files.sort();
    let mut listed: Vec<String> = EXPECTED.iter().map(|(f, _, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "every fixture has its expected outcome here");
    for (name, code, lines) in EXPECTED {
        let (got, out) = lint_fixture(name);
        let reported: Vec<&str> = out
            .lines()
            .filter(|l| l.contains(": ") && !l.starts_with("good.yaml"))
            .filter(|l| !l.starts_with("Found ") && !l.starts_with("No problems"))
            .collect();
        assert_eq!(&reported, lines, "{name}:\n{out}");
        assert_eq!(got, *code, "{name}:\n{out}");
    }
}

/// Writes `files` into a fresh folder with the good file beside them.
fn folder(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(Path::new(HOSTILE).join(GOOD), dir.path().join(GOOD)).unwrap();
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep_seq = format!(
        "openapi: 3.1.0\nx: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let deep_json = format!(
        "{{\"openapi\": \"3.1.0\", \"x\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let deep_map = format!(
        "openapi: 3.1.0\nx: {}1{}\n",
        "{a: ".repeat(50_000),
        "}".repeat(50_000)
    );
    let mut block = String::from("openapi: 3.1.0\nx:\n");
    for i in 0..1_000 {
        block.push_str(&" ".repeat(i + 1));
        block.push_str("- \n");
    }
    let dir = folder(&[
        ("seq.yaml", deep_seq.as_bytes()),
        ("deep.json", deep_json.as_bytes()),
        ("map.yaml", deep_map.as_bytes()),
        ("block.yaml", block.as_bytes()),
    ]);
    let (code, out, _) = check_in(
        dir.path(),
        &["seq.yaml", "deep.json", "map.yaml", "block.yaml", GOOD],
    );
    assert_eq!(code, 2, "{out}");
    for line in [
        "deep.json:1:282: error[input] nesting deeper than 256 levels (raise the limit with --max-depth)",
        // saphyr caps flow nesting itself, at 255 levels.
        "seq.yaml:2:259: error[input] nesting too deep: YAML flow collections (`[`, `{`) nest at most 255 levels",
        "map.yaml:2:1024: error[input] nesting too deep: YAML flow collections (`[`, `{`) nest at most 255 levels",
        "block.yaml:258:257: error[input] nesting deeper than 256 levels (raise the limit with --max-depth)",
        GOOD_FINDING,
    ] {
        assert!(out.contains(line), "expected `{line}` in\n{out}");
    }
}

#[test]
fn a_raised_depth_limit_is_honoured_without_overflowing_the_stack() {
    // 9,800 levels of schema under an operation: every rule walks it.
    let n = 4_900;
    let spec = format!(
        "{{\"openapi\": \"3.0.3\", \"info\": {{\"title\": \"T\", \"version\": \"1\"}}, \"paths\": {{\"/a\": {{\"post\": {{\"responses\": {{\"201\": {{\"description\": \"ok\"}}}}, \"requestBody\": {{\"content\": {{\"application/json\": {{\"schema\": {}{{}}{}}}}}}}}}}}}}}}",
        "{\"properties\": {\"a\": ".repeat(n),
        "}}".repeat(n)
    );
    let dir = folder(&[("deep.json", spec.as_bytes())]);
    let (code, out, _) = check_in(dir.path(), &["deep.json"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("nesting deeper than 256 levels"), "{out}");
    // A plain create is a warning: fail on it, so the exit code says it was found.
    let (code, out, _) = check_in(
        dir.path(),
        &["deep.json", "--max-depth", "10000", "--fail-on", "warning"],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("deep.json:1:79: warning[missing-idempotency-key] POST /a"),
        "{out}"
    );
    let (code, _, err) = check_in(dir.path(), &["deep.json", "--max-depth", "10001"]);
    assert_eq!(code, 2);
    assert!(err.contains("must be between 1 and 10000"), "{err}");
}

#[test]
fn each_limit_is_an_error_for_its_file_and_can_be_raised() {
    // Over 1 MiB of valid YAML.
    let mut big = String::from("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n");
    let mut i = 0;
    while big.len() <= 1024 * 1024 {
        big.push_str(&format!(
            "  /r{i}:\n    get: {{responses: {{'200': {{description: ok}}}}}}\n"
        ));
        i += 1;
    }
    let aliases = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\nx: &x [1, 2, 3, 4, 5]\ny: [*x, *x, *x]\npaths: {}\n";
    let root = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a: {$ref: 'a.yaml'}\n  /b: {$ref: 'b.yaml'}\n";
    let item = "get: {responses: {'200': {description: ok}}}\n";
    let dir = folder(&[
        ("big.yaml", big.as_bytes()),
        ("aliases.yaml", aliases.as_bytes()),
        ("refs.yaml", root.as_bytes()),
        ("a.yaml", item.as_bytes()),
        ("b.yaml", item.as_bytes()),
    ]);
    let size = big.len();
    for (args, code, line) in [
        (
            vec!["big.yaml", GOOD, "--max-file-size", "1"],
            2,
            format!(
                "big.yaml:1:1: error[input] file is {size} bytes, over the limit of 1 MiB (raise it with --max-file-size)"
            ),
        ),
        (
            vec!["big.yaml", GOOD, "--max-file-size", "2"],
            1,
            GOOD_FINDING.to_string(),
        ),
        (
            vec!["aliases.yaml", GOOD, "--max-alias-nodes", "10"],
            2,
            "aliases.yaml:4:9: error[input] alias expansion exceeds the budget of 10 nodes (an alias bomb? raise the limit with --max-alias-nodes)".to_string(),
        ),
        (
            vec!["refs.yaml", GOOD, "--max-ref-files", "2"],
            2,
            "refs.yaml:1:1: error[input] this document reaches more than 2 files through `$ref` (raise the limit with --max-ref-files): 1 `$ref` was not followed, the first at refs.yaml:5:8; operations that need them were not checked".to_string(),
        ),
    ] {
        let (got, out, _) = check_in(dir.path(), &args);
        assert_eq!(got, code, "{args:?}:\n{out}");
        assert!(out.contains(&line), "{args:?}: expected `{line}` in\n{out}");
        assert!(out.contains(GOOD_FINDING), "{args:?}:\n{out}");
    }
    let (code, out, _) = check_in(dir.path(), &["aliases.yaml", "refs.yaml"]);
    assert_eq!(code, 0, "within the default limits:\n{out}");
}

#[cfg(unix)]
#[test]
fn symlink_loops_pipes_and_unreadable_files() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = folder(&[(
        "specs/good.yaml",
        include_bytes!("../fixtures/hostile/good.yaml"),
    )]);
    let specs = dir.path().join("specs");
    symlink(&specs, specs.join("loop")).unwrap();
    symlink("self.yaml", specs.join("self.yaml")).unwrap();
    let made_fifo = std::process::Command::new("mkfifo")
        .arg(specs.join("pipe.yaml"))
        .status()
        .is_ok_and(|s| s.success());
    let locked = specs.join("locked.yaml");
    std::fs::write(&locked, "openapi: 3.1.0\npaths: {}\n").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // root reads any file: the unreadable case can only be seen as another user.
    let unreadable = std::fs::read(&locked).is_err();

    // A directory walk neither follows the loop nor opens the pipe.
    let (code, out, _) = check_in(dir.path(), &["specs"]);
    assert!(
        out.contains("specs/good.yaml:5:5: error[missing-idempotency-key]"),
        "{out}"
    );
    assert!(!out.contains("pipe.yaml"), "{out}");
    if unreadable {
        assert!(
            out.contains("specs/locked.yaml:1:1: error[input] permission denied"),
            "{out}"
        );
        assert_eq!(code, 2, "{out}");
    }

    // Named on the command line, each is a clear error and the good file is still linted.
    let mut args = vec!["specs/self.yaml", "specs/good.yaml"];
    if made_fifo {
        args.push("specs/pipe.yaml");
    }
    let (code, out, _) = check_in(dir.path(), &args);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("specs/self.yaml:1:1: error[input] too many levels of symbolic links"),
        "{out}"
    );
    if made_fifo {
        assert!(
            out.contains("specs/pipe.yaml:1:1: error[input] not a regular file (a pipe, socket or device); idemlint reads files only"),
            "{out}"
        );
    }
    assert!(out.contains("specs/good.yaml:5:5"), "{out}");

    // A file whose read fails even for root: /proc/self/mem of the reading process.
    if Path::new("/proc/self/mem").exists() {
        let (code, out, _) = check_in(dir.path(), &["/proc/self/mem", "specs/good.yaml"]);
        assert_eq!(code, 2, "{out}");
        assert!(
            out.contains("/proc/self/mem:1:1: error[input] input/output error"),
            "{out}"
        );
        assert!(out.contains("specs/good.yaml:5:5"), "{out}");
    }
}

#[test]
fn a_limit_leaves_a_complete_report_not_a_truncated_one() {
    let dir = folder(&[(
        "bomb.yaml",
        include_bytes!("../fixtures/hostile/alias-bomb.yaml"),
    )]);
    let report = dir.path().join("report.sarif");
    std::fs::write(&report, "an older report").unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "bomb.yaml", GOOD, "--format", "sarif", "-o"])
        .arg(&report)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let run = &sarif["runs"][0];
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    assert_eq!(run["results"].as_array().unwrap().len(), 1);
    let leftovers: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

// Shared with the benchmark generator, which also writes JSON; this test uses the YAML.
#[allow(dead_code)]
#[path = "../bench/spec_gen.rs"]
mod spec_gen;

/// The largest resident set of any child process this test binary has waited for, in bytes.
#[cfg(unix)]
fn peak_child_memory() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; RUSAGE_CHILDREN is always valid.
    let usage = unsafe {
        assert_eq!(
            libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr()),
            0
        );
        usage.assume_init()
    };
    usage.ru_maxrss as u64 * 1024 // kilobytes on Linux
}

#[test]
fn a_100_mb_spec_is_linted_in_bounded_memory() {
    let text = spec_gen::yaml(100_000_000);
    let resources = text.matches("\n    post:\n").count();
    let dir = folder(&[("big.yaml", text.as_bytes())]);
    drop(text);
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "big.yaml", "--format", "json", "-o", "report.json"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    // Only warnings and infos: a keyed POST without a 400 (which
    // the API declares, on its GETs: each gap is its own), and a PATCH with a relative field.
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap())
            .unwrap();
    assert_eq!(report["summary"]["operations"], 3 * resources);
    assert_eq!(report["summary"]["findings"], 2 * resources);
    assert_eq!(report["errors"].as_array().unwrap().len(), 0);
    #[cfg(unix)]
    {
        let peak = peak_child_memory();
        assert!(peak < 1536 * 1024 * 1024, "peak memory {} MiB", peak >> 20);
        eprintln!("peak memory of the largest child: {} MiB", peak >> 20);
    }
}

// Long lines: minified vendor specs put a whole API on one line, so a finding's span and its
// labels can lie millions of columns apart. Each renderer must stay within its formatter's
// limits (Rust's padding stops at 65,535 columns) and `text` must print a bounded window.

const FORMATS: [&str; 7] = [
    "text", "concise", "json", "sarif", "github", "junit", "gitlab",
];

/// Characters a line of `text` output may hold: a 240-column window of source, its `…` marks
/// and the gutter (messages wrap at the 100 columns these runs are given).
const MAX_TEXT_LINE: usize = 280;

/// Runs `idemlint check ARGS` in `dir` as at a 100-column terminal, piped; no run may panic.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out: Output = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .env("COLUMNS", "100")
        .env_remove("NO_COLOR")
        .arg("check")
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_eq!(stderr, "", "{args:?}");
    let code = out.status.code().expect("exited, not killed by a signal");
    (code, String::from_utf8(out.stdout).expect("UTF-8 output"))
}

/// Whether `format` output reports a finding at `file:line:col` (GitLab gives lines only).
fn reports_at(format: &str, out: &str, file: &str, line: u64, col: u64) -> bool {
    let json = || serde_json::from_str::<serde_json::Value>(out).expect("valid JSON");
    match format {
        "text" => out.contains(&format!("╭─[{file}:{line}:{col}]")),
        "concise" => {
            out.contains(&format!("\n{file}:{line}:{col}: "))
                || out.starts_with(&format!("{file}:{line}:{col}: "))
        }
        "github" => out.contains(&format!("file={file},line={line},col={col},")),
        "junit" => out.contains(&format!(">{file}:{line}:{col}: ")),
        "json" => json()["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["file"] == file && f["line"] == line && f["column"] == col),
        "sarif" => json()["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| {
                let at = &r["locations"][0]["physicalLocation"];
                at["artifactLocation"]["uri"] == file
                    && at["region"]["startLine"] == line
                    && at["region"]["startColumn"] == col
            }),
        "gitlab" => json()
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["location"]["path"] == file && f["location"]["lines"]["begin"] == line),
        _ => unreachable!("{format}"),
    }
}

/// The one-based column of the first `needle` on a one-line ASCII text.
fn column_of(text: &str, needle: &str) -> u64 {
    text.find(needle).unwrap_or_else(|| panic!("{needle}")) as u64 + 1
}

/// Runs every format on `file` in `dir`: exit 1 (`--fail-on warning`), each finding of `at`
/// reported at its line and column, and `text` lines bounded. Returns the `text` output.
fn every_format(dir: &Path, file: &str, at: &[(u64, u64)]) -> String {
    let mut text = String::new();
    for format in FORMATS {
        let (code, out) = run_in(
            dir,
            &[
                file,
                "--format",
                format,
                "--fail-on",
                "warning",
                "--color",
                "never",
            ],
        );
        assert_eq!(code, 1, "{file} as {format}");
        for &(line, col) in at {
            assert!(
                reports_at(format, &out, file, line, col),
                "{file} as {format}: nothing at {line}:{col}"
            );
        }
        if format == "text" {
            text = out;
        }
    }
    for line in text.lines() {
        assert!(
            line.chars().count() <= MAX_TEXT_LINE,
            "{file}: a line of {} characters: {line}",
            line.chars().count()
        );
    }
    text
}

/// The report that crashed every minified vendor spec (miette padded by column, and Rust's
/// formatter stops at 65,535): a PATCH whose relative change sits 70,000 columns to the right.
#[test]
fn a_label_far_along_a_minified_line_is_a_note_not_a_crash() {
    let spec = format!(
        r##"{{"openapi":"3.0.3","info":{{"title":"t","version":"1"}},"paths":{{"/accounts/{{id}}":{{"patch":{{"parameters":[{{"name":"id","in":"path","required":true,"schema":{{"type":"string"}}}}],"requestBody":{{"content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/Account"}}}}}}}},"responses":{{"200":{{"description":"ok"}}}}}}}}}},"components":{{"schemas":{{"Filler":{{"type":"object","description":"{}"}},"Account":{{"type":"object","properties":{{"balance_delta":{{"type":"integer"}}}}}}}}}}}}"##,
        "x".repeat(70_000)
    );
    let dir = folder(&[("repro.json", spec.as_bytes())]);
    let text = every_format(dir.path(), "repro.json", &[(1, 82)]);
    assert_eq!(column_of(&spec, "\"balance_delta\""), 70_427);
    assert_eq!(
        text,
        r##"incremental-update

  ⚠ PATCH /accounts/{id} sends a relative change (property `balance_delta`) without an idempotency
  │ key or If-Match: a retry applies it twice
   ╭─[repro.json:1:82]
 1 │ {"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/accounts/{id}":{"patch":{"parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}],"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/…
   ·                                                                                  ───────
   ╰────
  help: send the absolute target value instead (e.g. the new balance), or require an `Idempotency-
        Key` header, or an `If-Match` precondition
        fix (--fix --unsafe-fixes): Require the `Idempotency-Key` header; declare a 409 response
        with Retry-After; declare a 422 response; declare a 400 response
        relative change at repro.json:1:70427

Found 1 problem (1 warning) in 1 file (1 operation).
1 fix available with --fix --unsafe-fixes (they change the contract clients see).
"##
    );
}

/// A span and its labels millions of columns apart, on both sides; a label near the span is
/// still drawn, on a window of the line cut at both ends.
#[test]
fn spans_and_labels_millions_of_columns_apart() {
    let spec = format!(
        r##"{{"openapi":"3.0.3","info":{{"title":"t","version":"1"}},"paths":{{"/a/{{id}}":{{"patch":{{"x-k":1,"description":"{}","x-k":2,"requestBody":{{"content":{{"application/json":{{"schema":{{"$ref":"#/components/schemas/Delta"}}}}}}}},"responses":{{"200":{{"description":"ok"}}}}}},"post":{{"requestBody":{{"content":{{"application/json":{{"schema":{{"type":"object","properties":{{"total_delta":{{"type":"integer"}}}}}}}}}}}},"responses":{{"201":{{"description":"ok"}}}},"description":"{}"}}}}}},"components":{{"schemas":{{"Filler":{{"description":"{}"}},"Delta":{{"type":"object","properties":{{"balance_delta":{{"type":"integer"}}}}}}}}}}}}"##,
        "y".repeat(2_000_000),
        "z".repeat(1_000_000),
        "x".repeat(3_000_000),
    );
    // On a POST, `incremental-update` (which draws the relative change as a label) yields to
    // `missing-idempotency-key` (which draws none): that one is off here, so the label is drawn.
    let dir = folder(&[
        ("far.json", spec.as_bytes()),
        (".idemlint.yaml", b"rules: {missing-idempotency-key: off}\n"),
    ]);
    let patch = column_of(&spec, "\"patch\"");
    let second = spec.rfind("\"x-k\"").unwrap() as u64 + 1;
    let post = column_of(&spec, "\"post\"");
    let text = every_format(
        dir.path(),
        "far.json",
        &[(1, patch), (1, second), (1, post)],
    );
    // The duplicate's first occurrence is 2 million columns left of it, the PATCH's relative
    // change 6 million to the right: notes, with their place.
    let first = column_of(&spec, "\"x-k\"");
    let delta = column_of(&spec, "\"balance_delta\"");
    assert!(second - first > 2_000_000 && delta - patch > 6_000_000);
    assert!(
        text.contains(&format!("first defined here at far.json:1:{first}\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("relative change at far.json:1:{delta}\n")),
        "{text}"
    );
    // The POST's relative change sits a hundred columns after its key: drawn, on a window that
    // starts and ends with a cut.
    assert!(
        text.contains(
            r#" 1 │ …chemas/Delta"}}}},"responses":{"200":{"description":"ok"}}},"post":{"requestBody":{"content":{"application/json":{"schema":{"type":"object","properties":{"total_delta":{"type":"integer"}}}}}},"responses":{"201":{"description":"ok"}},"descri…
   ·                                                              ──────                                                                                        ──────┬──────
   ·                                                                 │                                                                                                ╰── relative change
"#
        ),
        "{text}"
    );
}

/// A megabyte on one line of YAML, as the line of a span and as a context line: each shows a
/// window of 240 columns, cut with `…`; a span longer than the window (a 6,000-column mapping)
/// is underlined to the cut; a label far along the line is a note.
#[test]
fn a_1_mb_yaml_line_is_cut_around_the_span() {
    let x = "x".repeat(1_000_000);
    let params: Vec<String> = (0..300).map(|k| format!("p{k}: {{name: p{k}}}")).collect();
    let line5 = format!(
        "    post: {{description: \"{x}\", x-dup: 1, responses: {{'201': {{description: ok}}}}, x-dup: 2}}"
    );
    let line7 = format!(
        "    patch: {{parameters: {{{}}}, requestBody: {{content: {{application/json: {{schema: {{type: object, description: \"{x}\", properties: {{balance_delta: {{type: integer}}}}}}}}}}}}, responses: {{'200': {{description: ok}}}}}}",
        params.join(", ")
    );
    let spec = format!(
        "openapi: 3.0.3\ninfo: {{title: t, version: '1', description: \"{x}\"}}\npaths:\n  /a:\n{line5}\n  /b:\n{line7}\n"
    );
    let dir = folder(&[("long.yaml", spec.as_bytes())]);
    let text = every_format(
        dir.path(),
        "long.yaml",
        &[(5, 5), (5, 1_000_078), (7, 5), (7, 25)],
    );
    // The second `x-dup` is the span: the window starts 60 columns before it, and line 7 is
    // cut at the same place.
    let dup = line5.rfind("x-dup").unwrap();
    let head5 = format!("{}…", &line5[..240]);
    let head7 = format!("{}…", &line7[..240]);
    let tail5 = &line5[dup - 60..];
    let mid7 = format!("…{}…", &line7[dup - 60..dup + 180]);
    let delta = line7.find("balance_delta").unwrap() + 1;
    let expected = format!(
        "missing-idempotency-key

  ⚠ POST /a has no idempotency key: a retry after a lost response is processed again and can leave
  │ a duplicate
   ╭─[long.yaml:5:5]
 3 │ paths:
 4 │   /a:
 5 │ {head5}
   ·     ────
 6 │   /b:
 7 │ {head7}
   ╰────
  help: add a required `Idempotency-Key` header parameter (a client-generated UUID) and document
        how long keys are kept; if duplicates are harmless here, say so with `x-idempotency:
        false`
        fix (--fix --unsafe-fixes): Require the `Idempotency-Key` header; declare a 409 response
        with Retry-After; declare a 400 response

duplicate-key

  × key `x-dup` appears twice in this mapping (first at line 5, column 1000029)
   ╭─[long.yaml:5:1000078]
 3 │ paths:
 4 │   /a:
 5 │ …{tail5}
   ·             ──┬──                                            ─────
   ·               ╰── first defined here
 6 │   /b:
 7 │ {mid7}
   ╰────
  help: remove one of them: tools disagree on which one wins

incremental-update

  ⚠ PATCH /b sends a relative change (property `balance_delta`) without an idempotency key or If-
  │ Match: a retry applies it twice
   ╭─[long.yaml:7:5]
 5 │ {head5}
 6 │   /b:
 7 │ {head7}
   ·     ─────
   ╰────
  help: send the absolute target value instead (e.g. the new balance), or require an `Idempotency-
        Key` header, or an `If-Match` precondition
        no fix: the operation's `parameters` is not a list written out
        relative change at long.yaml:7:{delta}

invalid-structure

  × `parameters` must be a sequence, not a mapping; idemlint skips it
   ╭─[long.yaml:7:25]
 5 │ {head5}
 6 │   /b:
 7 │ {head7}
   ·                         {underline}
   ╰────

Found 4 problems (2 errors, 2 warnings) in 1 file (2 operations).
1 fix available with --fix --unsafe-fixes (they change the contract clients see).
",
        underline = "─".repeat(240 - 24 + 1),
    );
    assert_eq!(text, expected);
}

/// One line of JSON of `size` bytes or a little more: `n` paths of a PATCH and a POST each, the
/// PATCH sending a relative change; for even paths through a `$ref` to the last schema of the
/// file (tens of millions of columns away), for odd ones inline, a hundred columns after the
/// PATCH; every tenth path's PATCH has its `parameters` as a 4,000-column mapping (an
/// `invalid-structure` span longer than any window). Returns the text and `n`.
fn minified_spec(size: usize) -> (String, usize) {
    use std::fmt::Write;
    let filler = "x".repeat(9_000);
    let list = r#"[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}]"#;
    let mapping = format!(
        "{{{}}}",
        (0..120)
            .map(|k| format!(r#""p{k}":{{"name":"p{k}","in":"query"}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut s = String::with_capacity(size + 20_000);
    s.push_str(r#"{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"#);
    let mut n = 0;
    while s.len() < size {
        if n > 0 {
            s.push(',');
        }
        let schema = if n % 2 == 0 {
            r##"{"$ref":"#/components/schemas/Delta"}"##
        } else {
            r#"{"type":"object","properties":{"balance_delta":{"type":"integer"}}}"#
        };
        let params = if n % 10 == 3 { &mapping } else { list };
        write!(
            s,
            r#""/r{n}/{{id}}":{{"patch":{{"parameters":{params},"requestBody":{{"content":{{"application/json":{{"schema":{schema}}}}}}},"responses":{{"200":{{"description":"ok"}}}},"description":"{filler}"}},"post":{{"responses":{{"201":{{"description":"ok"}}}}}}}}"#
        )
        .unwrap();
        n += 1;
    }
    s.push_str(r#"},"components":{"schemas":{"Delta":{"type":"object","properties":{"balance_delta":{"type":"integer"}}}}}}"#);
    (s, n)
}

/// A minified 50 MB spec with thousands of findings: every format reports them all, and `text`
/// draws each in a bounded window (near labels drawn, far ones as notes) with exit 1.
#[test]
fn a_50_mb_single_line_spec_renders_in_every_format() {
    let (spec, n) = minified_spec(50_000_000);
    let dir = folder(&[("big.json", spec.as_bytes())]);
    drop(spec);
    let invalid = (0..n).filter(|i| i % 10 == 3).count();
    let drawn = (0..n).filter(|i| i % 2 == 1 && i % 10 != 3).count();
    let findings = 2 * n + invalid;
    // The PATCHes' relative changes and the POSTs' plain creates are warnings; the mappings
    // of `parameters` are errors, which fail the run.
    let summary = format!(
        "Found {findings} problems ({invalid} errors, {} warnings) in 1 file ({} operations).\n",
        2 * n,
        2 * n
    );
    for format in FORMATS {
        let (code, out) = run_in(
            dir.path(),
            &["big.json", "--format", format, "--color", "never"],
        );
        assert_eq!(code, 1, "{format}");
        let count = |needle: &str| out.matches(needle).count();
        let json = || serde_json::from_str::<serde_json::Value>(&out).expect("valid JSON");
        match format {
            "text" => {
                let tail = out.char_indices().rev().nth(300).map_or(0, |(i, _)| i);
                let fixable = out.lines().next_back().unwrap_or_default();
                assert!(
                    fixable.ends_with(
                        " fixes available with --fix --unsafe-fixes (they change the contract \
                         clients see)."
                    ),
                    "{}",
                    &out[tail..]
                );
                assert!(
                    out[..out.len() - fixable.len() - 1].ends_with(&summary),
                    "{}",
                    &out[tail..]
                );
                assert_eq!(count("\n  ⚠ POST /r"), n);
                assert_eq!(count("\n  × `parameters` must be a sequence"), invalid);
                assert_eq!(count("╰── relative change\n"), drawn);
                assert_eq!(count("        relative change at big.json:1:"), n - drawn);
                for line in out.lines() {
                    assert!(line.chars().count() <= MAX_TEXT_LINE, "{line}");
                }
            }
            "concise" => {
                assert!(out.ends_with(&summary));
                let lines = out.lines().filter(|l| l.starts_with("big.json:1:"));
                assert_eq!(lines.count(), findings);
            }
            "json" => assert_eq!(json()["findings"].as_array().unwrap().len(), findings),
            "sarif" => assert_eq!(
                json()["runs"][0]["results"].as_array().unwrap().len(),
                findings
            ),
            "github" => {
                assert_eq!(count("::error file=big.json,line=1,"), invalid);
                assert_eq!(count("::warning file=big.json,line=1,"), 2 * n);
            }
            "junit" => assert_eq!(count("<failure "), findings),
            "gitlab" => assert_eq!(json().as_array().unwrap().len(), findings),
            _ => unreachable!(),
        }
    }
}

/// Wording read by the rules is read in one pass, and shared structure once per use, however
/// it repeats: a 700 KB description of "never expires", a 200 KB name full of `expir`, an
/// error example of 100,000 items under each of 2,000 operations, and 10,000 dotted methods
/// beside their removers. (The first three took minutes when the work grew with the square of
/// the input, and the run's 60 s timeout fails the test; the methods are matched to their
/// removers through a map, which this size only checks for correctness.)
#[test]
fn repeated_wording_and_many_siblings_are_read_in_linear_time() {
    let never = "never expires ".repeat(50_000);
    let token = format!("_{}", "expir".repeat(40_000));
    let mut paths = serde_json::Map::new();
    paths.insert(
        "/quotes".into(),
        serde_json::json!({"post": {
            "description": format!("A quote. {never} {token}"),
            "responses": {"201": {"description": "Created"}}
        }}),
    );
    let big: Vec<u32> = (0..100_000).collect();
    paths.insert(
        "/widgets".into(),
        serde_json::json!({"post": {
            "responses": {
                "201": {"description": "Created"},
                "400": {"description": "Bad", "content": {"application/json": {"example": {"items": big}}}}
            }
        }}),
    );
    for i in 0..2_000 {
        paths.insert(
            format!("/w{i}/things"),
            serde_json::json!({"post": {
                "responses": {
                    "201": {"description": "Created"},
                    "400": {"description": "Bad", "content": {"application/json": {
                        "examples": {"big": {"$ref": "#/components/examples/Big"}}
                    }}}
                }
            }}),
        );
    }
    let form = |names: &[&str]| -> serde_json::Value {
        names
            .iter()
            .map(|n| serde_json::json!({"name": n, "in": "query", "required": true, "schema": {"type": "string"}}))
            .collect()
    };
    for i in 0..10_000 {
        paths.insert(
            format!("/a{i}/o.add"),
            serde_json::json!({"post": {"parameters": form(&["name", "url"]), "responses": {"200": {"description": "ok"}}}}),
        );
        paths.insert(
            format!("/a{i}/o.remove"),
            serde_json::json!({"post": {"parameters": form(&["name"]), "responses": {"200": {"description": "ok"}}}}),
        );
    }
    let spec = serde_json::json!({
        "openapi": "3.0.3",
        "info": {"title": "Repeats", "version": "1"},
        "paths": paths,
        "components": {"examples": {"Big": {"value": {"message": "The name is already in use.", "items": big}}}}
    });
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("repeats.json"), spec.to_string()).unwrap();
    let (code, out, err) = check_in(dir.path(), &["repeats.json", "--fail-on", "never"]);
    assert_eq!(code, 0, "{err}");
    // The quote "never expires": kept on file, and reported.
    assert!(
        out.contains("warning[missing-idempotency-key] POST /quotes has no"),
        "{out}"
    );
    // An example reached by `$ref` is not read as the call's own: each create is reported.
    assert!(out.contains("POST /w1999/things has no"), "{out}");
    // Each dotted add is named by the `name` its remover addresses it by: none is reported.
    assert!(!out.contains("o.add"), "{out}");
}
