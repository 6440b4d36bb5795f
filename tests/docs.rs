//! Rule docs are the single source of rule metadata: every rule has one, every doc a rule, and
//! each doc's examples do what they say.

mod common;

use idemlint::rules::{RULES, meta};

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
    for r in RULES {
        let m = meta(r.id);
        assert!(
            !m.summary.is_empty() && m.summary.len() < 80,
            "{}: summary",
            r.id
        );
        assert!(!m.sources.is_empty(), "{}: sources", r.id);
        let parts: Vec<&str> = m.since.split('.').collect();
        assert!(
            parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok()),
            "{}: since `{}`",
            r.id,
            m.since
        );
        for section in [
            "## What it checks",
            "## Why it matters",
            "## Example",
            "### Failing",
            "### Passing",
            "## How to fix",
            "## References",
        ] {
            assert!(m.body.contains(section), "{}: no `{section}`", r.id);
        }
    }
}

/// The first ```yaml block after `heading`.
fn example(doc: &str, heading: &str) -> String {
    let after = &doc[doc.find(heading).unwrap_or_else(|| panic!("no {heading}"))..];
    let start = after.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = after[start..].find("```").unwrap();
    after[start..start + end].to_string()
}

#[test]
fn failing_examples_raise_only_their_rule_and_passing_examples_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for r in RULES {
        let failing = dir.path().join(format!("{}-failing.yaml", r.id));
        std::fs::write(&failing, example(r.doc, "### Failing")).unwrap();
        let report = common::lint(&[failing.to_str().unwrap()]);
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
        let passing = dir.path().join(format!("{}-passing.yaml", r.id));
        std::fs::write(&passing, example(r.doc, "### Passing")).unwrap();
        let report = common::lint(&[passing.to_str().unwrap()]);
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
