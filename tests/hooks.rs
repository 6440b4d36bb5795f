//! The pre-commit hook of `.pre-commit-hooks.yaml` on an ordinary repository: a Helm chart, a
//! JSONC `tsconfig.json`, a CI workflow, an OpenAPI document and its fragments. Run through
//! pre-commit itself when it is installed (`.ci/run` installs it from PyPI), with the hook's own
//! entry, file types and settings; otherwise the same command on the files pre-commit would pass.

use std::path::Path;
use std::process::Command;

use idemlint::limits::Limits;
use idemlint::source::{Format, Node, SourceFile};

/// The hook as `.pre-commit-hooks.yaml` declares it.
struct Hook {
    entry: String,
    types_or: Vec<String>,
    require_serial: bool,
    pass_filenames: bool,
}

fn hook() -> Hook {
    let text = std::fs::read_to_string(".pre-commit-hooks.yaml").unwrap();
    let file = SourceFile::new(
        ".pre-commit-hooks.yaml".into(),
        ".pre-commit-hooks.yaml".into(),
        text,
        Format::Yaml,
    );
    let root = file.parse(&Limits::default()).unwrap().root;
    let hook = &root.items()[0];
    let text = |k: &str| hook.get(k).and_then(Node::scalar_text).unwrap().to_string();
    Hook {
        entry: text("entry"),
        types_or: hook
            .get("types_or")
            .unwrap()
            .items()
            .iter()
            .filter_map(Node::scalar_text)
            .map(str::to_string)
            .collect(),
        require_serial: text("require_serial") == "true",
        pass_filenames: text("pass_filenames") == "true",
    }
}

const DOCUMENT: &str = "\
openapi: 3.0.3
info: {title: Shop, version: '1', description: Idempotency keys are kept for 24 hours.}
paths:
  /payments:
    $ref: 'paths/payments.yaml'
";

const PAYMENTS_KEYED: &str = "\
post:
  parameters: [{$ref: '../schemas/params.yaml#/Key'}]
  requestBody: {content: {application/json: {schema: {$ref: '../schemas/payment.yaml'}}}}
  responses:
    '201': {description: Created}
    '400': {description: The Idempotency-Key header is missing}
    '409':
      description: A request with this key is in progress
      headers: {Retry-After: {schema: {type: integer}}}
    '422': {description: The key was used with another payload}
";

const PARAMS: &str = "\
Key:
  name: Idempotency-Key
  in: header
  required: true
  description: A client-generated UUID, kept for 24 hours.
  schema: {type: string, format: uuid, maxLength: 64}
";

fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files: &[(&str, &str)] = &[
        ("api/openapi.yaml", DOCUMENT),
        ("api/paths/payments.yaml", PAYMENTS_KEYED),
        ("api/schemas/params.yaml", PARAMS),
        (
            "api/schemas/payment.yaml",
            "type: object\nproperties: {amount: {type: integer}, currency: {type: string}}\n",
        ),
        (
            "chart/templates/deployment.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n  \
             labels:\n    {{- include \"shop.labels\" . | nindent 4 }}\n",
        ),
        (
            "chart/values.yaml",
            "swagger:\n  enabled: true\nreplicas: 2\n",
        ),
        (
            "tsconfig.json",
            "{\n  // editors read comments here\n  \"compilerOptions\": {\"strict\": true,},\n}\n",
        ),
        (
            ".github/workflows/ci.yml",
            "on: [push]\njobs: {test: {runs-on: ubuntu-latest, steps: [{run: make}]}}\n",
        ),
    ];
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "-A"]);
    dir
}

fn pre_commit_available() -> bool {
    Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs the hook on `files` (all staged files when empty) as pre-commit would: exit code and
/// output.
fn run_hook(dir: &Path, files: &[&str]) -> (i32, String) {
    let hook = hook();
    let binary = env!("CARGO_BIN_EXE_idemlint");
    let entry = hook
        .entry
        .strip_prefix("idemlint ")
        .expect("the entry runs idemlint");
    if pre_commit_available() {
        // The repository's hook as a local one: the same entry, types and settings, with the
        // binary under test instead of one pre-commit would build.
        let config = format!(
            "repos:\n  - repo: local\n    hooks:\n      - id: idemlint\n        name: idemlint\n        \
             entry: {binary} {entry}\n        language: system\n        types_or: [{}]\n        \
             pass_filenames: {}\n        require_serial: {}\n",
            hook.types_or.join(", "),
            hook.pass_filenames,
            hook.require_serial
        );
        std::fs::write(dir.join(".pre-commit-config.yaml"), config).unwrap();
        let home = dir.join(".pre-commit-home");
        let mut cmd = Command::new("pre-commit");
        cmd.current_dir(dir)
            .env("PRE_COMMIT_HOME", &home)
            // --verbose shows the hook's output when it passes too, so a test can see what
            // was linted.
            .args(["run", "--color", "never", "--verbose"]);
        if files.is_empty() {
            cmd.arg("--all-files");
        } else {
            cmd.arg("--files").args(files);
        }
        let out = cmd.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        return (out.status.code().unwrap(), text);
    }
    eprintln!("note: pre-commit is not installed; running the hook's command directly");
    let listed = Command::new("git")
        .args(["ls-files"])
        .current_dir(dir)
        .output()
        .unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    let candidates: Vec<&str> = if files.is_empty() {
        listed.lines().collect()
    } else {
        files.to_vec()
    };
    // pre-commit's file types by extension, for the types the hook asks for.
    let wanted = |f: &str| {
        let ext = Path::new(f)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        let kind = match ext {
            "yaml" | "yml" => "yaml",
            "json" => "json",
            _ => "",
        };
        hook.types_or.iter().any(|t| t == kind)
    };
    let chosen: Vec<&str> = candidates.into_iter().filter(|f| wanted(f)).collect();
    let out = Command::new(binary)
        .current_dir(dir)
        .args(entry.split_whitespace())
        .args(&chosen)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap(), text)
}

#[test]
fn the_hook_declares_what_a_repository_needs() {
    let hook = hook();
    assert!(hook.entry.contains("--skip-non-openapi"), "{}", hook.entry);
    assert!(hook.require_serial);
    assert!(hook.pass_filenames);
    assert_eq!(hook.types_or, ["yaml", "json"]);
}

#[test]
fn a_clean_spec_passes_among_helm_charts_and_jsonc() {
    let dir = repository();
    let (code, out) = run_hook(dir.path(), &[]);
    assert_eq!(code, 0, "{out}");
    // The document was linted, once, though its fragments were passed too.
    assert!(
        out.contains("No problems found in 1 file (1 operation)."),
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
    assert!(!out.contains("chart/"), "{out}");
    assert!(!out.contains("tsconfig"), "{out}");
    assert!(!out.contains(".github"), "{out}");
}

#[test]
fn a_changed_fragment_lints_the_document_that_reaches_it() {
    let dir = repository();
    // The operation, which moves money, loses its key: only the fragment changed.
    std::fs::write(
        dir.path().join("api/paths/payments.yaml"),
        PAYMENTS_KEYED.replace(
            "  parameters: [{$ref: '../schemas/params.yaml#/Key'}]\n",
            "",
        ),
    )
    .unwrap();
    let (code, out) = run_hook(dir.path(), &["api/paths/payments.yaml", "tsconfig.json"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("POST /payments moves money (body has `amount` and `currency`) without an idempotency key"),
        "{out}"
    );
    assert!(out.contains("api/paths/payments.yaml:1:1"), "{out}");
    assert!(
        out.contains(
            "api/paths/payments.yaml is a fragment: linted api/openapi.yaml, which reaches it \
             through $ref."
        ),
        "{out}"
    );
    // A fragment that no document reaches, and files that are not OpenAPI: nothing to do.
    std::fs::write(dir.path().join("api/schemas/unused.yaml"), "type: string\n").unwrap();
    let (code, out) = run_hook(
        dir.path(),
        &[
            "api/schemas/unused.yaml",
            "chart/templates/deployment.yaml",
            "chart/values.yaml",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("No problems found in 0 files"), "{out}");
    assert!(!out.contains("error"), "{out}");
    assert!(!out.contains("chart/"), "{out}");
    assert!(!out.contains("unused.yaml"), "{out}");
}
