#!/usr/bin/env bash
# Wall time and peak memory of idemlint on generated multi-file specs laid out like the large
# public ones (one file per operation, shared parameters and responses, code samples that are
# never followed): the root named, and the whole folder walked.
#
# Usage: bench/multi_file.sh [RESOURCES...]      (default: 334 1112, about 3,000 and 10,000 files)
#
# Builds the release binary and the generator (`cargo run --release --example gen_multi`) and
# measures each run with GNU time (`/usr/bin/time -v`, Debian package `time`), median of 5.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ! -x /usr/bin/time ]]; then
    echo "error: /usr/bin/time not found (apt-get install time)" >&2
    exit 2
fi

counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(334 1112)

cargo build --release --quiet
cargo build --release --quiet --example gen_multi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$PWD/target/release/idemlint

measure() { # dir, args...: "wall_s rss_mib exit" of the median run by wall time
    local dir=$1
    shift
    for _ in 1 2 3 4 5; do
        set +e
        (cd "$dir" && /usr/bin/time -f '%e %M' "$bin" check "$@" --format json \
            --output "$tmp/report.json" 2> "$tmp/time.txt")
        local code=$?
        set -e
        read -r wall rss < <(tail -1 "$tmp/time.txt")
        echo "$wall $((rss / 1024)) $code"
    done | sort -n | sed -n 3p
}

printf '| spec | files | loaded | run | wall time | peak memory | exit |\n|---|---:|---:|---|---:|---:|---:|\n'
for n in "${counts[@]}"; do
    dir="$tmp/spec-$n"
    info=$(target/release/examples/gen_multi "$dir" "$n" 2>&1)
    files=$(echo "$info" | awk '{print $1}')
    loaded=$(echo "$info" | awk '{print $(NF-4)}')
    for run in "openapi.yaml" "."; do
        read -r wall rss code < <(measure "$dir" "$run")
        printf '| generated, %s resources | %s | %s | `check %s` | %s s | %s MiB | %s |\n' \
            "$n" "$files" "$loaded" "$run" "$wall" "$rss" "$code"
    done
done
