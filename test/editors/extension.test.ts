import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { chooseServer, type Machine } from "../../editors/vscode/src/server-program.js";
import { statusOf } from "../../editors/vscode/src/status.js";
import { datasetNames } from "../../src/catalog/index.js";
import type { CompileAnswer } from "../../src/lsp/protocol.js";
import { CANONICAL_OPERATORS, directiveName, OPERATOR_SPELLINGS } from "../../src/syntax/index.js";
import { type FakeClient, FakeUri, filterDocument, settle, state } from "./fake-vscode.js";

vi.mock("vscode", async () => (await import("./fake-vscode.js")).vscode);
vi.mock("vscode-languageclient/node", async () => (await import("./fake-vscode.js")).languageClient);

const { activate } = await import("../../editors/vscode/src/extension.js");

const extensionPath = "/home/user/.vscode/extensions/filterc.filterc-0.1.0";
const context = () => ({
  subscriptions: [] as { dispose(): unknown }[],
  asAbsolutePath: (path: string) => `${extensionPath}/${path}`,
});
const manifest = JSON.parse(
  readFileSync(new URL("../../editors/vscode/package.json", import.meta.url), "utf8"),
);

const answer = (overrides: Partial<CompileAnswer> = {}): CompileAnswer => ({
  dataset: "http_requests",
  ok: true,
  filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
  terraform:
    '"{\\"where\\":{\\"key\\":\\"EdgeResponseStatus\\",\\"operator\\":\\"geq\\",\\"value\\":\\"500\\"}}"',
  explanation: "EdgeResponseStatus (int) is at least 500\n1 of 30 comparisons, 70 of 1000 bytes\n",
  stats: { operators: 1, bytes: 70, maxOperators: 30, maxBytes: 1000 },
  errors: 0,
  warnings: 0,
  ...overrides,
});

const temp = mkdtempSync(join(tmpdir(), "filterc-extension-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const program = join(temp, "filterc");
writeFileSync(program, "#!/bin/sh\n");
chmodSync(program, 0o755);

beforeEach(() => state.reset());

/** Waits past the status bar's delay. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 250));

describe("the VS Code extension", () => {
  it("starts the bundled language server for lpf and logpush-filter documents", async () => {
    await activate(context() as never);
    expect(state.clients.length).toBe(1);
    const client = state.clients[0]!;
    expect(client.serverOptions).toEqual({ module: `${extensionPath}/dist/server.js`, transport: 0 });
    expect(client.clientOptions.documentSelector).toEqual([
      { language: "lpf", scheme: "file" },
      { language: "lpf", scheme: "untitled" },
      { language: "logpush-filter", scheme: "file" },
      { language: "logpush-filter", scheme: "untitled" },
    ]);
    expect(state.messages).toEqual([]);
    expect([...state.commands.keys()]).toEqual(
      manifest.contributes.commands.map((c: { command: string }) => c.command),
    );
  });

  it("runs the filterc program filterc.server.path names, in a workspace folder or on PATH", async () => {
    state.settings["filterc.server.path"] = "./filterc";
    state.folders = ["/work/project", temp];
    await activate(context() as never);
    state.settings["filterc.server.path"] = "filterc";
    vi.stubEnv("PATH", `/nowhere:${temp}`);
    try {
      await activate(context() as never);
    } finally {
      vi.unstubAllEnvs();
    }
    for (const client of state.clients)
      expect(client.serverOptions).toEqual({ command: program, args: ["lsp", "--stdio"] });
    expect(state.messages).toEqual([]);
  });

  it("says where it looked when filterc.server.path names no program, and runs the bundled server", async () => {
    state.settings["filterc.server.path"] = "node_modules/.bin/filterc";
    state.folders = ["/work/project", "/work/other"];
    await activate(context() as never);
    const problem =
      'filterc: no program "node_modules/.bin/filterc" found (filterc.server.path); looked at /work/project/node_modules/.bin/filterc, /work/other/node_modules/.bin/filterc. The bundled language server runs instead.';
    expect(state.messages).toEqual([`warning ${problem}`]);
    expect(state.log).toEqual([`warn ${problem}`]);
    expect(state.clients[0]!.serverOptions).toEqual({
      module: `${extensionPath}/dist/server.js`,
      transport: 0,
    });
  });

  it("starts the server again when filterc.server.path changes", async () => {
    await activate(context() as never);
    state.settings["filterc.server.path"] = program;
    for (const listener of state.listeners.configuration)
      await listener({ affectsConfiguration: (section) => section === "filterc.server.path" });
    expect(state.clients.map((client: FakeClient) => client.stopped)).toEqual([true, false]);
    expect(state.clients[1]!.serverOptions).toEqual({ command: program, args: ["lsp", "--stdio"] });
    for (const listener of state.listeners.configuration)
      await listener({ affectsConfiguration: (section) => section === "filterc.dataset" });
    expect(state.clients.length).toBe(2);
  });

  it("shows, copies and explains what the current file compiles to, as the server answers", async () => {
    state.activeTextEditor = { document: filterDocument() };
    state.answer = answer();
    await activate(context() as never);
    await state.commands.get("filterc.showJson")!();
    await state.commands.get("filterc.explain")!();
    // Read-only views of the extension's scheme, beside the filter: no Untitled document to save.
    expect(state.views).toEqual([
      {
        uri: `filterc-view:///errors.lpf/logpush.json?${encodeURIComponent("file:///work/project/errors.lpf")}`,
        texts: [`${answer().filter}\n`],
        beside: true,
      },
      {
        uri: `filterc-view:///errors.lpf/explained.txt?${encodeURIComponent("file:///work/project/errors.lpf")}`,
        texts: [answer().explanation],
        beside: true,
      },
    ]);
    await state.commands.get("filterc.copyJson")!();
    expect(state.clipboard).toBe(answer().filter);
    await state.commands.get("filterc.copyTerraform")!();
    expect(state.clipboard).toBe(answer().terraform);
    expect(state.requests).toContainEqual({
      method: "filterc/compile",
      params: { textDocument: { uri: "file:///work/project/errors.lpf" } },
    });
    expect(state.messages).toEqual([
      "status filterc: copied the filter's Logpush JSON",
      "status filterc: copied the filter as a Terraform string",
    ]);
  });

  it("keeps its views following the filter as it is edited, and shows each one once", async () => {
    state.activeTextEditor = { document: filterDocument() };
    state.answer = answer();
    await activate(context() as never);
    await state.commands.get("filterc.showJson")!();
    // An edit: the server publishes diagnostics, and the view asks for its text again.
    state.answer = answer({ filter: '{"where":{"key":"BotScore","operator":"lt","value":"30"}}' });
    for (const listener of state.listeners.diagnostics) listener({ uris: [filterDocument().uri] });
    await settle();
    state.answer = answer({ ok: false, filter: null, terraform: null, explanation: null, errors: 1 });
    for (const listener of state.listeners.diagnostics) listener({ uris: [filterDocument().uri] });
    await settle();
    // Another file's diagnostics leave it alone.
    for (const listener of state.listeners.diagnostics)
      listener({ uris: [filterDocument("/work/other.lpf").uri] });
    await settle();
    state.answer = answer();
    await state.commands.get("filterc.showJson")!();
    await settle();
    expect(state.views.map((view) => view.texts)).toEqual([
      [
        `${answer().filter}\n`,
        '{"where":{"key":"BotScore","operator":"lt","value":"30"}}\n',
        "The filter has 1 error; see the Problems panel.\n",
        `${answer().filter}\n`,
      ],
    ]);
  });

  it("opens the evaluation lens's kept sample lines in a view, asking the server for them", async () => {
    await activate(context() as never);
    const { middleware } = state.clients[0]!.clientOptions;
    state.kept = {
      title: "▶ keeps 2 of 5 sample lines (logs/*.ndjson)",
      lines: [
        { uri: "file:///work/project/logs/a.ndjson", line: 0, text: '{"EdgeResponseStatus":502}' },
        { uri: "file:///work/project/logs/a.ndjson", line: 3, text: '{"EdgeResponseStatus":500}' },
      ],
      more: 1,
    };
    const source = "file:///work/project/errors.lpf";
    await middleware.executeCommand("filterc.showKeptSamples", [source], () => {
      throw new Error("the server's command ran instead of the view");
    });
    expect(state.requests).toContainEqual({
      method: "workspace/executeCommand",
      params: { command: "filterc.showKeptSamples", arguments: [source] },
    });
    expect(state.views).toEqual([
      {
        uri: `filterc-view:///errors.lpf/kept-samples.txt?${encodeURIComponent(source)}`,
        texts: [
          '# ▶ keeps 2 of 5 sample lines (logs/*.ndjson)\n{"EdgeResponseStatus":502}\n{"EdgeResponseStatus":500}\n… and 1 more kept line\n',
        ],
        beside: true,
      },
    ]);
    // Other commands go to the server as they would without the extension.
    expect(await middleware.executeCommand("other", [1], (command, args) => [command, args])).toEqual([
      "other",
      [1],
    ]);
  });

  it("sends Terraform files to the server for their diagnostics, and registers nothing else for them", async () => {
    const open = filterDocument("/work/project/main.tf", "terraform", 'locals {\n  a = "b"\n}\n');
    state.textDocuments = [open, filterDocument("/work/project/notes.md", "markdown")];
    await activate(context() as never);
    const vars = filterDocument("/work/project/x.tfvars", "terraform-vars", "a = 1\n");
    for (const listener of state.listeners.openDocument) listener(vars);
    // An untitled Terraform document has no module to be checked in.
    const untitled = {
      ...filterDocument("Untitled-1", "terraform"),
      uri: new FakeUri("untitled", "Untitled-1"),
    };
    for (const listener of state.listeners.openDocument) listener(untitled);
    const edited = { ...open, version: 2, getText: () => "locals {}\n" };
    for (const listener of state.listeners.changeDocument) listener({ document: edited });
    for (const listener of state.listeners.closeDocument) listener(vars);
    for (const listener of state.listeners.closeDocument) listener(vars);
    await settle();
    expect(state.notifications).toEqual([
      {
        method: "textDocument/didOpen",
        params: {
          textDocument: {
            uri: "file:///work/project/main.tf",
            languageId: "terraform",
            version: 1,
            text: 'locals {\n  a = "b"\n}\n',
          },
        },
      },
      {
        method: "textDocument/didOpen",
        params: {
          textDocument: {
            uri: "file:///work/project/x.tfvars",
            languageId: "terraform-vars",
            version: 1,
            text: "a = 1\n",
          },
        },
      },
      {
        method: "textDocument/didChange",
        params: {
          textDocument: { uri: "file:///work/project/main.tf", version: 2 },
          contentChanges: [{ text: "locals {}\n" }],
        },
      },
      { method: "textDocument/didClose", params: { textDocument: { uri: "file:///work/project/x.tfvars" } } },
    ]);
    // The client's own selector (formatting, hover, completion, colours, outline) holds filter documents only.
    expect(JSON.stringify(state.clients[0]!.clientOptions.documentSelector)).not.toContain("terraform");
    // A server started again gets the open Terraform files again.
    state.notifications = [];
    state.textDocuments = [edited];
    state.settings["filterc.server.path"] = program;
    for (const listener of state.listeners.configuration)
      await listener({ affectsConfiguration: (section) => section === "filterc.server.path" });
    expect(state.notifications.map((notification) => notification.method)).toEqual(["textDocument/didOpen"]);
    expect(state.clients.length).toBe(2);
  });

  it("says why there is nothing to show: errors, no filter, no filter file", async () => {
    state.activeTextEditor = { document: filterDocument() };
    state.answer = answer({ ok: false, filter: null, terraform: null, explanation: null, errors: 2 });
    await activate(context() as never);
    await state.commands.get("filterc.copyJson")!();
    state.answer = answer({
      filter: null,
      terraform: null,
      explanation: "no filter: every log line is pushed\n",
    });
    await state.commands.get("filterc.copyTerraform")!();
    state.activeTextEditor = { document: filterDocument("/work/project/notes.md", "markdown") };
    await state.commands.get("filterc.showJson")!();
    expect(state.messages).toEqual([
      "error filterc: the filter has 2 errors; see the Problems panel.",
      "info filterc: no filter: every log line is pushed.",
      "error filterc: open a filter file (.lpf) first.",
    ]);
    expect(state.clipboard).toBe("");
  });

  it("shows the comparisons and bytes in the status bar, for filter files only", async () => {
    state.activeTextEditor = { document: filterDocument() };
    state.answer = answer({ stats: { operators: 25, bytes: 700, maxOperators: 30, maxBytes: 1000 } });
    await activate(context() as never);
    await settled();
    const item = state.statusItems[0]!;
    expect(item).toMatchObject({
      text: "$(filter) 25/30 · 700/1000 B",
      tooltip:
        "filterc: 25 of 30 comparisons, 700 of 1000 bytes (dataset http_requests). Click to explain the filter.",
      backgroundColor: { id: "statusBarItem.warningBackground" },
      command: "filterc.explain",
      visible: true,
    });
    // New diagnostics for the file (an edit, new settings): the figures are asked for again.
    state.answer = answer({ stats: { operators: 2, bytes: 150, maxOperators: 30, maxBytes: 1000 } });
    for (const listener of state.listeners.diagnostics) listener({ uris: [filterDocument().uri] });
    await settled();
    expect(item).toMatchObject({
      text: "$(filter) 2/30 · 150/1000 B",
      backgroundColor: undefined,
      visible: true,
    });
    state.activeTextEditor = { document: filterDocument("/work/project/notes.md", "markdown") };
    for (const listener of state.listeners.activeEditor) listener(state.activeTextEditor);
    await settled();
    expect(item.visible).toBe(false);
  });
});

describe("the status bar's figures", () => {
  const stats = (operators: number, bytes: number) => ({
    operators,
    bytes,
    maxOperators: 30,
    maxBytes: 1000,
  });
  it("turn amber from 80% of a limit and red past it or with errors", () => {
    expect(statusOf(answer({ stats: stats(23, 799) })).level).toBe("ok");
    expect(statusOf(answer({ stats: stats(24, 10) })).level).toBe("warning");
    expect(statusOf(answer({ stats: stats(2, 800) })).level).toBe("warning");
    expect(statusOf(answer({ ok: false, errors: 1, stats: stats(31, 900) }))).toEqual({
      text: "$(filter) 31/30 · 900/1000 B",
      tooltip:
        "filterc: 31 of 30 comparisons, 900 of 1000 bytes (dataset http_requests); 1 error. Click to explain the filter.",
      level: "error",
    });
    expect(statusOf(answer({ ok: false, errors: 3, filter: null, stats: stats(0, 0) }))).toEqual({
      text: "$(error) 3 errors",
      tooltip: "filterc: the filter has 3 errors (dataset http_requests); see the Problems panel",
      level: "error",
    });
    expect(statusOf(answer({ filter: null, stats: stats(0, 0) }))).toEqual({
      text: "$(filter) no filter",
      tooltip: "filterc: no filter: every log line is pushed (dataset http_requests)",
      level: "ok",
    });
  });
});

describe("filterc.server.path", () => {
  const machine = (overrides: Partial<Machine> = {}): Machine => ({
    folders: ["/work/project"],
    path: "/usr/local/bin:/usr/bin",
    platform: "linux",
    isProgram: () => false,
    ...overrides,
  });

  it("finds a bare name on PATH, a relative path in the workspace folders, an absolute path as it is", () => {
    const at = (found: string) => (file: string) => file === found;
    expect(chooseServer("filterc", machine({ isProgram: at("/usr/bin/filterc") }))).toEqual({
      launch: { kind: "program", command: "/usr/bin/filterc" },
    });
    expect(chooseServer("bin/filterc", machine({ isProgram: at("/work/project/bin/filterc") }))).toEqual({
      launch: { kind: "program", command: "/work/project/bin/filterc" },
    });
    expect(chooseServer("/opt/filterc", machine({ isProgram: at("/opt/filterc") }))).toEqual({
      launch: { kind: "program", command: "/opt/filterc" },
    });
    expect(chooseServer("  ", machine())).toEqual({ launch: { kind: "bundled" } });
  });

  it("tries PATHEXT's endings on Windows", () => {
    const windows = machine({ platform: "win32", path: "C:\\tools;C:\\bin", pathExtensions: ".EXE;.CMD" });
    const found = chooseServer("filterc", { ...windows, isProgram: (file) => file.endsWith("filterc.CMD") });
    expect(found.launch).toEqual({
      kind: "program",
      command: expect.stringMatching(/C:\\tools.filterc\.CMD$/),
    });
    expect(chooseServer("filterc", windows).problem).toMatch(
      /looked at C:\\tools.filterc, C:\\tools.filterc\.EXE/,
    );
  });

  it("says what is wrong with a setting that is no text, or names nothing", () => {
    expect(chooseServer(42, machine())).toEqual({
      launch: { kind: "bundled" },
      problem:
        "filterc: filterc.server.path should be a path or a command name, not 42; the bundled language server runs instead.",
    });
    expect(chooseServer("filterc", machine()).problem).toBe(
      'filterc: no program "filterc" found (filterc.server.path); looked at /usr/local/bin/filterc, /usr/bin/filterc. The bundled language server runs instead.',
    );
    expect(chooseServer("bin/filterc", machine({ folders: [] })).problem).toBe(
      'filterc: no program "bin/filterc" found (filterc.server.path); looked at nowhere: no workspace folder is open. The bundled language server runs instead.',
    );
  });
});

describe("the extension's manifest and language files", () => {
  it("offers in its comparison snippet the operators of the vocabulary", () => {
    const snippets = JSON.parse(
      readFileSync(new URL("../../editors/vscode/snippets/lpf.json", import.meta.url), "utf8"),
    );
    const choices = /\$\{2\|([^|]+)\|\}/.exec(snippets.Comparison.body)?.[1]?.split(",");
    expect(choices).toEqual(CANONICAL_OPERATORS);
  });

  it("offers in its dataset snippet a # dataset: directive for each dataset", () => {
    const snippets = JSON.parse(
      readFileSync(new URL("../../editors/vscode/snippets/lpf.json", import.meta.url), "utf8"),
    );
    const [line, rest] = snippets.Dataset.body;
    const choice = /\$\{1\|([^|]+)\|\}/.exec(line);
    expect(choice?.[1]?.split(",")).toEqual([...datasetNames]);
    // Each choice, in the line's place, is the directive the parser reads.
    const written = line.replace(choice![0], "gateway_http");
    expect(directiveName(written)).toEqual({ at: 11, name: "gateway_http" });
    expect(rest).toBe("$0");
  });

  it("takes a field, an operator written with ! and a number each as one word", () => {
    const configuration = JSON.parse(
      readFileSync(new URL("../../editors/vscode/language-configuration.json", import.meta.url), "utf8"),
    );
    const word = new RegExp(`^(?:${configuration.wordPattern})$`);
    const words = [...OPERATOR_SPELLINGS.keys()].filter((spelling) => /^!?[A-Za-z]+$/.test(spelling));
    for (const text of [...words, "ClientRequestHost", "_x9", "500", "-2", "3.5", "1e6"])
      expect(text, text).toMatch(word);
    expect("a.b").not.toMatch(word);
  });

  it("gives Show Logpush JSON an icon in the editor's title bar, for filter files", () => {
    const showJson = manifest.contributes.commands.find(
      (c: { command: string }) => c.command === "filterc.showJson",
    );
    expect(showJson.icon).toBe("$(json)");
    expect(manifest.contributes.menus["editor/title"]).toEqual([
      {
        command: "filterc.showJson",
        when: "editorLangId == lpf || editorLangId == logpush-filter",
        group: "navigation",
      },
    ]);
  });

  it("names Terraform's languages as HashiCorp's extension does, adding no grammar or settings of its own to them", () => {
    const languages = manifest.contributes.languages.filter((language: { id: string }) =>
      language.id.startsWith("terraform"),
    );
    expect(languages).toEqual([
      { id: "terraform", aliases: ["Terraform", "terraform"], extensions: [".tf"] },
      { id: "terraform-vars", aliases: ["Terraform Variables", "terraform-vars"], extensions: [".tfvars"] },
    ]);
    expect(manifest.contributes.grammars.map((grammar: { language: string }) => grammar.language)).toEqual([
      "lpf",
    ]);
  });

  it("describes every setting, and lists the extension's commands in the palette for filter files only", () => {
    const properties = manifest.contributes.configuration.properties;
    expect(Object.keys(properties)).toEqual([
      "filterc.dataset",
      "filterc.maxOperators",
      "filterc.maxBytes",
      "filterc.server.path",
    ]);
    for (const [name, property] of Object.entries<{ markdownDescription?: string }>(properties))
      expect(property.markdownDescription, name).toMatch(/\w+ \w+/);
    expect(properties["filterc.dataset"].default).toBe("http_requests");
    // The server asks for one filterc section (no scopeUri): a folder's own defaults are its filterc.json.
    expect(
      Object.fromEntries(
        Object.entries<{ scope: string }>(properties).map(([name, { scope }]) => [name, scope]),
      ),
    ).toEqual({
      "filterc.dataset": "window",
      "filterc.maxOperators": "window",
      "filterc.maxBytes": "window",
      "filterc.server.path": "machine-overridable",
    });
    const palette = manifest.contributes.menus.commandPalette.map(
      (entry: { command: string }) => entry.command,
    );
    expect(palette).toEqual(
      manifest.contributes.commands.map((command: { command: string }) => command.command),
    );
  });
});
