#!/usr/bin/env bash
# Builds the npm packages of idemlint into dist/npm/: the main package `idemlint` (the JS shim
# of npm/idemlint/) and the platform package holding one binary, `@idemlint/cli-<platform>`,
# each as a directory and as the tarball `npm pack` makes of it.
#
#   dist/build-npm.sh [--binary PATH] [--platform PLATFORM] [--out DIR]
#
# PLATFORM is Node's `${process.platform}-${process.arch}` (linux-x64, darwin-arm64, win32-x64,
# ...), with `-musl` for a Linux binary linked with musl (linux-x64-musl), by default this
# machine's; PATH defaults to the release build of this machine. The
# release workflow runs this once per platform with the binary it cross-built. DIR (default
# dist/npm) is emptied first. URL, the source repository, goes into both package.json files:
# npm's provenance needs it to match the repository that publishes.
set -euo pipefail
usage="usage: dist/build-npm.sh [--binary PATH] [--platform PLATFORM] [--out DIR] [--repository URL]"
binary=""
platform=""
out=""
repository=""
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        --platform) platform="${2:?--platform needs a name}"; shift 2 ;;
        --out) out="${2:?--out needs a directory}"; shift 2 ;;
        --repository) repository="${2:?--repository needs a URL}"; shift 2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
done
# Paths given are relative to where the script was run from, not to the repository.
absolute() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
[ -z "$binary" ] || binary=$(absolute "$binary")
[ -z "$out" ] || out=$(absolute "$out")
[ -z "${CARGO_TARGET_DIR:-}" ] || CARGO_TARGET_DIR=$(absolute "$CARGO_TARGET_DIR")
repository="${repository%/}"
cd "$(dirname "$0")/.."
[ -n "$binary" ] || binary="${CARGO_TARGET_DIR:-target}/release/idemlint"
[ -n "$out" ] || out=dist/npm
# DIR is emptied: only if it is missing, empty, or an earlier output of this script (its
# marker file), never a folder of other files given by mistake (`--out dist`, `--out ~`).
marker=.idemlint-npm-out
if [ -e "$out" ] && [ ! -d "$out" ]; then
    echo "$out is not a folder: give another --out" >&2
    exit 2
fi
if [ "$out" != dist/npm ] && [ -d "$out" ] && [ ! -e "$out/$marker" ] && [ -n "$(ls -A "$out")" ]; then
    echo "$out is not empty and is not an earlier output of dist/build-npm.sh: give another --out" >&2
    exit 2
fi
# This machine's, with `-musl` where Node's report names no glibc (Alpine).
[ -n "$platform" ] || platform=$(node -p '
  const linux = process.platform === "linux";
  const musl = linux && !process.report.getReport().header.glibcVersionRuntime;
  `${process.platform}-${process.arch}${musl ? "-musl" : ""}`')
[ -f "$binary" ] || { echo "no binary at $binary: build it first (cargo build --release)" >&2; exit 1; }

# One version: Cargo.toml's. npm/idemlint/package.json names it too (its own version and the
# exact versions of its platform packages), so it is checked rather than rewritten.
version=$(sed -n 's/^version = "\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
# shellcheck disable=SC2016 # the ${...} are JavaScript's template strings, not the shell's
node -e '
const [pkgFile, version, platform] = process.argv.slice(1);
const pkg = require(pkgFile);
const wrong = [];
if (pkg.version !== version) wrong.push(`version is ${pkg.version}`);
for (const [name, v] of Object.entries(pkg.optionalDependencies))
  if (v !== version) wrong.push(`optionalDependencies.${name} is ${v}`);
if (!(`@idemlint/cli-${platform}` in pkg.optionalDependencies))
  wrong.push(`optionalDependencies has no @idemlint/cli-${platform}`);
if (wrong.length) {
  console.error(`npm/idemlint/package.json does not match Cargo.toml (${version}): ${wrong.join("; ")}`);
  process.exit(1);
}' "$PWD/npm/idemlint/package.json" "$version" "$platform"

rm -rf "$out"
mkdir -p "$out"
touch "$out/$marker"
cp -R npm/idemlint "$out/idemlint"
cp README.md LICENSE "$out/idemlint/"

# The platform package: the binary and a package.json whose os/cpu make npm install it only
# where it runs.
pkg="$out/cli-$platform"
exe=idemlint
case "$platform" in win32-*) exe=idemlint.exe ;; esac
mkdir -p "$pkg/bin"
cp LICENSE "$pkg/"
cp "$binary" "$pkg/bin/$exe"
chmod 755 "$pkg/bin/$exe"
# shellcheck disable=SC2016 # the ${...} are JavaScript's template strings, not the shell's
node -e '
const fs = require("fs");
const [dir, main, version, platform, repository] = process.argv.slice(1);
// linux-x64 is the glibc build, linux-x64-musl the musl one.
const [os, cpu, musl] = platform.split("-");
const pkg = {
  name: `@idemlint/cli-${platform}`,
  version,
  description: `The ${platform} binary of idemlint; install the \`idemlint\` package instead`,
  license: "MIT",
  os: [os],
  cpu: [cpu],
  // npm (11.11 and later, and its lock files since) installs only the Linux package of the
  // C library the machine has: a glibc binary does not start on musl (Alpine). The launcher picks
  // the right one where both were installed.
  ...(os === "linux" ? { libc: [musl ? "musl" : "glibc"] } : {}),
  files: ["bin"],
  // Yarn PnP: keep the binary on disk, where it can be executed.
  preferUnplugged: true,
};
for (const [file, data] of [[`${dir}/package.json`, pkg], [`${main}/package.json`, null]]) {
  if (!data && !repository) continue;
  const json = data || JSON.parse(fs.readFileSync(file, "utf8"));
  if (repository) json.repository = { type: "git", url: `git+${repository}.git` };
  fs.writeFileSync(file, JSON.stringify(json, null, 2) + "\n");
}
' "$pkg" "$out/idemlint" "$version" "$platform" "$repository"

for dir in "$out/idemlint" "$pkg"; do
    (cd "$dir" && npm pack --silent --pack-destination ..) >/dev/null
done
ls "$out"/*.tgz
