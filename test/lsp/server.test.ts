import { afterEach, describe, expect, it } from "vitest";
import {
  CodeActionRequest,
  CompletionRequest,
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  RegistrationRequest,
  SemanticTokensRequest,
  ShutdownRequest,
} from "vscode-languageserver-protocol/node";
import { ensureBundles } from "../helpers/bundles.js";
import { startClient, type TestClient } from "./client.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;

afterEach(() => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
});

const errorsUri = "file:///work/errors.lpf";
const errorsText = 'ClientIp eq "1"\n  and EdgeResponseStatus == 0500';

async function initialize(current: TestClient, capabilities: object, initializationOptions?: object) {
  const result = await current.connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities,
    initializationOptions,
  });
  await current.connection.sendNotification(InitializedNotification.type, {});
  return result;
}

function open(current: TestClient, uri: string, text: string, languageId = "plaintext") {
  const next = current.nextDiagnostics(uri);
  void current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId, version: 1, text },
  });
  return next;
}

describe("filterc lsp --stdio", () => {
  it("serves diagnostics, completion, hover, quick fixes, semantic tokens and pulled settings", async () => {
    const current = startClient();
    client = current;
    let settings: object = { dataset: "http_requests", maxOperators: 30 };
    const sections: unknown[] = [];
    current.connection.onRequest(ConfigurationRequest.type, (params) => {
      sections.push(...params.items.map((item) => item.section));
      return params.items.map(() => settings);
    });
    current.connection.onRequest(RegistrationRequest.type, () => {});

    const initialized = await initialize(current, {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
    });
    expect(initialized.capabilities).toEqual({
      textDocumentSync: 2,
      completionProvider: { triggerCharacters: [" ", "(", "[", ",", '"', "'", "!"] },
      hoverProvider: true,
      documentFormattingProvider: true,
      codeActionProvider: { codeActionKinds: ["quickfix"] },
      semanticTokensProvider: {
        legend: {
          tokenTypes: ["property", "operator", "keyword", "string", "number", "comment"],
          tokenModifiers: ["deprecated"],
        },
        full: true,
      },
      codeLensProvider: { resolveProvider: false },
      documentSymbolProvider: { label: "filterc" },
      foldingRangeProvider: true,
      selectionRangeProvider: true,
      inlayHintProvider: { resolveProvider: false },
      documentLinkProvider: { resolveProvider: false },
      executeCommandProvider: { commands: ["filterc.showKeptSamples"] },
    });
    expect(initialized.serverInfo).toEqual({ name: "filterc" });

    // A `.lpf` URI makes a filter document whatever its language id.
    const diagnostics = await open(current, errorsUri, errorsText);
    expect(diagnostics).toEqual({
      uri: errorsUri,
      version: 1,
      diagnostics: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 8 } },
          severity: 1,
          code: "E0202",
          source: "filterc",
          message: "unknown field `ClientIp`; field names are case-sensitive: did you mean `ClientIP`?",
        },
        {
          range: { start: { line: 1, character: 28 }, end: { line: 1, character: 32 } },
          severity: 1,
          code: "E0106",
          source: "filterc",
          message: "number `0500` has a leading zero; write `500`",
        },
      ],
    });
    expect(sections).toEqual(["filterc"]);

    const actions = await current.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: errorsUri },
      range: { start: { line: 0, character: 0 }, end: { line: 1, character: 32 } },
      context: { diagnostics: diagnostics.diagnostics },
    });
    expect(actions).toEqual([
      {
        title: "replace with `ClientIP`",
        kind: "quickfix",
        diagnostics: [diagnostics.diagnostics[0]],
        isPreferred: true,
        edit: {
          changes: {
            [errorsUri]: [
              {
                range: { start: { line: 0, character: 0 }, end: { line: 0, character: 8 } },
                newText: "ClientIP",
              },
            ],
          },
        },
      },
      {
        title: "write 500",
        kind: "quickfix",
        diagnostics: [diagnostics.diagnostics[1]],
        isPreferred: true,
        edit: {
          changes: {
            [errorsUri]: [
              {
                range: { start: { line: 1, character: 28 }, end: { line: 1, character: 32 } },
                newText: "500",
              },
            ],
          },
        },
      },
    ]);

    // An edit: the document becomes `ClientIP eq "1"\n  and EdgeResponseStatus == 500`, then half a comparison is typed.
    const fixed = current.nextDiagnostics(errorsUri);
    await current.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: errorsUri, version: 2 },
      contentChanges: [
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 8 } }, text: "ClientIP" },
        { range: { start: { line: 1, character: 28 }, end: { line: 1, character: 32 } }, text: "500" },
        {
          range: { start: { line: 1, character: 31 }, end: { line: 1, character: 31 } },
          text: "\n  and Edge",
        },
      ],
    });
    expect(await fixed).toEqual({
      uri: errorsUri,
      version: 2,
      diagnostics: [
        {
          range: { start: { line: 2, character: 6 }, end: { line: 2, character: 10 } },
          severity: 1,
          code: "E0201",
          source: "filterc",
          message: "unknown field `Edge` in dataset http_requests",
        },
        {
          range: { start: { line: 2, character: 10 }, end: { line: 2, character: 10 } },
          severity: 1,
          code: "E0104",
          source: "filterc",
          message:
            "expected an operator after `Edge`, such as `eq`, `in` or `startsWith`, found the end of the filter",
        },
      ],
    });

    const completion = await current.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: errorsUri },
      position: { line: 2, character: 10 },
    });
    expect(completion).not.toBeNull();
    const items = Array.isArray(completion) ? completion : completion!.items;
    expect(items.length).toBe(16);
    expect(items[12]).toEqual({
      label: "EdgeResponseStatus",
      kind: 5,
      detail: "int",
      documentation: { kind: "markdown", value: "HTTP status returned to the client." },
      sortText: "00012",
      filterText: "EdgeResponseStatus",
      textEdit: {
        range: { start: { line: 2, character: 6 }, end: { line: 2, character: 10 } },
        newText: "EdgeResponseStatus",
      },
    });

    const hover = await current.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: errorsUri },
      position: { line: 1, character: 26 },
    });
    expect(hover).toEqual({
      contents: {
        kind: "markdown",
        value:
          '**eq**: equals the value.\n\n`==` is written `eq` in Logpush JSON.\n\nEmits:\n```json\n{"key":"EdgeResponseStatus","operator":"eq","value":"500"}\n```',
      },
      range: { start: { line: 1, character: 25 }, end: { line: 1, character: 27 } },
    });

    const tokens = await current.connection.sendRequest(SemanticTokensRequest.type, {
      textDocument: { uri: errorsUri },
    });
    // Relative encoding: line delta, start delta, length, type index, modifier bits.
    expect(tokens?.data).toEqual([
      ...[0, 0, 8, 0, 0],
      ...[0, 9, 2, 1, 0],
      ...[0, 3, 3, 3, 0],
      ...[1, 2, 3, 2, 0],
      ...[0, 4, 18, 0, 0],
      ...[0, 19, 2, 1, 0],
      ...[0, 3, 3, 4, 0],
      ...[1, 2, 3, 2, 0],
      ...[0, 4, 4, 0, 0],
    ]);

    // New settings: the server asks for them again and checks every open document against them.
    settings = { dataset: "dns_logs" };
    const rechecked = current.nextDiagnostics(errorsUri);
    await current.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    expect((await rechecked).diagnostics.map((d) => [d.code, d.range.start.line, d.message])).toEqual([
      ["E0201", 0, "unknown field `ClientIP` in dataset dns_logs"],
      ["E0201", 1, "unknown field `EdgeResponseStatus` in dataset dns_logs"],
      ["E0201", 2, "unknown field `Edge` in dataset dns_logs"],
      [
        "E0104",
        2,
        "expected an operator after `Edge`, such as `eq`, `in` or `startsWith`, found the end of the filter",
      ],
    ]);

    await current.connection.sendRequest(ShutdownRequest.type);
    await current.connection.sendNotification(ExitNotification.type);
    expect(await current.exited).toBe(0);
  });

  it("takes settings from the command line, initializationOptions and pushed configuration, and ignores other documents", async () => {
    const current = startClient(["--max-operators", "1"]);
    client = current;
    await initialize(current, {}, { filterc: { maxBytes: 2000 } });

    const text = "BotScore lt 30 and EdgeResponseStatus eq 200";
    const limited = await open(current, "untitled:Untitled-1", text, "logpush-filter");
    expect(limited.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "E0401",
        "the filter has 2 comparisons; Logpush accepts at most 1 (setting filterc.maxOperators); this comparison crosses the limit",
      ],
    ]);

    const edits = await current.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri: "untitled:Untitled-1" },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(edits).toEqual([
      { range: { start: { line: 0, character: 44 }, end: { line: 0, character: 44 } }, newText: "\n" },
    ]);

    const markdown = "file:///work/notes.md";
    await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: markdown, languageId: "markdown", version: 1, text: "# notes" },
    });
    const none = await current.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: markdown },
      position: { line: 0, character: 1 },
    });
    expect(none).toBeNull();

    const relaxed = current.nextDiagnostics("untitled:Untitled-1");
    await current.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { filterc: { maxOperators: 5 } },
    });
    expect(await relaxed).toEqual({ uri: "untitled:Untitled-1", version: 1, diagnostics: [] });
    expect(current.published.map((p) => p.uri)).not.toContain(markdown);

    await current.connection.sendRequest(ShutdownRequest.type);
    await current.connection.sendNotification(ExitNotification.type);
    expect(await current.exited).toBe(0);
  });

  it("asks for --stdio", async () => {
    const { spawnCli } = await import("../helpers/cli.js");
    const result = await spawnCli(["lsp"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      "filterc lsp: the language server talks over --stdio; pass --stdio",
    );
  });
});
