//! The JSON Schema of `.idemlint.yaml` (`schemas/idemlint.schema.json`, `idemlint config
//! schema`): the same bytes from the file and the binary, a valid draft-07 schema, and in step
//! with the loader: what `check` accepts the schema accepts, and what `check` refuses for a
//! reason a schema can state, the schema refuses too.

use assert_cmd::Command;
use serde_json::Value;

use idemlint::config::{Config, schema_json};
use idemlint::limits::Limits;
use idemlint::source::{Format, Node, ScalarKind, SourceFile, Value as Tree};

const SCHEMA_FILE: &str = "schemas/idemlint.schema.json";

#[test]
fn committed_schema_is_the_generated_one() {
    let generated = schema_json();
    if std::env::var_os("IDEMLINT_UPDATE_SCHEMA").is_some() {
        std::fs::write(SCHEMA_FILE, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(SCHEMA_FILE).unwrap_or_default();
    assert!(
        committed == generated,
        "{SCHEMA_FILE} is stale: run `IDEMLINT_UPDATE_SCHEMA=1 cargo test --test schema`"
    );
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .args(["config", "schema"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), committed);
}

fn schema() -> Value {
    serde_json::from_str(&schema_json()).unwrap()
}

#[test]
fn schema_is_valid_draft_07() {
    let schema = schema();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    if let Err(e) = jsonschema::draft7::meta::validate(&schema) {
        panic!("not a draft-07 schema: {e} at {}", e.instance_path());
    }
}

/// A YAML configuration as the JSON an editor's schema validator sees: YAML 1.2 core types.
fn to_json(node: &Node) -> Value {
    match &node.value {
        Tree::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.text.to_string(), to_json(&e.value)))
                .collect(),
        ),
        Tree::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        Tree::Scalar(s) => match s.kind {
            ScalarKind::Null => Value::Null,
            ScalarKind::Bool => Value::Bool(s.text.eq_ignore_ascii_case("true")),
            ScalarKind::Int => s
                .text
                .parse::<i64>()
                .map_or_else(|_| Value::String(s.text.to_string()), Value::from),
            ScalarKind::Float => s
                .text
                .parse::<f64>()
                .map_or_else(|_| Value::String(s.text.to_string()), Value::from),
            ScalarKind::Str => Value::String(s.text.to_string()),
        },
    }
}

fn parsed(yaml: &str) -> Value {
    let file = SourceFile::new(
        ".idemlint.yaml".into(),
        ".idemlint.yaml".to_string(),
        yaml.to_string(),
        Format::Yaml,
    );
    match file.parse(&Limits::default()) {
        Ok(loaded) => to_json(&loaded.root),
        // A file of nothing, or of comments only, is null to an editor.
        Err(e) if e.message.starts_with("empty document") => Value::Null,
        Err(e) => panic!("{yaml}: {}", e.message),
    }
}

/// The schema's complaints about `yaml`, one line each; empty when it validates.
fn schema_errors(yaml: &str) -> Vec<String> {
    let validator = jsonschema::draft7::new(&schema()).unwrap();
    let instance = parsed(yaml);
    validator
        .iter_errors(&instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// The loader's errors for `yaml`, as `check` prints them; empty when it loads.
fn loader_errors(yaml: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".idemlint.yaml");
    std::fs::write(&path, yaml).unwrap();
    match Config::load(&idemlint::files::Disk, &path, ".idemlint.yaml", None) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|e| format!("{}:{}: {}", e.line, e.column, e.message))
            .collect(),
    }
}

/// The README's complete example (the yaml block after "A complete example:", which
/// tests/config.rs loads too).
fn readme_example() -> String {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let after = &readme[readme
        .find("A complete example:")
        .expect("README has the example")..];
    let start = after.find("```yaml\n").unwrap() + "```yaml\n".len();
    let end = start + after[start..].find("```").unwrap();
    after[start..end].to_string()
}

#[test]
fn readme_example_is_accepted_by_loader_and_schema() {
    let example = readme_example();
    assert!(
        example.contains("\n# yaml-language-server: $schema=.idemlint.schema.json\n"),
        "the example names the schema as the README says to save it: {example}"
    );
    assert_eq!(loader_errors(&example), Vec::<String>::new());
    assert_eq!(schema_errors(&example), Vec::<String>::new());
}

/// Configurations the loader accepts: the README's settings one at a time and those the other
/// tests write (tests/config.rs, fix.rs, inputs.rs, review_check.rs).
const ACCEPTED: &[&str] = &[
    "extends: stripe\n",
    "extends: Zalando\n",
    "extends: GOOGLE-AIP\n",
    "rules:\n  idempotency-key-optional: off\n  missing-idempotency-key: error\n",
    "rules: {short-key-ttl: warning, missing-precondition-on-update: off, key-reuse-accepted: info}\n",
    "rules: {}\n",
    "key-headers: [Idempotency-Key, X-Request-Key]\nkey-fields: [idempotency_key]\n",
    "key-headers: []\n",
    "read-only-words: [search, validate]\nmoney-words: [payment, refund]\n",
    "min-ttl: 24h\n",
    "min-ttl: 1 day\n",
    "min-ttl: 3600\n",
    "mismatch-status: 422\n",
    "mismatch-status: '400'\n",
    "exclude: [legacy/**, drafts]\n",
    "exclude: legacy/v1\n",
    "overrides:\n  - files: ['*.yaml']\n    pointer: /paths/~1legacy~1carts\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - pointer: /paths/~1orders\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - files: ./api.yaml\n    rules: {missing-idempotency-key: error}\n",
    "fix: {safe: [missing-idempotency-key]}\n",
    "rules:\n  idempotency-key-optional: off\n  unprotected-patch: error\noverrides:\n  - files: ['refs/**']\n    rules: {missing-idempotency-key: info}\n  - pointer: /paths/~1payments\n    rules: {conflict-without-retry-after: error}\n",
];

#[test]
fn what_the_loader_accepts_the_schema_accepts() {
    for yaml in ACCEPTED {
        assert_eq!(loader_errors(yaml), Vec::<String>::new(), "loader: {yaml}");
        assert_eq!(schema_errors(yaml), Vec::<String>::new(), "schema: {yaml}");
    }
}

/// Configurations the loader refuses, and the schema too: a mistyped key, rule id, level,
/// profile or type (tests/config.rs and fix.rs refuse the same mistakes at their line and
/// column).
const REFUSED: &[&str] = &[
    "selct: [missing-idempotency-key]\n",
    "extend: stripe\n",
    "rulez: {}\n",
    "rules:\n  missing-idempotency-keys: warning\n",
    "rules:\n  unprotected-patch: loud\n",
    "rules:\n  unprotected-patch: Error\n",
    "rules: [missing-idempotency-key]\n",
    "rules:\n",
    "extends: stripes\n",
    "extends: Zalandoo\n",
    "extends: [stripe]\n",
    "key-headers: Idempotency-Key\n",
    "key-fields: ['']\n",
    "money-words: {payment: true}\n",
    "min-ttl: [24h]\n",
    "mismatch-status: 42\n",
    "mismatch-status: '4xx'\n",
    "exclude: [legacy/**, '']\n",
    "overrides: {files: ['*.yaml']}\n",
    "overrides:\n  - files: ['*.yaml']\n",
    "overrides:\n  - pointer: paths/~1orders\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - file: ['*.yaml']\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - rules: {missing-idempotency-kee: off}\n",
    "fix: {safe: [missing-idempotency-kee]}\n",
    "fix: {unsafe: [missing-idempotency-key]}\n",
    "fix: [missing-idempotency-key]\n",
    "- rules\n",
    "",
    "# only a comment\n",
];

#[test]
fn what_the_loader_refuses_for_a_stated_reason_the_schema_refuses() {
    for yaml in REFUSED {
        assert_ne!(loader_errors(yaml), Vec::<String>::new(), "loader: {yaml}");
        assert_ne!(schema_errors(yaml), Vec::<String>::new(), "schema: {yaml}");
    }
    assert_eq!(
        schema_errors("selct: [missing-idempotency-key]\n"),
        [": Additional properties are not allowed ('selct' was unexpected)"]
    );
}

/// What only the loader can judge, as it reads the text: a duration's words, a glob's syntax,
/// a key set twice. The schema lets these through; `check` reports them at their line.
#[test]
fn what_only_the_loader_refuses() {
    for yaml in [
        "min-ttl: soon\n",
        "exclude: ['legacy/[z']\n",
        "min-ttl: 1h\nmin-ttl: 2h\n",
    ] {
        assert_ne!(loader_errors(yaml), Vec::<String>::new(), "loader: {yaml}");
        assert_eq!(schema_errors(yaml), Vec::<String>::new(), "schema: {yaml}");
    }
}

/// An editor shows each rule's summary and default beside its id.
#[test]
fn rules_are_described_by_their_docs() {
    let schema = schema();
    let rule = &schema["definitions"]["rules"]["properties"]["missing-idempotency-key"];
    assert_eq!(
        rule["description"],
        "POST that changes state but accepts no idempotency key (default error; retry-safety)."
    );
    assert_eq!(
        rule["enum"],
        serde_json::json!(["off", "info", "warning", "error"])
    );
}
