#!/usr/bin/env bash
# The GitHub Action of action.yml: install idemlint, then
#   1. `check` every finding into the SARIF file (its path is the `sarif-file` output),
#   2. `review` (of the change since `base`, if given) appended to the job summary,
#   3. `check` (new findings only, with `base`) in the chosen format: the step's exit code.
# Inputs come as INPUT_* variables (action.yml); GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are the
# runner's files. IDEMLINT_ACTION_NO_INSTALL=1 uses the idemlint already on PATH instead of
# installing one: tests/install.rs sets it to run the binary under test.
set -uo pipefail

paths_text="${INPUT_PATHS:-.}"
format="${INPUT_FORMAT:-github}"
fail_on="${INPUT_FAIL_ON:-error}"
base="${INPUT_BASE:-}"
version="${INPUT_VERSION:-}"
here=$(cd "$(dirname "$0")" && pwd)
sarif="${INPUT_SARIF_FILE:-idemlint.sarif}"

fail() {
    echo "::error title=idemlint::$1"
    exit 2
}

if [ "${IDEMLINT_ACTION_NO_INSTALL:-}" != 1 ]; then
    # The version of this action's own release unless `version` says otherwise: a workflow
    # pinned to `@v0.1.0` keeps linting with 0.1.0 when 0.2.0 adds rules.
    if [ -z "$version" ]; then
        version=$(sed -n 's/^version = "\([^"]*\)".*/\1/p' "$here/../../Cargo.toml" | head -n 1)
        [ -n "$version" ] || fail "could not read this action's version from $here/../../Cargo.toml: set the action's \`version\`"
    fi
    # A virtualenv of its own: the runners' system Pythons refuse `pip install` (PEP 668).
    # python3 first; on Windows it may be the Microsoft Store's stub, which does not run.
    python=""
    for candidate in python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "" >/dev/null 2>&1; then
            python=$candidate
            break
        fi
    done
    [ -n "$python" ] || fail "no Python on this runner to install idemlint with (actions/setup-python)"
    scratch="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
    venv="$scratch/idemlint-venv"
    "$python" -m venv "$venv" ||
        fail "$python could not make a virtualenv to install idemlint into (Debian and Ubuntu images: apt-get install python3-venv)"
    bin="$venv/bin"
    exe=idemlint
    if [ -d "$venv/Scripts" ]; then # Windows
        bin="$venv/Scripts"
        exe=idemlint.exe
    fi
    requirement=idemlint
    [ "$version" = latest ] || requirement="idemlint==$version"
    # --only-binary: a platform without a wheel fails here in seconds, rather than building
    # the source distribution, which needs a Rust toolchain and minutes.
    # --upgrade: with `latest`, a virtualenv left by an earlier use of the action in this job
    # gets the newest release too.
    "$bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
        --only-binary idemlint "$requirement" ||
        fail "pip could not install $requirement on $(uname -sm) (pip's error is above): the wheels are for Linux x64 and arm64 (glibc or musl), macOS and Windows x64; \`version\` must name a release on PyPI, or be \`latest\`"
    # Only the binary goes on the PATH: the virtualenv's folder also holds its python and pip,
    # which would take the place of the job's own (actions/setup-python) in later steps.
    tools="$scratch/idemlint-bin"
    rm -rf "$tools"
    mkdir -p "$tools"
    cp "$bin/$exe" "$tools/$exe" || fail "could not copy idemlint into $tools"
    # On Windows the folder is a Windows path: bash's PATH wants /c/..., while the job's PATH
    # file (read by the runner, not by bash) wants C:\....
    job_tools="$tools"
    if command -v cygpath >/dev/null 2>&1; then
        tools=$(cygpath -u "$tools")
        job_tools=$(cygpath -w "$tools")
    fi
    export PATH="$tools:$PATH"
    # Later steps of the job can run idemlint too.
    [ -n "${GITHUB_PATH:-}" ] && echo "$job_tools" >>"$GITHUB_PATH"
fi
idemlint --version || fail "idemlint does not run on $(uname -sm)"

# Paths: one per line when the input has several lines (names may hold spaces; each line is
# trimmed, blank ones skipped), else separated by spaces. Each is a glob, expanded by the
# shell; one that matches nothing is passed as it is, and `check` says it does not exist.
# `**` is any depth of folders (bash 4's globstar). macOS's bash 3.2 has none and would read
# `**` as `*`, missing files silently: there it is an error (a folder says the same: `check`
# walks it).
shopt -s globstar 2>/dev/null || case "$paths_text" in
    *'**'*) fail "\`**\` in \`paths\` needs bash 4 or later, and this runner's bash is $BASH_VERSION: name the folder instead (idemlint looks in its subfolders)" ;;
esac
paths=()
if [[ "$paths_text" == *$'\n'* ]]; then
    while IFS= read -r line; do
        line="${line#"${line%%[![:space:]]*}"}"
        line="${line%"${line##*[![:space:]]}"}"
        [ -n "$line" ] || continue
        # With IFS empty, an unquoted word is globbed but not split.
        IFS=
        # shellcheck disable=SC2206 # the globbing is wanted
        paths+=($line)
        unset IFS
    done <<<"$paths_text"
else
    # shellcheck disable=SC2206 # the splitting and globbing are wanted
    paths=($paths_text)
fi
[ ${#paths[@]} -gt 0 ] || paths=(.)
# ${a[@]+"${a[@]}"} below: an empty array under `set -u` in macOS's bash 3.2 too.
base_args=()
[ -n "$base" ] && base_args=(--base "$base")

# 1. Every finding, for code scanning, which compares a pull request's alerts with its base
#    branch's itself (a --base SARIF would hold only the new ones): never --base, never fails.
idemlint check --format sarif --output "$sarif" --fail-on never --quiet -- "${paths[@]}"
sarif_status=$?
[ -n "${GITHUB_OUTPUT:-}" ] && echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"

# 2. The review, under the job's summary (GitHub shows 1 MiB of it; the Markdown review keeps
#    within 60,000 characters).
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    idemlint review ${base_args[@]+"${base_args[@]}"} -- "${paths[@]}" >>"$GITHUB_STEP_SUMMARY"
fi

# 3. The gate, in the log's format: with `github`, each finding is an annotation on its line.
idemlint check ${base_args[@]+"${base_args[@]}"} --format "$format" --fail-on "$fail_on" -- "${paths[@]}"
status=$?
# An input error in the SARIF run (exit 2) fails the step even if the gate passed.
if [ "$status" = 0 ] && [ "$sarif_status" != 0 ]; then
    status=$sarif_status
fi
exit "$status"
