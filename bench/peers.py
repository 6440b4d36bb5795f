#!/usr/bin/env python3
"""idemlint beside its peers, measured in the same run.

Builds idemlint in release mode, installs Spectral and Redocly from the npm registry into a
temporary folder, writes for Spectral a one-rule ruleset equivalent to idemlint's
`missing-idempotency-key` (a POST without an `Idempotency-Key` header parameter), and runs each
tool on the large specs of ../shared/corpus and on generated specs of 1, 10 and 100 MB (plus a
13 MB one-line JSON the size of GitHub's REST description). `jq empty` on the JSON files is the
parse floor. Prints a table of median wall time, peak memory (max RSS) and each peer's ratio to
idemlint; then idemlint on a directory of 200 generated specs, with `--jobs 1` and with all
cores.

    bench/peers.py                   # everything (takes a while: peers are slow on 100 MB)
    bench/peers.py --runs 5 --sizes 1,10 --no-peers

Not run in CI. Needs cargo, node/npm (for the peers) and python3; jq is optional.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus"))
SPECTRAL = "@stoplight/spectral-cli@6.16.3"
REDOCLY = "@redocly/cli@2.77.0"

# Spectral's equivalent of missing-idempotency-key: every POST must declare an
# Idempotency-Key header parameter (Spectral resolves $refs before running rules).
RULESET = """\
rules:
  post-needs-idempotency-key:
    description: POST without an Idempotency-Key header parameter
    severity: error
    given: "$.paths[*].post"
    then:
      field: parameters
      function: schema
      functionOptions:
        schema:
          type: array
          contains:
            type: object
            required: [name, in]
            properties:
              name: { pattern: "^[Ii]dempotency-[Kk]ey$" }
              in: { const: header }
"""


def run_once(cmd, timeout):
    """Wall seconds and peak RSS (MiB) of one run, or None on timeout."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            return time.perf_counter() - start, usage.ru_maxrss / 1024
        if time.perf_counter() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            return None
        time.sleep(0.002)


def measure(cmd, runs, timeout):
    """(median seconds, max peak MiB), or None when a run timed out."""
    times, peaks = [], []
    for _ in range(runs):
        r = run_once(cmd, timeout)
        if r is None:
            return None
        times.append(r[0])
        peaks.append(r[1])
    return statistics.median(times), max(peaks)


def cell(m):
    if m is None:
        return "timeout"
    seconds, peak = m
    return f"{seconds:.3f} s, {peak:.0f} MiB"


def ratio(peer, ours):
    if peer is None or ours is None:
        return "—"
    return f"{peer[0] / ours[0]:.1f}x"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs of idemlint and jq per input")
    ap.add_argument("--peer-runs", type=int, default=3, help="runs of each peer per input")
    ap.add_argument("--sizes", default="1,10,100", help="generated spec sizes in MB")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is cut")
    ap.add_argument("--no-peers", action="store_true", help="idemlint and jq only")
    args = ap.parse_args()

    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--example", "gen_spec"], cwd=ROOT, check=True
    )
    idemlint = os.path.join(ROOT, "target", "release", "idemlint")
    gen = os.path.join(ROOT, "target", "release", "examples", "gen_spec")
    tmp = tempfile.mkdtemp(prefix="idemlint-bench-")
    try:
        spectral = redocly = None
        if not args.no_peers:
            npm = os.path.join(tmp, "npm")
            print(f"installing {SPECTRAL} and {REDOCLY} into {npm} ...", file=sys.stderr)
            subprocess.run(
                ["npm", "install", "--prefix", npm, "--no-audit", "--no-fund", "--loglevel=error",
                 SPECTRAL, REDOCLY],
                check=True,
            )
            spectral = os.path.join(npm, "node_modules", ".bin", "spectral")
            redocly = os.path.join(npm, "node_modules", ".bin", "redocly")
            with open(os.path.join(tmp, "ruleset.yaml"), "w") as f:
                f.write(RULESET)
        os.environ["REDOCLY_TELEMETRY"] = "off"
        os.environ["REDOCLY_SUPPRESS_UPDATE_NOTICE"] = "true"

        inputs = []
        for rel in [
            "stripe/spec3.2023-09-12.yaml",
            "stripe/spec3.2022-04-12.json",
            "square/api.json",
            "adyen/CheckoutService-v72.yaml",
        ]:
            path = os.path.join(CORPUS, rel)
            if os.path.isfile(path):
                inputs.append((rel, path))
        for mb in [s for s in args.sizes.split(",") if s]:
            path = os.path.join(tmp, f"generated-{mb}mb.yaml")
            with open(path, "wb") as f:
                subprocess.run([gen, mb], stdout=f, check=True)
            inputs.append((f"generated {mb} MB (YAML)", path))
        path = os.path.join(tmp, "generated-13mb.json")
        with open(path, "wb") as f:
            subprocess.run([gen, "13", "json"], stdout=f, check=True)
        inputs.append(("generated 13 MB (JSON, GitHub-sized)", path))

        jq = shutil.which("jq")
        rows = []
        for name, path in inputs:
            size = os.path.getsize(path) / 1e6
            ours = measure(
                [idemlint, "check", path, "--root", os.path.dirname(path), "--format", "json",
                 "--fail-on", "never"],
                args.runs, args.timeout,
            )
            row = {"input": name, "size": size, "idemlint": ours}
            if spectral:
                row["spectral"] = measure(
                    [spectral, "lint", path, "--ruleset", os.path.join(tmp, "ruleset.yaml"),
                     "--format", "json", "--quiet"],
                    args.peer_runs, args.timeout,
                )
                row["redocly"] = measure(
                    [redocly, "lint", path, "--format", "summary"],
                    args.peer_runs, args.timeout,
                )
            if jq and path.endswith(".json"):
                row["jq"] = measure([jq, "empty", path], args.runs, args.timeout)
            rows.append(row)
            print(f"measured {name}", file=sys.stderr)

        print(f"\nidemlint {subprocess.run([idemlint, '--version'], capture_output=True, text=True).stdout.strip()}, "
              f"{SPECTRAL} (one rule), {REDOCLY} (recommended rules); median of "
              f"{args.runs} (peers {args.peer_runs}) runs; peak = max RSS\n")
        head = "| input | MB | idemlint |"
        rule = "|---|---:|---:|"
        if not args.no_peers:
            head += " Spectral, 1 rule | ratio | Redocly | ratio |"
            rule += "---:|---:|---:|---:|"
        head += " `jq empty` |"
        rule += "---:|"
        print(head)
        print(rule)
        for r in rows:
            line = f"| {r['input']} | {r['size']:.1f} | {cell(r['idemlint'])} |"
            if not args.no_peers:
                line += (f" {cell(r['spectral'])} | {ratio(r['spectral'], r['idemlint'])} |"
                         f" {cell(r['redocly'])} | {ratio(r['redocly'], r['idemlint'])} |")
            line += f" {cell(r['jq']) if 'jq' in r else '—'} |"
            print(line)

        # A directory of 200 generated specs of mixed sizes (0.05 to 2 MB), one thread against
        # all cores.
        many = os.path.join(tmp, "many")
        os.makedirs(many)
        for i in range(200):
            mb = [0.05, 0.1, 0.2, 0.5, 1, 2][i % 6]
            with open(os.path.join(many, f"spec{i:03}.yaml"), "wb") as f:
                subprocess.run([gen, str(mb)], stdout=f, check=True)
        total = sum(os.path.getsize(os.path.join(many, n)) for n in os.listdir(many)) / 1e6
        base = [idemlint, "check", many, "--root", many, "--format", "json", "--fail-on", "never"]
        one = measure(base + ["--jobs", "1"], args.runs, args.timeout)
        all_cores = measure(base, args.runs, args.timeout)
        print(f"\n200 generated specs ({total:.0f} MB in all), {os.cpu_count()} cores:\n")
        print("| idemlint `--jobs 1` | idemlint (all cores) | speed-up |")
        print("|---:|---:|---:|")
        print(f"| {cell(one)} | {cell(all_cores)} | {ratio(one, all_cores)} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
