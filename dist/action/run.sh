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

if [ "${IDEMLINT_ACTION_NO_INSTALL:-}" != 1 ]; then
    # The version of this action's own release unless `version` says otherwise: a workflow
    # pinned to `@v0.1.0` keeps linting with 0.1.0 when 0.2.0 adds rules.
    if [ -z "$version" ]; then
        version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$here/../../Cargo.toml" | head -n 1)
    fi
    # A virtualenv of its own: the runners' system Pythons refuse `pip install` (PEP 668).
    venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/idemlint-venv"
    python=$(command -v python3 || command -v python) || {
        echo "::error title=idemlint::no Python on this runner to install idemlint with (actions/setup-python)"
        exit 2
    }
    "$python" -m venv "$venv" || exit 2
    bin="$venv/bin"
    [ -d "$venv/Scripts" ] && bin="$venv/Scripts" # Windows
    requirement=idemlint
    [ "$version" = latest ] || requirement="idemlint==$version"
    # --only-binary: a platform without a wheel fails here in seconds, rather than building
    # the source distribution, which needs a Rust toolchain and minutes.
    if ! "$bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary idemlint "$requirement"; then
        echo "::error title=idemlint::could not install $requirement from PyPI with pip: set the action's \`version\` to a released version, or \`latest\`"
        exit 2
    fi
    # On Windows the venv's folder is a Windows path: bash's PATH wants /c/..., while the job's
    # PATH file (read by the runner, not by bash) wants C:\....
    job_bin="$bin"
    if command -v cygpath >/dev/null 2>&1; then
        bin=$(cygpath -u "$bin")
        job_bin=$(cygpath -w "$bin")
    fi
    export PATH="$bin:$PATH"
    # Later steps of the job can run idemlint too.
    [ -n "${GITHUB_PATH:-}" ] && echo "$job_bin" >>"$GITHUB_PATH"
fi
idemlint --version

# Paths: one per line when the input has several lines (names may hold spaces; each line is
# trimmed, blank ones skipped), else separated by spaces. Each is a glob, expanded by the
# shell; one that matches nothing is passed as it is, and `check` says it does not exist.
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
base_args=()
[ -n "$base" ] && base_args=(--base "$base")
# ${a[@]+"${a[@]}"}: an empty array under `set -u` in macOS's bash 3.2 too.

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
