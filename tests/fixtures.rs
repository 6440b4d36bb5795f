//! Snapshot tests: every fixture under `fixtures/rules/<id>/` linted, its findings (rule, line,
//! column, message) compared with the stored snapshot. `bad_*` files must raise their folder's
//! rule, `good_*` files must not.

mod common;

use std::path::Path;

use idemlint::rules::RULES;

#[test]
fn rule_fixtures() {
    let root = Path::new("fixtures/rules");
    let mut checked = 0;
    for rule in RULES {
        let dir = root.join(rule.id);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| {
                matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("yaml" | "json")
                )
            })
            .collect();
        files.sort();
        let (mut bad, mut good) = (0, 0);
        for file in files {
            let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
            let ext = file.extension().unwrap().to_str().unwrap();
            let report = common::lint(&[file.to_str().unwrap()]);
            assert!(
                report.errors.is_empty(),
                "{}: {:?}",
                file.display(),
                report.errors
            );
            let hits = report.findings.iter().filter(|f| f.rule == rule.id).count();
            if stem.starts_with("bad_") {
                bad += 1;
                assert!(hits > 0, "{} should raise {}", file.display(), rule.id);
            } else if stem.starts_with("good_") {
                good += 1;
                assert_eq!(
                    hits,
                    0,
                    "{} should not raise {}:\n{}",
                    file.display(),
                    rule.id,
                    common::concise(&report)
                );
            } else {
                panic!("{}: fixture names start with bad_ or good_", file.display());
            }
            insta::assert_snapshot!(
                format!("{}__{stem}.{ext}", rule.id),
                common::concise(&report)
            );
            checked += 1;
        }
        assert!(
            bad > 0 && good > 0,
            "{} needs bad_ and good_ fixtures",
            rule.id
        );
    }
    assert!(checked >= RULES.len() * 2);
}
