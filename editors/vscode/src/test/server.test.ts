// `npm test`: which idemlint the extension starts, that its manifest and its selector agree, and,
// when IDEMLINT_BIN names a built binary (tests/vscode.rs sets it), that the command it builds
// starts a server that offers what the extension's docs promise and lints the README's example.

import { strict as assert } from "assert";
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { test } from "node:test";

import { BINARY, DOCUMENT_SELECTOR, expand, onPath, serverCommand } from "../server";

const ROOT = path.join(__dirname, "..", "..");

test("the idemlint.path setting wins, with ~ and ${workspaceFolder} expanded", () => {
  const none = () => false;
  assert.deepEqual(serverCommand("/opt/idemlint", "/ext", "/ws", {}, none), {
    command: "/opt/idemlint",
    args: ["lsp"],
    from: "setting",
  });
  assert.equal(
    serverCommand("${workspaceFolder}/target/release/idemlint", "/ext", "/ws", {}, none)?.command,
    "/ws/target/release/idemlint",
  );
  assert.equal(serverCommand("bin/idemlint", "/ext", "/ws", {}, none)?.command, path.join("/ws", "bin/idemlint"));
  assert.equal(expand("~/bin/idemlint", undefined), path.join(os.homedir(), "bin/idemlint"));
});

test("without a setting: the bundled binary, else PATH, else nothing", () => {
  const bundled = path.join("/ext", "bin", BINARY);
  const onThePath = path.join("/usr/local/bin", BINARY);
  const env = { PATH: ["/nothing", "/usr/local/bin"].join(path.delimiter) };
  assert.equal(serverCommand("", "/ext", undefined, env, (p) => p === bundled || p === onThePath)?.from, "bundled");
  assert.deepEqual(serverCommand("", "/ext", undefined, env, (p) => p === onThePath), {
    command: onThePath,
    args: ["lsp"],
    from: "PATH",
  });
  assert.equal(serverCommand("", "/ext", undefined, env, () => false), undefined);
});

test("PATH lookup finds an executable file and skips a folder or a plain file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "idemlint-vscode-"));
  const folder = path.join(dir, "a");
  const plain = path.join(dir, "b");
  const exec = path.join(dir, "c");
  fs.mkdirSync(path.join(folder, BINARY), { recursive: true });
  fs.mkdirSync(plain);
  fs.writeFileSync(path.join(plain, BINARY), "");
  fs.mkdirSync(exec);
  fs.writeFileSync(path.join(exec, BINARY), "#!/bin/sh\n", { mode: 0o755 });
  const env = { PATH: [folder, plain, exec].join(path.delimiter) };
  const want = process.platform === "win32" ? path.join(plain, BINARY) : path.join(exec, BINARY);
  assert.equal(onPath(BINARY, env), want);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the manifest activates on every language the selector gives the server", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const activation = new Set<string>(manifest.activationEvents);
  for (const s of DOCUMENT_SELECTOR) {
    assert.ok(activation.has(`onLanguage:${s.language}`), s.language);
  }
  const settings = Object.keys(manifest.contributes.configuration.properties);
  assert.deepEqual(settings.sort(), ["idemlint.path", "idemlint.trace.server"]);
  const commands = manifest.contributes.commands.map((c: { command: string }) => c.command);
  const source = fs.readFileSync(path.join(ROOT, "src", "extension.ts"), "utf8");
  for (const c of commands) {
    assert.ok(source.includes(`"${c}"`), `${c} is contributed but not registered`);
  }
});

/** A JSON-RPC peer over a child's standard input and output, as VS Code's client speaks it. */
class Peer {
  private buffer = Buffer.alloc(0);
  private waiting: Array<{ want: (m: any) => boolean; resolve: (m: any) => void }> = [];
  private seen: any[] = [];
  constructor(private child: ReturnType<typeof spawn>) {
    child.stdout!.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const end = this.buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())![1]);
        if (this.buffer.length < end + 4 + length) return;
        const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString("utf8"));
        this.buffer = this.buffer.subarray(end + 4 + length);
        this.seen.push(message);
        this.waiting = this.waiting.filter((w) => (w.want(message) ? (w.resolve(message), false) : true));
      }
    });
  }
  send(message: object): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
    this.child.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin!.write(body);
  }
  next(want: (m: any) => boolean, ms = 60000): Promise<any> {
    const already = this.seen.find(want);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("timed out")), ms);
      this.waiting.push({ want, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }
  all(): any[] {
    return this.seen;
  }
}

test("the command it builds starts a server that lints the example", { skip: !process.env.IDEMLINT_BIN }, async () => {
  const server = serverCommand(process.env.IDEMLINT_BIN!, ROOT, undefined)!;
  assert.equal(server.from, "setting");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "idemlint-vscode-"));
  const spec = path.join(dir, "payments-api.yaml");
  fs.copyFileSync(path.join(ROOT, "..", "..", "examples", "payments-api.yaml"), spec);
  const compose = path.join(dir, "compose.yaml");
  fs.writeFileSync(compose, "services:\n  web:\n    image: nginx\n");
  const child = spawn(server.command, server.args, { cwd: dir, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const peer = new Peer(child);
  const uri = (p: string) => "file://" + p.split(path.sep).map(encodeURIComponent).join("/");

  peer.send({ id: 1, method: "initialize", params: { processId: process.pid, rootUri: uri(dir), capabilities: {} } });
  const init = await peer.next((m) => m.id === 1);
  const caps = init.result.capabilities;
  assert.deepEqual(caps.codeActionProvider.codeActionKinds.sort(), ["quickfix", "source.fixAll.idemlint"]);
  assert.equal(caps.hoverProvider, true);
  peer.send({ method: "initialized", params: {} });
  for (const [p, languageId] of [[compose, "yaml"], [spec, "yaml"]]) {
    peer.send({
      method: "textDocument/didOpen",
      params: { textDocument: { uri: uri(p), languageId, version: 1, text: fs.readFileSync(p, "utf8") } },
    });
  }
  const published = await peer.next(
    (m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri(spec) && m.params.diagnostics.length > 0,
  );
  const codes = published.params.diagnostics.map((d: any) => `${d.code}@${d.range.start.line + 1}`).sort();
  assert.deepEqual(codes, [
    "conflict-without-retry-after@201",
    "incremental-update@137",
    "missing-conflict-response@174",
    "missing-idempotency-key@79",
    "unprotected-patch@110",
  ]);
  const other = peer
    .all()
    .filter((m) => m.method === "textDocument/publishDiagnostics" && m.params.uri === uri(compose));
  assert.ok(other.every((m) => m.params.diagnostics.length === 0), "a YAML file that is no spec is left alone");

  peer.send({ id: 2, method: "shutdown" });
  await peer.next((m) => m.id === 2);
  peer.send({ method: "exit" });
  assert.equal(await exited, 0);
  fs.rmSync(dir, { recursive: true, force: true });
});
