#!/usr/bin/env bash
# `idemlint probe`'s speed: a spec of N operations (default 50), each a POST with a required
# Idempotency-Key, probed against the local correct server of the tests
# (examples/probe_server.rs, which takes DELAY ms to process a new request, default 20, so that
# the concurrent check's requests overlap). Each operation gets the four keyed checks: 11
# requests. Target: 50 operations in under 10 s.
#
# Usage: bench/probe.sh [N] [DELAY_MS]
#
# Release build. Only 127.0.0.1 is contacted.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
n=${1:-50}
delay=${2:-20}
cargo build --release --quiet --bin idemlint --example probe_server
bin=${CARGO_TARGET_DIR:-target}/release/idemlint
server=${CARGO_TARGET_DIR:-target}/release/examples/probe_server
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

{
    printf 'openapi: 3.0.3\ninfo: {title: Bench, version: "1"}\n'
    printf 'components:\n  parameters:\n    Key:\n      name: Idempotency-Key\n      in: header\n'
    printf '      required: true\n      description: A client-generated UUID v4. Keys are kept for 24 hours.\n'
    printf '      schema: {type: string, format: uuid, maxLength: 36}\n'
    printf '  responses:\n    Conflict:\n      description: A request with this key is in progress.\n'
    printf '      headers: {Retry-After: {schema: {type: integer, minimum: 1}}}\n'
    printf 'paths:\n'
    for i in $(seq 1 "$n"); do
        printf '  /things%d:\n    post:\n      operationId: createThing%d\n' "$i" "$i"
        printf '      parameters: [{$ref: "#/components/parameters/Key"}]\n'
        printf '      requestBody:\n        required: true\n        content:\n          application/json:\n'
        printf '            schema: {type: object, required: [name, count], properties: {name: {type: string}, count: {type: integer, minimum: 1}}}\n'
        printf '      responses:\n        "201": {description: Created. A retry with the same key gets this response again.}\n'
        printf '        "400": {description: The Idempotency-Key header is missing.}\n'
        printf '        "409": {$ref: "#/components/responses/Conflict"}\n'
        printf '        "422": {description: The key was used with a different payload.}\n'
    done
} > "$work/api.yaml"

"$server" correct "$delay" > "$work/url" &
pid=$!
for _ in $(seq 50); do [[ -s $work/url ]] && break; sleep 0.1; done
url=$(cat "$work/url")

start=$(date +%s.%N)
set +e
"$bin" probe "$work/api.yaml" --base-url "$url" --max-requests $((n * 11)) --color never > "$work/out"
code=$?
set -e
end=$(date +%s.%N)
tail -n 3 "$work/out"
findings=$(grep -c '^POST .*FINDING' "$work/out" || true)
printf '%d operations, %d requests, %s ms processing: %.2f s (exit %d, %d operations with findings)\n' \
    "$n" "$((n * 11))" "$delay" "$(echo "$end - $start" | bc)" "$code" "$findings"
