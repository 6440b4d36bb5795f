// The VS Code side: start `idemlint lsp` over standard input and output and give it the
// YAML and JSON documents. Diagnostics, quick fixes, "Fix all" (`source.fixAll.idemlint`,
// for `editor.codeActionsOnSave`) and hovers all come from the server.

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

import { DOCUMENT_SELECTOR, NOT_FOUND, serverCommand } from "./server";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("idemlint");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("idemlint.restart", () => restart(context)),
    vscode.commands.registerCommand("idemlint.showOutput", () => output?.show()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("idemlint.path")) {
        void restart(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await stop();
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const configured = vscode.workspace.getConfiguration("idemlint").get<string>("path", "");
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const server = serverCommand(configured, context.extensionPath, folder);
  if (server === undefined) {
    void vscode.window.showErrorMessage(NOT_FOUND);
    return;
  }
  output?.appendLine(`starting ${server.command} ${server.args.join(" ")} (from ${server.from})`);
  const serverOptions: ServerOptions = {
    command: server.command,
    args: server.args,
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
  };
  client = new LanguageClient("idemlint", "idemlint", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (e) {
    void vscode.window.showErrorMessage(`idemlint: the server did not start: ${String(e)}`);
    client = undefined;
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.stop();
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stop();
  await start(context);
}
