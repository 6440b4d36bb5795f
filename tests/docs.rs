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
        assert_eq!(m.since, "0.1.0");
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
    for r in RULES {
        let failing = dir.path().join(format!("{}-failing.yaml", r.id));
        std::fs::write(&failing, example(r.doc, "### Failing")).unwrap();
        let report = common::lint(&[failing.to_str().unwrap()]);
        assert!(report.errors.is_empty(), "{}: {:?}", r.id, report.errors);
        assert!(
            !report.findings.is_empty(),
            "{}: failing example raises nothing",
            r.id
        );
        for f in &report.findings {
            assert_eq!(
                f.rule, r.id,
                "{}: failing example also raises {}",
                r.id, f.message
            );
        }
        let passing = dir.path().join(format!("{}-passing.yaml", r.id));
        std::fs::write(&passing, example(r.doc, "### Passing")).unwrap();
        let report = common::lint(&[passing.to_str().unwrap()]);
        assert!(report.errors.is_empty(), "{}: {:?}", r.id, report.errors);
        assert!(
            report.findings.is_empty(),
            "{}: passing example raises\n{}",
            r.id,
            common::concise(&report)
        );
    }
}
