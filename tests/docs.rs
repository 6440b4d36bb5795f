//! Rule docs are the single source of rule metadata: every rule has one, every doc a rule, and
//! each doc's examples do what they say.

mod common;

use idemlint::rules::RULES;

#[test]
fn every_rule_has_a_doc_and_every_doc_a_rule() {
    let mut docs: Vec<String> = std::fs::read_dir("rules")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|n| n.strip_suffix(".md").map(str::to_string))
        .collect();
    docs.sort();
    let mut ids: Vec<String> = RULES.iter().map(|r| r.id.to_string()).collect();
    ids.sort();
    assert_eq!(docs, ids);
    // Every problem of every doc, not only the first one met.
    let mut problems = Vec::new();
    for r in RULES {
        let m = r.id.meta();
        if m.summary.is_empty() || m.summary.len() >= 80 {
            problems.push(format!("{}: summary", r.id));
        }
        if m.sources.is_empty() {
            problems.push(format!("{}: sources", r.id));
        }
        let parts: Vec<&str> = m.since.split('.').collect();
        if !(parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok())) {
            problems.push(format!("{}: since `{}`", r.id, m.since));
        }
        for section in [
            "## What it checks",
            "## Why it matters",
            "## Example",
            "### Failing",
            "### Passing",
            "## How to fix",
            "## Fix",
            "## References",
        ] {
            if !m.body.contains(section) {
                problems.push(format!("{}: no `{section}`", r.id));
            }
        }
        // `## Fix` is the section right after `## How to fix`, and `## References` the one right
        // after it; its body says first whether the rule's fix is safe, unsafe, or none.
        // (A doc without the text `## Fix` has been told so above.)
        let sections = headings(m.body);
        let at = |h: &str| sections.iter().position(|s| *s == h);
        if at("## Fix").is_none() && m.body.contains("## Fix") {
            problems.push(format!("{}: no `## Fix` heading", r.id));
        } else if at("## Fix").is_some() {
            for (first, next) in [("## How to fix", "## Fix"), ("## Fix", "## References")] {
                let right_after = at(first).is_some_and(|i| sections.get(i + 1) == Some(&next));
                if !right_after {
                    problems.push(format!(
                        "{}: `{next}` is not the section right after `{first}` ({sections:?})",
                        r.id
                    ));
                }
            }
            if let Err(e) = fix_claim(m.body) {
                problems.push(format!("{}: {e}", r.id));
            }
        }
        // A contract-change rule's examples are the version after a change: the doc shows the
        // version before, first.
        if m.category == CONTRACT_CHANGE {
            let before = m.body.find("### Before");
            let first = before.is_some_and(|at| m.body.find("### Failing").is_some_and(|f| at < f));
            if !first {
                problems.push(format!("{}: no `### Before` before `### Failing`", r.id));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The `## ` headings of a doc body, in order, outside fenced code.
fn headings(body: &str) -> Vec<&str> {
    let mut in_code = false;
    body.lines()
        .filter(|line| {
            if line.starts_with("```") {
                in_code = !in_code;
            }
            !in_code && line.starts_with("## ")
        })
        .map(str::trim_end)
        .collect()
}

/// What a rule's doc says its fix is: the first words of its `## Fix` section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FixClaim {
    /// `Safe:`: every finding has a fix that `--fix` applies.
    Safe,
    /// `Unsafe:`: every finding has a fix that only `--unsafe-fixes` applies.
    Unsafe,
    /// `No fix:`: no finding has a fix.
    None,
}

impl FixClaim {
    /// The `applicability` of a JSON report's `fix`, or none.
    fn applicability(self) -> Option<&'static str> {
        match self {
            FixClaim::Safe => Some("safe"),
            FixClaim::Unsafe => Some("unsafe"),
            FixClaim::None => None,
        }
    }
}

/// The claim of the `## Fix` section of a doc body, or what is wrong with the section.
fn fix_claim(body: &str) -> Result<FixClaim, String> {
    const HEADING: &str = "\n## Fix\n";
    let start = body.find(HEADING).ok_or("no `## Fix` section")? + HEADING.len();
    let section = body[start..].trim_start();
    [
        ("Safe:", FixClaim::Safe),
        ("Unsafe:", FixClaim::Unsafe),
        ("No fix:", FixClaim::None),
    ]
    .into_iter()
    .find(|(word, _)| section.starts_with(word))
    .map(|(_, claim)| claim)
    .ok_or_else(|| {
        let first = section.lines().next().unwrap_or("");
        format!("`## Fix` starts with `{first}`, not `Safe:`, `Unsafe:` or `No fix:`")
    })
}

/// The first ```yaml block after `heading`.
fn example(doc: &str, heading: &str) -> String {
    let after = &doc[doc.find(heading).unwrap_or_else(|| panic!("no {heading}"))..];
    let start = after.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = after[start..].find("```").unwrap();
    after[start..start + end].to_string()
}

/// The category of the rules that compare two versions of a spec.
const CONTRACT_CHANGE: &str = "contract-change";

/// The category of the rules `idemlint probe` reports about a running server.
const RUNTIME: &str = "runtime";

/// The findings of `path` linted alone, or against `before` as `idemlint diff` does (every
/// contract-change rule and only those).
fn findings_of(
    path: &std::path::Path,
    before: Option<&std::path::Path>,
) -> idemlint::report::Report {
    match before {
        None => common::lint(&[path.to_str().unwrap()]),
        Some(before) => {
            let select = RULES
                .iter()
                .filter(|r| r.id.meta().category == CONTRACT_CHANGE)
                .map(|r| r.id.to_string())
                .collect();
            idemlint::change::diff(
                &idemlint::change::Version::File(before.to_path_buf()),
                &idemlint::change::Version::File(path.to_path_buf()),
                &idemlint::lint::Options {
                    select,
                    ..idemlint::lint::Options::default()
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        }
    }
}

/// Each doc's Failing example raises its rule and no other, and its Passing example nothing. A
/// contract-change rule's examples are the version after a change, linted against the doc's
/// `### Before` block as `idemlint diff` does; linted alone, no example raises a contract-change
/// rule.
#[test]
fn failing_examples_raise_only_their_rule_and_passing_examples_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for r in RULES {
        let contract = r.id.meta().category == CONTRACT_CHANGE;
        let before = contract.then(|| {
            let before = dir.path().join(format!("{}-before.yaml", r.id));
            std::fs::write(&before, example(r.id.doc(), "### Before")).unwrap();
            before
        });
        let failing = dir.path().join(format!("{}-failing.yaml", r.id));
        std::fs::write(&failing, example(r.id.doc(), "### Failing")).unwrap();
        let passing = dir.path().join(format!("{}-passing.yaml", r.id));
        std::fs::write(&passing, example(r.id.doc(), "### Passing")).unwrap();

        // Alone, no example of any rule raises a rule that needs a version to compare with.
        for (what, path) in [
            ("before", before.as_deref()),
            ("failing", Some(failing.as_path())),
            ("passing", Some(passing.as_path())),
        ] {
            let Some(path) = path else { continue };
            let report = findings_of(path, None);
            if !report.errors.is_empty() {
                problems.push(format!("{}: {what} example: {:?}", r.id, report.errors));
            }
            for f in report
                .findings
                .iter()
                .filter(|f| f.rule.meta().category == CONTRACT_CHANGE)
            {
                problems.push(format!(
                    "{}: {what} example linted alone raises {}: {}",
                    r.id, f.rule, f.message
                ));
            }
        }

        // A runtime rule's examples are the spec a server implements, right in both: what fails
        // is the server (the doc's exchanges; tests/probe.rs sends them). No rule finds
        // anything in them.
        if r.id.meta().category == RUNTIME {
            for (what, path) in [("failing", &failing), ("passing", &passing)] {
                let report = findings_of(path, None);
                for f in &report.findings {
                    problems.push(format!(
                        "{}: {what} example (a runtime rule's spec) raises {}: {}",
                        r.id, f.rule, f.message
                    ));
                }
            }
            for section in ["### Failing", "### Passing"] {
                let after = &r.id.doc()[r.id.doc().find(section).unwrap()..];
                if !after.contains("```http\n") {
                    problems.push(format!("{}: no ```http exchange under {section}", r.id));
                }
            }
            continue;
        }
        let report = findings_of(&failing, before.as_deref());
        if !report.errors.is_empty() {
            problems.push(format!("{}: failing example: {:?}", r.id, report.errors));
        }
        if !report.findings.iter().any(|f| f.rule == r.id) {
            problems.push(format!(
                "{}: failing example raises nothing of its rule",
                r.id
            ));
        }
        for f in report.findings.iter().filter(|f| f.rule != r.id) {
            problems.push(format!(
                "{}: failing example also raises {}: {}",
                r.id, f.rule, f.message
            ));
        }
        let report = findings_of(&passing, before.as_deref());
        if !report.errors.is_empty() {
            problems.push(format!("{}: passing example: {:?}", r.id, report.errors));
        }
        for f in &report.findings {
            problems.push(format!(
                "{}: passing example raises {}: {}",
                r.id, f.rule, f.message
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A doc's `## Fix` says what its rule does: linted as a user lints it (`check`, or `diff` against
/// the `### Before` block for a contract-change rule) with `--format json`, every finding of the
/// rule in the doc's Failing example has a `fix` of the applicability the doc names (`Safe:`,
/// `Unsafe:`) with edits to make, or no `fix` at all (`No fix:`).
#[test]
fn fix_sections_say_what_the_rules_do_with_their_failing_examples() {
    let dir = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for r in RULES {
        let claim = match fix_claim(r.id.meta().body) {
            Ok(claim) => claim,
            Err(e) => {
                problems.push(format!("{}: {e}", r.id));
                continue;
            }
        };
        // A runtime rule finds nothing in a spec: it has no fix.
        if r.id.meta().category == RUNTIME {
            if claim != FixClaim::None {
                problems.push(format!(
                    "{}: a runtime rule's `## Fix` must be `No fix:`",
                    r.id
                ));
            }
            continue;
        }
        let failing = format!("{}-failing.yaml", r.id);
        std::fs::write(
            dir.path().join(&failing),
            example(r.id.doc(), "### Failing"),
        )
        .unwrap();
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_idemlint"));
        command.current_dir(dir.path());
        if r.id.meta().category == CONTRACT_CHANGE {
            let before = format!("{}-before.yaml", r.id);
            std::fs::write(dir.path().join(&before), example(r.id.doc(), "### Before")).unwrap();
            command.args(["diff", &before, &failing]);
        } else {
            command.args(["check", &failing]);
        }
        let out = command
            .args(["--format", "json", "--fail-on", "never"])
            .output()
            .unwrap();
        let report: serde_json::Value = match serde_json::from_slice(&out.stdout) {
            Ok(report) if out.status.success() => report,
            _ => {
                problems.push(format!(
                    "{}: the failing example did not lint ({}): {}",
                    r.id,
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                ));
                continue;
            }
        };
        let findings: Vec<&serde_json::Value> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule"] == r.id.as_str())
            .collect();
        if findings.is_empty() {
            problems.push(format!(
                "{}: the failing example raises nothing of it",
                r.id
            ));
        }
        for f in findings {
            let at = format!("{}: finding at line {}", r.id, f["line"]);
            match (claim.applicability(), f.get("fix")) {
                (None, None) => {}
                (None, Some(fix)) => problems.push(format!(
                    "{at}: the doc says `No fix:` but it has a fix: {fix}"
                )),
                // (A finding the rule cannot fix says why, as its doc does.)
                (Some(_), None) if f.get("no_fix").is_some() => {}
                (Some(wanted), None) => problems.push(format!(
                    "{at}: the doc says its fix is {wanted} but it has none, nor says why"
                )),
                (Some(wanted), Some(fix)) => {
                    if fix["applicability"] != wanted {
                        problems.push(format!(
                            "{at}: the doc says its fix is {wanted}, the report {}",
                            fix["applicability"]
                        ));
                    }
                    if fix["edits"].as_array().is_none_or(Vec::is_empty) {
                        problems.push(format!("{at}: its fix has no edits: {fix}"));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn readme_rule_table_is_generated_from_the_docs() {
    const BEGIN: &str = "<!-- rules:begin";
    const END: &str = "<!-- rules:end -->";
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme
        .find(BEGIN)
        .expect("README has the rules:begin marker");
    let start = start + readme[start..].find('\n').unwrap() + 1;
    let end = readme.find(END).expect("README has the rules:end marker");
    let table = idemlint::explain::readme_table();
    if std::env::var_os("IDEMLINT_UPDATE_README").is_some() {
        let updated = format!("{}{table}{}", &readme[..start], &readme[end..]);
        std::fs::write("README.md", updated).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        table,
        "README's rule table is stale: run `IDEMLINT_UPDATE_README=1 cargo test --test docs`"
    );
}

/// The README's table of the rules with a fix says what their docs say: each rule whose `## Fix`
/// says `Safe:` or `Unsafe:` is in it, as `safe` or `unsafe`, and no other rule.
#[test]
fn readme_fix_table_agrees_with_the_docs() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme
        .find("\n## Fixing findings\n")
        .expect("README has a `## Fixing findings` section");
    let section = &readme[start + 1..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut table = std::collections::BTreeMap::new();
    for row in section.lines().filter(|l| l.starts_with("| [`")) {
        let id = row["| [`".len()..].split('`').next().unwrap();
        let applicability = row.split('|').nth(2).unwrap().trim();
        assert!(
            table
                .insert(id.to_string(), applicability.to_string())
                .is_none(),
            "README's fix table lists {id} twice"
        );
    }
    let mut docs = std::collections::BTreeMap::new();
    let mut problems = Vec::new();
    for r in RULES {
        match fix_claim(r.id.meta().body) {
            Ok(claim) => {
                if let Some(applicability) = claim.applicability() {
                    docs.insert(r.id.to_string(), applicability.to_string());
                }
            }
            Err(e) => problems.push(format!("{}: {e}", r.id)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(
        table, docs,
        "README's fix table and the docs' `## Fix` sections"
    );
}

/// The text between `<!-- {name}:begin ... -->` and `<!-- {name}:end -->` in README.md, checked
/// against `generated` (or written, with `IDEMLINT_UPDATE_README=1`).
fn readme_block(name: &str, generated: &str) {
    let begin = format!("<!-- {name}:begin");
    let end_marker = format!("<!-- {name}:end -->");
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme
        .find(&begin)
        .unwrap_or_else(|| panic!("README has the {name}:begin marker"));
    let start = start + readme[start..].find('\n').unwrap() + 1;
    let end = readme
        .find(&end_marker)
        .unwrap_or_else(|| panic!("README has the {name}:end marker"));
    if std::env::var_os("IDEMLINT_UPDATE_README").is_some() {
        let updated = format!("{}{generated}{}", &readme[..start], &readme[end..]);
        std::fs::write("README.md", updated).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        generated,
        "README's {name} block is stale: run `IDEMLINT_UPDATE_README=1 cargo test --test docs`"
    );
}

#[test]
fn readme_usage_block_matches_the_command_line() {
    readme_block("usage", &format!("```\n{}```\n", idemlint::cli::synopsis()));
}

/// Every option `idemlint check --help` prints is explained in the README's option table.
#[test]
fn readme_explains_every_option_of_check() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_idemlint"))
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let readme = std::fs::read_to_string("README.md").unwrap();
    let table: Vec<&str> = readme.lines().filter(|l| l.starts_with("| `")).collect();
    let mut missing = Vec::new();
    for line in help.lines() {
        let line = line.trim_start();
        let Some(flag) = line
            .split(", ")
            .last()
            .and_then(|l| l.strip_prefix("--"))
            .map(|l| l.split([' ', '<']).next().unwrap())
        else {
            continue;
        };
        if flag == "help" || !line.starts_with('-') {
            continue;
        }
        let flag = format!("`--{flag}");
        if !table.iter().any(|row| row.contains(&flag)) {
            missing.push(flag);
        }
    }
    assert!(
        missing.is_empty(),
        "README's option table lacks {missing:?}"
    );
}

/// Every field path of a JSON value (`findings[].operation.method`); arrays by their items.
fn field_paths(v: &serde_json::Value, at: &str, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                out.insert(path.clone());
                field_paths(v, &path, out);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                field_paths(item, &format!("{at}[]"), out);
            }
        }
        _ => {}
    }
}

/// The README's JSON example has the fields of a real report, no more, no fewer.
#[test]
fn readme_json_example_has_the_fields_of_a_real_report() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let start = readme.find("```jsonc\n").unwrap() + "```jsonc\n".len();
    let end = start + readme[start..].find("```").unwrap();
    // Comments follow the values on their lines; no string here holds `//`.
    let example: String = readme[start..end]
        .lines()
        .map(|l| l.split(" //").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let example: serde_json::Value = serde_json::from_str(&example).unwrap();

    // A run with something in every part of the report.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let files = [
        (
            "api/openapi.yaml",
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    post:\n      \
             parameters: [{$ref: 'https://example.com/common.yaml#/Key'}]\n      \
             responses: {'201': {description: ok}}\n  /b:\n    $ref: 'paths/b.yaml'\n",
        ),
        (
            "api/paths/b.yaml",
            "post:\n  operationId: b\n  responses: {'201': {description: ok}}\n",
        ),
        (
            "legacy/api.yaml",
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n",
        ),
        ("legacy/.idemlint.yaml", "rulez: {}\n"),
        (
            "baseline.json",
            r#"{"version": 2, "findings": [{"rule": "missing-idempotency-key",
               "file": "api/gone.yaml", "pointer": "/paths/~1c/post", "message": "m"}]}"#,
        ),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_idemlint"))
        .current_dir(dir.path())
        .args([
            "check",
            "api/paths/b.yaml",
            "legacy/api.yaml",
            "--format",
            "json",
            "--baseline",
            "baseline.json",
            // (Only safe fixes: the unsafe fix of its finding stays, to be shown.)
            "--fix",
        ])
        .output()
        .unwrap();
    let real: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for part in ["findings", "errors", "unchecked", "fragments", "skipped"] {
        assert!(
            !real[part].as_array().unwrap().is_empty(),
            "the run has {part}: {real:#}"
        );
    }
    assert!(
        !real["baseline"]["stale"].as_array().unwrap().is_empty(),
        "{real:#}"
    );
    let (mut documented, mut produced) = Default::default();
    field_paths(&example, "", &mut documented);
    field_paths(&real, "", &mut produced);
    assert_eq!(
        documented, produced,
        "README's JSON example and a real report"
    );
}
