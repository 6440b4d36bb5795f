#!/usr/bin/env bash
# The editor server's speed and memory: for the Stripe YAML (4.2 MB; target: a change published
# in ≤ 150 ms) and the Adyen YAML (0.8 MB; target ≤ 40 ms) of ../shared/corpus, the median time
# from a `didChange` to its `publishDiagnostics` over 20 edits made after a pause (so each is
# linted at once, not debounced), and the resident memory after 1,000 edits against after the
# first (target: within 10%).
#
# Usage: bench/lsp.sh [SPEC...]   (default: the Stripe and Adyen YAMLs)
#
# Release build; the client is examples/lsp_bench.rs.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ $# -eq 0 ]]; then
    set -- ../shared/corpus/stripe/spec3.2023-09-12.yaml ../shared/corpus/adyen/CheckoutService-v72.yaml
fi
cargo build --release --quiet --bin idemlint --example lsp_bench
bin=${CARGO_TARGET_DIR:-target}/release/idemlint
bench=${CARGO_TARGET_DIR:-target}/release/examples/lsp_bench
for spec in "$@"; do
    if [[ ! -f $spec ]]; then
        echo "note: $spec not found (the corpus is expected next to the repository); skipped."
        continue
    fi
    "$bench" "$bin" "$spec" 20 1000
done
