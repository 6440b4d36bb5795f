//! `-o FILE` and `--write-baseline FILE` write where the user points without destroying what is
//! there: a regular file is replaced atomically, a symlink is followed, a device, FIFO or socket
//! is written in place, and a directory is an error.

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use assert_cmd::Command;

const BAD: &str = "fixtures/rules/missing-idempotency-key/bad_oas30_post.yaml";

fn idemlint(args: &[&str]) -> std::process::Output {
    let bad = std::fs::canonicalize(BAD).unwrap();
    Command::cargo_bin("idemlint")
        .unwrap()
        .arg("check")
        .arg(bad)
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap()
}

/// The JSON report as the run printed it to stdout, for comparing with what reached a file.
fn expected_report() -> String {
    String::from_utf8(idemlint(&[]).stdout).unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Reads what `read` returns on another thread, waiting at most 20 s: a run that replaced the
/// FIFO or never connected to the socket must fail the test, not hang it.
fn read_on_the_side(read: impl FnOnce() -> String + Send + 'static) -> impl FnOnce() -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(read());
    });
    move || {
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("nothing reached the reader within 20 s")
    }
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_character_device_is_written_in_place_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    // A device node of our own (the null device's numbers), never the system's `/dev/null`: if
    // this broke, a rename would replace the node under test, not the machine's. Making one
    // needs root, which is also when a rename over a device succeeds (CI containers run as
    // root).
    let null = dir.path().join("null");
    let made = std::process::Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !made {
        eprintln!("skipped: mknod needs root");
        return;
    }
    if std::fs::OpenOptions::new().write(true).open(&null).is_err() {
        eprintln!("skipped: the temporary folder does not allow device nodes (nodev)");
        return;
    }
    let shown = null.to_str().unwrap();
    let out = idemlint(&["-o", shown]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(stderr(&out), "");
    let meta = std::fs::metadata(&null).unwrap();
    assert!(
        meta.file_type().is_char_device(),
        "still a device: {meta:?}"
    );
    let baseline = idemlint(&["--write-baseline", shown]);
    assert_eq!(baseline.status.code(), Some(0), "{}", stderr(&baseline));
    assert!(
        std::fs::metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert_eq!(entries(dir.path()), ["null"], "no temporary file is left");
}

/// `-o /dev/stdout` and `-o /proc/self/fd/N` write to what the shell opened, appending: what
/// was written there before stays, as `>>` and a shared `>` expect.
#[test]
fn the_processs_own_descriptors_are_appended_to() {
    let dir = tempfile::tempdir().unwrap();
    let bad = std::fs::canonicalize(BAD).unwrap();
    let binary = env!("CARGO_BIN_EXE_idemlint");
    let shell = |script: &str| {
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(script)
            .env("IDEMLINT", binary)
            .env("SPEC", &bad)
            .current_dir(dir.path())
            .status()
            .unwrap();
        status.code()
    };
    let report = expected_report();
    assert_eq!(
        shell(
            r#"printf 'before\n' > log; exec 3>>log; "$IDEMLINT" check "$SPEC" --format json -o /proc/self/fd/3"#
        ),
        Some(1)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("log")).unwrap(),
        format!("before\n{report}")
    );
    // Standard output is written through its own descriptor: what the shell writes after the
    // report lands after it.
    let around = |target: &str, log: &str| {
        shell(&format!(
            r#"{{ printf 'first\n'; "$IDEMLINT" check "$SPEC" --format json -o {target}; printf 'last\n'; }} > {log}"#
        ))
    };
    assert_eq!(around("/dev/stdout", "log2"), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("log2")).unwrap(),
        format!("first\n{report}last\n")
    );
    // So is a symlink to it, as container images link their log files to /dev/stdout.
    std::os::unix::fs::symlink("/dev/stdout", dir.path().join("app.log")).unwrap();
    assert_eq!(around("app.log", "log3"), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("log3")).unwrap(),
        format!("first\n{report}last\n")
    );
    assert!(
        std::fs::symlink_metadata(dir.path().join("app.log"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(entries(dir.path()), ["app.log", "log", "log2", "log3"]);
}

#[test]
fn the_processs_own_stdout_is_written_in_place() {
    // Under /proc a rename fails instead of replacing, so a regression fails here without
    // harming the machine.
    let out = idemlint(&["-o", "/proc/self/fd/1"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected_report());
}

#[test]
fn a_fifo_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        read_on_the_side(move || {
            let mut text = String::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    let out = idemlint(&["-o", fifo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(reader(), expected_report());
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(entries(dir.path()), ["report.pipe"]);
}

#[test]
fn a_unix_socket_is_connected_to_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.sock");
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let reader = read_on_the_side(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    });
    let out = idemlint(&["-o", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(reader(), expected_report());
    assert!(std::fs::metadata(&path).unwrap().file_type().is_socket());
}

#[test]
fn a_symlink_is_followed_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    let target = dir.path().join("reports/idemlint.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("latest.json");
    std::os::unix::fs::symlink("reports/idemlint.json", &link).unwrap();

    let out = idemlint(&["-o", link.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), expected_report());

    // A baseline through a link whose target does not exist yet creates the target.
    let baseline_link = dir.path().join("baseline.json");
    std::os::unix::fs::symlink("reports/baseline.json", &baseline_link).unwrap();
    let out = idemlint(&["--write-baseline", baseline_link.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(dir.path().join("reports/baseline.json")).unwrap();
    assert!(written.contains("missing-idempotency-key"), "{written}");
    assert!(
        std::fs::symlink_metadata(&baseline_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        entries(dir.path()),
        ["baseline.json", "latest.json", "reports"]
    );
    assert_eq!(
        entries(&dir.path().join("reports")),
        ["baseline.json", "idemlint.json"]
    );
}

#[test]
fn a_directory_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("reports");
    std::fs::create_dir(&target).unwrap();
    let shown = target.to_str().unwrap();
    let out = idemlint(&["-o", shown]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("error: cannot write {shown}: is a directory\n")
    );
    let out = idemlint(&["--write-baseline", shown]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("error: cannot write baseline {shown}: is a directory\n")
    );
    assert!(target.is_dir());
    assert!(entries(&target).is_empty());
    assert_eq!(entries(dir.path()), ["reports"]);
}

#[test]
fn a_regular_file_is_replaced_whole_keeping_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    std::fs::write(
        &path,
        "a longer previous report that must not leave a tail behind",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = idemlint(&["-o", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected_report());
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(entries(dir.path()), ["report.json"]);
}

/// Root replacing a file keeps its owner, so a report written by a root CI step stays the
/// owner's; and a file the user may not write is not replaced (`>` refuses it too).
#[test]
fn a_replaced_file_keeps_its_owner_and_an_unwritable_one_is_refused() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    std::fs::write(&path, "old").unwrap();
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    if root {
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
        let out = idemlint(&["-o", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), expected_report());
        eprintln!("note: running as root, which may write any file; the refusal is not tested");
    } else {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let shown = path.to_str().unwrap();
        let out = idemlint(&["-o", shown]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).starts_with(&format!("error: cannot write {shown}: Permission denied")),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    }
    assert_eq!(entries(dir.path()), ["report.json"]);
}

/// Where a rename is refused though the file may be written, the report is still written, in
/// place, as `>` would: a bind-mounted file (as `docker -v report.json:/report.json` makes) and
/// someone else's writable file in a sticky folder like /tmp. Needs root to set up; skips
/// otherwise.
#[test]
fn a_file_that_cannot_be_renamed_over_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("host.json");
    let mounted = dir.path().join("mounted.json");
    std::fs::write(&source, "a previous report, longer than nothing").unwrap();
    std::fs::write(&mounted, "").unwrap();
    let bound = std::process::Command::new("mount")
        .arg("--bind")
        .args([&source, &mounted])
        .output()
        .is_ok_and(|o| o.status.success());
    if bound {
        let out = idemlint(&["-o", mounted.to_str().unwrap()]);
        let _ = std::process::Command::new("umount").arg(&mounted).status();
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&source).unwrap(), expected_report());
    } else {
        eprintln!("skipped: mount --bind needs root");
    }
    assert_eq!(entries(dir.path()), ["host.json", "mounted.json"]);

    // A sticky, world-writable folder holding root's world-writable file, written by nobody.
    use std::os::unix::fs::PermissionsExt;
    let sticky = dir.path().join("tmp");
    std::fs::create_dir(&sticky).unwrap();
    std::fs::set_permissions(&sticky, std::fs::Permissions::from_mode(0o1777)).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let shared = sticky.join("report.json");
    std::fs::write(&shared, "old").unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o666)).unwrap();
    let bad = std::fs::canonicalize(BAD).unwrap();
    let as_nobody = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_idemlint"))
        .arg("check")
        .arg(&bad)
        .args(["--format", "json", "-o"])
        .arg(&shared)
        .output();
    match as_nobody {
        Ok(out) if out.status.code() != Some(127) && !stderr(&out).contains("setpriv:") => {
            assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
            assert_eq!(std::fs::read_to_string(&shared).unwrap(), expected_report());
            use std::os::unix::fs::MetadataExt;
            assert_eq!(
                std::fs::metadata(&shared).unwrap().uid(),
                0,
                "still root's file"
            );
            assert_eq!(entries(&sticky), ["report.json"]);
        }
        _ => eprintln!("skipped: setpriv cannot run idemlint as another user (needs root)"),
    }
}
