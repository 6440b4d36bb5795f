// What the extension starts and for which documents, kept apart from the VS Code API so that
// `npm test` can check it with Node alone.

import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/** The binary's file name on this platform. */
export const BINARY = process.platform === "win32" ? "idemlint.exe" : "idemlint";

/**
 * The documents given to the server: YAML and JSON files. The server itself tells an OpenAPI
 * description (or a file one reaches through `$ref`) from any other YAML or JSON and leaves
 * those alone, so the selector need not guess from file names.
 */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "yaml" },
  { scheme: "file", language: "json" },
  { scheme: "file", language: "jsonc" },
];

/** How the server is started, and where its binary was found (for messages). */
export interface ServerCommand {
  command: string;
  args: string[];
  from: "setting" | "bundled" | "PATH";
}

/**
 * `~` and `${workspaceFolder}` in a configured path, as VS Code users write them in settings.
 */
export function expand(configured: string, workspaceFolder: string | undefined): string {
  let p = configured.trim();
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) {
    p = path.join(os.homedir(), p.slice(1));
  }
  if (workspaceFolder !== undefined) {
    p = p.split("${workspaceFolder}").join(workspaceFolder);
  }
  return p;
}

/** The first `name` on `PATH` that is a file (with `PATHEXT`'s extensions on Windows). */
export function onPath(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  isFile: (p: string) => boolean = isExecutableFile,
): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? "").split(path.delimiter).filter((d) => d.length > 0);
  const exts =
    process.platform === "win32" && path.extname(name) === ""
      ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")
      : [""];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (isFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    if (process.platform !== "win32") {
      fs.accessSync(p, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Which idemlint to start: the `idemlint.path` setting when set, else a binary bundled in the
 * extension's `bin/` (a platform `.vsix`), else `idemlint` on `PATH`. `undefined` when there is
 * none, so the extension can say how to install it rather than fail to spawn.
 */
export function serverCommand(
  configured: string,
  extensionPath: string,
  workspaceFolder: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  isFile: (p: string) => boolean = isExecutableFile,
): ServerCommand | undefined {
  const args = ["lsp"];
  if (configured.trim() !== "") {
    const p = expand(configured, workspaceFolder);
    let command: string;
    if (path.isAbsolute(p)) {
      command = p;
    } else if (p.includes("/") || p.includes("\\")) {
      // A relative path is the workspace's, as in the other settings that name files.
      command = workspaceFolder === undefined ? p : path.join(workspaceFolder, p);
    } else {
      // A bare name is looked up on PATH, as a shell would.
      command = onPath(p, env, isFile) ?? p;
    }
    return { command, args, from: "setting" };
  }
  const bundled = path.join(extensionPath, "bin", BINARY);
  if (isFile(bundled)) {
    return { command: bundled, args, from: "bundled" };
  }
  const found = onPath(BINARY, env, isFile);
  return found === undefined ? undefined : { command: found, args, from: "PATH" };
}

/** What to tell a user whose machine has no idemlint. */
export const NOT_FOUND =
  "idemlint was not found on PATH. Install it (`cargo install idemlint`) or set `idemlint.path` " +
  "to the binary, then run `idemlint: Restart the server`.";
