import { afterEach, describe, expect, it } from "vitest";
import {
  CodeLensRefreshRequest,
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  SemanticTokensRefreshRequest,
  ShutdownRequest,
} from "vscode-languageserver-protocol/node";
import { COMPILE_REQUEST } from "../../src/lsp/protocol.js";
import { CONFIGURATION_WAIT_MS } from "../../src/lsp/server.js";
import { ensureBundles } from "../helpers/bundles.js";
import { startClient, type TestClient } from "./client.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;

afterEach(() => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
});

/** A started server whose log messages are kept, answering workspace/configuration with `answer` (no handler: not answered). */
function started(args: string[] = [], answer?: (section: string) => unknown) {
  const current = startClient(args);
  client = current;
  const logged: string[] = [];
  current.connection.onNotification(LogMessageNotification.type, (params) => {
    logged.push(`${params.type} ${params.message}`);
  });
  const asked: string[] = [];
  if (answer)
    current.connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => {
        asked.push(item.section ?? "");
        return answer(item.section ?? "");
      }),
    );
  return { current, logged, asked };
}

async function initialize(current: TestClient, capabilities: object, initializationOptions?: unknown) {
  await current.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities,
    initializationOptions,
  });
  await current.connection.sendNotification(InitializedNotification.type, {});
}

/** Opens a filter document and resolves with the first diagnostics published for it, as [code, message]. */
async function firstDiagnostics(current: TestClient, text: string, uri = "file:///work/gateway.lpf") {
  const next = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "lpf", version: 1, text },
  });
  return (await next).diagnostics.map((d) => [d.code, d.message]);
}

async function stop(current: TestClient) {
  await current.connection.sendRequest(ShutdownRequest.type);
  await current.connection.sendNotification(ExitNotification.type);
  expect(await current.exited).toBe(0);
}

const gatewayText = 'HTTPHost eq "example.com" and HTTPStatusCode geq 500';

describe("the language server follows its client's settings from the start", () => {
  it("asks a client that does not say it answers workspace/configuration (Neovim 0.7), and checks documents only with its answer", async () => {
    const { current, asked, logged } = started([], (section) =>
      section === "filterc" ? { dataset: "gateway_http" } : null,
    );
    // Neovim 0.7's capabilities have no workspace.configuration, and it sends no didChangeConfiguration.
    await initialize(current, { workspace: { applyEdit: true, workspaceFolders: true } });
    expect(await firstDiagnostics(current, gatewayText)).toEqual([]);
    expect(asked).toEqual(["filterc"]);
    const hover = await current.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: "file:///work/gateway.lpf" },
      position: { line: 0, character: 2 },
    });
    expect(JSON.stringify(hover?.contents)).toContain("HTTPHost");
    // The one publication: none was made with the dataset it had before the answer.
    expect(current.published.length).toBe(1);
    expect(logged).toEqual([]);
    await stop(current);
  });

  it("keeps to initializationOptions and flags for a client that answers workspace/configuration with an error", async () => {
    // No handler: the client answers "method not found", as one without workspace/configuration does.
    const { current, logged } = started(["--max-operators", "1"]);
    await initialize(current, {}, { filterc: { dataset: "gateway_http" } });
    expect(await firstDiagnostics(current, gatewayText)).toEqual([
      [
        "E0401",
        "the filter has 2 comparisons; Logpush accepts at most 1 (setting filterc.maxOperators); this comparison crosses the limit",
      ],
    ]);
    expect(logged).toEqual([]);
    await stop(current);
  });

  it("checks documents with the settings it has when the client does not answer in time", async () => {
    const { current } = started();
    current.connection.onRequest(ConfigurationRequest.type, () => new Promise<unknown[]>(() => {}));
    await initialize(
      current,
      { workspace: { configuration: true } },
      { filterc: { dataset: "gateway_http" } },
    );
    const since = Date.now();
    expect(await firstDiagnostics(current, gatewayText)).toEqual([]);
    // Measured from after `initialized`, when the wait began: a little less than the wait itself.
    expect(Date.now() - since).toBeGreaterThanOrEqual(CONFIGURATION_WAIT_MS - 200);
    await stop(current);
  });

  it("warns in its log about settings of the wrong type, and the defaults hold", async () => {
    const { current, logged } = started(["--max-bytes", "60"], () => ({
      dataset: 7,
      maxOperators: "30",
      maxBytes: -1,
    }));
    await initialize(current, { workspace: { configuration: true } }, { filterc: "gateway_http" });
    expect(await firstDiagnostics(current, 'ClientRequestHost eq "example.com"')).toEqual([
      [
        "E0402",
        "the filter JSON is 75 bytes; Logpush accepts at most 60 (setting filterc.maxBytes); this comparison crosses the limit",
      ],
    ]);
    expect(logged).toEqual([
      "2 filterc: ignoring initializationOptions setting filterc: wrong type",
      "2 filterc: ignoring setting filterc.dataset: wrong type",
      "2 filterc: ignoring setting filterc.maxOperators: wrong type",
      "2 filterc: ignoring setting filterc.maxBytes: wrong type",
    ]);
    await stop(current);
  });

  it("asks a client that supports it to colour and count the test lenses again when settings change", async () => {
    let settings: object = { dataset: "http_requests" };
    const { current } = started([], () => settings);
    const refreshed: string[] = [];
    current.connection.onRequest(SemanticTokensRefreshRequest.type, () => {
      refreshed.push("semanticTokens");
    });
    current.connection.onRequest(CodeLensRefreshRequest.type, () => {
      refreshed.push("codeLens");
    });
    await initialize(current, {
      workspace: {
        configuration: true,
        semanticTokens: { refreshSupport: true },
        codeLens: { refreshSupport: true },
      },
    });
    expect(await firstDiagnostics(current, gatewayText)).toHaveLength(2);
    expect(refreshed).toEqual([]);
    settings = { dataset: "gateway_http" };
    const rechecked = current.nextDiagnostics("file:///work/gateway.lpf");
    await current.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    expect((await rechecked).diagnostics).toEqual([]);
    await expect.poll(() => refreshed.sort()).toEqual(["codeLens", "semanticTokens"]);
    await stop(current);
  });
});

describe("filterc/compile", () => {
  it("answers what a document compiles to, with its settings", async () => {
    const { current } = started([], () => ({ dataset: "gateway_http", maxBytes: 500 }));
    await initialize(current, { workspace: { configuration: true } });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an HCL template sequence, which the Terraform string escapes
    await firstDiagnostics(current, 'HTTPHost eq "a${b}" and not HTTPStatusCode lt 500');
    expect(
      await current.connection.sendRequest(COMPILE_REQUEST, {
        textDocument: { uri: "file:///work/gateway.lpf" },
      }),
    ).toEqual({
      dataset: "gateway_http",
      ok: true,
      filter:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: as above
        '{"where":{"and":[{"key":"HTTPHost","operator":"eq","value":"a${b}"},{"key":"HTTPStatusCode","operator":"geq","value":"500"}]}}',
      terraform:
        '"{\\"where\\":{\\"and\\":[{\\"key\\":\\"HTTPHost\\",\\"operator\\":\\"eq\\",\\"value\\":\\"a$${b}\\"},{\\"key\\":\\"HTTPStatusCode\\",\\"operator\\":\\"geq\\",\\"value\\":\\"500\\"}]}}"',
      explanation:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: as above
        'a record is pushed when all of:\n  HTTPHost (string) is "a${b}"\n  HTTPStatusCode (int) is at least 500\n2 of 30 comparisons, 126 of 500 bytes\n',
      stats: { operators: 2, bytes: 126, maxOperators: 30, maxBytes: 500 },
      errors: 0,
      warnings: 0,
    });

    await firstDiagnostics(current, "HTTPHost eq", "file:///work/broken.lpf");
    expect(
      await current.connection.sendRequest(COMPILE_REQUEST, {
        textDocument: { uri: "file:///work/broken.lpf" },
      }),
    ).toEqual({
      dataset: "gateway_http",
      ok: false,
      filter: null,
      terraform: null,
      explanation: null,
      stats: { operators: 0, bytes: 0, maxOperators: 30, maxBytes: 500 },
      errors: 1,
      warnings: 0,
    });
    // The document's own `# dataset:` wins over the client's setting.
    await firstDiagnostics(
      current,
      '# dataset: firewall_events\nClientCountry eq "us"',
      "file:///work/fw.lpf",
    );
    expect(
      await current.connection.sendRequest(COMPILE_REQUEST, { textDocument: { uri: "file:///work/fw.lpf" } }),
    ).toMatchObject({ dataset: "firewall_events", ok: true, errors: 0 });
    expect(
      await current.connection.sendRequest(COMPILE_REQUEST, {
        textDocument: { uri: "file:///work/closed.lpf" },
      }),
    ).toBeNull();
    await stop(current);
  });
});
