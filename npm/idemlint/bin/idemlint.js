#!/usr/bin/env node
// `npx idemlint`: runs the idemlint binary of this machine's platform package.
//
// The binary is not downloaded by an install script (those are disabled in many CI setups and
// break offline installs); it ships in one npm package per platform, an optional dependency of
// this one, each declaring its `os` and `cpu` so npm installs only the one that fits (esbuild's
// and biome's layout). This file finds it and runs it with the same arguments, standard streams,
// exit code and terminating signal.
"use strict";

const { spawnSync } = require("child_process");
const os = require("os");

// `${process.platform}-${process.arch}` → the package that holds that binary. The release
// workflow builds each of these (.github/workflows/release.yml); a test checks the lists agree.
const PLATFORMS = {
  "darwin-arm64": "@idemlint/cli-darwin-arm64",
  "darwin-x64": "@idemlint/cli-darwin-x64",
  "linux-arm64": "@idemlint/cli-linux-arm64",
  "linux-x64": "@idemlint/cli-linux-x64",
  "win32-x64": "@idemlint/cli-win32-x64",
};

function fail(message) {
  process.stderr.write(`idemlint: ${message}\n`);
  // 2 is idemlint's own code for "could not run" (usage or input error), never "findings".
  process.exit(2);
}

function binary() {
  const platform = `${process.platform}-${process.arch}`;
  const pkg = PLATFORMS[platform];
  if (!pkg) {
    fail(
      `no prebuilt binary for ${platform} (there are: ${Object.keys(PLATFORMS).join(", ")}); ` +
        "install it with `pip install idemlint` or `cargo install idemlint` instead",
    );
  }
  const exe = process.platform === "win32" ? "idemlint.exe" : "idemlint";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    fail(
      `the package ${pkg}, which holds the binary for ${platform}, is not installed; ` +
        "optional dependencies may have been left out (`--omit=optional`, `--no-optional`): " +
        `install it with \`npm install ${pkg}\``,
    );
  }
}

const result = spawnSync(binary(), process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  fail(`could not run ${result.error.path || "the binary"}: ${result.error.message}`);
}
if (result.signal) {
  // Die of the same signal, so a shell or CI sees what the binary saw (130 after Ctrl-C).
  process.kill(process.pid, result.signal);
  // Node ignores some signals (SIGPIPE): then the shell's convention, 128 + the number.
  process.exit(128 + (os.constants.signals[result.signal] || 0));
}
process.exit(result.status);
