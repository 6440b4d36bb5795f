//! What a shell and `man` need from the command line: completion scripts and manual pages, both
//! generated from the same clap definition as `--help`, so they cannot fall behind it.
//!
//! It takes the command as an argument rather than importing `cli`, which calls it.

/// The completion script of `shell` for `cmd`: its subcommands, options, the values clap knows
/// (formats, rule ids and categories for `--select`/`--ignore`, profiles, `explain`'s rule).
pub fn completions(mut cmd: clap::Command, shell: clap_complete::Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "idemlint", &mut out);
    out
}

/// The manual page (roff) of `cmd`, or of its command at `path` (`["check"]`, `["config",
/// "schema"]`): `idemlint(1)`, `idemlint-check(1)`, as `git` and `cargo` name theirs. `Err` says
/// which name is no command.
pub fn man_page(cmd: clap::Command, path: &[String]) -> Result<Vec<u8>, String> {
    // Built, so that each command is named after its parents (`idemlint-check`) and lists its
    // own commands' pages; no `help` command, which has no page of its own.
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut page = &cmd;
    for name in path {
        page = match page.find_subcommand(name).filter(|c| !c.is_hide_set()) {
            Some(sub) => sub,
            None => {
                let known: Vec<&str> = page
                    .get_subcommands()
                    .filter(|c| !c.is_hide_set())
                    .map(|c| c.get_name())
                    .collect();
                let hint = match crate::suggest::closest(name, known.iter().copied()) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!("commands: {}", known.join(", ")),
                };
                return Err(format!(
                    "`{name}` is no command of `{}`; {hint}",
                    title(page)
                ));
            }
        };
    }
    // Every page says which idemlint it documents, as `idemlint(1)` does by itself.
    let source = format!("idemlint {}", cmd.get_version().unwrap_or_default());
    let mut out = Vec::new();
    clap_mangen::Man::new(page.clone())
        .source(source)
        .render(&mut out)
        .expect("writing to a Vec cannot fail");
    Ok(out)
}

/// How a command is named on its page: `idemlint`, `idemlint-config`.
fn title(cmd: &clap::Command) -> &str {
    cmd.get_display_name().unwrap_or_else(|| cmd.get_name())
}
