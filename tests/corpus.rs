//! The real specs of ../shared/corpus: all load, findings sit where their rule says, twins agree.
//! Every test skips when the corpus is not beside this checkout.

mod common;

use std::collections::BTreeSet;

use idemlint::config::{Config, Settings};
use idemlint::diagnostic::Severity;
use idemlint::lint::Options;
use idemlint::report::Finding;

fn corpus_opts(corpus: &std::path::Path) -> Options {
    Options {
        root: Some(corpus.to_path_buf()),
        ..Options::default()
    }
}

#[test]
fn every_root_document_loads_without_error() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let manifest = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).unwrap();
    let roots = manifest
        .lines()
        .skip(1)
        .filter(|l| {
            let version = l.split('\t').nth(5).unwrap_or("");
            version.starts_with("openapi") || version.starts_with("swagger")
        })
        .count();
    let report = common::lint_with(&[corpus.to_str().unwrap()], &corpus_opts(&corpus));
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(report.files, roots, "every root of MANIFEST.tsv is linted");
    assert!(report.operations > 4000, "{}", report.operations);
    // Every vendor of the corpus contributes a linted document.
    let vendors: BTreeSet<&str> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next()?.split('/').next())
        .collect();
    for vendor in vendors {
        assert!(
            report
                .documents
                .iter()
                .any(|d| d.file.contains(&format!("/{vendor}/"))),
            "no document of {vendor} was linted"
        );
    }
}

/// What the construct at a finding's position must be, per rule.
fn expected_text(f: &Finding) -> Vec<String> {
    let method = f.operation.as_ref().map(|o| o.method.to_ascii_lowercase());
    let one = |s: &str| vec![s.to_string()];
    match f.rule.as_str() {
        "missing-idempotency-key" => one("post"),
        "unprotected-patch" => one("patch"),
        "incremental-update" => one(method.as_deref().unwrap()),
        "missing-conflict-response" => [one("responses"), one(method.as_deref().unwrap())].concat(),
        "conflict-without-retry-after" => one("409"),
        "unresolved-ref" | "remote-ref-not-fetched" => one("$ref"),
        "duplicate-key" => {
            let key = f.message.split('`').nth(1).unwrap();
            one(key)
        }
        // At the key carrier: a header's `required` or `name`, a body field, an extension's key.
        "money-movement-optional-key"
        | "idempotency-key-optional"
        | "undocumented-key-ttl"
        | "inconsistent-idempotency-key" => {
            let mut v = vec![
                "required".to_string(),
                "name".to_string(),
                "key".to_string(),
            ];
            v.extend(Settings::default().key_fields);
            v.extend(["maxLength", "format", "pattern", "schema"].map(str::to_string));
            // A property described as an idempotency key is one whatever its name; the message
            // names it (`body field `customers``).
            v.extend(f.message.split('`').skip(1).step_by(2).map(str::to_string));
            // With no key at all (its missing-key rule off), at the method.
            v.extend(method.clone());
            v
        }
        "idempotency-key-schema" => ["type", "schema", "name"].map(str::to_string).to_vec(),
        "idempotency-key-fixed-value" => ["default", "enum", "const", "example"]
            .map(str::to_string)
            .to_vec(),
        "idempotency-key-location" => {
            let mut v = one("in");
            v.extend(Settings::default().key_fields);
            v
        }
        "idempotency-key-on-safe-method"
        | "non-idempotent-put"
        | "json-patch-without-precondition"
        | "missing-precondition-on-update" => one(method.as_deref().unwrap()),
        "missing-mismatch-response" | "missing-missing-key-response" => {
            [one("responses"), one(method.as_deref().unwrap())].concat()
        }
        "replay-reported-as-error" | "server-error-for-concurrency" => {
            one(f.message.split(' ').next().unwrap())
        }
        // At the status key, or at a shared response's own key in `components/responses`.
        "retry-after-missing" => {
            let mut v = one(f.message.split(' ').next().unwrap());
            if let Some(name) = f
                .pointer
                .strip_prefix("/components/responses/")
                .or_else(|| f.pointer.strip_prefix("/responses/"))
            {
                v.push(name.replace("~1", "/").replace("~0", "~"));
            }
            v
        }
        "short-key-ttl" => ["ttl", "description", "summary"]
            .map(str::to_string)
            .to_vec(),
        "retry-after-schema" => ["type", "format", "description", "example", "pattern"]
            .map(str::to_string)
            .to_vec(),
        "repeatability-headers-incomplete" => {
            [one("name"), one(method.as_deref().unwrap())].concat()
        }
        other => panic!("no location expectation for {other}"),
    }
}

#[test]
fn every_finding_points_at_the_construct_its_rule_names() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let report = common::lint_with(&[corpus.to_str().unwrap()], &corpus_opts(&corpus));
    assert!(report.findings.len() > 100);
    // The corpus's relative changes are all sent by POSTs, where `incremental-update` yields to
    // `missing-idempotency-key`: its findings are checked in a run of it alone.
    let alone = common::lint_with(
        &[corpus.to_str().unwrap()],
        &Options {
            select: vec!["incremental-update".into()],
            ..corpus_opts(&corpus)
        },
    );
    assert!(
        !report
            .findings
            .iter()
            .any(|f| f.rule == "incremental-update"),
        "with every rule on, missing-idempotency-key speaks for the POSTs"
    );
    // No PATCH of the corpus sends a body that `unprotected-patch` still reports (each sets
    // absolute values, is a JSON Patch of `replace` alone, or there is none): in a copy,
    // Netlify's bodiless `updateAgentRunner` is given a body whose shape is not described.
    let dir = tempfile::tempdir().unwrap();
    let netlify = std::fs::read_to_string(corpus.join("netlify/swagger.yml")).unwrap();
    let id = "      operationId: updateAgentRunner\n";
    assert_eq!(netlify.matches(id).count(), 1);
    std::fs::write(
        dir.path().join("swagger.yml"),
        netlify.replacen(
            id,
            &format!(
                "{id}      parameters:\n        \
                 - {{name: body, in: body, required: true, schema: {{type: object}}}}\n"
            ),
            1,
        ),
    )
    .unwrap();
    let bodied = common::lint_with(
        &[dir.path().join("swagger.yml").to_str().unwrap()],
        &corpus_opts(dir.path()),
    );
    assert!(bodied.errors.is_empty(), "{:#?}", bodied.errors);
    let mut rules = BTreeSet::new();
    for f in report
        .findings
        .iter()
        .chain(&alone.findings)
        .chain(&bodied.findings)
    {
        let at = common::key_at(f);
        let expected = expected_text(f);
        assert!(
            expected.contains(&at),
            "{}:{}:{} [{}] points at `{at}`, expected one of {expected:?}",
            f.file(),
            f.line,
            f.column,
            f.rule
        );
        // The JSON pointer names the same place.
        let last = f
            .pointer
            .rsplit('/')
            .next()
            .unwrap()
            .replace("~1", "/")
            .replace("~0", "~");
        assert!(
            expected.contains(&last),
            "{} pointer {} does not end at {expected:?}",
            f.rule,
            f.pointer
        );
        rules.insert(f.rule.as_str());
    }
    // The corpus exercises most rules; the rest are covered by fixtures.
    for r in [
        "missing-idempotency-key",
        "missing-conflict-response",
        "unprotected-patch",
        "incremental-update",
        "unresolved-ref",
    ] {
        assert!(rules.contains(r), "no {r} finding in the corpus");
    }
}

fn adyen(ext: &str) -> Option<Vec<Finding>> {
    let corpus = common::corpus()?;
    let file = corpus.join(format!("adyen/CheckoutService-v72.{ext}"));
    let report = common::lint_with(&[file.to_str().unwrap()], &corpus_opts(&corpus));
    assert!(report.errors.is_empty());
    Some(report.findings)
}

#[test]
fn adyen_keys_declared_through_component_refs_are_recognised() {
    let Some(findings) = adyen("yaml") else {
        return;
    };
    // 22 of Adyen's 23 POSTs declare `Idempotency-Key` via `$ref: '#/components/parameters/...'`.
    assert!(
        !findings.iter().any(|f| f.rule == "missing-idempotency-key"),
        "{:#?}",
        findings
            .iter()
            .filter(|f| f.rule == "missing-idempotency-key")
            .collect::<Vec<_>>()
    );
    // ... and so each of them is checked for a 409, except the five that only read (their
    // summaries open with "Get": /paymentMethods, /cardDetails, /applePay/sessions, ...) and
    // /forward, which passes stored card details through to a third party's `baseUrl`, and
    // /payments/{paymentPspReference}/amountUpdates, an update to a new total that two
    // concurrent copies make alike. No operation of Adyen's declares a 409: the 15 gaps are one
    // of the API's, reported once.
    let conflicts: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.rule == "missing-conflict-response")
        .collect();
    assert_eq!(conflicts.len(), 1, "{conflicts:#?}");
    assert!(
        conflicts[0].message.ends_with(
            " (no operation of this API declares a 409 response; 14 other keyed operations lack \
             it too)"
        ),
        "{}",
        conflicts[0].message
    );
    let conflict: Vec<&str> = conflicts
        .iter()
        .map(|f| f.operation.as_ref().unwrap().path.as_str())
        .collect();
    for read in [
        "/forward",
        "/paymentMethods",
        "/cardDetails",
        "/applePay/sessions",
        "/donationCampaigns",
        "/paymentMethods/balance",
    ] {
        assert!(!conflict.contains(&read), "{read} only reads");
    }
}

#[test]
fn adyen_unkeyed_post_is_reported_once_the_read_only_exemption_is_off() {
    // The one POST without a key, /validateShopperId, is read-only by RULES.md's exemption list
    // ("validate"); with the list emptied it is the one and only missing-idempotency-key.
    let Some(corpus) = common::corpus() else {
        return;
    };
    for ext in ["yaml", "json"] {
        let file = corpus.join(format!("adyen/CheckoutService-v72.{ext}"));
        let mut config = Config::defaults(corpus.clone(), None).unwrap();
        config.settings.read_only_words = Vec::new();
        config.settings.reading_verbs = Vec::new();
        let opts = Options {
            root: Some(corpus.clone()),
            config: Some(config),
            ..Options::default()
        };
        let report = common::lint_with(&[file.to_str().unwrap()], &opts);
        let missing: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.rule == "missing-idempotency-key")
            .collect();
        assert_eq!(missing.len(), 1, "{ext}: {missing:#?}");
        let f = missing[0];
        assert_eq!(f.operation.as_ref().unwrap().path, "/validateShopperId");
        assert!(
            f.message.starts_with("POST /validateShopperId has no idempotency key: a retry after a lost response is processed again and can leave a duplicate (21 of 21 other POST operations declare one, e.g. header `Idempotency-Key`)"),
            "{}",
            f.message
        );
        // It moves no money and changes nothing relatively: a duplicate at worst, a warning.
        assert_eq!(f.severity, Severity::Warning);
        if ext == "yaml" {
            assert_eq!((f.line, f.column), (2253, 5));
        }
        assert_eq!(common::key_at(f), "post");
    }
}

#[test]
fn adyen_yaml_and_json_twins_give_the_same_findings() {
    let (Some(yaml), Some(json)) = (adyen("yaml"), adyen("json")) else {
        return;
    };
    let key = |f: &Finding| (f.rule, f.severity, f.message.clone(), f.pointer.clone());
    let yaml: BTreeSet<_> = yaml.iter().map(key).collect();
    let json: BTreeSet<_> = json.iter().map(key).collect();
    assert!(!yaml.is_empty());
    assert_eq!(yaml, json);
}

#[test]
fn stripe_yaml_and_json_twins_give_the_same_findings() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let lint = |ext: &str| {
        let file = corpus.join(format!("stripe/spec3.2022-04-12.{ext}"));
        let report = common::lint_with(&[file.to_str().unwrap()], &corpus_opts(&corpus));
        assert!(report.errors.is_empty());
        report
            .findings
            .iter()
            .map(|f| (f.rule, f.message.clone(), f.pointer.clone()))
            .collect::<BTreeSet<_>>()
    };
    let yaml = lint("yaml");
    assert!(yaml.len() > 100);
    assert_eq!(yaml, lint("json"));
}

#[test]
fn petstore_separate_resolves_across_files() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    for ext in ["yaml", "json"] {
        let example = corpus.join(format!("oai/examples/v2.0/{ext}/petstore-separate"));
        let root = example.join(format!("spec/swagger.{ext}"));
        let report = common::lint_with(&[root.to_str().unwrap()], &corpus_opts(&corpus));
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        assert!(
            !report.findings.iter().any(|f| f.rule == "unresolved-ref"),
            "{}",
            common::concise(&report)
        );
        // Its one POST, /pets, has no key. Its body (`NewPet`, an `allOf` of `Pet` in another
        // file) requires the `id` that names the new pet under `/pets/{id}`, but the POST says
        // "Duplicates are allowed": that `id` is no natural key, and the POST is reported.
        let unkeyed: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.rule == "missing-idempotency-key")
            .map(|f| format!("{} {}", f.severity, f.message))
            .collect();
        assert_eq!(
            unkeyed,
            [
                "warning POST /pets has no idempotency key: a retry after a lost response is \
                 processed again and can leave a duplicate"
            ],
            "{}",
            common::concise(&report)
        );

        // Without that sentence the required `id` is a natural key, found only by following the
        // refs across both files.
        let dir = tempfile::tempdir().unwrap();
        for folder in ["spec", "common"] {
            std::fs::create_dir(dir.path().join(folder)).unwrap();
            for entry in std::fs::read_dir(example.join(folder)).unwrap() {
                let entry = entry.unwrap();
                let text = std::fs::read_to_string(entry.path()).unwrap();
                std::fs::write(
                    dir.path().join(folder).join(entry.file_name()),
                    text.replace("  Duplicates are allowed", ""),
                )
                .unwrap();
            }
        }
        let root = dir.path().join(format!("spec/swagger.{ext}"));
        assert!(
            !std::fs::read_to_string(&root)
                .unwrap()
                .contains("Duplicates")
        );
        let report = common::lint_with(&[root.to_str().unwrap()], &corpus_opts(dir.path()));
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        assert!(
            !report
                .findings
                .iter()
                .any(|f| f.rule == "unresolved-ref" || f.rule == "missing-idempotency-key"),
            "{}",
            common::concise(&report)
        );
        let out = assert_cmd::Command::cargo_bin("idemlint")
            .unwrap()
            .current_dir(dir.path())
            .args(["review", root.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let md = String::from_utf8(out.stdout).unwrap();
        let row = md
            .lines()
            .find(|l| l.starts_with("| `POST /pets`<br>"))
            .unwrap_or_else(|| panic!("no row for POST /pets in\n{md}"));
        assert!(
            row.contains(
                "a natural key refuses a second create (the `id` it sends names the new item \
                 (`{id}`))"
            ),
            "{row}"
        );
    }
}
