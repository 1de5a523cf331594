import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CodeLensRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidOpenTextDocumentNotification,
  FileChangeType,
  InitializedNotification,
  InitializeRequest,
  type PublishDiagnosticsParams,
  type Registration,
  RegistrationRequest,
} from "vscode-languageserver-protocol/node";
import { ensureBundles } from "../helpers/bundles.js";
import { startClient, type TestClient } from "./client.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-lsp-dataset-"));
});
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A server, initialized with these capabilities and settings; the registrations it asks for are kept. */
async function started(capabilities: object = {}, initializationOptions?: object) {
  const current = startClient();
  client = current;
  const registrations: Registration[] = [];
  current.connection.onRequest(RegistrationRequest.type, (params) => {
    registrations.push(...params.registrations);
  });
  await current.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities,
    initializationOptions,
  });
  await current.connection.sendNotification(InitializedNotification.type, {});
  return { current, registrations };
}

/** The codes and messages published, for the document's first version and after each change. */
const codes = (published: PublishDiagnosticsParams) =>
  published.diagnostics.map(
    (d) => `${d.range.start.line}:${d.range.start.character} ${d.code ?? "-"} ${d.message}`,
  );

async function open(current: TestClient, file: string, text: string) {
  const uri = pathToFileURL(file).href;
  const next = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "lpf", version: 1, text },
  });
  return codes(await next);
}

async function change(current: TestClient, file: string, version: number, text: string) {
  const uri = pathToFileURL(file).href;
  const next = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version },
    contentChanges: [{ text }],
  });
  return codes(await next);
}

const unknownAction = "0:0 E0201 unknown field `Action` in dataset http_requests";

describe("the language server and the dataset of each document", () => {
  it("takes it from the document's # dataset:, then the nearest filterc.json, then the client's setting", async () => {
    await mkdir(join(dir, "gateway"));
    await writeFile(join(dir, "gateway", "filterc.json"), '{"dataset": "gateway_http", "maxOperators": 1}');
    const { current } = await started({}, { filterc: { dataset: "dns_logs" } });
    // The client's setting where no filterc.json is.
    expect(await open(current, join(dir, "dns.lpf"), "QueryType eq 1")).toEqual([]);
    expect(await open(current, join(dir, "gateway", "gw.lpf"), 'Action eq "block"')).toEqual([]);
    // The filterc.json's limit, over the client's default of 30.
    expect(
      await change(current, join(dir, "gateway", "gw.lpf"), 2, 'Action eq "a" and HTTPHost eq "b"'),
    ).toEqual([
      "0:18 E0401 the filter has 2 comparisons; Logpush accepts at most 1 (setting filterc.maxOperators); this comparison crosses the limit",
    ]);
    // The document's own directive over both.
    expect(
      await open(current, join(dir, "gateway", "named.lpf"), "# dataset: http_requests\nAction eq 1"),
    ).toEqual(["1:0 E0201 unknown field `Action` in dataset http_requests"]);
  });

  it("tells a filterc.json it cannot use at the start of each document beneath it", async () => {
    await writeFile(join(dir, "filterc.json"), '{"dataset": "gatway_http"}');
    const { current } = await started();
    const published = await open(current, join(dir, "gw.lpf"), 'Action eq "block"');
    expect(published[0]).toMatch(
      new RegExp(
        `^0:0 - ${join(dir, "filterc.json")}:1:13: unknown dataset "gatway_http"; known datasets: .* \\(did you mean gateway_http\\?\\)$`,
      ),
    );
    expect(published.slice(1)).toEqual([unknownAction]);
  });

  it("reads a filterc.json again when the client says it changed", async () => {
    const { current, registrations } = await started({
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
    });
    const file = join(dir, "gw.lpf");
    expect(await open(current, file, 'Action eq "block"')).toEqual([unknownAction]);
    // Asked for before the first diagnostics were published.
    expect(registrations).toEqual([
      {
        id: expect.any(String),
        method: "workspace/didChangeWatchedFiles",
        registerOptions: { watchers: [{ globPattern: "**/filterc.json" }] },
      },
    ]);
    await writeFile(join(dir, "filterc.json"), '{"dataset": "gateway_http"}');
    // Watched: an edit alone keeps what was read.
    expect(await change(current, file, 2, 'Action eq "allow"')).toEqual([unknownAction]);
    const next = current.nextDiagnostics(pathToFileURL(file).href);
    await current.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: pathToFileURL(join(dir, "filterc.json")).href, type: FileChangeType.Created }],
    });
    expect(codes(await next)).toEqual([]);
  });

  it("reads a filterc.json again on each edit when the client does not watch files", async () => {
    const { current, registrations } = await started();
    const file = join(dir, "gw.lpf");
    expect(await open(current, file, 'Action eq "block"')).toEqual([unknownAction]);
    await writeFile(join(dir, "filterc.json"), '{"dataset": "gateway_http"}');
    expect(await change(current, file, 2, 'Action eq "allow"')).toEqual([]);
    expect(registrations).toEqual([]);
  });

  it("completes dataset names after # dataset:, and runs the test lens against the named dataset", async () => {
    const file = join(dir, "gw.lpf");
    await writeFile(
      join(dir, "gw.test.json"),
      JSON.stringify({ filter: { file: "gw.lpf" }, cases: [{ record: { Action: "block" }, match: true }] }),
    );
    const { current } = await started();
    const text = '# dataset: gateway_http\nAction eq "block"';
    expect(await open(current, file, text)).toEqual([]);
    const uri = pathToFileURL(file).href;
    const completion = await current.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: 15 },
    });
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    expect(items.map((item) => item.label)).toEqual(["gateway_dns", "gateway_http", "gateway_network"]);
    const lenses = await current.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    expect(lenses?.map((lens) => lens.command?.title)).toEqual(["✓ gw.test.json: 1 case pass"]);
  });
});
