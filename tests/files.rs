//! One engine, three sources of files: the same document read from the disk, from editor buffers
//! over the disk, and from a commit of a real git repository gives the same findings, whatever
//! the disk holds by then.

use std::path::{Path, PathBuf};
use std::process::Command;

use idemlint::files::{Disk, Files, GitRev, Overlay};
use idemlint::lint::{Options, run_each};
use idemlint::report::Report;

const ROOT: &str = "\
openapi: 3.0.3
info: {title: Orders, version: '1'}
paths:
  /orders:
    post:
      operationId: createOrder
      parameters:
        - $ref: 'components/parameters.yaml#/IdempotencyKey'
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {amount: {type: integer}}}
      responses:
        '201': {description: created}
  /refunds:
    post:
      operationId: createRefund
      requestBody:
        content:
          application/json:
            schema: {$ref: 'components/schemas.yaml#/Refund'}
      responses:
        '201': {description: created}
  /orders/{id}:
    patch:
      operationId: updateOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {note: {type: string}}}
      responses:
        '200': {description: updated}
";

const PARAMETERS: &str = "\
IdempotencyKey:
  name: Idempotency-Key
  in: header
  required: false
  schema: {type: string}
";

const SCHEMAS: &str = "\
Refund:
  type: object
  properties:
    amount: {type: integer}
    currency: {type: string}
";

/// The configuration is read through the same files: it raises a rule, which the findings show.
const CONFIG: &str = "\
rules:
  idempotency-key-schema: error
";

/// Every finding as a user sees it, file by file, with its fingerprint.
fn findings(report: &Report) -> Vec<String> {
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    report
        .findings
        .iter()
        .map(|f| {
            format!(
                "{}:{}:{}: {:?}[{}] {} ({})",
                f.file(),
                f.line,
                f.column,
                f.severity,
                f.rule,
                f.message,
                f.fingerprint
            )
        })
        .collect()
}

fn lint(root: &Path, files: &dyn Files) -> Report {
    let opts = Options {
        root: Some(root.to_path_buf()),
        ..Options::default()
    };
    run_each(
        &[root.join("api.yaml")],
        &opts,
        files,
        || panic!("no stdin"),
        &|_| (),
    )
    .0
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=idemlint",
            "-c",
            "user.email=idemlint@example.com",
        ])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).unwrap())
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// A repository holding the spec in one commit; `None` (the test skips) when git cannot run.
fn repository() -> Option<tempfile::TempDir> {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("skipped: git is not installed");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"])?;
    write(dir.path(), "api.yaml", ROOT);
    write(dir.path(), "components/parameters.yaml", PARAMETERS);
    write(dir.path(), "components/schemas.yaml", SCHEMAS);
    write(dir.path(), ".idemlint.yaml", CONFIG);
    git(dir.path(), &["add", "."])?;
    git(dir.path(), &["commit", "-q", "-m", "spec"])?;
    Some(dir)
}

#[test]
fn disk_overlay_and_git_revision_give_the_same_findings() {
    let Some(dir) = repository() else { return };
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let on_disk = findings(&lint(&root, &Disk));
    // Every rule file and the raised level take part.
    for expected in [
        "[missing-idempotency-key]",
        "[idempotency-key-optional]",
        "Error[idempotency-key-schema]",
    ] {
        assert!(
            on_disk.iter().any(|f| f.contains(expected)),
            "no {expected} in {on_disk:#?}"
        );
    }
    assert!(
        on_disk
            .iter()
            .any(|f| f.contains("/components/parameters.yaml:")),
        "a finding in the `$ref`d file: {on_disk:#?}"
    );

    // The work tree moves on: the root changes, a fragment and the configuration go.
    write(
        &root,
        "api.yaml",
        &ROOT.replace("createRefund", "makeRefund"),
    );
    std::fs::remove_file(root.join("components/parameters.yaml")).unwrap();
    std::fs::remove_file(root.join(".idemlint.yaml")).unwrap();
    write(&root, "components/schemas.yaml", "Refund: {type: string}\n");
    let moved = lint(&root, &Disk);
    assert_ne!(
        moved.findings.len() + moved.errors.len(),
        on_disk.len(),
        "the changed work tree lints differently"
    );

    let head = GitRev::open(&root, "HEAD").expect("HEAD is a commit");
    assert_eq!(findings(&lint(&root, &head)), on_disk, "git revision");

    let mut overlay = Overlay::new(Box::new(Disk));
    overlay.set(root.join("api.yaml"), ROOT);
    overlay.set(root.join("components/parameters.yaml"), PARAMETERS);
    overlay.set(root.join("components/schemas.yaml"), SCHEMAS);
    overlay.set(root.join(".idemlint.yaml"), CONFIG);
    assert_eq!(findings(&lint(&root, &overlay)), on_disk, "overlay");
}

#[test]
fn a_git_revision_reads_the_commit_it_names() {
    let Some(dir) = repository() else { return };
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let first = git(&root, &["rev-parse", "HEAD"]).unwrap();
    git(&root, &["checkout", "-q", "-b", "topic"]).unwrap();
    write(
        &root,
        "api.yaml",
        &ROOT.replace("createOrder", "placeOrder"),
    );
    write(&root, "notes.yaml", "a: 1\n");
    git(&root, &["add", "."]).unwrap();
    git(&root, &["commit", "-q", "-m", "rename"]).unwrap();
    git(&root, &["checkout", "-q", "main"]).unwrap();
    write(&root, "later.yaml", "b: 2\n");
    git(&root, &["add", "."]).unwrap();
    git(&root, &["commit", "-q", "-m", "later"]).unwrap();

    let read = |rev: &str, path: &str| {
        let files = GitRev::open(&root, rev).unwrap();
        String::from_utf8(files.read(&root.join(path)).unwrap()).unwrap()
    };
    assert!(read("topic", "api.yaml").contains("placeOrder"));
    assert!(read("main", "api.yaml").contains("createOrder"));
    assert!(read(first.trim(), "api.yaml").contains("createOrder"));
    // `A...B` is where B left A: the first commit, which has neither later file.
    let base = GitRev::open(&root, "main...topic").unwrap();
    assert_eq!(base.commit(), first.trim());
    for missing in ["notes.yaml", "later.yaml"] {
        let e = base.metadata(&root.join(missing)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{missing}");
    }
    assert!(base.metadata(&root.join("components")).unwrap().is_dir());
    assert_eq!(
        base.metadata(&root.join("components/schemas.yaml"))
            .unwrap()
            .len,
        SCHEMAS.len() as u64
    );
    // A path outside the repository is not the commit's: it reads from the disk.
    let outside = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(outside.path(), "outside").unwrap();
    assert_eq!(base.read(outside.path()).unwrap(), b"outside");

    let e = GitRev::open(&root, "no-such-branch").err().unwrap();
    assert!(e.contains("`no-such-branch` is not a commit"), "{e}");
}

#[cfg(unix)]
#[test]
fn links_in_a_commit_are_followed_within_it() {
    let Some(dir) = repository() else { return };
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::os::unix::fs::symlink("components", root.join("shared")).unwrap();
    std::os::unix::fs::symlink("schemas.yaml", root.join("components/alias.yaml")).unwrap();
    git(&root, &["add", "."]).unwrap();
    git(&root, &["commit", "-q", "-m", "links"]).unwrap();
    let files = GitRev::open(&root, "HEAD").unwrap();
    // Changed on disk afterwards: the commit's text is read, through both links.
    std::fs::write(root.join("components/schemas.yaml"), "changed").unwrap();
    let through = root.join("shared/alias.yaml");
    assert!(files.is_symlink(&root.join("shared")).unwrap());
    assert!(!files.is_symlink(&root.join("api.yaml")).unwrap());
    assert_eq!(
        files.canonicalize(&through).unwrap(),
        root.join("components/schemas.yaml")
    );
    assert_eq!(files.read(&through).unwrap(), SCHEMAS.as_bytes());
}
