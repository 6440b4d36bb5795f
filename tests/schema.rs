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

/// A YAML configuration as the JSON an editor's schema validator sees: YAML 1.2 core types, as
/// the YAML language server reads them (`0422` and `0x1A6` are the integer 422, `3600.0` a
/// number; JSON has no infinity, and null stands in for one: it is refused wherever the schema
/// wants a number or a string, as an infinity is).
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
            ScalarKind::Int => yaml_int(&s.text),
            ScalarKind::Float => {
                let text = s.text.to_ascii_lowercase();
                let value: f64 = match text.trim_start_matches('+') {
                    ".inf" => f64::INFINITY,
                    "-.inf" => f64::NEG_INFINITY,
                    ".nan" => f64::NAN,
                    other => other.parse().unwrap(),
                };
                Value::from(value)
            }
            ScalarKind::Str => Value::String(s.text.to_string()),
        },
    }
}

/// A YAML 1.2 integer (`[-+]?[0-9]+`, `0x...`, `0o...`) as JSON: exact when it fits 64 bits, a
/// float beyond (as JavaScript reads it).
fn yaml_int(text: &str) -> Value {
    let (digits, radix, negative) = if let Some(hex) = text.strip_prefix("0x") {
        (hex, 16, false)
    } else if let Some(octal) = text.strip_prefix("0o") {
        (octal, 8, false)
    } else if let Some(rest) = text.strip_prefix('-') {
        (rest, 10, true)
    } else {
        (text.strip_prefix('+').unwrap_or(text), 10, false)
    };
    match u64::from_str_radix(digits, radix) {
        Ok(n) if !negative => Value::from(n),
        Ok(n) if n <= i64::MAX as u64 => Value::from(-(n as i64)),
        _ => {
            let magnitude = digits.chars().fold(0.0f64, |v, c| {
                v * radix as f64 + c.to_digit(radix).unwrap() as f64
            });
            Value::from(if negative { -magnitude } else { magnitude })
        }
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

/// Configurations the loader accepts, and the schema too: the README's settings one at a time,
/// those the other tests write (tests/config.rs, fix.rs, inputs.rs, review_check.rs), and the
/// edges of each setting's values.
const ACCEPTED: &[&str] = &[
    // No settings at all: the profile's defaults.
    "",
    "# only a comment\n",
    "\n\n# two comments\n   # and blank lines\n",
    "~\n",
    "null\n",
    "---\n",
    "{}\n",
    // extends
    "extends: stripe\n",
    "extends: Zalando\n",
    "extends: GOOGLE-AIP\n",
    "extends: 'azure'\n",
    // rules
    "rules:\n  idempotency-key-optional: off\n  missing-idempotency-key: error\n",
    "rules: {short-key-ttl: warning, missing-precondition-on-update: off, key-reuse-accepted: info}\n",
    "rules: {}\n",
    "rules: {missing-idempotency-key: 'off'}\n",
    // key-headers, key-fields, read-only-words, money-words
    "key-headers: [Idempotency-Key, X-Request-Key]\nkey-fields: [idempotency_key]\n",
    "key-headers: []\n",
    "key-headers: ['1', 'true', 'null']\n",
    "key-fields: [request_id, '0x10']\n",
    "read-only-words: [search, validate]\nmoney-words: [payment, refund]\n",
    "read-only-words: []\n",
    "money-words: ['2fa', \"off\"]\n",
    // min-ttl: whole seconds, or a duration
    "min-ttl: 24h\n",
    "min-ttl: 1 day\n",
    "min-ttl: 3600\n",
    "min-ttl: 0\n",
    "min-ttl: 90m\n",
    "min-ttl: 90min\n",
    "min-ttl: 1d 12h\n",
    "min-ttl: 1h30m\n",
    "min-ttl: 1.5 hours\n",
    "min-ttl: 2 Days\n",
    "min-ttl: 24 h\n",
    "min-ttl: 1w\n",
    "min-ttl: 30s\n",
    "min-ttl: 1 month\n",
    "min-ttl: '3600'\n",
    "min-ttl: !!str 24h\n",
    "min-ttl: 3600.0\n",
    "min-ttl: 1e3\n",
    "min-ttl: 0x10\n",
    "min-ttl: 0o17\n",
    "min-ttl: 99999999999999999999\n",
    "min-ttl: '99999999999999999999'\n",
    // mismatch-status: 100 to 599, a YAML number or a string of three digits
    "mismatch-status: 422\n",
    "mismatch-status: '400'\n",
    "mismatch-status: 100\n",
    "mismatch-status: 599\n",
    "mismatch-status: '599'\n",
    "mismatch-status: 0422\n",
    "mismatch-status: +422\n",
    "mismatch-status: 422.0\n",
    "mismatch-status: 0x1A6\n",
    // exclude
    "exclude: [legacy/**, drafts]\n",
    "exclude: legacy/v1\n",
    "exclude: []\n",
    "exclude: '*.draft.yaml'\n",
    "exclude: ./legacy\n",
    "exclude: [legacy/]\n",
    // overrides
    "overrides:\n  - files: ['*.yaml']\n    pointer: /paths/~1legacy~1carts\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - pointer: /paths/~1orders\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - files: ./api.yaml\n    rules: {missing-idempotency-key: error}\n",
    "overrides: []\n",
    "overrides:\n  - rules: {}\n",
    "overrides:\n  - files: [a.yaml, 'b/**']\n    pointer: /\n    rules: {}\n",
    // fix
    "fix: {safe: [missing-idempotency-key]}\n",
    "fix: {}\n",
    "fix: {safe: []}\n",
    "rules:\n  idempotency-key-optional: off\n  unprotected-patch: error\noverrides:\n  - files: ['refs/**']\n    rules: {missing-idempotency-key: info}\n  - pointer: /paths/~1payments\n    rules: {conflict-without-retry-after: error}\n",
];

/// Configurations the loader refuses, and the schema too: a mistyped key, rule id, level,
/// profile or type, a value of the wrong kind in a list, a duration or status the loader cannot
/// read, a glob that matches nothing (tests/config.rs and fix.rs refuse the same mistakes at
/// their line and column).
const REFUSED: &[&str] = &[
    // The document itself.
    "- rules\n",
    "true\n",
    "42\n",
    "just text\n",
    "[]\n",
    "selct: [missing-idempotency-key]\n",
    "select: [1, true]\n",
    "rulez: {}\n",
    // extends
    "extend: stripe\n",
    "extends: stripes\n",
    "extends: Zalandoo\n",
    "extends: [stripe]\n",
    "extends:\n",
    "extends: 1\n",
    "extends: ''\n",
    "extends: 'stripe '\n",
    // rules
    "rules:\n  missing-idempotency-keys: warning\n",
    "rules:\n  unprotected-patch: loud\n",
    "rules:\n  unprotected-patch: Error\n",
    "rules: [missing-idempotency-key]\n",
    "rules:\n",
    "rules: {missing-idempotency-key: true}\n",
    "rules: {missing-idempotency-key: 2}\n",
    "rules: {missing-idempotency-key: }\n",
    "rules: {missing-idempotency-key: [error]}\n",
    // key-headers, key-fields, read-only-words, money-words: lists of non-empty strings
    "key-headers: Idempotency-Key\n",
    "key-headers:\n",
    "key-headers: [1, true]\n",
    "key-headers: [Idempotency-Key, 2]\n",
    "key-headers: [~]\n",
    "key-headers: [.inf]\n",
    "key-headers: [[Idempotency-Key]]\n",
    "key-fields: ['']\n",
    "key-fields: [0x10]\n",
    "key-fields: {idempotency_key: 1}\n",
    "read-only-words: [true]\n",
    "read-only-words: search\n",
    "money-words: {payment: true}\n",
    "money-words: [1.5]\n",
    "money-words: ~\n",
    // min-ttl
    "min-ttl: [24h]\n",
    "min-ttl: soon\n",
    "min-ttl: 24H\n",
    "min-ttl: -1\n",
    "min-ttl: 1.5\n",
    "min-ttl: ''\n",
    "min-ttl: true\n",
    "min-ttl:\n",
    "min-ttl: 24 hours or so\n",
    "min-ttl: about 24h\n",
    "min-ttl: 1d, 12h\n",
    "min-ttl: a day\n",
    "min-ttl: forever\n",
    "min-ttl: .inf\n",
    "min-ttl: 1e400\n",
    "min-ttl: -1h\n",
    "min-ttl: 1ms\n",
    "min-ttl: ' 24h'\n",
    "min-ttl: {h: 24}\n",
    // mismatch-status
    "mismatch-status: 42\n",
    "mismatch-status: '4xx'\n",
    "mismatch-status: '0422'\n",
    "mismatch-status: 099\n",
    "mismatch-status: '099'\n",
    "mismatch-status: 600\n",
    "mismatch-status: 999\n",
    "mismatch-status: '999'\n",
    "mismatch-status: 4220\n",
    "mismatch-status: 422.5\n",
    "mismatch-status: -422\n",
    "mismatch-status: true\n",
    "mismatch-status:\n",
    "mismatch-status: [422]\n",
    "mismatch-status: ' 422'\n",
    // exclude: a glob or a list of globs, none matching nothing
    "exclude: [legacy/**, '']\n",
    "exclude:\n",
    "exclude: ''\n",
    "exclude: ./\n",
    "exclude: /\n",
    "exclude: [./]\n",
    "exclude: [1]\n",
    "exclude: true\n",
    "exclude: ~\n",
    "exclude: [~]\n",
    "exclude: {legacy: true}\n",
    // overrides
    "overrides: {files: ['*.yaml']}\n",
    "overrides:\n",
    "overrides: [~]\n",
    "overrides:\n  - x\n",
    "overrides:\n  - files: ['*.yaml']\n",
    "overrides:\n  - rules: ~\n",
    "overrides:\n  - pointer: paths/~1orders\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - pointer: ''\n    rules: {}\n",
    "overrides:\n  - pointer: 1\n    rules: {}\n",
    "overrides:\n  - file: ['*.yaml']\n    rules: {missing-idempotency-key: off}\n",
    "overrides:\n  - rules: {}\n    extends: stripe\n",
    "overrides:\n  - rules: {missing-idempotency-kee: off}\n",
    "overrides:\n  - files: ''\n    rules: {}\n",
    "overrides:\n  - files: []\n    rules: {}\n",
    "overrides:\n  - files: ['']\n    rules: {}\n",
    "overrides:\n  - files: ./\n    rules: {}\n",
    "overrides:\n  - files: [api.yaml, ./]\n    rules: {}\n",
    "overrides:\n  - files: [1]\n    rules: {}\n",
    "overrides:\n  - files: ~\n    rules: {}\n",
    "overrides:\n  - files: true\n    rules: {}\n",
    // fix
    "fix: {safe: [missing-idempotency-kee]}\n",
    "fix: {unsafe: [missing-idempotency-key]}\n",
    "fix: [missing-idempotency-key]\n",
    "fix:\n",
    "fix: {safe: ~}\n",
    "fix: {safe: [1]}\n",
    "fix: {safe: [~]}\n",
    "fix: {safe: missing-idempotency-key}\n",
];

/// Whether `idemlint check --config FILE examples/payments-api.yaml` accepts the configuration
/// `yaml`: exit 2 is a broken configuration, 0 or 1 a lint.
fn cli_accepts(yaml: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".idemlint.yaml");
    std::fs::write(&path, yaml).unwrap();
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .args(["check", "--format", "concise", "--config"])
        .arg(&path)
        .arg("examples/payments-api.yaml")
        .output()
        .unwrap();
    match out.status.code() {
        Some(0 | 1) => true,
        Some(2) => false,
        other => panic!(
            "{yaml:?}: exit {other:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// Every row through the loader (the library's, and `check --config` on the command line) and
/// through the schema as an editor's validator reads it: all three agree, and with the table.
#[test]
fn loader_command_line_and_schema_agree_on_every_row() {
    let mut disagreements = Vec::new();
    for (rows, expected) in [(ACCEPTED, true), (REFUSED, false)] {
        for yaml in rows {
            let loader = loader_errors(yaml);
            let schema = schema_errors(yaml);
            let cli = cli_accepts(yaml);
            if loader.is_empty() != expected || schema.is_empty() != expected || cli != expected {
                disagreements.push(format!(
                    "{yaml:?} should be {}: loader {loader:?}, schema {schema:?}, check {}",
                    if expected { "accepted" } else { "refused" },
                    if cli { "accepts" } else { "refuses" }
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// The table has, for every setting the schema describes, a row accepted and a row refused.
#[test]
fn every_setting_has_rows_both_ways() {
    let schema = schema();
    let settings = schema["properties"].as_object().unwrap();
    assert_eq!(settings.len(), 11, "{settings:?}");
    for key in settings.keys() {
        let sets = |yaml: &&str| {
            yaml.starts_with(&format!("{key}:")) || yaml.contains(&format!("\n{key}:"))
        };
        assert!(ACCEPTED.iter().any(sets), "no accepted row sets `{key}`");
        assert!(REFUSED.iter().any(sets), "no refused row sets `{key}`");
    }
}

/// What only the loader can judge, as it reads the text: a glob's syntax, a key set twice. The
/// schema lets these through (a JSON object has no duplicate keys; a glob is any string to
/// it); `check` reports them at their line.
#[test]
fn what_only_the_loader_refuses() {
    for yaml in [
        "exclude: ['legacy/[z']\n",
        "overrides:\n  - files: ['{a,b']\n    rules: {}\n",
        "min-ttl: 1h\nmin-ttl: 2h\n",
        "rules:\n  short-key-ttl: off\n  short-key-ttl: info\n",
    ] {
        assert_ne!(loader_errors(yaml), Vec::<String>::new(), "loader: {yaml}");
        assert!(!cli_accepts(yaml), "check: {yaml}");
        assert_eq!(schema_errors(yaml), Vec::<String>::new(), "schema: {yaml}");
    }
}

/// The schema names what it refuses, as an editor underlines it.
#[test]
fn schema_names_the_unexpected_setting() {
    assert_eq!(
        schema_errors("selct: [missing-idempotency-key]\n"),
        [": Additional properties are not allowed ('selct' was unexpected)"]
    );
}

/// What the loader reads the accepted values as: whole durations, statuses as YAML numbers.
#[test]
fn values_are_read_as_written() {
    let load = |yaml: &str| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".idemlint.yaml");
        std::fs::write(&path, yaml).unwrap();
        Config::load(&idemlint::files::Disk, &path, ".idemlint.yaml", None).unwrap()
    };
    for (ttl, seconds) in [
        ("24h", 86_400),
        ("1 day", 86_400),
        ("90m", 5400),
        ("1d 12h", 129_600),
        ("1h30m", 5400),
        ("1.5 hours", 5400),
        ("3600", 3600),
        ("'3600'", 3600),
        ("3600.0", 3600),
        ("0", 0),
        ("99999999999999999999", u64::MAX),
    ] {
        let config = load(&format!("min-ttl: {ttl}\n"));
        assert_eq!(config.settings.min_ttl_seconds, seconds, "min-ttl: {ttl}");
    }
    for status in ["422", "'422'", "0422", "+422", "422.0", "0x1A6"] {
        let config = load(&format!("mismatch-status: {status}\n"));
        assert_eq!(config.settings.mismatch_status, "422", "{status}");
    }
    // No settings: the profile's.
    for empty in ["", "# nothing yet\n", "~\n", "null\n"] {
        let config = load(empty);
        assert_eq!(config.profile, "ietf");
        assert_eq!(config.settings.min_ttl_seconds, 24 * 3600);
        assert!(config.levels.is_empty() && config.overrides.is_empty());
    }
}

/// The loader says what is wrong with a value of the wrong kind, at its place.
#[test]
fn refusals_say_what_the_value_is() {
    for (yaml, error) in [
        (
            "key-headers: [1, true]\n",
            "1:15: `key-headers` lists words (non-empty strings), not the number 1; quote it \
             ('1') to mean the text",
        ),
        (
            "key-headers: [1, true]\n",
            "1:18: `key-headers` lists words (non-empty strings), not the boolean true; quote \
             it ('true') to mean the text",
        ),
        (
            "mismatch-status: '0422'\n",
            "1:18: `mismatch-status` takes an HTTP status from 100 to 599, like 422, not `0422`",
        ),
        (
            "min-ttl: 1d, 12h\n",
            "1:10: `min-ttl` takes whole seconds or a duration like `24h`, `90m`, `1 day` or \
             `1d 12h`, not `1d, 12h`",
        ),
        (
            "overrides:\n  - files: []\n    rules: {}\n",
            "2:12: `files` needs at least one glob; leave `files` out for every file",
        ),
        (
            "overrides:\n  - files: ''\n    rules: {}\n",
            "2:12: `files` takes glob patterns, e.g. ['legacy/**'], not an empty string",
        ),
        (
            "exclude: ./\n",
            "1:10: `exclude` takes glob patterns, e.g. [legacy/**], not `./`, which matches no \
             file",
        ),
    ] {
        let errors = loader_errors(yaml);
        assert!(errors.iter().any(|e| e == error), "{yaml}: {errors:?}");
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
