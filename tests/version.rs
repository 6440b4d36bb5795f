//! One version everywhere: `--version`, the SARIF and JSON reports, and no rule doc claiming a
//! rule arrived in a release later than this one.

use assert_cmd::Command;

use idemlint::rules::RULES;

const SPEC: &str = "fixtures/rules/missing-idempotency-key/bad_oas30_post.yaml";

/// `major.minor.patch` as numbers; `None` for anything else (`1.0`, `v1.0.0`, `0.1.x`). A
/// pre-release or build suffix on the crate version (`0.2.0-rc.1`) is cut off before reading.
fn version(text: &str) -> Option<(u32, u32, u32)> {
    let parts: Vec<u32> = text
        .split('.')
        .map(|p| {
            p.parse()
                .ok()
                .filter(|_| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect::<Option<_>>()?;
    match parts[..] {
        [major, minor, patch] => Some((major, minor, patch)),
        _ => None,
    }
}

fn crate_version() -> (u32, u32, u32) {
    let core = env!("CARGO_PKG_VERSION").split(['-', '+']).next().unwrap();
    version(core).expect("Cargo.toml's version is major.minor.patch")
}

#[test]
fn version_reading_accepts_only_three_numbers() {
    assert_eq!(version("0.1.0"), Some((0, 1, 0)));
    assert_eq!(version("10.20.30"), Some((10, 20, 30)));
    for bad in ["0.1", "v0.1.0", "0.1.x", "0.1.0.0", "0..1", "", "0.1.+1"] {
        assert_eq!(version(bad), None, "{bad}");
    }
}

#[test]
fn no_rule_doc_is_from_a_later_release_than_the_crate() {
    let current = crate_version();
    let mut problems = Vec::new();
    for r in RULES {
        let since = &r.id.meta().since;
        match version(since) {
            None => problems.push(format!(
                "rules/{}.md: `since: {since}` is not a version (major.minor.patch)",
                r.id
            )),
            Some(v) if v > current => problems.push(format!(
                "rules/{}.md: `since: {since}` is later than the crate's version {}",
                r.id,
                env!("CARGO_PKG_VERSION")
            )),
            Some(_) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn idemlint(args: &[&str]) -> String {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn version_flag_sarif_json_and_rules_agree() {
    let flag = idemlint(&["--version"]);
    assert_eq!(flag, format!("idemlint {}\n", env!("CARGO_PKG_VERSION")));

    let sarif: serde_json::Value =
        serde_json::from_str(&idemlint(&["check", SPEC, "--format", "sarif"])).unwrap();
    let driver = &sarif["runs"][0]["tool"]["driver"];
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"), "{driver}");
    assert_eq!(driver["semanticVersion"], env!("CARGO_PKG_VERSION"));

    let json: serde_json::Value =
        serde_json::from_str(&idemlint(&["check", SPEC, "--format", "json"])).unwrap();
    assert_eq!(json["tool"]["version"], env!("CARGO_PKG_VERSION"));

    // What `idemlint rules` and `idemlint explain` say of each rule's release.
    let rules: serde_json::Value =
        serde_json::from_str(&idemlint(&["rules", "--format", "json"])).unwrap();
    for rule in rules.as_array().unwrap() {
        let since = rule["since"].as_str().unwrap();
        let id = rule["id"].as_str().unwrap();
        assert!(
            version(since).is_some_and(|v| v <= crate_version()),
            "{id}: since {since}"
        );
        let explained = idemlint(&["explain", id, "--color", "never"]);
        assert!(
            explained
                .lines()
                .next()
                .unwrap()
                .ends_with(&format!("since {since})")),
            "{explained}"
        );
    }
}

/// The README's pre-commit example pins the tag of this version, so that copying it installs
/// the idemlint the README describes.
#[test]
fn readme_pre_commit_rev_is_this_version() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let revs: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("rev: "))
        .map(|rest| rest.split_whitespace().next().unwrap_or(""))
        .collect();
    assert!(!revs.is_empty(), "the README shows a pre-commit rev");
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    for rev in revs {
        assert_eq!(rev, tag, "README's pre-commit rev");
    }
}

/// The value at `path` in a JSON file (`["packages", "", "version"]`).
fn json_at(text: &str, path: &[&str]) -> Option<String> {
    let mut value: &serde_json::Value = &serde_json::from_str(text).ok()?;
    for key in path {
        value = value.get(key)?;
    }
    value.as_str().map(str::to_string)
}

fn package_json(text: &str) -> Option<String> {
    json_at(text, &["version"])
}

/// npm writes the package's version twice in its lock file.
fn package_lock(text: &str) -> Option<String> {
    let top = json_at(text, &["version"])?;
    let root = json_at(text, &["packages", "", "version"])?;
    (top == root).then_some(top)
}

/// The newest entry of the changelog: its first `## [x.y.z]` heading.
fn changelog(text: &str) -> Option<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("## [")?.split_once(']'))
        .map(|(version, _)| version)
        .find(|v| v.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
}

/// The `tool` of the README's JSON report example.
fn readme_report(text: &str) -> Option<String> {
    let line = text.lines().find(|l| {
        l.trim_start()
            .starts_with("\"tool\": { \"name\": \"idemlint\"")
    })?;
    let rest = line.split("\"version\": \"").nth(1)?;
    Some(rest.split('"').next()?.to_string())
}

/// The version every `idemlint==X` pin (pip, pre-commit) and `idemlint@vX` Action reference of
/// the README names: `None` when there is none, or when two disagree.
fn readme_pins(text: &str) -> Option<String> {
    let mut found: Vec<&str> = Vec::new();
    for marker in ["idemlint==", "/idemlint@v"] {
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                .unwrap_or(rest.len());
            found.push(&rest[..end]);
        }
    }
    let first = *found.first()?;
    found.iter().all(|v| *v == first).then(|| first.to_string())
}

/// How to find the version in a file's text; `None` when it is not where it should be.
type Reader = fn(&str) -> Option<String>;

/// Every file that names idemlint's version, and how to read it there. Cargo.toml holds the
/// version; packages built from this crate (an npm or PyPI package) add their line here.
const PLACES: &[(&str, Reader)] = &[
    ("editors/vscode/package.json", package_json),
    ("editors/vscode/package-lock.json", package_lock),
    ("CHANGELOG.md", changelog),
    ("README.md", readme_report),
    ("README.md", readme_pins),
    ("npm/idemlint/package.json", package_json),
];

#[test]
fn every_file_naming_the_version_names_cargo_tomls() {
    let mut problems = Vec::new();
    for (file, read) in PLACES {
        match std::fs::read_to_string(file).map(|text| read(&text)) {
            Ok(Some(v)) if v == env!("CARGO_PKG_VERSION") => {}
            Ok(Some(v)) => problems.push(format!(
                "{file} says {v}, Cargo.toml {}",
                env!("CARGO_PKG_VERSION")
            )),
            Ok(None) => problems.push(format!("{file}: no version found where it is read")),
            Err(e) => problems.push(format!("{file}: {e}")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(
        changelog("## [Unreleased]\n## [1.2.3] - 2026-01-01\n").as_deref(),
        Some("1.2.3")
    );
    assert_eq!(
        package_lock(r#"{"version": "1.0.0", "packages": {"": {"version": "0.9.0"}}}"#),
        None
    );
    assert_eq!(
        readme_pins("pip install idemlint==1.2.3\nuses: o/idemlint@v1.2.3\n").as_deref(),
        Some("1.2.3")
    );
    assert_eq!(readme_pins("idemlint==1.2.3 and idemlint==1.2.4"), None);
}
