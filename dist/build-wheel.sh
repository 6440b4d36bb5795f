#!/usr/bin/env bash
# Builds the PyPI wheel of idemlint (the binary, no Python code) into dist/wheels/.
#
#   dist/build-wheel.sh              release profile, as published
#   dist/build-wheel.sh --profile P  another cargo profile (CI's quicker dev build, for tests)
#
# maturin comes from PATH, else from a virtualenv this script makes in target/maturin-venv
# (pip, PyPI), so nothing is installed outside the build directory. The cargo build reuses
# CARGO_TARGET_DIR (default target/), so a wheel after `cargo build --release` only links.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=release
case "${1:-}" in
    --profile) profile="${2:?--profile needs a cargo profile name}" ;;
    "") ;;
    *) echo "usage: dist/build-wheel.sh [--profile PROFILE]" >&2; exit 2 ;;
esac
target="${CARGO_TARGET_DIR:-target}"
# No wheel from an earlier build is left to be tested in place of this one, even if this fails.
rm -rf dist/wheels
maturin=$(command -v maturin || true)
if [ -z "$maturin" ]; then
    venv="$target/maturin-venv"
    if [ ! -x "$venv/bin/maturin" ]; then
        # Exit 3: no maturin to be had (no PyPI, no venv), which a caller may take as "skip";
        # any other failure is the build's.
        { python3 -m venv "$venv" &&
            "$venv/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.5,<2.0'; } || {
            echo "dist/build-wheel.sh: could not install maturin from PyPI" >&2
            exit 3
        }
    fi
    maturin="$venv/bin/maturin"
fi
# --locked: the wheel holds the dependencies Cargo.lock names, as `cargo install --locked`.
# maturin checks the binary's glibc symbols and tags the wheel with the oldest manylinux it fits.
"$maturin" build --locked --profile "$profile" --out dist/wheels
ls dist/wheels/*.whl
