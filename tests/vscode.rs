//! The VS Code extension in `editors/vscode/`: `npm run compile` type-checks it against VS
//! Code's API, and `npm test` checks which binary it starts and that the command it builds
//! starts this build's server, which lints the README's example. `.ci/run` installs its
//! packages (`npm ci`); without them the test skips, saying so.

use std::path::Path;
use std::process::Command;

#[test]
fn the_vscode_extension_compiles_and_starts_the_server() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode");
    if !dir.join("node_modules/vscode-languageclient").is_dir() {
        eprintln!(
            "skipped: the extension's packages are not installed (cd editors/vscode && npm ci)"
        );
        return;
    }
    let npm = |args: &[&str]| {
        let out = Command::new("npm")
            .current_dir(&dir)
            .args(args)
            .env("IDEMLINT_BIN", env!("CARGO_BIN_EXE_idemlint"))
            .output()
            .expect("npm runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "npm {args:?} failed:\n{text}");
        text
    };
    npm(&["run", "--silent", "compile"]);
    let tested = npm(&["test", "--silent"]);
    // Every test ran, the server's too: none was skipped for want of the binary.
    assert!(tested.contains("# pass 5"), "{tested}");
    assert!(tested.contains("# skipped 0"), "{tested}");
}
