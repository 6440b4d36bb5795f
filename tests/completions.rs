//! `idemlint completions SHELL` and `idemlint man`: what a shell offers at a tab and what `man`
//! shows, generated from the command line itself.

use std::process::Command as Process;

use assert_cmd::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn idemlint(args: &[&str]) -> Run {
    let out = Command::cargo_bin("idemlint")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The commands a user names (not `help`, nor the hidden `man`), as clap lists them.
const COMMANDS: [&str; 9] = [
    "check",
    "review",
    "diff",
    "rules",
    "explain",
    "probe",
    "lsp",
    "completions",
    "config",
];

fn script(shell: &str) -> String {
    let run = idemlint(&["completions", shell]);
    assert_eq!((run.code, &run.stderr[..]), (0, ""), "completions {shell}");
    run.stdout
}

/// What bash offers for the command line `words`, the last one being completed, as a user's
/// tab does: the script sourced, `COMP_WORDS`/`COMP_CWORD` set, its function called. `None`
/// when there is no bash to run.
fn bash_offers(script: &str, words: &[&str]) -> Option<Vec<String>> {
    if Process::new("bash").arg("--version").output().is_err() {
        eprintln!("skipped: no bash on PATH to run the completion script");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemlint.bash");
    std::fs::write(&path, script).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let program = format!(
        "source '{}'\n\
         COMP_WORDS=({})\n\
         COMP_CWORD={cword}\n\
         COMP_LINE='{}'\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         _idemlint idemlint '{}' '{}'\n\
         for w in \"${{COMPREPLY[@]}}\"; do printf '%s\\n' \"$w\"; done\n",
        path.display(),
        quoted.join(" "),
        words.join(" "),
        words[cword],
        if cword > 0 { words[cword - 1] } else { "" },
    );
    let out = Process::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(&program)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn bash_completes_commands_rule_ids_and_profiles() {
    let script = script("bash");
    let Some(commands) = bash_offers(&script, &["idemlint", ""]) else {
        return;
    };
    for command in COMMANDS {
        assert!(commands.contains(&command.to_string()), "{commands:?}");
    }

    let selected = bash_offers(&script, &["idemlint", "check", "--select", ""]).unwrap();
    assert!(
        selected.contains(&"missing-idempotency-key".to_string()),
        "{selected:?}"
    );
    assert!(selected.contains(&"key-lifetime".to_string()), "a category");
    assert_eq!(
        selected.len(),
        idemlint::catalogue::RuleId::ALL.len() + idemlint::catalogue::categories().len()
    );
    // What the user typed narrows the offer, as with any value.
    assert_eq!(
        bash_offers(&script, &["idemlint", "check", "--ignore", "unprotected-p"]).unwrap(),
        ["unprotected-patch"]
    );
    assert_eq!(
        bash_offers(&script, &["idemlint", "explain", "short-key"]).unwrap(),
        ["short-key-ttl"]
    );
    assert_eq!(
        bash_offers(&script, &["idemlint", "review", "--profile", "st"]).unwrap(),
        ["stripe"]
    );
    assert_eq!(
        bash_offers(&script, &["idemlint", "completions", "f"]).unwrap(),
        ["fish"]
    );
}

/// `--select` and `--ignore` take comma-separated ids: after a comma, bash offers every id and
/// category again, with what was typed before the comma kept, as it does for the first one.
#[test]
fn bash_completes_each_value_after_a_comma() {
    let script = script("bash");
    let Some(first) = bash_offers(&script, &["idemlint", "check", "--select", ""]) else {
        return;
    };
    let after = bash_offers(
        &script,
        &["idemlint", "check", "--select", "missing-idempotency-key,"],
    )
    .unwrap();
    let expected: Vec<String> = first
        .iter()
        .map(|id| format!("missing-idempotency-key,{id}"))
        .collect();
    assert_eq!(after, expected);
    assert!(after.contains(&"missing-idempotency-key,unprotected-patch".to_string()));
    for (words, offered) in [
        (
            &[
                "idemlint",
                "check",
                "--select",
                "missing-idempotency-key,unprotected-p",
            ][..],
            &["missing-idempotency-key,unprotected-patch"][..],
        ),
        (
            &["idemlint", "check", "--ignore", "a,b,short-key"],
            &["a,b,short-key-ttl"],
        ),
        (
            &[
                "idemlint",
                "diff",
                "--select",
                "short-key-ttl,unprotected-p",
            ],
            &["short-key-ttl,unprotected-patch"],
        ),
        // `--select=`: bash splits the word at `=`.
        (
            &["idemlint", "check", "--select", "=", "unprotected-p"],
            &["unprotected-patch"],
        ),
        (
            &[
                "idemlint",
                "check",
                "--select",
                "=",
                "short-key-ttl,unprotected-p",
            ],
            &["short-key-ttl,unprotected-patch"],
        ),
        // Nothing matches after the comma: nothing is offered.
        (&["idemlint", "check", "--select", "short-key-ttl,zzz"], &[]),
    ] {
        assert_eq!(bash_offers(&script, words).unwrap(), offered, "{words:?}");
    }
    // The rest is still clap's: options, and a value without a comma.
    assert_eq!(
        bash_offers(&script, &["idemlint", "check", "--ignore", "unprotected-p"]).unwrap(),
        ["unprotected-patch"]
    );
    assert!(
        bash_offers(&script, &["idemlint", "check", "--sel"])
            .unwrap()
            .contains(&"--select".to_string())
    );
}

/// `idemlint man <TAB>` offers the commands that have a page, and each offered name is one
/// `idemlint man` accepts; under `config`, its own commands.
#[test]
fn bash_completes_the_commands_man_has_pages_for() {
    let script = script("bash");
    let Some(offered) = bash_offers(&script, &["idemlint", "man", ""]) else {
        return;
    };
    assert_eq!(offered, COMMANDS);
    for name in &offered {
        let run = idemlint(&["man", name]);
        assert_eq!((run.code, &run.stderr[..]), (0, ""), "man {name}");
    }
    assert_eq!(
        bash_offers(&script, &["idemlint", "man", "ch"]).unwrap(),
        ["check"]
    );
    let config = bash_offers(&script, &["idemlint", "man", "config", ""]).unwrap();
    assert_eq!(config, ["schema"]);
    let run = idemlint(&["man", "config", "schema"]);
    assert_eq!(run.code, 0);
    // A command without commands of its own: nothing more to name.
    assert_eq!(
        bash_offers(&script, &["idemlint", "man", "check", ""]).unwrap(),
        Vec::<String>::new()
    );
    // Options are still clap's.
    assert_eq!(
        bash_offers(&script, &["idemlint", "man", "--he"]).unwrap(),
        ["--help"]
    );
}

/// Offering rule ids to the shell refuses no other word: an unknown one still gets idemlint's
/// own message, with its suggestion, and exit 2; a profile in any case is still one.
/// What fish offers for the command line `line` (completing its last word): the script sourced,
/// then fish's own `complete -C`, as a tab does. `None` when there is no fish.
fn fish_offers(script: &str, line: &str) -> Option<Vec<String>> {
    if Process::new("fish").arg("--version").output().is_err() {
        eprintln!("skipped: no fish on PATH (.ci/run installs Debian's)");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idemlint.fish");
    std::fs::write(&path, script).unwrap();
    let out = Process::new("fish")
        .current_dir(dir.path())
        .arg("--no-config")
        .arg("-c")
        .arg(format!("source '{}'; complete -C '{line}'", path.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // `candidate\tdescription` a line: the candidates.
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect(),
    )
}

#[test]
fn fish_completes_each_value_after_a_comma_and_the_commands_man_has_pages_for() {
    let script = script("fish");
    let Some(offered) = fish_offers(
        &script,
        "idemlint check --select missing-idempotency-key,unpro",
    ) else {
        return;
    };
    assert_eq!(offered, ["missing-idempotency-key,unprotected-patch"]);
    // A category too, `--select=`, `--ignore`, and `diff`'s `--select`.
    let offered = fish_offers(&script, "idemlint check --select=retry-safety,key-d").unwrap();
    assert_eq!(offered, ["--select=retry-safety,key-design"]);
    let offered = fish_offers(&script, "idemlint check --ignore a,b,conflict-w").unwrap();
    assert_eq!(offered, ["a,b,conflict-without-retry-after"]);
    let offered = fish_offers(&script, "idemlint diff --select x,").unwrap();
    assert!(
        offered.contains(&"x,idempotency-key-removed".to_string()),
        "{offered:?}"
    );
    // Before any comma, clap's own line offers the values.
    let offered = fish_offers(&script, "idemlint check --select missing-idem").unwrap();
    assert_eq!(offered, ["missing-idempotency-key"]);

    // `man`: its commands, not file names; under `config`, `schema`; after a page, nothing.
    // fish sorts what it offers.
    let mut commands = COMMANDS;
    commands.sort();
    assert_eq!(fish_offers(&script, "idemlint man ").unwrap(), commands);
    assert_eq!(
        fish_offers(&script, "idemlint man config ").unwrap(),
        ["schema"]
    );
    assert_eq!(
        fish_offers(&script, "idemlint man check ").unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn offered_values_leave_unknown_names_to_idemlint() {
    let spec = "fixtures/rules/missing-idempotency-key/bad_oas30_post.yaml";
    let run = idemlint(&["check", spec, "--select", "missing-idempotency-keys"]);
    assert_eq!(
        (run.code, &run.stdout[..], &run.stderr[..]),
        (
            2,
            "",
            "error: unknown rule or category `missing-idempotency-keys`; did you mean \
             `missing-idempotency-key`?\n"
        )
    );
    let run = idemlint(&["explain", "short-key-tll"]);
    assert_eq!(
        (run.code, &run.stderr[..]),
        (
            2,
            "error: unknown rule `short-key-tll`; did you mean `short-key-ttl`?\n"
        )
    );
    let run = idemlint(&["check", spec, "--profile", "STRIPE", "--format", "concise"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    // The values stay out of --help: they are for the tab key.
    let help = idemlint(&["check", "--help"]).stdout;
    assert!(!help.contains("unprotected-patch"), "{help}");
}

#[test]
fn every_shell_gets_a_script_naming_the_commands() {
    // clap_complete writes values into the bash, zsh and fish scripts; PowerShell's and
    // elvish's complete commands and options only.
    for (shell, marker, values) in [
        ("zsh", "#compdef idemlint", true),
        ("fish", "complete -c idemlint", true),
        ("powershell", "Register-ArgumentCompleter", false),
        ("elvish", "edit:completion:arg-completer[idemlint]", false),
    ] {
        let script = script(shell);
        assert!(script.contains(marker), "{shell}: {script}");
        for word in [
            "check",
            "review",
            "explain",
            "completions",
            "config",
            "select",
        ] {
            assert!(script.contains(word), "{shell} script names `{word}`");
        }
        assert_eq!(
            script.contains("missing-idempotency-key"),
            values,
            "{shell} offers rule ids"
        );
    }
    let run = idemlint(&["completions", "tcsh"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("error: invalid value 'tcsh' for '<SHELL>'"),
        "{}",
        run.stderr
    );
}

/// `groff`'s rendering of a page, when groff is installed.
fn rendered(page: &str) -> Option<String> {
    let child = Process::new("groff")
        .args(["-man", "-Tutf8", "-ww"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("skipped: no groff on PATH to render the man page");
        return None;
    };
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "groff warns about the page"
    );
    // Bold and underlined text come as overstrikes (`N\bN`): keep the letters.
    let text = String::from_utf8(out.stdout).unwrap();
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if chars.peek() == Some(&'\u{8}') {
            chars.next();
            continue;
        }
        plain.push(c);
    }
    Some(plain)
}

#[test]
fn man_pages_of_idemlint_and_its_commands() {
    let run = idemlint(&["man"]);
    assert_eq!((run.code, &run.stderr[..]), (0, ""));
    let page = run.stdout;
    assert!(
        page.starts_with(&format!(
            ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n.TH idemlint 1  \"idemlint {}\"",
            env!("CARGO_PKG_VERSION")
        )),
        "{page}"
    );
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH SUBCOMMANDS", ".SH VERSION"] {
        assert!(page.contains(section), "{section} in {page}");
    }
    assert!(page.contains("idemlint\\-check(1)"), "{page}");

    let check = idemlint(&["man", "check"]).stdout;
    let title = format!(
        ".TH idemlint-check 1  \"idemlint {}\"",
        env!("CARGO_PKG_VERSION")
    );
    assert!(
        check.starts_with(&format!(".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n{title}")),
        "{check}"
    );
    assert!(check.contains("\\-\\-select"), "{check}");
    // The rule ids are for completion; the page names the option, not forty values.
    assert!(!check.contains("unprotected\\-patch"), "{check}");
    let schema = idemlint(&["man", "config", "schema"]).stdout;
    assert!(schema.contains(".TH idemlint-config-schema 1"), "{schema}");

    let wrong = idemlint(&["man", "chek"]);
    assert_eq!(
        (wrong.code, &wrong.stdout[..], &wrong.stderr[..]),
        (
            2,
            "",
            "error: `chek` is no command of `idemlint`; did you mean `check`?\n"
        )
    );

    if let Some(text) = rendered(&page) {
        assert!(
            text.contains("NAME\n       idemlint - Lints OpenAPI descriptions for operations"),
            "{text}"
        );
        assert!(text.contains("idemlint-check(1)"), "{text}");
    }
    if let Some(text) = rendered(&check) {
        assert!(text.contains("--fail-on"), "{text}");
    }
}
