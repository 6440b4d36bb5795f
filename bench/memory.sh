#!/usr/bin/env bash
# Peak memory and wall time of idemlint on generated specs of 1, 10 and 100 MB (the bounded-
# memory check of the hostile-input work: the 100 MB spec must stay under 1.5 GB).
#
# Usage: bench/memory.sh [SIZES_IN_MB...]      (default: 1 10 100)
#
# Builds the release binary and the generator (`cargo run --release --example gen_spec`), writes
# the specs to a temporary folder, and measures each run with GNU time (`/usr/bin/time -v`,
# Debian package `time`).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -x /usr/bin/time ]]; then
    echo "error: /usr/bin/time not found (apt-get install time)" >&2
    exit 2
fi

sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1 10 100)

cargo build --release --quiet
cargo build --release --quiet --example gen_spec
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '| spec | bytes | wall time | peak memory (max RSS) | exit |\n|---|---:|---:|---:|---:|\n'
for mb in "${sizes[@]}"; do
    spec="$tmp/${mb}mb.yaml"
    target/release/examples/gen_spec "$mb" > "$spec"
    bytes=$(stat -c %s "$spec")
    set +e
    /usr/bin/time -v target/release/idemlint check "$spec" --root "$tmp" --format json \
        --output "$tmp/report.json" 2> "$tmp/time.txt"
    code=$?
    set -e
    wall=$(grep 'Elapsed (wall clock)' "$tmp/time.txt" | awk '{print $NF}')
    rss_kb=$(grep 'Maximum resident set size' "$tmp/time.txt" | awk '{print $NF}')
    printf '| generated %s MB | %s | %s | %d MiB | %s |\n' "$mb" "$bytes" "$wall" $((rss_kb / 1024)) "$code"
done
