#!/usr/bin/env bash
# The cost of a change review: wall time of `check --base HEAD` against a plain `check` of the
# same file, for the 4.2 MB Stripe YAML of ../shared/corpus (the target: at most 2.2 times).
#
# Usage: bench/base.sh [SPEC] [RUNS]   (default: the Stripe YAML, 21 runs)
#
# The spec is copied into a fresh git repository in a temporary folder and committed; a small
# change (an extension added to one path item) is left in the work tree, so the run at the
# base reads every byte from git's objects and the run of the work tree from the disk. Runs
# alternate (plain, --base, plain, ...) so that a machine's drift affects both alike; the
# medians and the median of the pairwise ratios are printed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
spec=${1:-../shared/corpus/stripe/spec3.2023-09-12.yaml}
runs=${2:-21}
if [[ ! -f $spec ]]; then
    echo "note: $spec not found (the corpus is expected next to the repository); nothing to measure."
    exit 0
fi
command -v git >/dev/null || { echo "error: git is needed" >&2; exit 2; }

cargo build --release --quiet
bin=$PWD/target/release/idemlint
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$spec")
cp "$spec" "$tmp/$name"
(
    cd "$tmp"
    git init -q
    git add "$name"
    git -c user.name=bench -c user.email=bench@example.com commit -q -m base
)
# A small change to one path item, as a pull request makes.
python3 - "$tmp/$name" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
# (A spec without this path gets a final newline instead: still a change to read.)
if "  /v1/charges:\n" in text:
    text = text.replace("  /v1/charges:\n", "  /v1/charges:\n    x-changed-by-bench: true\n", 1)
else:
    text += "\n"
open(path, "w", encoding="utf-8").write(text)
PY

cd "$tmp"
python3 - "$bin" "$name" "$runs" <<'PY'
import statistics, subprocess, sys, time

binary, name, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
plain = [binary, "check", name, "--format", "json", "--fail-on", "never", "-o", "/dev/null"]
base = plain[:2] + ["--base", "HEAD"] + plain[2:]

def timed(argv):
    start = time.perf_counter()
    rc = subprocess.run(argv, stdout=subprocess.DEVNULL).returncode
    elapsed = time.perf_counter() - start
    if rc != 0:
        sys.exit(f"{' '.join(argv)} exited with {rc}")
    return elapsed

for _ in range(2):
    timed(plain), timed(base)
a, b = [], []
for _ in range(runs):
    a.append(timed(plain))
    b.append(timed(base))
ratios = [y / x for x, y in zip(a, b)]
print(f"spec: {name}, {runs} runs each, alternating")
print(f"| command | min [s] | median [s] |")
print(f"|:---|---:|---:|")
print(f"| check | {min(a):.3f} | {statistics.median(a):.3f} |")
print(f"| check --base HEAD | {min(b):.3f} | {statistics.median(b):.3f} |")
print(f"median ratio --base / plain: {statistics.median(ratios):.2f} (target: at most 2.2)")
PY
