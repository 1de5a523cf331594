import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  type Middleware,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import {
  COMPILE_REQUEST,
  type CompileAnswer,
  type CompileParams,
  type KeptSamples,
  SHOW_KEPT_SAMPLES_COMMAND,
} from "../../../src/lsp/protocol.js";
import { chooseServer, isProgram, SETTING } from "./server-program.js";
import { statusOf } from "./status.js";
import { TerraformSync } from "./terraform.js";
import { FilterViews, VIEW_SCHEME } from "./views.js";

/*
 * The VS Code extension: the filterc language server (bundled, or the program filterc.server.path
 * names) for filter documents, and for the diagnostics of Terraform documents (terraform.ts);
 * commands that show (in read-only views that follow the file, views.ts), copy and explain what
 * the current file compiles to, the evaluation lens's kept lines, and a status bar item with its
 * comparisons and bytes against the limits. The server computes all of it (`filterc/compile`,
 * `filterc.showKeptSamples`), with the document's own settings.
 */

/** The language ids served: the extension's own, and the id the server also knows filters by. */
export const LANGUAGES = ["lpf", "logpush-filter"];

/** How long after a change the status bar asks for the figures again. */
const STATUS_DELAY_MS = 150;

const isFilter = (document: vscode.TextDocument | undefined): document is vscode.TextDocument =>
  document !== undefined && LANGUAGES.includes(document.languageId);

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("filterc", { log: true });
  context.subscriptions.push(output);
  const views = new FilterViews({
    compile: (uri) =>
      client.sendRequest<CompileAnswer | null>(COMPILE_REQUEST, {
        textDocument: { uri },
      } satisfies CompileParams),
    keptSamples: (uri) =>
      client.sendRequest<KeptSamples | null>(ExecuteCommandRequest.type.method, {
        command: SHOW_KEPT_SAMPLES_COMMAND,
        arguments: [uri],
      }),
  });
  // The evaluation lens's command opens its view, which asks the server for the lines.
  const middleware: Middleware = {
    executeCommand: (command, args, next) =>
      command === SHOW_KEPT_SAMPLES_COMMAND && typeof args[0] === "string"
        ? views.show("kept", vscode.Uri.parse(args[0]))
        : next(command, args),
  };
  let client = await startClient(context, output, middleware);
  const terraform = new TerraformSync(() => client);
  await terraform.openAll();

  context.subscriptions.push(
    { dispose: () => void client.stop() },
    views,
    terraform,
    vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, views),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme === VIEW_SCHEME) views.closed(document);
    }),
    vscode.workspace.onDidChangeConfiguration(async (change) => {
      if (!change.affectsConfiguration(SETTING)) return;
      await client.stop();
      client = await startClient(context, output, middleware);
      await terraform.openAll();
    }),
  );

  /** What the active filter document compiles to; undefined, with a message, when there is none. */
  const compiled = async (): Promise<CompileAnswer | undefined> => {
    const document = vscode.window.activeTextEditor?.document;
    if (!isFilter(document)) {
      void vscode.window.showErrorMessage("filterc: open a filter file (.lpf) first.");
      return undefined;
    }
    const params: CompileParams = { textDocument: { uri: document.uri.toString() } };
    const answer = await client.sendRequest<CompileAnswer | null>(COMPILE_REQUEST, params);
    if (!answer) return undefined;
    if (!answer.ok) {
      void vscode.window.showErrorMessage(
        `filterc: the filter has ${answer.errors === 1 ? "an error" : `${answer.errors} errors`}; see the Problems panel.`,
      );
      return undefined;
    }
    return answer;
  };

  /** The JSON or its Terraform string: undefined, with a message, for the empty filter. */
  const filterOf = async (form: "filter" | "terraform"): Promise<string | undefined> => {
    const answer = await compiled();
    if (answer && answer[form] === null)
      void vscode.window.showInformationMessage("filterc: no filter: every log line is pushed.");
    return answer?.[form] ?? undefined;
  };

  const copy = async (text: string | undefined, what: string) => {
    if (text === undefined) return;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`filterc: copied ${what}`, 3000);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand("filterc.showJson", async () => {
      const filter = await filterOf("filter");
      const document = vscode.window.activeTextEditor?.document;
      if (filter !== undefined && document) await views.show("json", document.uri);
    }),
    vscode.commands.registerCommand("filterc.copyJson", async () =>
      copy(await filterOf("filter"), "the filter's Logpush JSON"),
    ),
    vscode.commands.registerCommand("filterc.copyTerraform", async () =>
      copy(await filterOf("terraform"), "the filter as a Terraform string"),
    ),
    vscode.commands.registerCommand("filterc.explain", async () => {
      const answer = await compiled();
      const document = vscode.window.activeTextEditor?.document;
      if (answer?.explanation && document) await views.show("explain", document.uri);
    }),
  );

  const status = vscode.window.createStatusBarItem("filterc.limits", vscode.StatusBarAlignment.Right, 100);
  status.name = "filterc: comparisons and bytes";
  status.command = "filterc.explain";
  context.subscriptions.push(status);
  let pending: ReturnType<typeof setTimeout> | undefined;
  const showStatus = async () => {
    const document = vscode.window.activeTextEditor?.document;
    if (!isFilter(document)) {
      status.hide();
      return;
    }
    const params: CompileParams = { textDocument: { uri: document.uri.toString() } };
    const answer = await client.sendRequest<CompileAnswer | null>(COMPILE_REQUEST, params).catch(() => null);
    if (!answer || vscode.window.activeTextEditor?.document !== document) return;
    const view = statusOf(answer);
    status.text = view.text;
    status.tooltip = view.tooltip;
    status.backgroundColor =
      view.level === "ok" ? undefined : new vscode.ThemeColor(`statusBarItem.${view.level}Background`);
    status.show();
  };
  const showStatusSoon = () => {
    clearTimeout(pending);
    pending = setTimeout(() => void showStatus(), STATUS_DELAY_MS);
  };
  context.subscriptions.push(
    { dispose: () => clearTimeout(pending) },
    vscode.window.onDidChangeActiveTextEditor(showStatusSoon),
    // The server publishes diagnostics after every change and every change of settings.
    vscode.languages.onDidChangeDiagnostics((change) => {
      const uri = vscode.window.activeTextEditor?.document.uri.toString();
      if (change.uris.some((changed) => changed.toString() === uri)) showStatusSoon();
      for (const changed of change.uris) views.sourceChanged(changed.toString());
    }),
  );
  showStatusSoon();
}

/** Starts the language server the settings choose, saying why when it is not the one asked for. */
async function startClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  middleware: Middleware,
): Promise<LanguageClient> {
  const choice = chooseServer(vscode.workspace.getConfiguration().get(SETTING), {
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
    path: process.env.PATH ?? "",
    platform: process.platform,
    pathExtensions: process.env.PATHEXT,
    isProgram,
  });
  if (choice.problem) {
    output.warn(choice.problem);
    void vscode.window.showWarningMessage(choice.problem);
  }
  const server: ServerOptions =
    choice.launch.kind === "bundled"
      ? { module: context.asAbsolutePath("dist/server.js"), transport: TransportKind.stdio }
      : { command: choice.launch.command, args: ["lsp", "--stdio"] };
  const client = new LanguageClient("filterc", "filterc", server, {
    documentSelector: LANGUAGES.flatMap((language) => [
      { language, scheme: "file" },
      { language, scheme: "untitled" },
    ]),
    outputChannel: output,
    middleware,
  });
  await client.start();
  return client;
}

export function deactivate(): void {}
