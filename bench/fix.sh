#!/usr/bin/env bash
# The cost of fixing: wall time of `check --diff --unsafe-fixes` (what `--fix --unsafe-fixes`
# would write, every pass included, printed as a diff) against a plain `check` of the same file,
# for the 4.2 MB Stripe YAML of ../shared/corpus (the target: under 2 times). `check --fix
# --unsafe-fixes` on a fresh copy is timed too, for the record (it also writes the file).
#
# Usage: bench/fix.sh [SPEC] [RUNS]   (default: the Stripe YAML, 21 runs)
#
# Release build. The runs alternate (plain, --diff, --fix, plain, ...) so that a machine's drift
# affects them alike; the medians and the medians of the pairwise ratios are printed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
spec=${1:-../shared/corpus/stripe/spec3.2023-09-12.yaml}
runs=${2:-21}
if [[ ! -f $spec ]]; then
    echo "note: $spec not found (the corpus is expected next to the repository); nothing to measure."
    exit 0
fi

cargo build --release --quiet
bin=$PWD/target/release/idemlint
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$spec")
cp "$spec" "$tmp/$name"

cd "$tmp"
python3 - "$bin" "$name" "$runs" <<'PY'
import shutil, statistics, subprocess, sys, time

binary, name, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
plain = [binary, "check", name, "--format", "json", "--fail-on", "never", "-o", "/dev/null"]
diff = [binary, "check", "--diff", "--unsafe-fixes", name]
fix = [binary, "check", "--fix", "--unsafe-fixes", "--format", "json", "--fail-on", "never",
       "-o", "/dev/null", "fixed-" + name]

def timed(argv, ok=(0,)):
    start = time.perf_counter()
    rc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    elapsed = time.perf_counter() - start
    if rc not in ok:
        sys.exit(f"{' '.join(argv)} exited with {rc}")
    return elapsed

def fixed():
    # A fresh copy each time, made outside the timed part.
    shutil.copyfile(name, "fixed-" + name)
    return timed(fix)

# --diff exits 1 when there is something to fix.
out = subprocess.run(diff, capture_output=True)
if out.returncode not in (0, 1):
    sys.exit(f"{' '.join(diff)} exited with {out.returncode}: {out.stderr.decode()}")
added = sum(1 for l in out.stdout.splitlines() if l.startswith(b"+") and not l.startswith(b"+++"))
removed = sum(1 for l in out.stdout.splitlines() if l.startswith(b"-") and not l.startswith(b"---"))

for _ in range(2):
    timed(plain), timed(diff, (0, 1)), fixed()
a, b, c = [], [], []
for _ in range(runs):
    a.append(timed(plain))
    b.append(timed(diff, (0, 1)))
    c.append(fixed())
ratio_diff = statistics.median(y / x for x, y in zip(a, b))
ratio_fix = statistics.median(y / x for x, y in zip(a, c))
print(f"spec: {name}, {runs} runs each, alternating; the diff adds {added} lines, removes {removed}")
print(f"| command | min [s] | median [s] | median ratio to check |")
print(f"|:---|---:|---:|---:|")
print(f"| check | {min(a):.3f} | {statistics.median(a):.3f} | 1.00 |")
print(f"| check --diff --unsafe-fixes | {min(b):.3f} | {statistics.median(b):.3f} | {ratio_diff:.2f} |")
print(f"| check --fix --unsafe-fixes | {min(c):.3f} | {statistics.median(c):.3f} | {ratio_fix:.2f} |")
print(f"median ratio --diff / plain: {ratio_diff:.2f} (target: under 2)")
PY
