#!/usr/bin/env bash
# Speed benchmark: wall time of `idemlint check <input> --format json --fail-on never` on the
# public OpenAPI corpus in ../shared/corpus (relative to the repository root).
#
# Usage: bench/run.sh            (from anywhere; it works from the repository root)
#
# Uses hyperfine when it is on PATH (Debian/Ubuntu: `apt-get install hyperfine`; elsewhere
# `cargo install hyperfine`). Without it, or with IDEMLINT_BENCH_NO_HYPERFINE=1, an inline
# python3 timer does the same job: 3 warm-up runs, then 20 timed runs, min / median / mean.
# Either way the table is written to bench/results.md (generated; re-run to refresh) and printed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

CORPUS=../shared/corpus
RESULTS=bench/results.md
BIN=target/release/idemlint
WARMUP=3
RUNS=20

if [[ ! -d $CORPUS ]]; then
    echo "note: $CORPUS not found (expected next to the repository); nothing to benchmark."
    exit 0
fi

inputs=(
    "$CORPUS/stripe/spec3.2023-09-12.yaml"
    "$CORPUS/stripe/spec3.2022-04-12.json"
    "$CORPUS/stripe/spec3.2022-04-12.yaml"
    "$CORPUS/square/api.json"
    "$CORPUS/adyen/CheckoutService-v72.yaml"
    "$CORPUS"
)

cargo build --release

present=()
for input in "${inputs[@]}"; do
    if [[ -e $input ]]; then
        present+=("$input")
    else
        echo "note: $input not found, skipped"
    fi
done

cpu=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
machine="$(nproc) CPUs, ${cpu:-unknown CPU} ($(uname -sm))"
version=$("$BIN" --version)
if [[ -z ${IDEMLINT_BENCH_NO_HYPERFINE:-} ]] && command -v hyperfine >/dev/null; then
    timer="$(hyperfine --version), $WARMUP warm-up + $RUNS runs"
else
    timer="python3 perf_counter timer, $WARMUP warm-up + $RUNS runs"
fi

header="# idemlint benchmark

- machine: $machine
- binary: $version ($BIN)
- command: \`$BIN check <input> --format json --fail-on never --root $CORPUS >/dev/null\`
- timer: $timer
- date: $(date -u +%Y-%m-%dT%H:%MZ)
"
echo
echo "machine: $machine"
echo "idemlint: $version"
echo "timer: $timer"
echo

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

if [[ -z ${IDEMLINT_BENCH_NO_HYPERFINE:-} ]] && command -v hyperfine >/dev/null; then
    cmds=()
    for input in "${present[@]}"; do
        cmds+=(-n "$input" "$BIN check $input --format json --fail-on never --root $CORPUS >/dev/null")
    done
    hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-markdown "$tmp" "${cmds[@]}"
else
    python3 - "$BIN" "$CORPUS" "$WARMUP" "$RUNS" "${present[@]}" >"$tmp" <<'PY'
import statistics, subprocess, sys, time

binary, corpus, warmup, runs, inputs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
print("| input | min [s] | median [s] | mean [s] |")
print("|:---|---:|---:|---:|")
for path in inputs:
    argv = [binary, "check", path, "--format", "json", "--fail-on", "never", "--root", corpus]
    times = []
    for i in range(warmup + runs):
        start = time.perf_counter()
        rc = subprocess.run(argv, stdout=subprocess.DEVNULL).returncode
        elapsed = time.perf_counter() - start
        if rc != 0:
            sys.exit(f"{' '.join(argv)} exited with {rc}")
        if i >= warmup:
            times.append(elapsed)
    print(f"| `{path}` | {min(times):.4f} | {statistics.median(times):.4f} | {statistics.mean(times):.4f} |",
          flush=True)
PY
fi

{ echo "$header"; cat "$tmp"; } >"$RESULTS"
echo
cat "$RESULTS"
