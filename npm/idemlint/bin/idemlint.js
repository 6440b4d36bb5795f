#!/usr/bin/env node
// `npx idemlint`: runs the idemlint binary of this machine's platform package.
//
// The binary is not downloaded by an install script (those are disabled in many CI setups and
// break offline installs); it ships in one npm package per platform, an optional dependency of
// this one, each declaring its `os`, `cpu` (and on Linux `libc`) so npm installs only the one
// that fits (esbuild's and biome's layout). This file finds it and runs it with the same
// arguments and standard streams; signals sent to this process go on to the binary, and this
// process ends with the binary's exit code or dies of the signal that ended it.
"use strict";

const { spawn } = require("child_process");
const os = require("os");

// `${process.platform}-${process.arch}` → the package that holds that binary. The release
// workflow builds each of these (.github/workflows/release.yml); a test checks the lists agree.
// Linux has two of each: glibc's and musl's (Alpine), of which npm installs the one whose
// `libc` fits, so the launcher takes whichever is there.
const PLATFORMS = {
  "darwin-arm64": ["@idemlint/cli-darwin-arm64"],
  "darwin-x64": ["@idemlint/cli-darwin-x64"],
  "linux-arm64": ["@idemlint/cli-linux-arm64", "@idemlint/cli-linux-arm64-musl"],
  "linux-x64": ["@idemlint/cli-linux-x64", "@idemlint/cli-linux-x64-musl"],
  "win32-x64": ["@idemlint/cli-win32-x64"],
};

const OTHER_WAYS = "install it with `pip install idemlint` or `cargo install idemlint` instead";

function fail(message) {
  process.stderr.write(`idemlint: ${message}\n`);
  // 2 is idemlint's own code for "could not run" (usage or input error), never "findings".
  process.exit(2);
}

// Whether this Linux runs on musl (Alpine) rather than glibc: Node's own report names glibc's
// version, or none. Asked only to name the missing package, since building the report can be
// slow on some hosts (its network section: left out).
function isMusl() {
  if (process.platform !== "linux") return false;
  try {
    process.report.excludeNetwork = true;
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

function binary() {
  const platform = `${process.platform}-${process.arch}`;
  const packages = PLATFORMS[platform];
  if (!packages) {
    fail(
      `no prebuilt binary for ${platform} (there are: ${Object.keys(PLATFORMS).join(", ")}); ` +
        OTHER_WAYS,
    );
  }
  const exe = process.platform === "win32" ? "idemlint.exe" : "idemlint";
  const installed = [];
  for (const pkg of packages) {
    try {
      installed.push([pkg, require.resolve(`${pkg}/bin/${exe}`)]);
    } catch {
      // Not installed.
    }
  }
  if (installed.length === 1) return installed[0];
  // Both Linux builds can be there (npm before 11.11 wrote no `libc` into package-lock.json,
  // yarn 1 ignores it, node_modules copied from another machine): take the C library's. With
  // none, name the package this machine needs.
  const musl = isMusl();
  const fits = installed.find(([pkg]) => pkg.endsWith("-musl") === musl);
  if (fits) return fits;
  const pkg = packages.find((p) => p.endsWith("-musl") === musl) || packages[0];
  fail(
    `the package ${pkg}, which holds the binary for ${pkg.replace("@idemlint/cli-", "")}, is ` +
      "not installed; optional dependencies may have been left out (`--omit=optional`, " +
      `\`--no-optional\`): install it with \`npm install ${pkg}\``,
  );
}

const [pkg, path] = binary();
const child = spawn(path, process.argv.slice(2), { stdio: "inherit" });

// A signal sent to this process (a CI runner cancelling the job, `kill`, a terminal closing)
// goes on to the binary, which then ends as it would have if run directly; this process waits
// for it rather than leaving it running. Ctrl-C in a terminal reaches both: the binary's copy
// is the one that counts. On Windows, Ctrl-C reaches the binary from the console and Node's
// `kill` would terminate it outright, so the launcher only keeps itself alive.
const FORWARDED =
  process.platform === "win32" ? [] : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR2", "SIGALRM"];
const IGNORED = process.platform === "win32" ? ["SIGINT", "SIGBREAK"] : [];
for (const signal of FORWARDED) {
  process.on(signal, () => {
    try {
      child.kill(signal);
    } catch {
      // The binary has already ended: its exit ends this process.
    }
  });
}
for (const signal of IGNORED) process.on(signal, () => {});

child.on("error", (error) => {
  // After the binary started, an error is a failed `kill` (it ended meanwhile): its exit
  // follows, and ends this process.
  if (child.pid !== undefined) return;
  if (error.code === "ENOENT" && process.platform === "linux") {
    // The file is there (it was resolved), so what is missing is its loader: a glibc binary
    // on musl, or the other way round.
    const other = pkg.endsWith("-musl") ? pkg.slice(0, -"-musl".length) : `${pkg}-musl`;
    fail(
      `could not run ${path}: it is the build for another C library than this machine's ` +
        `(glibc or musl); install \`${other}\` instead`,
    );
  }
  fail(`could not run ${error.path || "the binary"}: ${error.code || error.message}`);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, so a shell or CI sees what the binary saw (130 after Ctrl-C).
    for (const s of FORWARDED) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    // Node ignores some signals (SIGPIPE): then the shell's convention, 128 + the number.
    process.exit(128 + (os.constants.signals[signal] || 0));
  }
  process.exit(code === null ? 2 : code);
});
