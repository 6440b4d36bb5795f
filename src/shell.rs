//! What a shell and `man` need from the command line: completion scripts and manual pages, both
//! generated from the same clap definition as `--help`, so they cannot fall behind it.
//!
//! It takes the command as an argument rather than importing `cli`, which calls it.

/// The completion script of `shell` for `cmd`: its subcommands, options, the values clap knows
/// (formats, rule ids and categories for `--select`/`--ignore`, profiles, `explain`'s rule).
pub fn completions(mut cmd: clap::Command, shell: clap_complete::Shell) -> Vec<u8> {
    // Unbuilt, so that `man`'s names can leave out the `help` command building adds.
    let unbuilt = cmd.clone();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "idemlint", &mut out);
    match shell {
        clap_complete::Shell::Bash => out = bash_extras(&unbuilt, out),
        clap_complete::Shell::Fish => fish_extras(&unbuilt, &mut out),
        _ => {}
    }
    out
}

/// Lines added to clap's fish script for what it cannot offer: the values of a comma-separated
/// option after a comma, through fish's own `__fish_complete_list` (`--select
/// missing-idempotency-key,<TAB>`), and the commands `idemlint man` has a page for at each
/// level, instead of file names. Fish merges them with clap's lines for the same option.
fn fish_extras(cmd: &clap::Command, out: &mut Vec<u8>) {
    let mut text = String::from(
        "\n# Added by idemlint to clap's script: values after a comma, and `idemlint man`'s \
         commands.\n",
    );
    // One function prints the values of each command's comma-separated option.
    let mut cases = Vec::new();
    for sub in cmd.get_subcommands().filter(|c| !c.is_hide_set()) {
        for arg in sub.get_opts().filter(|arg| is_name_list(arg)) {
            let Some(long) = arg.get_long() else { continue };
            let names: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            cases.push(format!(
                "        case '{} {long}'\n            printf '%s\\n' {}\n",
                sub.get_name(),
                names.join(" ")
            ));
            text.push_str(&format!(
                "complete -c idemlint -n \"__fish_idemlint_using_subcommand {}\" -l {long} -r -f \
                 -a \"(__fish_complete_list , '__fish_idemlint_list_values {} {long}')\"\n",
                sub.get_name(),
                sub.get_name(),
            ));
        }
    }
    text.push_str(&format!(
        "function __fish_idemlint_list_values\n    switch \"$argv\"\n{}    end\nend\n",
        cases.concat()
    ));

    for (path, names) in &man_page_names(cmd) {
        let mut condition = String::from("__fish_idemlint_using_subcommand man");
        if let Some(last) = path.rsplit(' ').next().filter(|l| !l.is_empty()) {
            condition.push_str(&format!("; and __fish_seen_subcommand_from {last}"));
        }
        condition.push_str(&format!(
            "; and not __fish_seen_subcommand_from {}",
            names.join(" ")
        ));
        text.push_str(&format!(
            "complete -c idemlint -n \"{condition}\" -f -a \"{}\"\n",
            names.join(" ")
        ));
    }
    // After a command without commands of its own there is nothing more to name.
    text.push_str("complete -c idemlint -n \"__fish_idemlint_using_subcommand man\" -f\n");
    out.extend_from_slice(text.as_bytes());
}

/// clap's bash script, its function renamed `_idemlint_clap`, under a `_idemlint` that first
/// offers what clap's static script cannot: the values of a comma-separated option after a
/// comma (`--select missing-idempotency-key,<TAB>` offers each rule id with the ids typed so far
/// kept before it; `--select=` too), and the commands `idemlint man` has a page for, at each
/// level (`idemlint man config <TAB>` offers `schema`). Everything else goes to clap's function.
fn bash_extras(cmd: &clap::Command, script: Vec<u8>) -> Vec<u8> {
    let script = String::from_utf8(script).expect("clap writes UTF-8");
    let renamed = script.replacen("_idemlint() {", "_idemlint_clap() {", 1);
    assert_ne!(renamed, script, "clap's bash script defines `_idemlint`");

    let mut delimited = Vec::new();
    let mut plain = Vec::new();
    options(cmd, &mut delimited, &mut plain);
    // A name that is a plain option in some command is left to clap everywhere.
    delimited.retain(|name| !plain.contains(name));
    delimited.sort();
    delimited.dedup();

    let cases: Vec<String> = man_page_names(cmd)
        .iter()
        .map(|(path, names)| format!("            \"{path}\") names=\"{}\" ;;", names.join(" ")))
        .collect();

    let mut out = renamed;
    out.push_str(&format!(
        r#"
# Added by idemlint to clap's script: values after a comma, and `idemlint man`'s commands.
_idemlint() {{
    local cur prev opt i
    if [[ "${{BASH_VERSINFO[0]}}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${{COMP_WORDS[COMP_CWORD]}}"
    fi
    prev="$3"
    if [[ ${{COMP_CWORD}} -ge 2 && "${{COMP_WORDS[1]}}" == man && "${{cur}}" != -* ]]; then
        local path="" names=""
        for (( i=2; i<COMP_CWORD; i++ )); do
            [[ "${{COMP_WORDS[i]}}" == -* ]] || path="${{path:+${{path}} }}${{COMP_WORDS[i]}}"
        done
        case "${{path}}" in
{cases}
        esac
        COMPREPLY=( $(compgen -W "${{names}}" -- "${{cur}}") )
        return 0
    fi
    opt="${{prev}}"
    if [[ "${{prev}}" == "=" && ${{COMP_CWORD}} -ge 2 ]]; then
        opt="${{COMP_WORDS[COMP_CWORD-2]}}"
    fi
    case "${{opt}}" in
        {delimited})
            if [[ "${{cur}}" == *,* || "${{prev}}" == "=" ]]; then
                local head="" word="${{COMP_WORDS[COMP_CWORD]}}"
                if [[ "${{cur}}" == *,* ]]; then
                    head="${{cur%,*}},"
                fi
                COMP_WORDS[COMP_CWORD]="${{cur##*,}}"
                _idemlint_clap "$1" "${{cur##*,}}" "${{opt}}"
                COMP_WORDS[COMP_CWORD]="${{word}}"
                for i in "${{!COMPREPLY[@]}}"; do
                    COMPREPLY[i]="${{head}}${{COMPREPLY[i]}}"
                done
                return 0
            fi
            ;;
    esac
    _idemlint_clap "$@"
}}
"#,
        cases = cases.join("\n"),
        delimited = delimited.join("|"),
    ));
    out.into_bytes()
}

/// The option names (`--select`, `-s`) of `cmd` and its commands: in `delimited` those that take
/// comma-separated values with names to offer, in `plain` the others.
fn options(cmd: &clap::Command, delimited: &mut Vec<String>, plain: &mut Vec<String>) {
    for arg in cmd.get_opts() {
        let names = arg
            .get_long_and_visible_aliases()
            .unwrap_or_default()
            .into_iter()
            .map(|l| format!("--{l}"))
            .chain(
                arg.get_short_and_visible_aliases()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|s| format!("-{s}")),
            );
        let list = if is_name_list(arg) {
            &mut *delimited
        } else {
            &mut *plain
        };
        list.extend(names);
    }
    for sub in cmd.get_subcommands() {
        options(sub, delimited, plain);
    }
}

/// An option that takes comma-separated names clap knows (`--select a,b`): the shells' scripts
/// complete each name after a comma.
fn is_name_list(arg: &clap::Arg) -> bool {
    arg.get_value_delimiter() == Some(',') && !arg.get_possible_values().is_empty()
}

/// For each command path that has commands (`""`, `"config"`), the names `idemlint man` takes
/// after it, from the command as `man` builds it (no `help` command).
fn man_page_names(cmd: &clap::Command) -> Vec<(String, Vec<String>)> {
    let mut man = cmd.clone().disable_help_subcommand(true);
    man.build();
    let mut pages = Vec::new();
    page_names(&man, "", &mut pages);
    pages
        .into_iter()
        .map(|(path, names)| (path, names.into_iter().map(str::to_string).collect()))
        .collect()
}

/// For each command path that has commands (`""`, `"config"`), the names `idemlint man` takes
/// after it: the commands that are not hidden, as [`man_page`] finds them.
fn page_names<'c>(cmd: &'c clap::Command, path: &str, out: &mut Vec<(String, Vec<&'c str>)>) {
    let subs: Vec<&clap::Command> = cmd.get_subcommands().filter(|c| !c.is_hide_set()).collect();
    if subs.is_empty() {
        return;
    }
    out.push((
        path.to_string(),
        subs.iter().map(|c| c.get_name()).collect(),
    ));
    for sub in subs {
        let path = if path.is_empty() {
            sub.get_name().to_string()
        } else {
            format!("{path} {}", sub.get_name())
        };
        page_names(sub, &path, out);
    }
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
