//! The ways to install idemlint without a Rust toolchain, each run as a user would and compared
//! byte for byte with the binary cargo built for this test run:
//!
//! - the PyPI wheel (`dist/build-wheel.sh`, which `.ci/run` runs before the tests: a release
//!   compile here would not fit CI's time) installed with pip into a fresh virtualenv;
//! - the npm packages (`dist/build-npm.sh` around the binary under test) installed from their
//!   tarballs, offline, and run with `npx`;
//! - the GitHub Action's script (`dist/action/run.sh`) with the runner's files in a temporary
//!   folder;
//! - the pre-commit hook of README's "Install" that installs the wheel (`language: python`);
//! - the release workflow's platforms against the npm packages'.
//!
//! A test whose tool (Python, npm, pre-commit, git) or built wheel is missing says so and skips.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Instant;

use idemlint::limits::Limits;
use idemlint::source::{Format, Node, SourceFile};

const VERSION: &str = env!("CARGO_PKG_VERSION");
const EXAMPLE: &str = "examples/payments-api.yaml";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_idemlint")
}

fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a user sees of a run: exit code, standard output and standard error, all compared.
fn assert_same_run(what: &str, got: &Output, want: &Output) {
    assert_eq!(
        got.status.code(),
        want.status.code(),
        "{what}: exit code\n{}{}",
        text(&got.stdout),
        text(&got.stderr)
    );
    assert_eq!(
        text(&got.stdout),
        text(&want.stdout),
        "{what}: standard output"
    );
    assert_eq!(
        text(&got.stderr),
        text(&want.stderr),
        "{what}: standard error"
    );
}

/// The binary cargo built, run in `dir` with `args`.
fn cargo_built(dir: &Path, args: &[&str]) -> Output {
    run(Command::new(binary()).current_dir(dir).args(args))
}

/// A parsed YAML file of the repository, through idemlint's own loader (as tests/hooks.rs).
fn yaml(path: &str) -> Node {
    let text = std::fs::read_to_string(repo().join(path)).unwrap();
    let file = SourceFile::new(path.into(), path.into(), text, Format::Yaml);
    file.parse(&Limits::default())
        .unwrap_or_else(|e| panic!("{path}: {e:?}"))
        .root
}

fn scalar(node: &Node, key: &str) -> String {
    node.get(key)
        .and_then(Node::scalar_text)
        .unwrap_or_else(|| panic!("no scalar `{key}`"))
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// PyPI wheel

/// The wheel `dist/build-wheel.sh` built for this version, if there is one.
fn wheel() -> Option<PathBuf> {
    let dir = repo().join("dist/wheels");
    let prefix = format!("idemlint-{VERSION}-");
    let found = std::fs::read_dir(&dir).ok().and_then(|entries| {
        entries.filter_map(Result::ok).map(|e| e.path()).find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".whl"))
        })
    });
    if found.is_none() {
        eprintln!(
            "skipped: no idemlint-{VERSION} wheel in dist/wheels (dist/build-wheel.sh builds it; \
             .ci/run does before the tests)"
        );
    }
    found
}

/// Debian's python3 has `venv` without `ensurepip` (python3-venv adds it), and then cannot make
/// a virtualenv with pip in it.
fn python_venv_available() -> bool {
    if works("python3", &["-c", "import venv, ensurepip"]) {
        return true;
    }
    eprintln!("skipped: no python3 with the venv and ensurepip modules (Debian: python3-venv)");
    false
}

fn git_available() -> bool {
    if works("git", &["--version"]) {
        return true;
    }
    eprintln!("skipped: no git");
    false
}

#[test]
fn the_wheel_installs_into_a_fresh_virtualenv_and_checks_the_example_as_cargo_does() {
    let Some(wheel) = wheel() else { return };
    if !python_venv_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let venv = tmp.path().join("venv");
    let out = run(Command::new("python3").args(["-m", "venv"]).arg(&venv));
    assert!(out.status.success(), "{out:?}");

    // Only the wheel, from its file: no index is asked (`--no-index`), nothing else comes.
    let start = Instant::now();
    let out = run(Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--no-index",
            "--disable-pip-version-check",
            "--quiet",
        ])
        .arg(&wheel));
    let took = start.elapsed();
    assert!(out.status.success(), "pip install: {out:?}");
    eprintln!("pip install of {} took {took:.2?}", wheel.display());
    // The wheel carries the license, as PyPI packages should.
    let listing = run(Command::new("python3")
        .args(["-m", "zipfile", "-l"])
        .arg(&wheel));
    assert!(
        text(&listing.stdout).contains(&format!("idemlint-{VERSION}.dist-info/licenses/LICENSE")),
        "{}",
        text(&listing.stdout)
    );
    // The aim is under 10 s; the bound leaves room for a loaded CI machine so the test is not
    // flaky, and still catches an install that compiles (minutes).
    assert!(took.as_secs() < 60, "pip install took {took:?}");

    // The script pip put on the venv's PATH is the binary itself, not a Python wrapper.
    let installed = venv.join("bin/idemlint");
    let installed = installed.to_str().unwrap();
    let version = run(Command::new(installed).arg("--version"));
    assert_eq!(text(&version.stdout), format!("idemlint {VERSION}\n"));
    assert_same_run("--version", &version, &cargo_built(repo(), &["--version"]));
    let check = run(Command::new(installed)
        .current_dir(repo())
        .args(["check", EXAMPLE]));
    assert_eq!(check.status.code(), Some(1), "{check:?}");
    assert_same_run(
        "check of the example (a wheel built from older sources differs: dist/build-wheel.sh)",
        &check,
        &cargo_built(repo(), &["check", EXAMPLE]),
    );
}

/// `pipx run idemlint` and `uvx idemlint` of README's "Install": each makes a throwaway
/// environment, installs the wheel and runs it. Here the wheel is named by its file (`--spec`,
/// `--from`) and nothing asks an index, so the test is offline and runs this build.
fn run_with_tool(tool: &str) {
    let Some(wheel) = wheel() else { return };
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join(tool))
        .find(|p| p.is_file());
    let Some(program) = found else {
        eprintln!("skipped: {tool} is not installed (.ci/run installs it from PyPI)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path();
    let command = |args: &[&str]| {
        let mut cmd = Command::new(&program);
        cmd.current_dir(repo())
            // Their homes and caches in the temporary folder: nothing is reused or left behind.
            .env("PIPX_HOME", home.join("pipx"))
            .env("PIPX_BIN_DIR", home.join("bin"))
            .env("UV_CACHE_DIR", home.join("uv-cache"))
            .env("UV_TOOL_DIR", home.join("uv-tools"))
            .env("PIP_NO_INDEX", "1")
            .env("UV_OFFLINE", "1");
        if tool == "pipx" {
            cmd.args(["run", "--spec"]).arg(&wheel).arg("idemlint");
        } else {
            cmd.arg("--from").arg(&wheel).arg("idemlint");
        }
        run(cmd.args(args))
    };
    let start = Instant::now();
    let version = command(&["--version"]);
    eprintln!(
        "{tool} idemlint --version (first run) took {:.2?}",
        start.elapsed()
    );
    assert_eq!(
        text(&version.stdout),
        format!("idemlint {VERSION}\n"),
        "{tool}: {version:?}"
    );
    let check = command(&["check", EXAMPLE]);
    let want = cargo_built(repo(), &["check", EXAMPLE]);
    // The tools say what they set up on standard error; what idemlint says is all of stdout.
    assert_eq!(check.status.code(), want.status.code(), "{tool}: {check:?}");
    assert_eq!(
        text(&check.stdout),
        text(&want.stdout),
        "{tool}: standard output"
    );
    // A usage error: what idemlint writes on stderr reaches it (after what the tool wrote).
    let missing = command(&["check", "--format", "nope", EXAMPLE]);
    let want = cargo_built(repo(), &["check", "--format", "nope", EXAMPLE]);
    assert_eq!(want.status.code(), Some(2));
    assert_eq!(missing.status.code(), Some(2), "{tool}: {missing:?}");
    assert!(!text(&want.stderr).is_empty());
    assert!(
        text(&missing.stderr).ends_with(&text(&want.stderr)),
        "{tool}: standard error\n{}",
        text(&missing.stderr)
    );
}

#[test]
fn pipx_run_installs_the_wheel_and_checks_the_example_as_cargo_does() {
    run_with_tool("pipx");
}

#[test]
fn uvx_installs_the_wheel_and_checks_the_example_as_cargo_does() {
    run_with_tool("uvx");
}

// ---------------------------------------------------------------------------------------------
// npm

/// npm and node, on a platform the npm package has a binary for.
fn npm_available() -> bool {
    if !(works("npm", &["--version"]) && works("node", &["--version"])) {
        eprintln!("skipped: no npm and node");
        return false;
    }
    let platform = node_platform();
    let package = std::fs::read_to_string(repo().join("npm/idemlint/package.json")).unwrap();
    if !package.contains(&format!("\"@idemlint/cli-{platform}\"")) {
        eprintln!("skipped: the npm package has no binary for this platform, {platform}");
        return false;
    }
    true
}

/// Node's platform and architecture, with `-musl` on a musl Linux (the npm package's names).
fn node_platform() -> String {
    let out = run(Command::new("node").args([
        "-p",
        "const musl = process.platform === 'linux' && \
         !process.report.getReport().header.glibcVersionRuntime; \
         `${process.platform}-${process.arch}${musl ? '-musl' : ''}`",
    ]));
    text(&out.stdout).trim().to_string()
}

/// A folder of this test process under the target's temporary folder, named `prefix-<pid>`:
/// two `cargo test` runs at once do not share it. Those of earlier runs are removed once they
/// are a day old (no run of these tests takes that long).
fn process_dir(prefix: &str) -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for entry in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let ours = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix)?.strip_prefix('-'))
            .is_some_and(|pid| pid.parse::<u32>().is_ok());
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 24 * 3600);
        if ours && old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = tmp.join(format!("{prefix}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary under test without its debug info (200 MB and more), which would make `npm pack`
/// and `npm install` slow; it runs the same. Made once, in `dir`.
fn stripped_binary(dir: &Path) -> PathBuf {
    let copy = dir.join("idemlint");
    if !copy.exists() {
        let part = dir.join("idemlint.part");
        std::fs::copy(binary(), &part).unwrap();
        if !works("strip", &["--strip-debug", part.to_str().unwrap()]) {
            eprintln!("note: no `strip`: the npm packages hold the binary with its debug info");
        }
        std::fs::rename(&part, &copy).unwrap();
    }
    copy
}

/// `dist/build-npm.sh --binary BINARY --out OUT` and `extra` arguments, run from `dir`.
fn build_npm(dir: &Path, binary: &Path, out: &Path, extra: &[&str]) -> Output {
    run(Command::new("bash")
        .current_dir(dir)
        .arg(repo().join("dist/build-npm.sh"))
        .arg("--binary")
        .arg(binary)
        .arg("--out")
        .arg(out)
        .args(extra))
}

/// `dist/build-npm.sh` around the binary under test: the two tarballs, built once for the tests
/// of this file. Its paths are given relative to the folder it is run from, as a user would.
fn npm_tarballs() -> &'static (PathBuf, PathBuf) {
    static TARBALLS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    TARBALLS.get_or_init(|| {
        let dir = process_dir("npm-packages");
        stripped_binary(&dir);
        let out = dir.join("out");
        let built = build_npm(&dir, Path::new("idemlint"), Path::new("out"), &[]);
        assert!(built.status.success(), "dist/build-npm.sh: {built:?}");
        let platform = node_platform();
        (
            out.join(format!("idemlint-{VERSION}.tgz")),
            out.join(format!("idemlint-cli-{platform}-{VERSION}.tgz")),
        )
    })
}

/// A new npm project in `dir` with `tarballs` installed, offline: an empty cache of its own, so
/// nothing can come from the registry or from what an earlier install left.
fn npm_install(dir: &Path, tarballs: &[&Path]) -> std::time::Duration {
    std::fs::write(dir.join("package.json"), "{\"private\": true}\n").unwrap();
    let start = Instant::now();
    let out = run(Command::new("npm")
        .current_dir(dir)
        .args(["install", "--offline", "--no-audit", "--no-fund"])
        .arg("--cache")
        .arg(dir.join(".npm-cache"))
        .args(tarballs));
    let took = start.elapsed();
    assert!(out.status.success(), "npm install: {out:?}");
    took
}

fn npx(dir: &Path, args: &[&str]) -> Output {
    run(Command::new("npx")
        .current_dir(dir)
        .args(["--offline", "idemlint"])
        .args(args))
}

#[test]
fn npx_runs_the_platform_package_binary_with_the_same_output_and_exit_code() {
    if !npm_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (main, platform) = npm_tarballs();
    let project = tmp.path().join("project");
    std::fs::create_dir_all(project.join("examples")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), project.join(EXAMPLE)).unwrap();

    // Both tarballs in one install: the main package's optional dependency on this platform's
    // package is met by the tarball; the other platforms' are skipped, as on a user's machine.
    let took = npm_install(&project, &[main.as_path(), platform.as_path()]);
    eprintln!("npm install of the two tarballs took {took:.2?}");

    let start = Instant::now();
    let version = npx(&project, &["--version"]);
    eprintln!("npx idemlint --version took {:.2?}", start.elapsed());
    assert_eq!(text(&version.stdout), format!("idemlint {VERSION}\n"));
    assert_same_run(
        "--version",
        &version,
        &cargo_built(&project, &["--version"]),
    );

    let check = npx(&project, &["check", EXAMPLE]);
    assert_eq!(check.status.code(), Some(1), "{check:?}");
    assert_same_run(
        "check of the example",
        &check,
        &cargo_built(&project, &["check", EXAMPLE]),
    );
    // Exit code 0 passes through as well as 1.
    let passing = npx(&project, &["check", EXAMPLE, "--fail-on", "never", "-q"]);
    assert_same_run(
        "--fail-on never",
        &passing,
        &cargo_built(&project, &["check", EXAMPLE, "--fail-on", "never", "-q"]),
    );
    assert_eq!(passing.status.code(), Some(0));
}

/// A script for `node --require` that makes Node's report say the machine runs on musl (no
/// glibc version) or on glibc, which is how the launcher tells them apart.
fn libc_preload(dir: &Path, musl: bool) -> PathBuf {
    let (name, change) = if musl {
        ("musl.js", "delete r.header.glibcVersionRuntime;")
    } else {
        ("glibc.js", "r.header.glibcVersionRuntime = '2.36';")
    };
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "const real = process.report.getReport.bind(process.report);\n\
             process.report.getReport = () => {{ const r = real(); {change} return r; }};\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn npx_without_the_platform_package_says_which_to_install() {
    if !npm_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (main, _) = npm_tarballs();
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    // The main package alone, as `npm install --omit=optional` leaves it.
    npm_install(&project, &[main.as_path()]);
    let out = npx(&project, &["--version"]);
    let platform = node_platform();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        format!(
            "idemlint: the package @idemlint/cli-{platform}, which holds the binary for \
             {platform}, is not installed; optional dependencies may have been left out \
             (`--omit=optional`, `--no-optional`): install it with `npm install \
             @idemlint/cli-{platform}`\n"
        )
    );

    // On musl (Alpine), where npm installs the musl build's package instead: Node's report,
    // made here to name no glibc, is how the launcher tells which package to name.
    if platform.starts_with("linux-") && !platform.ends_with("-musl") {
        let fake = libc_preload(&project, true);
        let out = run(Command::new("node")
            .arg("--require")
            .arg(&fake)
            .arg(project.join("node_modules/idemlint/bin/idemlint.js"))
            .arg("--version"));
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "idemlint: the package @idemlint/cli-{platform}-musl, which holds the binary \
                 for {platform}-musl, is not installed; optional dependencies may have been left \
                 out (`--omit=optional`, `--no-optional`): install it with `npm install \
                 @idemlint/cli-{platform}-musl`\n"
            )
        );
    }
}

/// Where both Linux builds are installed (npm before 11.11 kept no `libc` in its lock file,
/// yarn 1 ignores it), the launcher runs the one of the machine's C library. Here each
/// package's "binary" is a script that names its build, and Node's report is made to say musl.
#[cfg(unix)]
#[test]
fn the_npm_launcher_picks_the_build_of_the_machines_c_library() {
    use std::os::unix::fs::PermissionsExt;
    if !works("node", &["--version"]) {
        eprintln!("skipped: no node");
        return;
    }
    let platform = node_platform();
    let Some(base) = platform
        .strip_suffix("-musl")
        .or(Some(platform.as_str()))
        .filter(|p| p.starts_with("linux-"))
    else {
        eprintln!("skipped: not Linux ({platform})");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let modules = tmp.path().join("node_modules");
    let launcher = modules.join("idemlint/bin/idemlint.js");
    std::fs::create_dir_all(launcher.parent().unwrap()).unwrap();
    std::fs::copy(repo().join("npm/idemlint/bin/idemlint.js"), &launcher).unwrap();
    for build in [base.to_string(), format!("{base}-musl")] {
        let bin = modules.join(format!("@idemlint/cli-{build}/bin"));
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(
            bin.parent().unwrap().join("package.json"),
            format!("{{\"name\": \"@idemlint/cli-{build}\", \"version\": \"{VERSION}\"}}\n"),
        )
        .unwrap();
        let script = bin.join("idemlint");
        std::fs::write(&script, format!("#!/bin/sh\necho {build} \"$@\"\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let musl = libc_preload(tmp.path(), true);
    let glibc = libc_preload(tmp.path(), false);
    for (preload, build) in [(&glibc, base.to_string()), (&musl, format!("{base}-musl"))] {
        let out = run(Command::new("node")
            .arg("--require")
            .arg(preload)
            .arg(&launcher)
            .arg("--version"));
        assert_eq!(text(&out.stdout), format!("{build} --version\n"), "{out:?}");
        assert_eq!(out.status.code(), Some(0));
    }
    // Only the glibc build, on musl (node_modules copied from a Debian build stage): it cannot
    // start there, and the message names the package to install. Here the script is made to
    // fail as such a binary does, with a loader that does not exist.
    std::fs::remove_dir_all(modules.join(format!("@idemlint/cli-{base}-musl"))).unwrap();
    std::fs::write(
        modules.join(format!("@idemlint/cli-{base}/bin/idemlint")),
        "#!/nonexistent/ld-linux.so\n",
    )
    .unwrap();
    let out = run(Command::new("node")
        .arg("--require")
        .arg(&musl)
        .arg(&launcher)
        .arg("--version"));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        text(&out.stderr),
        format!(
            "idemlint: could not run {}: it is the build for another C library than this \
             machine's (glibc or musl); install `@idemlint/cli-{base}-musl` instead\n",
            modules
                .join(format!("@idemlint/cli-{base}/bin/idemlint"))
                .display()
        )
    );
}

/// The children of process `pid`, from /proc.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|child| {
            // `pid (name) state ppid ...`: the name may hold spaces, so read after its `)`.
            std::fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(") ")
                    .and_then(|(_, rest)| rest.split(' ').nth(1)?.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

/// The npm packages installed in `dir` and the launcher started on `idemlint lsp`, which waits
/// on its standard input (kept open): a process to send signals to.
#[cfg(target_os = "linux")]
fn launcher_running_lsp(dir: &Path) -> std::process::Child {
    use std::process::Stdio;
    let (main, platform) = npm_tarballs();
    npm_install(dir, &[main.as_path(), platform.as_path()]);
    Command::new("node")
        .arg(dir.join("node_modules/idemlint/bin/idemlint.js"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap()
}

/// The binary the launcher started, once it has.
#[cfg(target_os = "linux")]
fn binary_of(launcher: &mut std::process::Child) -> i32 {
    let start = Instant::now();
    loop {
        if let [child] = children(launcher.id())[..] {
            return child;
        }
        if start.elapsed().as_secs() >= 20 {
            let _ = launcher.kill();
            let status = launcher.wait();
            panic!("the launcher started no binary: {status:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A binary killed by a signal makes the launcher die of the same signal, as the binary run
/// directly would (a shell prints the same, `$?` is the same 128 + N).
#[cfg(target_os = "linux")]
#[test]
fn the_npm_launcher_dies_of_the_signal_that_killed_the_binary() {
    use std::os::unix::process::ExitStatusExt;
    if !npm_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut launcher = launcher_running_lsp(tmp.path());
    let binary = binary_of(&mut launcher);
    assert_eq!(unsafe { libc::kill(binary, libc::SIGTERM) }, 0);
    let status = launcher.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}

/// A signal sent to the launcher (a CI runner cancelling the job, `kill`) goes on to the binary,
/// which ends of it; the launcher waits for that and dies of the same signal, leaving nothing
/// running.
#[cfg(target_os = "linux")]
#[test]
fn the_npm_launcher_passes_a_signal_it_gets_on_to_the_binary() {
    use std::os::unix::process::ExitStatusExt;
    if !npm_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut launcher = launcher_running_lsp(tmp.path());
    let binary = binary_of(&mut launcher);
    // Node sets its signal handlers up as it starts the script: give it a moment past the spawn.
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        unsafe { libc::kill(launcher.id() as i32, libc::SIGTERM) },
        0
    );
    // Keep the binary's standard input open past `wait` (which would close it): at its end the
    // binary stops on its own, which would hide a signal that never reached it.
    let stdin = launcher.stdin.take();
    let status = launcher.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
    // The binary is gone too (not a zombie left to init, not still running).
    let start = Instant::now();
    while std::path::Path::new(&format!("/proc/{binary}")).exists()
        && std::fs::read_to_string(format!("/proc/{binary}/stat"))
            .is_ok_and(|stat| !stat.contains(") Z "))
    {
        assert!(
            start.elapsed().as_secs() < 10,
            "the binary {binary} still runs after the launcher ended"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    drop(stdin);
}

/// What the release publishes besides the binary: the license in both packages, `libc` on the
/// Linux package (npm leaves it out on musl, where a glibc binary cannot start), and the
/// repository npm's provenance checks, from `--repository`.
#[test]
fn the_npm_packages_carry_the_license_libc_and_repository() {
    if !npm_available() {
        return;
    }
    let dir = process_dir("npm-packages-repository");
    let binary = stripped_binary(&dir);
    let out = dir.join("out");
    let repository = ["--repository", "https://github.com/acme/idemlint"];
    let built = build_npm(
        &dir,
        &binary,
        &out,
        &[&["--platform", "linux-arm64"], &repository[..]].concat(),
    );
    assert!(built.status.success(), "dist/build-npm.sh: {built:?}");
    let json = |path: PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let platform = json(out.join("cli-linux-arm64/package.json"));
    assert_eq!(platform["name"], "@idemlint/cli-linux-arm64");
    assert_eq!(platform["os"], serde_json::json!(["linux"]));
    assert_eq!(platform["cpu"], serde_json::json!(["arm64"]));
    assert_eq!(platform["libc"], serde_json::json!(["glibc"]));
    let repository = serde_json::json!({
        "type": "git",
        "url": "git+https://github.com/acme/idemlint.git"
    });
    assert_eq!(platform["repository"], repository);
    let main = json(out.join("idemlint/package.json"));
    assert_eq!(main["repository"], repository);
    assert_eq!(
        main["optionalDependencies"],
        json(repo().join("npm/idemlint/package.json"))["optionalDependencies"]
    );
    for tarball in [
        format!("idemlint-{VERSION}.tgz"),
        format!("idemlint-cli-linux-arm64-{VERSION}.tgz"),
    ] {
        let listing = run(Command::new("tar").arg("tzf").arg(out.join(&tarball)));
        assert!(
            text(&listing.stdout)
                .lines()
                .any(|l| l == "package/LICENSE"),
            "{tarball}: {}",
            text(&listing.stdout)
        );
    }
    // The musl build of a Linux platform: the same os and cpu, libc musl.
    let musl = dir.join("out-musl");
    let built = build_npm(&dir, &binary, &musl, &["--platform", "linux-x64-musl"]);
    assert!(built.status.success(), "dist/build-npm.sh: {built:?}");
    let platform = json(musl.join("cli-linux-x64-musl/package.json"));
    assert_eq!(platform["name"], "@idemlint/cli-linux-x64-musl");
    assert_eq!(platform["os"], serde_json::json!(["linux"]));
    assert_eq!(platform["cpu"], serde_json::json!(["x64"]));
    assert_eq!(platform["libc"], serde_json::json!(["musl"]));
    assert!(
        musl.join(format!("idemlint-cli-linux-x64-musl-{VERSION}.tgz"))
            .is_file()
    );

    // An --out that is a file, or a folder of other files, is refused, not emptied.
    let file = dir.join("a-file");
    std::fs::write(&file, "keep").unwrap();
    let other = dir.join("other-folder");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("keep"), "keep").unwrap();
    for out in [&file, &other] {
        let refused = build_npm(&dir, &binary, out, &[]);
        assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    assert!(other.join("keep").is_file());

    // Without --repository nothing is added: a local build names no repository.
    let (main, _) = npm_tarballs();
    let listing = run(Command::new("tar")
        .arg("xzOf")
        .arg(main)
        .arg("package/package.json"));
    assert!(!text(&listing.stdout).contains("repository"));
}

// ---------------------------------------------------------------------------------------------
// Release workflow and npm platforms

/// The platforms `npm/idemlint/package.json` depends on, `bin/idemlint.js` knows, and the
/// release workflow builds, are one list.
#[test]
fn the_release_builds_every_platform_the_npm_package_names() {
    let package: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("npm/idemlint/package.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(package["version"], VERSION, "npm/idemlint/package.json");
    let mut dependencies: Vec<String> = package["optionalDependencies"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, version)| {
            assert_eq!(version, VERSION, "npm/idemlint/package.json: {name}");
            name.strip_prefix("@idemlint/cli-")
                .unwrap_or_else(|| panic!("{name} is not @idemlint/cli-<platform>"))
                .to_string()
        })
        .collect();
    dependencies.sort();

    let shim = std::fs::read_to_string(repo().join("npm/idemlint/bin/idemlint.js")).unwrap();
    // Lines `"linux-x64": ["@idemlint/cli-linux-x64", "@idemlint/cli-linux-x64-musl"],`: each
    // package is the platform's, or its musl build.
    let mut known: Vec<String> = Vec::new();
    let block = shim
        .split_once("const PLATFORMS = {")
        .and_then(|(_, rest)| rest.split_once("};"))
        .expect("bin/idemlint.js defines PLATFORMS")
        .0;
    for line in block.lines() {
        let Some((platform, packages)) = line.trim().split_once(": [") else {
            continue;
        };
        let platform = platform.trim_matches('"');
        for package in packages.trim_end_matches("],").split(", ") {
            let name = package
                .trim_matches('"')
                .strip_prefix("@idemlint/cli-")
                .unwrap_or_else(|| panic!("{package} is not @idemlint/cli-<platform>"));
            assert!(
                name == platform || name == format!("{platform}-musl"),
                "PLATFORMS[{platform}] names {package}"
            );
            known.push(name.to_string());
        }
    }
    known.sort();
    assert_eq!(known, dependencies, "bin/idemlint.js's PLATFORMS");

    let workflow = yaml(".github/workflows/release.yml");
    let matrix = workflow
        .get("jobs")
        .and_then(|j| j.get("build"))
        .and_then(|b| b.get("strategy"))
        .and_then(|s| s.get("matrix"))
        .and_then(|m| m.get("include"))
        .expect("jobs.build.strategy.matrix.include");
    let mut built: Vec<String> = matrix.items().iter().map(|m| scalar(m, "npm")).collect();
    built.sort();
    assert_eq!(built, dependencies, "release.yml's build matrix");
}

/// What `cargo publish` uploads (`cargo package --list`, offline, no compile): the sources
/// `cargo install idemlint` builds, with their lock file, and every file the binary links to on
/// docs.rs (`rules/<id>.md`: SARIF's helpUri, the editor's links), but not the tests and
/// fixtures, which would make the download large.
#[test]
fn the_crate_package_holds_the_sources_and_the_rule_docs() {
    let out = run(Command::new(env!("CARGO")).current_dir(repo()).args([
        "package",
        "--list",
        "--locked",
        "--offline",
        "--allow-dirty",
    ]));
    assert!(out.status.success(), "cargo package --list: {out:?}");
    let listing = text(&out.stdout);
    let files: std::collections::BTreeSet<&str> = listing.lines().collect();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        "src/main.rs",
        "src/lib.rs",
    ] {
        assert!(files.contains(needed), "the package lacks {needed}");
    }
    for rule in idemlint::catalogue::RuleId::ALL {
        let doc = format!("rules/{}.md", rule.as_str());
        assert!(files.contains(doc.as_str()), "the package lacks {doc}");
        assert!(
            rule.doc_url().ends_with(&format!("/{doc}")),
            "{}",
            rule.doc_url()
        );
    }
    for left_out in ["tests/", "examples/", "fuzz/", "editors/", "dist/", "npm/"] {
        assert!(
            !files.iter().any(|f| f.starts_with(left_out)),
            "the package holds {left_out}"
        );
    }
}

/// The release rewrites README.md's relative links (`rules/<id>.md`, `action.yml`) into links to
/// the tag's files before it builds the packages, since PyPI, npm and crates.io show the README
/// without the repository around it.
#[test]
fn the_release_points_the_readme_links_at_the_tag() {
    if !works("node", &["--version"]) {
        eprintln!("skipped: no node");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let rewrite = |markdown: &str| -> String {
        let file = tmp.path().join("README.md");
        std::fs::write(&file, markdown).unwrap();
        let out = run(Command::new("node")
            .arg(repo().join("dist/absolute-links.js"))
            .arg(&file)
            .args(["https://github.com/acme/idemlint/", "v1.2.3"]));
        assert!(out.status.success(), "{out:?}");
        std::fs::read_to_string(&file).unwrap()
    };
    let tag = "https://github.com/acme/idemlint/blob/v1.2.3/";
    let repository = "https://github.com/acme/idemlint";
    assert_eq!(
        rewrite(
            "See [`rules/a.md`](rules/a.md) and [the action](./action.yml \"title\"), \
             [up](#install), [web](https://example.com/x.md), `[code](rules/b.md)`.\n\
             ```yaml\n[in a fence](rules/c.md)\n```\n[after](CHANGELOG.md)\n\
             ![logo](docs/logo.png) [folder](editors/vscode/) [spaced](<a b.md> 'T')\n\
             - a list item:\n  ```\n  [in an item's fence](rules/e.md)\n  ```\n\
             ````\n```\n[a shorter line of ticks does not close](rules/f.md)\n````\n\
             [ref]: rules/d.md \"title\"\n"
        ),
        format!(
            "See [`rules/a.md`]({tag}rules/a.md) and [the action]({tag}action.yml \"title\"), \
             [up](#install), [web](https://example.com/x.md), `[code](rules/b.md)`.\n\
             ```yaml\n[in a fence](rules/c.md)\n```\n[after]({tag}CHANGELOG.md)\n\
             ![logo]({repository}/raw/v1.2.3/docs/logo.png) \
             [folder]({repository}/tree/v1.2.3/editors/vscode/) [spaced](<{tag}a b.md> 'T')\n\
             - a list item:\n  ```\n  [in an item's fence](rules/e.md)\n  ```\n\
             ````\n```\n[a shorter line of ticks does not close](rules/f.md)\n````\n\
             [ref]: {tag}rules/d.md \"title\"\n"
        )
    );
    // On the real README: every link that named a file of the repository now names it at the
    // tag, and that file exists.
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let rewritten = rewrite(&readme);
    // Every link but anchors and URLs is rewritten: none is left relative outside code.
    let links = rewritten.matches(&format!("]({repository}/")).count();
    let relative = readme.matches("](").count()
        - readme.matches("](#").count()
        - readme.matches("](http").count();
    assert_eq!(links, relative);
    assert!(links > 50, "{links} links rewritten");
    for target in rewritten.split(&format!("]({repository}/")).skip(1) {
        let path = target.split([')', ' ', '#']).next().unwrap();
        let path = path.split_once("/v1.2.3/").unwrap().1;
        assert!(
            repo().join(path).exists(),
            "README links to {path}, which is not there"
        );
    }
    let workflow = std::fs::read_to_string(repo().join(".github/workflows/release.yml")).unwrap();
    assert_eq!(
        workflow
            .matches("node dist/absolute-links.js README.md")
            .count(),
        3
    );
}

// ---------------------------------------------------------------------------------------------
// GitHub Action

/// A run of `dist/action/run.sh` as the composite action runs it: inputs as `INPUT_*`
/// variables, the runner's files in `runner`, and the binary under test first on PATH
/// (IDEMLINT_ACTION_NO_INSTALL=1 skips the pip install, which needs PyPI and a release).
struct ActionRun {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    outputs: String,
    summary: String,
}

fn run_action(dir: &Path, runner: &Path, inputs: &[(&str, &str)]) -> ActionRun {
    let bin = Path::new(binary()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut env = vec![("PATH", path), ("IDEMLINT_ACTION_NO_INSTALL", "1".into())];
    env.extend(inputs.iter().map(|(k, v)| (*k, v.to_string())));
    run_action_with(dir, runner, &env)
}

fn run_action_with(dir: &Path, runner: &Path, env: &[(&str, String)]) -> ActionRun {
    let outputs = runner.join("output");
    let summary = runner.join("summary");
    let _ = std::fs::remove_file(&outputs);
    let _ = std::fs::remove_file(&summary);
    let mut cmd = Command::new("bash");
    cmd.arg(repo().join("dist/action/run.sh"))
        .current_dir(dir)
        .env_remove("IDEMLINT_ACTION_NO_INSTALL")
        .env("GITHUB_OUTPUT", &outputs)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("INPUT_SARIF_FILE", runner.join("idemlint.sarif"));
    for (name, value) in env {
        cmd.env(name, value);
    }
    let out = run(&mut cmd);
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    ActionRun {
        status: out.status.code(),
        stdout: text(&out.stdout),
        stderr: text(&out.stderr),
        outputs: read(&outputs),
        summary: read(&summary),
    }
}

/// Every input of action.yml reaches the script as its INPUT_ variable, and the script reads it.
#[test]
fn the_action_passes_each_input_to_its_script() {
    let action = yaml("action.yml");
    let script = std::fs::read_to_string(repo().join("dist/action/run.sh")).unwrap();
    let steps = action.get("runs").and_then(|r| r.get("steps")).unwrap();
    let step = &steps.items()[0];
    assert_eq!(
        scalar(step, "run"),
        "bash \"$GITHUB_ACTION_PATH/dist/action/run.sh\""
    );
    let env = step.get("env").expect("the step's env");
    let inputs = action.get("inputs").unwrap();
    let names: Vec<String> = inputs
        .entries()
        .iter()
        .map(|e| e.key.text.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "paths",
            "format",
            "fail-on",
            "base",
            "version",
            "sarif-file"
        ]
    );
    for name in &names {
        let variable = format!("INPUT_{}", name.to_uppercase().replace('-', "_"));
        assert_eq!(scalar(env, &variable), format!("${{{{ inputs.{name} }}}}"));
        assert!(
            script.contains(&format!("${{{variable}:-")),
            "run.sh reads {variable}"
        );
    }
}

fn sarif_results(path: &Path) -> usize {
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    sarif["runs"][0]["results"].as_array().unwrap().len()
}

#[test]
fn the_action_writes_sarif_annotations_and_the_review_and_fails_on_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("examples")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), dir.path().join(EXAMPLE)).unwrap();
    let runner = tempfile::tempdir().unwrap();
    let run = run_action(dir.path(), runner.path(), &[("INPUT_PATHS", "examples/")]);

    assert_eq!(run.status, Some(1), "{}{}", run.stdout, run.stderr);
    // The log: the version installed, then the annotations exactly as `--format github` prints.
    let gate = cargo_built(dir.path(), &["check", "examples/", "--format", "github"]);
    assert_eq!(
        run.stdout,
        format!("idemlint {VERSION}\n{}", text(&gate.stdout))
    );
    assert!(
        run.stdout.contains(
            "::error file=examples/payments-api.yaml,line=79,col=5,endLine=79,endColumn=9,\
             title=idemlint missing-idempotency-key::POST /refunds moves money"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("::warning file=examples/payments-api.yaml,line=110,col=5,"),
        "{}",
        run.stdout
    );
    // The output names the SARIF file, which holds every finding.
    let sarif = runner.path().join("idemlint.sarif");
    assert_eq!(run.outputs, format!("sarif-file={}\n", sarif.display()));
    assert_eq!(sarif_results(&sarif), text(&gate.stdout).lines().count());
    // The job summary is the Markdown review.
    let review = cargo_built(dir.path(), &["review", "examples/"]);
    assert_eq!(run.summary, text(&review.stdout));
    assert!(
        run.summary
            .starts_with("## Idempotency review: Acme Payments"),
        "{}",
        run.summary
    );

    // fail-on never: the same report, and the step passes.
    let run = run_action(
        dir.path(),
        runner.path(),
        &[("INPUT_PATHS", "examples/"), ("INPUT_FAIL_ON", "never")],
    );
    assert_eq!(run.status, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("::error file="), "{}", run.stdout);
}

fn git(dir: &Path, args: &[&str]) {
    let out = run(Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args));
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

#[test]
fn the_action_with_a_base_fails_only_on_new_findings() {
    if !git_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("README.md"), "A service.\n").unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "before the API"]);
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), dir.join(EXAMPLE)).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "the API"]);
    let runner = tempfile::tempdir().unwrap();

    // Nothing changed since HEAD: the example's errors are old, so the step passes and
    // annotates nothing; the summary is the review of the (empty) change.
    let inputs = [("INPUT_PATHS", "examples/"), ("INPUT_BASE", "HEAD")];
    let run = run_action(dir, runner.path(), &inputs);
    assert_eq!(run.status, Some(0), "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, format!("idemlint {VERSION}\n"));
    let review = cargo_built(dir, &["review", "examples/", "--base", "HEAD"]);
    assert_eq!(run.summary, text(&review.stdout));
    // The SARIF is still every finding (code scanning compares with the base itself).
    let all = cargo_built(dir, &["check", "examples/", "--format", "github"]);
    let sarif = runner.path().join("idemlint.sarif");
    assert_eq!(sarif_results(&sarif), text(&all.stdout).lines().count());

    // Against the commit before the API, every finding is new: the step fails on them.
    let inputs = [("INPUT_PATHS", "examples/"), ("INPUT_BASE", "HEAD~1")];
    let run = run_action(dir, runner.path(), &inputs);
    assert_eq!(run.status, Some(1), "{}{}", run.stdout, run.stderr);
    let gate = cargo_built(
        dir,
        &[
            "check",
            "examples/",
            "--base",
            "HEAD~1",
            "--format",
            "github",
        ],
    );
    assert_eq!(
        run.stdout,
        format!("idemlint {VERSION}\n{}", text(&gate.stdout))
    );
    assert!(
        run.stdout
            .contains("::error file=examples/payments-api.yaml,line=79,")
    );
}

/// The action's own install step: a virtualenv in RUNNER_TEMP and `pip install
/// idemlint==VERSION`, VERSION being the action's own (Cargo.toml's, beside its script) when
/// `version` is not given; here from the built wheel's folder instead of PyPI (PIP_NO_INDEX,
/// PIP_FIND_LINKS: pip's own settings, which the step passes through), so it runs offline.
#[cfg(unix)]
#[test]
fn the_action_installs_the_wheel_with_pip_and_puts_it_on_the_jobs_path() {
    let Some(wheel) = wheel() else { return };
    if !python_venv_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("examples")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), dir.path().join(EXAMPLE)).unwrap();
    let runner = tempfile::tempdir().unwrap();
    let job_path = runner.path().join("path");
    let env = [
        ("RUNNER_TEMP", runner.path().display().to_string()),
        ("GITHUB_PATH", job_path.display().to_string()),
        ("PIP_NO_INDEX", "1".into()),
        (
            "PIP_FIND_LINKS",
            wheel.parent().unwrap().display().to_string(),
        ),
        ("INPUT_PATHS", "examples/".into()),
    ];
    let start = Instant::now();
    let run = run_action_with(dir.path(), runner.path(), &env);
    eprintln!(
        "the action's run with its install (virtualenv, pip) took {:.2?}",
        start.elapsed()
    );
    assert_eq!(run.status, Some(1), "{}{}", run.stdout, run.stderr);
    let gate = cargo_built(dir.path(), &["check", "examples/", "--format", "github"]);
    assert_eq!(
        run.stdout,
        format!("idemlint {VERSION}\n{}", text(&gate.stdout))
    );
    // The job's PATH gets a folder holding idemlint alone, not the virtualenv's, whose python
    // and pip would take the place of the job's own in later steps.
    let tools = runner.path().join("idemlint-bin");
    assert_eq!(
        std::fs::read_to_string(&job_path).unwrap(),
        format!("{}\n", tools.display())
    );
    let names: Vec<_> = std::fs::read_dir(&tools)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["idemlint"]);
    let version = self::run(Command::new(tools.join("idemlint")).arg("--version"));
    assert_eq!(text(&version.stdout), format!("idemlint {VERSION}\n"));

    // A version PyPI does not have fails the step, saying what to set; pip is told to take a
    // wheel only, never to build the source (minutes of compiling on a platform without one).
    let mut env = env.to_vec();
    env.push(("INPUT_VERSION", "9.9.9".into()));
    let run = run_action_with(dir.path(), runner.path(), &env);
    assert_eq!(run.status, Some(2), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("::error title=idemlint::pip could not install idemlint==9.9.9 on "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("`version` must name a release on PyPI, or be `latest`"),
        "{}",
        run.stdout
    );

    // Git Bash on Windows (here a stand-in `cygpath` on PATH): the job's PATH file gets the
    // folder in Windows form, bash's own PATH the Unix form.
    let stub = runner.path().join("stub");
    std::fs::create_dir_all(&stub).unwrap();
    std::fs::write(
        stub.join("cygpath"),
        "#!/bin/sh\ncase \"$1\" in -w) echo \"C:$2\" ;; *) echo \"$2\" ;; esac\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(stub.join("cygpath"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut env = env[..env.len() - 1].to_vec();
    let path = std::env::var("PATH").unwrap_or_default();
    env.push(("PATH", format!("{}:{path}", stub.display())));
    std::fs::remove_file(&job_path).unwrap();
    let run = run_action_with(dir.path(), runner.path(), &env);
    assert_eq!(run.status, Some(1), "{}{}", run.stdout, run.stderr);
    assert_eq!(
        std::fs::read_to_string(&job_path).unwrap(),
        format!("C:{}\n", tools.display())
    );
}

/// Paths one a line may hold spaces; on one line they are split on spaces. Either way globs are
/// expanded, and a path that matches nothing is reported by `check` (exit 2).
#[test]
fn the_action_takes_paths_one_a_line_with_spaces_or_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("my specs")).unwrap();
    std::fs::copy(
        repo().join(EXAMPLE),
        dir.path().join("my specs/payments api.yaml"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("other")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), dir.path().join("other/a.yaml")).unwrap();
    let runner = tempfile::tempdir().unwrap();
    let all = cargo_built(
        dir.path(),
        &[
            "check",
            "--format",
            "github",
            "my specs/payments api.yaml",
            "other/a.yaml",
        ],
    );
    assert_eq!(all.status.code(), Some(1));

    // `**` is any depth, the folder itself included (bash 4's globstar): `deep/**/*.yaml` finds
    // deep/top.yaml and deep/a/b/c.yaml, which `*/*.yaml` would both miss.
    std::fs::create_dir_all(dir.path().join("deep/a/b")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), dir.path().join("deep/top.yaml")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), dir.path().join("deep/a/b/c.yaml")).unwrap();
    let run = run_action(
        dir.path(),
        runner.path(),
        &[("INPUT_PATHS", "deep/**/*.yaml")],
    );
    assert_eq!(run.status, Some(1), "{}{}", run.stdout, run.stderr);
    let deep = cargo_built(
        dir.path(),
        &[
            "check",
            "--format",
            "github",
            "deep/a/b/c.yaml",
            "deep/top.yaml",
        ],
    );
    assert_eq!(
        run.stdout,
        format!("idemlint {VERSION}\n{}", text(&deep.stdout))
    );
    assert!(run.stdout.contains("file=deep/top.yaml,"));
    assert!(run.stdout.contains("file=deep/a/b/c.yaml,"));

    let lines = "\n  my specs/*.yaml  \n\n  other/a.yaml\n";
    let run = run_action(dir.path(), runner.path(), &[("INPUT_PATHS", lines)]);
    assert_eq!(run.status, Some(1), "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        format!("idemlint {VERSION}\n{}", text(&all.stdout))
    );
    assert!(
        run.stdout
            .contains("file=my specs/payments api.yaml,line=79,")
    );

    let run = run_action(
        dir.path(),
        runner.path(),
        &[("INPUT_PATHS", "other/*.yaml")],
    );
    assert_eq!(run.status, Some(1), "{}{}", run.stdout, run.stderr);
    let one = cargo_built(dir.path(), &["check", "--format", "github", "other/a.yaml"]);
    assert_eq!(
        run.stdout,
        format!("idemlint {VERSION}\n{}", text(&one.stdout))
    );

    // On one line a space separates: `my` and `specs/...` are two paths, neither there.
    let run = run_action(
        dir.path(),
        runner.path(),
        &[("INPUT_PATHS", "my specs/payments api.yaml")],
    );
    assert_eq!(run.status, Some(2), "{}{}", run.stdout, run.stderr);
}

#[test]
fn the_action_fails_when_a_path_holds_no_openapi_document() {
    let dir = tempfile::tempdir().unwrap();
    let runner = tempfile::tempdir().unwrap();
    let run = run_action(dir.path(), runner.path(), &[("INPUT_PATHS", "api/")]);
    // A wrong path in CI must not pass: exit 2, as `idemlint check` gives.
    assert_eq!(run.status, Some(2), "{}{}", run.stdout, run.stderr);
}

// ---------------------------------------------------------------------------------------------
// pre-commit with the wheel

/// README's pre-commit configuration that installs the PyPI wheel (`language: python`).
fn readme_python_hook() -> String {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    readme
        .split("```yaml\n")
        .skip(1)
        .map(|block| block.split("```").next().unwrap())
        .find(|block| block.contains("language: python"))
        .expect("README shows a pre-commit hook with `language: python`")
        .to_string()
}

#[test]
fn the_readme_python_hook_pins_this_version() {
    let config = readme_python_hook();
    assert!(
        config.contains(&format!("additional_dependencies: [idemlint=={VERSION}]")),
        "README's python hook should pin idemlint=={VERSION}:\n{config}"
    );
    // Its settings are the repository hook's (tests/hooks.rs tests those on real files).
    let hooks = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).unwrap();
    for line in [
        "entry: idemlint check --skip-non-openapi",
        "types_or: [yaml, json]",
        "require_serial: true",
    ] {
        assert!(config.contains(line), "README's python hook lacks `{line}`");
        assert!(
            hooks.contains(line),
            ".pre-commit-hooks.yaml lacks `{line}`"
        );
    }
}

#[test]
fn the_readme_python_hook_installs_the_wheel_and_reports_the_example() {
    let Some(wheel) = wheel() else { return };
    if !works("pre-commit", &["--version"]) {
        eprintln!("skipped: pre-commit is not installed (.ci/run installs it from PyPI)");
        return;
    }
    if !git_available() || !python_venv_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::copy(repo().join(EXAMPLE), dir.join(EXAMPLE)).unwrap();
    std::fs::write(dir.join(".pre-commit-config.yaml"), readme_python_hook()).unwrap();
    git(dir, &["add", "-A"]);
    // pre-commit makes the hook's virtualenv and pip-installs `idemlint==VERSION` into it: from
    // the built wheel's folder, never an index, so the test is offline and tests this build.
    // With it pip installs the placeholder package pre-commit writes for a local hook (a
    // setup.py), which pip would build in an isolated environment with setuptools fetched from
    // the index; PIP_NO_BUILD_ISOLATION=0 (pip's spelling of --no-build-isolation) builds it with
    // the setuptools virtualenv put in the hook's environment instead. Online, neither is needed.
    let start = Instant::now();
    let out = run(Command::new("pre-commit")
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", dir.join(".pre-commit-home"))
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", wheel.parent().unwrap())
        .env("PIP_NO_BUILD_ISOLATION", "0")
        .args(["run", "--color", "never", "--all-files"]));
    eprintln!(
        "pre-commit's first run (virtualenv, wheel install, hook) took {:.2?}",
        start.elapsed()
    );
    let shown = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    // What the hook printed is what the binary prints on the files pre-commit passed.
    let direct = cargo_built(dir, &["check", "--skip-non-openapi", EXAMPLE]);
    assert_eq!(direct.status.code(), Some(1));
    assert!(shown.contains(&text(&direct.stdout)), "{shown}");
    assert!(shown.contains("idemlint"), "{shown}");
}
