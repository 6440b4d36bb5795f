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
    lint_at(root, &root.join("api.yaml"), files)
}

/// The document at `spec`, as a command line may spell it (relative, through a link).
fn lint_at(root: &Path, spec: &Path, files: &dyn Files) -> Report {
    let opts = Options {
        root: Some(root.to_path_buf()),
        ..Options::default()
    };
    run_each(
        &[spec.to_path_buf()],
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

    // The same document spelt relative to the working directory, and through a link to the
    // repository's folder.
    let cwd = std::env::current_dir().unwrap();
    let relative = PathBuf::from(idemlint::project::relative_to(&root.join("api.yaml"), &cwd));
    assert!(relative.is_relative(), "{}", relative.display());
    let elsewhere = tempfile::tempdir().unwrap();
    let linked = elsewhere.path().join("link");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&root, &linked).unwrap();
    let spellings: Vec<PathBuf> = if cfg!(unix) {
        vec![relative, linked.join("api.yaml")]
    } else {
        vec![relative]
    };
    let spelt: Vec<Vec<String>> = spellings
        .iter()
        .map(|spec| findings(&lint_at(&root, spec, &Disk)))
        .collect();

    // The work tree moves on: the root, a fragment and the configuration go, another changes.
    std::fs::remove_file(root.join("api.yaml")).unwrap();
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
    for (spec, expected) in spellings.iter().zip(&spelt) {
        let at_head = findings(&lint_at(&root, spec, &head));
        assert_eq!(&at_head, expected, "git revision, {}", spec.display());
    }

    let mut overlay = Overlay::new(Box::new(Disk));
    overlay.set(root.join("api.yaml"), ROOT);
    overlay.set(root.join("components/parameters.yaml"), PARAMETERS);
    overlay.set(root.join("components/schemas.yaml"), SCHEMAS);
    overlay.set(root.join(".idemlint.yaml"), CONFIG);
    assert_eq!(findings(&lint(&root, &overlay)), on_disk, "overlay");

    // Buffers opened through a link to the folder stand in front of the files a `$ref` reaches
    // by the real path.
    #[cfg(unix)]
    {
        let mut overlay = Overlay::new(Box::new(Disk));
        overlay.set(linked.join("api.yaml"), ROOT);
        overlay.set(linked.join("components/parameters.yaml"), PARAMETERS);
        overlay.set(linked.join("components/schemas.yaml"), SCHEMAS);
        overlay.set(linked.join(".idemlint.yaml"), CONFIG);
        let through = findings(&lint_at(&root, &linked.join("api.yaml"), &overlay));
        assert_eq!(through, spelt[1], "overlay through a link");
    }

    // One unsaved buffer, the rest read from the disk below it.
    write(&root, "api.yaml", ROOT);
    write(&root, "components/schemas.yaml", SCHEMAS);
    let mut overlay = Overlay::new(Box::new(Disk));
    overlay.set(root.join("components/schemas.yaml"), "Refund: [\n");
    let report = lint(&root, &overlay);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.rule == "unresolved-ref" && f.message.contains("could not be read")),
        "the unsaved buffer is read: {:#?}",
        findings_unchecked(&report)
    );
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.rule == "missing-idempotency-key"),
        "the root is read from the disk"
    );
}

fn findings_unchecked(report: &Report) -> Vec<String> {
    report
        .findings
        .iter()
        .map(|f| format!("{}:{} [{}] {}", f.file(), f.line, f.rule, f.message))
        .chain(
            report
                .errors
                .iter()
                .map(|e| format!("error {}: {}", e.file, e.message)),
        )
        .collect()
}

#[test]
fn a_git_revision_reads_the_commit_it_names() {
    let Some(dir) = repository() else { return };
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let first = git(&root, &["rev-parse", "HEAD"]).unwrap();
    // (Whatever an older git names the first branch.)
    let main = git(&root, &["rev-parse", "--abbrev-ref", "HEAD"]).unwrap();
    let main = main.trim();
    git(&root, &["checkout", "-q", "-b", "topic"]).unwrap();
    write(
        &root,
        "api.yaml",
        &ROOT.replace("createOrder", "placeOrder"),
    );
    write(&root, "notes.yaml", "a: 1\n");
    git(&root, &["add", "."]).unwrap();
    git(&root, &["commit", "-q", "-m", "rename"]).unwrap();
    git(&root, &["checkout", "-q", main]).unwrap();
    write(&root, "later.yaml", "b: 2\n");
    git(&root, &["add", "."]).unwrap();
    git(&root, &["commit", "-q", "-m", "later"]).unwrap();

    let read = |rev: &str, path: &str| {
        let files = GitRev::open(&root, rev).unwrap();
        String::from_utf8(files.read(&root.join(path)).unwrap()).unwrap()
    };
    assert!(read("topic", "api.yaml").contains("placeOrder"));
    assert!(read(main, "api.yaml").contains("createOrder"));
    assert!(read(first.trim(), "api.yaml").contains("createOrder"));
    // `A...B` is where B left A: the first commit, which has neither later file.
    let base = GitRev::open(&root, &format!("{main}...topic")).unwrap();
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
    let e = GitRev::open(&root, "--output=x").err().unwrap();
    assert!(e.contains("is not a revision"), "{e}");
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

/// Links that lead round in a circle are an error of the path, as on the disk, however they
/// are written: relative, or absolute into the repository.
#[cfg(unix)]
#[test]
fn a_circle_of_links_in_a_commit_is_an_error() {
    let Some(dir) = repository() else { return };
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::os::unix::fs::symlink("b.yaml", root.join("a.yaml")).unwrap();
    std::os::unix::fs::symlink("a.yaml", root.join("b.yaml")).unwrap();
    std::os::unix::fs::symlink(root.join("d.yaml"), root.join("c.yaml")).unwrap();
    std::os::unix::fs::symlink(root.join("c.yaml"), root.join("d.yaml")).unwrap();
    std::os::unix::fs::symlink(root.join("e.yaml"), root.join("e.yaml")).unwrap();
    git(&root, &["add", "."]).unwrap();
    git(&root, &["commit", "-q", "-m", "circles"]).unwrap();
    let files = GitRev::open(&root, "HEAD").unwrap();
    for name in ["a.yaml", "c.yaml", "e.yaml"] {
        let e = files.metadata(&root.join(name)).unwrap_err();
        assert!(e.to_string().contains("too many levels"), "{name}: {e}");
        assert!(files.read(&root.join(name)).is_err(), "{name}");
    }
    // And a document whose `$ref` goes round is linted, the `$ref` reported.
    write(
        &root,
        "api.yaml",
        &ROOT.replace("components/schemas.yaml", "c.yaml"),
    );
    git(&root, &["commit", "-q", "-am", "into the circle"]).unwrap();
    let files = GitRev::open(&root, "HEAD").unwrap();
    let report = lint(&root, &files);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.rule == "unresolved-ref" && f.message.contains("c.yaml")),
        "{:#?}",
        findings_unchecked(&report)
    );
}

/// `..` after a link is the link's parent on the disk, as the shell and the kernel read it.
#[cfg(unix)]
#[test]
fn dot_dot_after_a_link_is_read_as_the_disk_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let top = std::fs::canonicalize(dir.path()).unwrap();
    write(&top, "releases/v2/keep", "");
    write(&top, "releases/common.yaml", ROOT);
    std::os::unix::fs::symlink("releases/v2", top.join("current")).unwrap();
    let report = lint_at(&top, &top.join("current/../common.yaml"), &Disk);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.source.path == top.join("releases/common.yaml")),
        "{:#?}",
        findings_unchecked(&report)
    );
}

/// A revision read through a link to the repository's folder: the work tree's own links
/// inside the repository are not the commit's.
#[cfg(unix)]
#[test]
fn a_revision_through_a_linked_top_ignores_the_work_trees_links() {
    let Some(dir) = repository() else { return };
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let linked = elsewhere.path().join("link");
    std::os::unix::fs::symlink(&root, &linked).unwrap();
    // In the work tree, `components` becomes a link to a folder holding other texts.
    std::fs::rename(root.join("components"), root.join("v2")).unwrap();
    std::os::unix::fs::symlink("v2", root.join("components")).unwrap();
    write(&root, "v2/schemas.yaml", "changed: true\n");
    let head = GitRev::open(&root, "HEAD").unwrap();
    for spelt in [&root, &linked] {
        let text = head.read(&spelt.join("components/schemas.yaml")).unwrap();
        assert_eq!(text, SCHEMAS.as_bytes(), "{}", spelt.display());
        assert!(!head.is_symlink(&spelt.join("components")).unwrap());
    }
}

/// A buffer is found by any spelling of its folder, and dropped by any.
#[cfg(unix)]
#[test]
fn a_buffer_is_found_and_dropped_by_any_spelling_of_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let top = std::fs::canonicalize(dir.path()).unwrap();
    write(&top, "real/api.yaml", "on: disk\n");
    std::os::unix::fs::symlink("real", top.join("link")).unwrap();
    let mut overlay = Overlay::new(Box::new(Disk));
    overlay.set(top.join("real/api.yaml"), "in: buffer\n");
    // Not saved yet, in a folder that is not on the disk yet.
    overlay.set(top.join("link/new/draft.yaml"), "draft: 1\n");
    for (path, text) in [
        ("link/api.yaml", "in: buffer\n"),
        ("real/api.yaml", "in: buffer\n"),
        ("real/new/draft.yaml", "draft: 1\n"),
        ("link/new/draft.yaml", "draft: 1\n"),
    ] {
        assert_eq!(
            overlay.read(&top.join(path)).unwrap(),
            text.as_bytes(),
            "{path}"
        );
    }
    assert_eq!(
        overlay
            .canonicalize(&top.join("link/new/draft.yaml"))
            .unwrap(),
        top.join("real/new/draft.yaml")
    );
    overlay.remove(&top.join("link/api.yaml"));
    assert_eq!(
        overlay.read(&top.join("real/api.yaml")).unwrap(),
        b"on: disk\n"
    );
    overlay.remove(&top.join("real/new/draft.yaml"));
    assert!(overlay.read(&top.join("link/new/draft.yaml")).is_err());
}

/// A folder named at a revision is the commit's: its files as they were, none added since,
/// and the ones deleted since still there.
#[test]
fn a_folder_at_a_revision_holds_the_commits_files() {
    let Some(dir) = repository() else { return };
    let root = std::fs::canonicalize(dir.path()).unwrap();
    write(&root, "specs/old.yaml", ROOT);
    write(&root, "specs/.hidden/skip.yaml", ROOT);
    git(&root, &["add", "."]).unwrap();
    git(&root, &["commit", "-q", "-m", "specs"]).unwrap();
    let head = GitRev::open(&root, "HEAD").unwrap();
    std::fs::remove_file(root.join("specs/old.yaml")).unwrap();
    write(&root, "specs/new.yaml", ROOT);
    let documents = |files: &dyn Files| {
        let report = lint_at(&root, &root.join("specs"), files);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        report
            .documents
            .iter()
            .map(|d| d.file.rsplit('/').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(documents(&head), ["old.yaml"]);
    assert_eq!(documents(&Disk), ["new.yaml"]);
}
