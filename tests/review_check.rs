//! `review` and `check` run one engine: for the same specs and configuration they give the same
//! findings, and both report every error of a configuration, whichever way it reaches the run.
//!
//! How a review carries findings, and so what can be compared from its output:
//!
//! - each document's section has a "Gaps" table: a row a rule with findings in that document,
//!   with the rule's worst severity and its number of findings;
//! - three of an operation's five answers cite a finding of one rule, with the finding's
//!   message and `file:line:col`: question 1 `non-idempotent-put`, question 2
//!   `replay-reported-as-error` (asked of a keyed POST/PATCH that changes state, the operations
//!   that rule looks at), question 4 `server-error-for-concurrency`; when the operation has
//!   several findings of the rule, the first in report order is cited.
//!
//! A review does not list every finding with its place, so every finding's place, message,
//! severity and fingerprint is compared at the level of the library (the last test).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The answers that cite a finding: the question (0-based) and the rule cited.
const CITED: [(usize, &str); 3] = [
    (0, "non-idempotent-put"),
    (1, "replay-reported-as-error"),
    (3, "server-error-for-concurrency"),
];

/// A configuration that turns a rule off, raises another, and overrides a level by file glob
/// and one by pointer.
const CONFIG: &str = "\
rules:
  idempotency-key-optional: off
  unprotected-patch: error
overrides:
  - files: ['refs/**']
    rules: {missing-idempotency-key: info}
  - pointer: /paths/~1payments
    rules: {conflict-without-retry-after: error}
";

/// A spec that silences one finding in the spec, and names a rule where it silences nothing.
const SUPPRESSED: &str = "\
openapi: 3.0.3
info: {title: Suppressed, version: '1'}
paths:
  /orders:
    post:
      x-idemlint-ignore: {missing-idempotency-key: orders are deduplicated downstream}
      responses: {'201': {description: Created}}
  /carts:
    post:
      responses: {'201': {description: Created}}
  /carts/{id}:
    get:
      x-idemlint-ignore: [unprotected-patch]
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: The cart}}
";

/// How the configuration reaches the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Configured {
    /// No configuration file: the defaults.
    Default,
    /// `CONFIG` as the project's `.idemlint.yaml`, found from each spec.
    Discovered,
    /// `CONFIG` in `strict.yaml` at the project's top, given with `--config`.
    Flag,
}

const CONFIGURED: [Configured; 3] = [
    Configured::Default,
    Configured::Discovered,
    Configured::Flag,
];

impl Configured {
    fn args(self) -> &'static [&'static str] {
        match self {
            Configured::Flag => &["--config", "strict.yaml"],
            _ => &[],
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A project holding every rule fixture (`rules/`), the multi-file API (`refs/multi/`) and
/// `suppressed.yaml`, configured as `configured` says.
fn project(configured: Configured) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(Path::new("fixtures/rules"), &dir.path().join("rules"));
    copy_dir(
        Path::new("fixtures/refs/multi"),
        &dir.path().join("refs/multi"),
    );
    std::fs::write(dir.path().join("suppressed.yaml"), SUPPRESSED).unwrap();
    match configured {
        Configured::Default => {}
        Configured::Discovered => {
            std::fs::write(dir.path().join(".idemlint.yaml"), CONFIG).unwrap()
        }
        Configured::Flag => std::fs::write(dir.path().join("strict.yaml"), CONFIG).unwrap(),
    }
    dir
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn idemlint(dir: &Path, args: &[&str]) -> Out {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap();
    Out {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A finding of `check --format json`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Checked {
    file: String,
    line: u64,
    column: u64,
    rule: String,
    severity: String,
    message: String,
    /// `POST /payments`, as an operation's row in a review starts.
    operation: Option<(String, String)>,
    fingerprint: String,
}

impl Checked {
    fn at(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }

    /// Whether a review row (its operation column) is this finding's operation. The JSON report
    /// names an operation by method and path only, so a webhook or callback of that name is it
    /// too.
    fn of_row(&self, row: &Row) -> bool {
        let Some((method, path)) = &self.operation else {
            return false;
        };
        let label = row
            .operation
            .strip_suffix(" (deprecated)")
            .unwrap_or(&row.operation);
        label == format!("{method} {path}")
            || label == format!("{method} webhook `{path}`")
            || label.starts_with(&format!("{method} {path} (callback `"))
    }
}

/// What `check --format json` reported.
struct CheckRun {
    code: i32,
    findings: Vec<Checked>,
    /// `file:line:col: message`.
    errors: Vec<String>,
    /// `file: reason`.
    skipped: Vec<String>,
    files: usize,
    suppressed: usize,
}

fn check(dir: &Path, paths: &[&str], configured: Configured) -> CheckRun {
    let out = idemlint(
        dir,
        &[&["check", "--format", "json"], paths, configured.args()].concat(),
    );
    let json: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    let s = |v: &Value| v.as_str().unwrap().to_string();
    let n = |v: &Value| v.as_u64().unwrap();
    CheckRun {
        code: out.code,
        findings: json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| Checked {
                file: s(&f["file"]),
                line: n(&f["line"]),
                column: n(&f["column"]),
                rule: s(&f["rule"]),
                severity: s(&f["severity"]),
                message: s(&f["message"]),
                operation: f["operation"]
                    .as_object()
                    .map(|o| (s(&o["method"]), s(&o["path"]))),
                fingerprint: s(&f["fingerprint"]),
            })
            .collect(),
        errors: json["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                format!(
                    "{}:{}:{}: {}",
                    s(&e["file"]),
                    n(&e["line"]),
                    n(&e["column"]),
                    s(&e["message"])
                )
            })
            .collect(),
        skipped: json["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| format!("{}: {}", s(&k["file"]), s(&k["reason"])))
            .collect(),
        files: n(&json["summary"]["files"]) as usize,
        suppressed: n(&json["summary"]["suppressed"]) as usize,
    }
}

/// One answer of a review row: its mark, its text, and the place it cites.
#[derive(Debug, Clone)]
struct Cell {
    mark: String,
    text: String,
    at: Option<String>,
}

#[derive(Debug, Clone)]
struct Row {
    operation: String,
    answers: Vec<Cell>,
}

#[derive(Debug, Default)]
struct Section {
    file: String,
    /// rule → (worst severity, findings).
    gaps: BTreeMap<String, (String, usize)>,
    rows: Vec<Row>,
}

/// What `review` (Markdown) wrote and said.
struct ReviewRun {
    code: i32,
    sections: Vec<Section>,
    /// The `error: ` lines of stderr, without the prefix.
    errors: Vec<String>,
    /// The `note: FILE not reviewed: REASON` lines of stderr, as `FILE: REASON`.
    skipped: Vec<String>,
}

fn review(dir: &Path, paths: &[&str], configured: Configured) -> ReviewRun {
    // Every answer of every operation, not the shorter review a comment takes.
    let out = idemlint(
        dir,
        &[&["review", "--max-chars", "0"], paths, configured.args()].concat(),
    );
    let mut errors = Vec::new();
    let mut skipped = Vec::new();
    for line in out.stderr.lines() {
        if let Some(e) = line.strip_prefix("error: ") {
            errors.push(e.to_string());
        } else if let Some(note) = line.strip_prefix("note: ") {
            let (file, reason) = note.split_once(" not reviewed: ").expect("a skip note");
            skipped.push(format!("{file}: {reason}"));
        } else {
            panic!("unexpected line on stderr: {line}");
        }
    }
    ReviewRun {
        code: out.code,
        sections: sections(&out.stdout),
        errors,
        skipped,
    }
}

/// A Markdown table row's cells, trimmed, with `\|` read as `|`.
fn cells(line: &str) -> Vec<String> {
    let inner = line
        .strip_prefix('|')
        .and_then(|l| l.strip_suffix('|'))
        .unwrap_or_else(|| panic!("not a table row: {line}"));
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cells.last_mut().unwrap().push('|');
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells.into_iter().map(|c| c.trim().to_string()).collect()
}

/// `` `text` `` or ``` `` text `` ```, unquoted.
fn code_span(s: &str) -> &str {
    s.strip_prefix("`` ")
        .and_then(|s| s.strip_suffix(" ``"))
        .or_else(|| s.strip_prefix('`').and_then(|s| s.strip_suffix('`')))
        .unwrap_or_else(|| panic!("not a code span: {s}"))
}

fn sections(md: &str) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    let mut in_gaps = false;
    for line in md.lines() {
        if let Some(head) = line.strip_prefix("## Idempotency review: ") {
            let (_, file) = head.rsplit_once(" (`").expect("a file in the heading");
            sections.push(Section {
                file: file.strip_suffix("`)").unwrap().to_string(),
                ..Section::default()
            });
            in_gaps = false;
        } else if line.starts_with("## ") {
            in_gaps = false;
        } else if line.starts_with("### Gaps") {
            in_gaps = true;
        } else if line.starts_with("### ") {
            in_gaps = false;
        } else if line.starts_with("| `") {
            let section = sections.last_mut().expect("a row inside a section");
            let cells = cells(line);
            if in_gaps {
                let previous = section.gaps.insert(
                    code_span(&cells[0]).to_string(),
                    (cells[1].clone(), cells[2].parse().unwrap()),
                );
                assert!(previous.is_none(), "a rule listed twice: {line}");
            } else {
                assert_eq!(cells.len(), 6, "{line}");
                let (operation, _) = cells[0].rsplit_once("<br>`").expect("an operation");
                let answers = cells[1..]
                    .iter()
                    .map(|a| {
                        let (mark, rest) = a.split_once(' ').expect("a marked answer");
                        let (text, at) = match rest.rsplit_once("<br>`") {
                            Some((text, at)) if at.ends_with('`') => {
                                (text.to_string(), Some(at.trim_end_matches('`').to_string()))
                            }
                            _ => (rest.to_string(), None),
                        };
                        Cell {
                            mark: mark.to_string(),
                            text,
                            at,
                        }
                    })
                    .collect();
                section.rows.push(Row {
                    operation: code_span(operation).to_string(),
                    answers,
                });
            }
        }
    }
    sections
}

fn rank(severity: &str) -> u8 {
    match severity {
        "info" => 0,
        "warning" => 1,
        "error" => 2,
        other => panic!("severity {other}"),
    }
}

/// Compares a review with the check of the same paths and configuration; gives how many
/// citations were matched. With `one_document`, every finding belongs to the one section, and
/// each finding of a cited rule must be cited by its operation's row (the first of its
/// operation), as `check` orders them.
fn compare(what: &str, check: &CheckRun, review: &ReviewRun, one_document: bool) -> usize {
    // The same inputs failed, and the same documents were skipped.
    assert_eq!(review.errors, check.errors, "{what}: errors");
    assert_eq!(review.skipped, check.skipped, "{what}: skipped");
    let failed = !check.errors.is_empty();
    assert_eq!(review.code, if failed { 2 } else { 0 }, "{what}");
    if failed {
        assert_eq!(check.code, 2, "{what}");
    }
    // A section a linted document.
    assert_eq!(review.sections.len(), check.files, "{what}: documents");
    let files: BTreeSet<&str> = review.sections.iter().map(|s| s.file.as_str()).collect();
    assert_eq!(files.len(), review.sections.len(), "{what}: a file twice");
    if one_document {
        assert!(review.sections.len() <= 1, "{what}");
    }

    // Gaps: per rule, the findings of all sections are check's, at check's worst severity.
    let mut checked: BTreeMap<&str, (u8, usize)> = BTreeMap::new();
    for f in &check.findings {
        let e = checked.entry(&f.rule).or_default();
        e.0 = e.0.max(rank(&f.severity));
        e.1 += 1;
    }
    let mut reviewed: BTreeMap<&str, (u8, usize)> = BTreeMap::new();
    for s in &review.sections {
        for (rule, (severity, n)) in &s.gaps {
            let e = reviewed.entry(rule).or_default();
            e.0 = e.0.max(rank(severity));
            e.1 += n;
        }
    }
    assert_eq!(
        reviewed, checked,
        "{what}: gaps (worst severity, count) by rule"
    );

    let mut cited = 0;
    // Every citation in the review is a finding of check's: rule, message, place, operation.
    for s in &review.sections {
        for row in &s.rows {
            for (q, rule) in CITED {
                let cell = &row.answers[q];
                let of_rule: Vec<&Checked> = check
                    .findings
                    .iter()
                    .filter(|f| f.rule == rule && f.message == cell.text)
                    .collect();
                // Questions 2 and 4 are a risk only when they cite a finding.
                if cell.mark != "❌" || (q == 0 && of_rule.is_empty()) {
                    continue;
                }
                let at = cell.at.as_deref().unwrap_or_else(|| {
                    panic!("{what}: {} cites no place: {cell:?}", row.operation)
                });
                let found = of_rule.iter().find(|f| f.at() == at && f.of_row(row));
                let Some(found) = found else {
                    panic!(
                        "{what}: {} in {} cites `{rule}` at {at}, which check does not report \
                         there: {cell:?}",
                        row.operation, s.file
                    );
                };
                if one_document {
                    let first = check
                        .findings
                        .iter()
                        .find(|f| f.rule == rule && f.of_row(row))
                        .unwrap();
                    assert_eq!(first, *found, "{what}: the first finding is cited");
                }
                cited += 1;
            }
        }
    }
    // Every finding of a cited rule is cited by its operation's row: in a run of several
    // documents, a row of its file's section, or (a finding in a fragment) of any section.
    for (q, rule) in CITED {
        for f in check.findings.iter().filter(|f| f.rule == rule) {
            let Some((method, path)) = &f.operation else {
                continue;
            };
            let in_file = review.sections.iter().any(|s| s.file == f.file);
            let rows: Vec<&Row> = review
                .sections
                .iter()
                .filter(|s| one_document || !in_file || s.file == f.file)
                .flat_map(|s| &s.rows)
                .filter(|row| f.of_row(row))
                .collect();
            assert!(
                !rows.is_empty(),
                "{what}: no row for {method} {path} of {f:?}"
            );
            let cites = |row: &&Row| {
                let cell = &row.answers[q];
                cell.mark == "❌"
                    && check.findings.iter().any(|g| {
                        g.rule == rule
                            && g.of_row(row)
                            && g.message == cell.text
                            && Some(g.at()) == cell.at
                    })
            };
            assert!(
                rows.iter().any(cites),
                "{what}: check reports {f:?}, which the review does not cite: {rows:#?}"
            );
        }
    }
    cited
}

/// The findings the rule fixtures, the multi-file API and a spec with suppressions give, under
/// the defaults, a discovered `.idemlint.yaml` and the same file given with `--config`: the
/// review of all of them at once, and of each document of the three rules whose findings it
/// cites on its own, agrees with `check --format json` of the same paths and configuration.
///
/// Compared: the errors (stderr `error:` lines of `review` against the JSON `errors`, as
/// `file:line:col: message`) and skipped documents; the exit code; a section per linted
/// document; for every rule, the sum of the findings the sections' "Gaps" tables count and the
/// worst severity they give, against check's findings of the rule; every cited answer (rule,
/// message, `file:line:col`, operation by method and path) against a finding of check's; every
/// finding of a cited rule against a citation in its operation's row. Lines and columns of the
/// findings no answer cites, and fingerprints, are compared in the library test below.
#[test]
fn review_reports_the_findings_check_reports() {
    let mut cited = 0;
    let mut by_configuration = Vec::new();
    for configured in CONFIGURED {
        let dir = project(configured);
        let what = format!("{configured:?}, every document");
        let checked = check(dir.path(), &["."], configured);
        let reviewed = review(dir.path(), &["."], configured);
        assert!(checked.errors.is_empty(), "{what}: {:?}", checked.errors);
        assert!(checked.files > 300, "{what}: {}", checked.files);
        // The suppressed finding of `suppressed.yaml` is in neither.
        assert!(checked.suppressed > 0);
        assert!(
            !checked
                .findings
                .iter()
                .any(|f| f.file == "suppressed.yaml" && f.line == 5),
            "{what}"
        );
        cited += compare(&what, &checked, &reviewed, false);
        let section = reviewed
            .sections
            .iter()
            .find(|s| s.file == "suppressed.yaml")
            .unwrap();
        assert_eq!(section.gaps["missing-idempotency-key"].1, 1, "{what}");
        assert_eq!(section.gaps["unused-suppression"].1, 1, "{what}");

        // Each document of the cited rules alone, then the multi-file API and the suppressions.
        let mut one_by_one = Vec::new();
        for (_, rule) in CITED {
            for entry in std::fs::read_dir(dir.path().join("rules").join(rule)).unwrap() {
                let name = entry.unwrap().file_name().into_string().unwrap();
                if name.ends_with(".yaml") || name.ends_with(".json") {
                    one_by_one.push(format!("rules/{rule}/{name}"));
                }
            }
        }
        one_by_one.sort();
        one_by_one.push("refs/multi/openapi.yaml".to_string());
        one_by_one.push("suppressed.yaml".to_string());
        for spec in &one_by_one {
            let what = format!("{configured:?}, {spec}");
            let checked = check(dir.path(), &[spec], configured);
            let reviewed = review(dir.path(), &[spec], configured);
            cited += compare(&what, &checked, &reviewed, true);
        }
        by_configuration.push(checked.findings);
    }
    // The configuration is in force, the same way for both of its routes.
    let [default, discovered, flag] = &by_configuration[..] else {
        unreachable!()
    };
    assert_eq!(discovered, flag, "a discovered file and --config agree");
    assert_ne!(default, discovered);
    let has = |findings: &[Checked], rule: &str, severity: &str| {
        findings
            .iter()
            .any(|f| f.rule == rule && f.severity == severity)
    };
    assert!(has(default, "idempotency-key-optional", "info"));
    assert!(
        !discovered
            .iter()
            .any(|f| f.rule == "idempotency-key-optional")
    );
    assert!(has(default, "unprotected-patch", "warning"));
    assert!(has(discovered, "unprotected-patch", "error"));
    assert!(!has(discovered, "unprotected-patch", "warning"));
    let multi = |findings: &[Checked]| {
        findings
            .iter()
            .filter(|f| f.rule == "missing-idempotency-key" && f.file.starts_with("refs/"))
            .map(|f| f.severity.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(multi(default), ["error"]);
    assert_eq!(multi(discovered), ["info"]);
    // Citations were compared, of all three cited rules.
    assert!(cited >= 3 * 2 * 14, "{cited}");
}

/// Two real specs of `../shared/corpus` (one file, and one of many files), reviewed and checked
/// under the defaults and with `--config`: compared as above.
#[test]
fn review_and_check_agree_on_corpus_specs() {
    let corpus = Path::new("../shared/corpus");
    let specs = ["moov/openapi.yaml", "lob/lob-api-public.yml"];
    if !specs.iter().all(|s| corpus.join(s).is_file()) {
        eprintln!("skipped: ../shared/corpus is not here");
        return;
    }
    let config = tempfile::tempdir().unwrap();
    let strict = config.path().join("strict.yaml");
    std::fs::write(&strict, CONFIG).unwrap();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for spec in specs {
        let path = corpus.join(spec);
        let path = path.to_str().unwrap();
        for flags in [vec![], vec!["--config", strict.to_str().unwrap()]] {
            let what = format!("{spec} {flags:?}");
            let args = [&[path, "--root", "../shared/corpus"][..], &flags].concat();
            let checked = check(here, &args, Configured::Default);
            let reviewed = review(here, &args, Configured::Default);
            assert!(!checked.findings.is_empty(), "{what}");
            compare(&what, &checked, &reviewed, true);
        }
    }
}

/// A configuration with errors of four kinds: an unknown rule id, a bad level, a bad glob in
/// `exclude:`, and a setting given twice.
const BROKEN: &str = "\
rules:
  missing-idempotency-keys: warning
  unprotected-patch: loud
exclude: ['legacy/[z']
min-ttl: 1h
min-ttl: 2h
";

/// Its errors, as `file:line:col: message` of a file named `name`.
fn broken_errors(name: &str) -> BTreeSet<String> {
    [
        "2:3: unknown rule `missing-idempotency-keys`; did you mean `missing-idempotency-key`?",
        "3:22: rule `unprotected-patch` takes off, info, warning or error, not `loud`",
        "4:11: bad glob `legacy/[z`: error parsing glob 'legacy/[z': unclosed character class; \
         missing ']'",
        "6:1: `min-ttl` is set twice; the first is at line 5",
    ]
    .iter()
    .map(|e| format!("{name}:{e}"))
    .collect()
}

/// The `error: ` lines of stderr, without the prefix; no line twice.
fn stderr_errors(out: &Out) -> BTreeSet<String> {
    let lines: Vec<&str> = out
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("error: "))
        .collect();
    let set: BTreeSet<String> = lines.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        set.len(),
        lines.len(),
        "an error said twice: {}",
        out.stderr
    );
    set
}

/// Every error of a configuration is reported, by `check` and by `review`, for a configuration
/// given with `--config`, found beside the spec, or governing one of two documents; a mistyped
/// `--profile` is one usage error for both.
#[test]
fn both_front_ends_report_every_configuration_error() {
    let dir = tempfile::tempdir().unwrap();
    let spec =
        std::fs::read_to_string("fixtures/rules/missing-idempotency-key/bad_oas30_post.yaml")
            .unwrap();
    std::fs::write(dir.path().join("api.yaml"), &spec).unwrap();
    std::fs::write(dir.path().join("broken.yaml"), BROKEN).unwrap();

    // `--config FILE`: a usage error, every error of the file on stderr, nothing linted.
    for command in ["check", "review"] {
        let out = idemlint(
            dir.path(),
            &[command, "api.yaml", "--config", "broken.yaml"],
        );
        assert_eq!(out.code, 2, "{command}: {}", out.stderr);
        assert_eq!(
            stderr_errors(&out),
            broken_errors("broken.yaml"),
            "{command}"
        );
        assert_eq!(out.stdout, "", "{command}: nothing is linted");
    }

    // A discovered `.idemlint.yaml`: `review` says every error on stderr and in the review;
    // `check` puts them in its report (here JSON), as configuration errors.
    std::fs::write(dir.path().join(".idemlint.yaml"), BROKEN).unwrap();
    let out = idemlint(dir.path(), &["review", "api.yaml"]);
    assert_eq!(out.code, 2);
    assert_eq!(stderr_errors(&out), broken_errors(".idemlint.yaml"));
    assert!(
        out.stderr
            .contains("note: api.yaml not reviewed: its configuration .idemlint.yaml has errors"),
        "{}",
        out.stderr
    );
    for e in broken_errors(".idemlint.yaml") {
        let (place, message) = e.split_once(": ").unwrap();
        assert!(
            out.stdout.contains(&format!("- `{place}`: {message}")),
            "{e} in the review:\n{}",
            out.stdout
        );
    }
    let checked = check(dir.path(), &["api.yaml"], Configured::Default);
    assert_eq!(checked.code, 2);
    assert_eq!(
        checked.errors.iter().cloned().collect::<BTreeSet<_>>(),
        broken_errors(".idemlint.yaml")
    );
    assert_eq!(checked.errors.len(), 4);
    let out = idemlint(dir.path(), &["check", "api.yaml", "--format", "concise"]);
    assert_eq!(out.code, 2);
    for e in broken_errors(".idemlint.yaml") {
        let (place, message) = e.split_once(": ").unwrap();
        assert!(
            out.stdout
                .contains(&format!("{place}: error[configuration] {message}")),
            "{e} in\n{}",
            out.stdout
        );
    }

    // A mistyped `--profile`: one usage error, before any configuration is read.
    for command in ["check", "review"] {
        let out = idemlint(dir.path(), &[command, "api.yaml", "--profile", "stripes"]);
        assert_eq!(out.code, 2, "{command}");
        assert_eq!(
            out.stderr, "error: unknown profile `stripes`; did you mean `stripe`?\n",
            "{command}"
        );
        assert_eq!(out.stdout, "", "{command}");
    }

    // A broken configuration governing one of two documents: all its errors (once, though it
    // governs two of the three files), the other document still linted and reviewed.
    std::fs::remove_file(dir.path().join(".idemlint.yaml")).unwrap();
    std::fs::create_dir_all(dir.path().join("legacy")).unwrap();
    std::fs::write(dir.path().join("legacy/.idemlint.yaml"), BROKEN).unwrap();
    std::fs::write(dir.path().join("legacy/old.yaml"), &spec).unwrap();
    std::fs::write(dir.path().join("legacy/older.yaml"), &spec).unwrap();
    let checked = check(dir.path(), &["."], Configured::Default);
    let reviewed = review(dir.path(), &["."], Configured::Default);
    assert_eq!(
        checked.errors.iter().cloned().collect::<BTreeSet<_>>(),
        broken_errors("legacy/.idemlint.yaml")
    );
    assert_eq!(checked.errors.len(), 4);
    assert_eq!(
        checked.skipped,
        [
            "legacy/old.yaml: its configuration legacy/.idemlint.yaml has errors",
            "legacy/older.yaml: its configuration legacy/.idemlint.yaml has errors",
        ]
    );
    assert_eq!(checked.files, 1);
    assert!(!checked.findings.is_empty());
    compare("one of two documents", &checked, &reviewed, false);
    assert_eq!(reviewed.sections[0].file, "api.yaml");
}

/// One finding as every report shows it.
type Shown = (
    String,
    u32,
    u32,
    u32,
    u32,
    &'static str,
    String,
    String,
    String,
    Option<String>,
    String,
);

fn shown(f: &idemlint::report::Finding) -> Shown {
    (
        f.file().to_string(),
        f.line,
        f.column,
        f.end_line,
        f.end_column,
        f.rule.as_str(),
        f.severity.to_string(),
        f.message.clone(),
        f.pointer.clone(),
        f.operation.as_ref().map(|o| format!("{o:?}")),
        f.fingerprint.clone(),
    )
}

/// What a review was made of: the review, the document's findings it was given, and each
/// operation's place and method key.
struct Made {
    review: idemlint::review::ApiReview,
    findings: Vec<idemlint::report::Finding>,
    operations: Vec<(String, idemlint::report::OperationAt)>,
}

fn make(d: &idemlint::engine::Linted<'_>) -> Made {
    Made {
        review: idemlint::review::review_document(d),
        findings: d.findings.to_vec(),
        operations: d
            .api
            .operations
            .iter()
            .map(|op| {
                let file = d.bundle.file(op.key.file);
                let lc = file.source.line_col(op.key.span.start as usize);
                (
                    format!("{}:{}:{}", file.source.name, lc.line, lc.column),
                    (
                        std::sync::Arc::from(file.source.path.as_path()),
                        op.key.span,
                    ),
                )
            })
            .collect(),
    }
}

/// In the library, with the same paths and options: the report `run_each` gives while `review`
/// reviews equals `run`'s (`check`'s) finding by finding (file, line, column, end, rule,
/// severity, message, pointer, operation, fingerprint), and so do its errors, skipped
/// documents, silenced findings and documents. Each document's review is made from that
/// document's findings, which together (a file two documents share counted once) are the
/// report's findings: its "Gaps" count them by rule at their worst severity, and each cited
/// answer is the first finding of its rule whose operation (method key) is the row's, with its
/// message and place; an operation without one cites nothing of that rule.
#[test]
fn the_findings_a_review_is_made_of_are_the_findings_check_reports() {
    use idemlint::review::Verdict;
    let no_stdin = || -> std::io::Result<Vec<u8>> { panic!("no stdin") };
    let mut runs: Vec<(String, Vec<PathBuf>, idemlint::lint::Options)> = Vec::new();
    let mut dirs = Vec::new();
    for configured in [Configured::Default, Configured::Discovered] {
        let dir = project(configured);
        let path = dir.path().canonicalize().unwrap();
        runs.push((
            format!("{configured:?}"),
            vec![path.clone()],
            idemlint::lint::Options {
                root: Some(path),
                ..Default::default()
            },
        ));
        dirs.push(dir);
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if corpus.join("lob/lob-api-public.yml").is_file() {
        let dir = tempfile::tempdir().unwrap();
        let strict = dir.path().join("strict.yaml");
        std::fs::write(&strict, CONFIG).unwrap();
        let config =
            idemlint::config::Config::load(&idemlint::files::Disk, &strict, "strict.yaml", None)
                .unwrap();
        for config in [None, Some(config)] {
            runs.push((
                format!("corpus, --config: {}", config.is_some()),
                vec![
                    corpus.join("moov/openapi.yaml"),
                    corpus.join("lob/lob-api-public.yml"),
                ],
                idemlint::lint::Options {
                    root: Some(corpus.clone()),
                    config,
                    ..Default::default()
                },
            ));
        }
        dirs.push(dir);
    } else {
        eprintln!("corpus specs skipped: ../shared/corpus is not here");
    }

    for (what, paths, opts) in &runs {
        let checked = idemlint::lint::run(paths, opts, no_stdin);
        let (reviewed, made) =
            idemlint::lint::run_each(paths, opts, &idemlint::files::Disk, no_stdin, &make);
        assert!(!checked.findings.is_empty(), "{what}");
        let all: Vec<Shown> = checked.findings.iter().map(shown).collect();
        let in_review: Vec<Shown> = reviewed.findings.iter().map(shown).collect();
        assert_eq!(in_review, all, "{what}: findings");
        let errors = |r: &idemlint::report::Report| {
            r.errors
                .iter()
                .map(|e| format!("{}:{}:{}: {}", e.file, e.line, e.column, e.message))
                .collect::<Vec<_>>()
        };
        assert_eq!(errors(&reviewed), errors(&checked), "{what}: errors");
        let skipped = |r: &idemlint::report::Report| {
            r.skipped
                .iter()
                .map(|s| format!("{}: {}", s.file, s.reason))
                .collect::<Vec<_>>()
        };
        assert_eq!(skipped(&reviewed), skipped(&checked), "{what}: skipped");
        let silenced = |r: &idemlint::report::Report| {
            r.suppressed
                .iter()
                .map(|s| shown(&s.finding))
                .collect::<Vec<_>>()
        };
        assert_eq!(silenced(&reviewed), silenced(&checked), "{what}: silenced");
        let documents = |r: &idemlint::report::Report| {
            r.documents
                .iter()
                .map(|d| {
                    (
                        d.file.clone(),
                        d.operations
                            .iter()
                            .map(|o| o.display.clone())
                            .collect::<Vec<_>>(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            documents(&reviewed),
            documents(&checked),
            "{what}: documents"
        );
        assert_eq!(
            made.len(),
            checked.documents.len(),
            "{what}: a review a document"
        );

        // The documents' own findings, a shared file's once, are the report's.
        let mut seen = HashSet::new();
        let mut given: Vec<Shown> = made
            .iter()
            .flat_map(|m| &m.findings)
            .filter(|f| seen.insert((f.rule, f.source.path.clone(), f.span, f.message.clone())))
            .map(shown)
            .collect();
        given.sort();
        let mut all = all;
        all.sort();
        assert_eq!(given, all, "{what}: the findings reviews are made of");

        let mut cited = 0;
        for m in &made {
            let doc = &m.review.file;
            let mut gaps: BTreeMap<&str, (idemlint::diagnostic::Severity, usize)> = BTreeMap::new();
            for f in &m.findings {
                let e = gaps.entry(f.rule.as_str()).or_insert((f.severity, 0));
                e.0 = e.0.max(f.severity);
                e.1 += 1;
            }
            let review_gaps: BTreeMap<&str, (idemlint::diagnostic::Severity, usize)> = m
                .review
                .gaps
                .iter()
                .map(|(rule, severity, n, _)| (rule.as_str(), (*severity, *n)))
                .collect();
            assert_eq!(review_gaps, gaps, "{what}: gaps of {doc}");
            assert_eq!(
                m.review.operations.len(),
                m.operations.len(),
                "{what}: {doc}"
            );
            for (op, (place, key)) in m.review.operations.iter().zip(&m.operations) {
                assert_eq!(&op.at, place, "{what}: {doc}");
                for (q, rule) in CITED {
                    let answer = &op.answers[q];
                    let first = m
                        .findings
                        .iter()
                        .find(|f| f.rule == rule && f.operation_at.as_ref() == Some(key));
                    match first {
                        Some(f) => {
                            assert_eq!(
                                (answer.verdict, answer.text.as_str(), answer.at.clone()),
                                (
                                    Verdict::Risk,
                                    f.message.as_str(),
                                    Some(format!("{}:{}:{}", f.file(), f.line, f.column))
                                ),
                                "{what}: {} in {doc}, question {}",
                                op.operation,
                                q + 1
                            );
                            cited += 1;
                        }
                        None => assert!(
                            !m.findings
                                .iter()
                                .any(|f| f.rule == rule && f.message == answer.text),
                            "{what}: {} in {doc} cites a finding of another operation",
                            op.operation
                        ),
                    }
                }
            }
        }
        if what.starts_with("corpus") {
            continue;
        }
        assert!(cited >= 14, "{what}: {cited} citations");
    }
}
