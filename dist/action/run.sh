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
version="${INPUT_VERSION:-latest}"
sarif="${INPUT_SARIF_FILE:-idemlint.sarif}"

if [ "${IDEMLINT_ACTION_NO_INSTALL:-}" != 1 ]; then
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
    "$bin/python" -m pip install --quiet --disable-pip-version-check "$requirement" || exit 2
    export PATH="$bin:$PATH"
    # Later steps of the job can run idemlint too.
    [ -n "${GITHUB_PATH:-}" ] && echo "$bin" >>"$GITHUB_PATH"
fi
idemlint --version

# Paths are split on white space (names with spaces cannot be given); globs are expanded.
# shellcheck disable=SC2206
paths=($paths_text)
base_args=()
[ -n "$base" ] && base_args=(--base "$base")
# ${a[@]+"${a[@]}"}: an empty array under `set -u` in macOS's bash 3.2 too.

# 1. Every finding, for code scanning, which compares a pull request's alerts with its base
#    branch's itself (a --base SARIF would hold only the new ones): never --base, never fails.
idemlint check "${paths[@]}" --format sarif --output "$sarif" --fail-on never --quiet
sarif_status=$?
[ -n "${GITHUB_OUTPUT:-}" ] && echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"

# 2. The review, under the job's summary (GitHub shows 1 MiB of it; the Markdown review keeps
#    within 60,000 characters).
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    idemlint review "${paths[@]}" ${base_args[@]+"${base_args[@]}"} >>"$GITHUB_STEP_SUMMARY"
fi

# 3. The gate, in the log's format: with `github`, each finding is an annotation on its line.
idemlint check "${paths[@]}" ${base_args[@]+"${base_args[@]}"} --format "$format" --fail-on "$fail_on"
status=$?
# An input error in the SARIF run (exit 2) fails the step even if the gate passed.
if [ "$status" = 0 ] && [ "$sarif_status" != 0 ]; then
    status=$sarif_status
fi
exit "$status"
