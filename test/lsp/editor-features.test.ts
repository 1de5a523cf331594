import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CodeLensRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentLinkRequest,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  FoldingRangeRequest,
  InitializedNotification,
  InitializeRequest,
  InlayHintRequest,
  SelectionRangeRequest,
  SymbolKind,
} from "vscode-languageserver-protocol/node";
import { SHOW_KEPT_SAMPLES_COMMAND } from "../../src/lsp/protocol.js";
import { SAMPLE_LIMITS } from "../../src/lsp/sample-lens.js";
import { ensureBundles } from "../helpers/bundles.js";
import { makeFifo } from "../helpers/fifo.js";
import { startClient, type TestClient } from "./client.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-features-"));
});
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
  await rm(dir, { recursive: true, force: true });
});

const FILTER = `# dataset: http_requests
EdgeResponseStatus geq 500
  and not (
    ClientRequestPath startsWith "/health"
    or ClientRequestMethod in ["HEAD", "OPTIONS"]
  )
`;

async function started(): Promise<TestClient> {
  const current = startClient();
  client = current;
  const { capabilities } = await current.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
  });
  expect(capabilities).toMatchObject({
    documentSymbolProvider: { label: "filterc" },
    foldingRangeProvider: true,
    selectionRangeProvider: true,
    inlayHintProvider: { resolveProvider: false },
    documentLinkProvider: { resolveProvider: false },
    executeCommandProvider: { commands: [SHOW_KEPT_SAMPLES_COMMAND] },
  });
  await current.connection.sendNotification(InitializedNotification.type, {});
  return current;
}

async function opened(current: TestClient, uri: string, text: string, languageId = "lpf"): Promise<void> {
  const checked = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId, version: 1, text },
  });
  await checked;
}

const line = (n: number, character: number) => ({ line: n, character });

describe("the language server's outline, folding, selection, inlay hints and links", () => {
  it("answers each for a filter document, in LSP's positions", async () => {
    const current = await started();
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    await opened(current, uri, FILTER);
    const textDocument = { uri };
    const symbols = await current.connection.sendRequest(DocumentSymbolRequest.type, { textDocument });
    expect(symbols).toEqual([
      {
        name: "dataset http_requests",
        detail: "123 fields",
        kind: SymbolKind.Module,
        range: { start: line(0, 0), end: line(0, 24) },
        selectionRange: { start: line(0, 11), end: line(0, 24) },
        children: [],
      },
      expect.objectContaining({
        name: "and",
        kind: SymbolKind.Operator,
        range: { start: line(1, 0), end: line(5, 3) },
        selectionRange: { start: line(2, 2), end: line(2, 5) },
      }),
    ]);
    const tree = (symbols as { name: string; kind: number; children: unknown[] }[])[1]!;
    expect(JSON.stringify(tree, ["name", "kind", "children"])).toBe(
      JSON.stringify({
        name: "and",
        kind: SymbolKind.Operator,
        children: [
          { name: "EdgeResponseStatus geq 500", kind: SymbolKind.Field, children: [] },
          {
            name: "not",
            kind: SymbolKind.Operator,
            children: [
              {
                name: "or",
                kind: SymbolKind.Operator,
                children: [
                  { name: 'ClientRequestPath startsWith "/health"', kind: SymbolKind.Field, children: [] },
                  {
                    name: 'ClientRequestMethod in ["HEAD", "OPTIONS"]',
                    kind: SymbolKind.Field,
                    children: [],
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(await current.connection.sendRequest(FoldingRangeRequest.type, { textDocument })).toEqual([
      { startLine: 2, endLine: 4 },
    ]);
    const [selection] = (await current.connection.sendRequest(SelectionRangeRequest.type, {
      textDocument,
      positions: [line(3, 6)],
    }))!;
    const steps: unknown[] = [];
    for (let step: typeof selection | undefined = selection; step; step = step.parent) steps.push(step.range);
    expect(steps).toEqual([
      { start: line(3, 4), end: line(3, 21) },
      { start: line(3, 4), end: line(3, 42) },
      { start: line(2, 10), end: line(5, 3) },
      { start: line(2, 6), end: line(5, 3) },
      { start: line(1, 0), end: line(5, 3) },
      { start: line(0, 0), end: line(6, 0) },
    ]);
    const hints = await current.connection.sendRequest(InlayHintRequest.type, {
      textDocument,
      range: { start: line(0, 0), end: line(6, 0) },
    });
    expect(hints?.map((hint) => [hint.position, hint.label, hint.paddingLeft])).toEqual([
      [line(3, 32), "→ !startsWith", true],
      [line(4, 6), "→ and", true],
      [line(4, 29), "→ !in", true],
    ]);
    const links = await current.connection.sendRequest(DocumentLinkRequest.type, { textDocument });
    expect(links?.map((link) => [link.range.start, link.target])).toEqual([
      [
        line(1, 0),
        "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/zone/http_requests/#edgeresponsestatus",
      ],
      [
        line(3, 4),
        "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/zone/http_requests/#clientrequestpath",
      ],
      [
        line(4, 7),
        "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/zone/http_requests/#clientrequestmethod",
      ],
    ]);
  });

  it("answers none of them for a Terraform document, which keeps its own extension's", async () => {
    const current = await started();
    const file = join(dir, "main.tf");
    await writeFile(file, "");
    const uri = pathToFileURL(file).href;
    await opened(current, uri, 'locals {\n  a = "b"\n}\n', "terraform");
    const textDocument = { uri };
    const range = { start: line(0, 0), end: line(3, 0) };
    expect([
      await current.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }),
      await current.connection.sendRequest(FoldingRangeRequest.type, { textDocument }),
      await current.connection.sendRequest(SelectionRangeRequest.type, {
        textDocument,
        positions: [line(1, 2)],
      }),
      await current.connection.sendRequest(InlayHintRequest.type, { textDocument, range }),
      await current.connection.sendRequest(DocumentLinkRequest.type, { textDocument }),
      await current.connection.sendRequest(CodeLensRequest.type, { textDocument }),
    ]).toEqual([null, null, null, null, null, null]);
  });
});

/** A log line of http_requests. */
const record = (status: number, path: string) =>
  JSON.stringify({ EdgeResponseStatus: status, ClientRequestPath: path });

async function lensesOf(current: TestClient, uri: string) {
  const found = await current.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  return (found ?? []).map((lens) => ({ line: lens.range.start.line, ...lens.command }));
}

describe("the evaluation lens", () => {
  it("tells how many sample lines the filter keeps as the editor holds it, and its command gives them", async () => {
    await mkdir(join(dir, "logs"));
    await writeFile(join(dir, "filterc.json"), '{"samples": "logs/*.ndjson*"}');
    await writeFile(
      join(dir, "logs", "a.ndjson"),
      [record(502, "/api"), record(200, "/"), "", "not json", record(503, "/health")].join("\n"),
    );
    await writeFile(join(dir, "logs", "b.ndjson.gz"), gzipSync(`${record(500, "/x")}\r\n`));
    const current = await started();
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    await opened(current, uri, `# 5xx\n${FILTER.split("\n").slice(1).join("\n")}`);
    const command = {
      title: "▶ keeps 2 of 5 sample lines (logs/*.ndjson*, 1 malformed line)",
      command: SHOW_KEPT_SAMPLES_COMMAND,
      arguments: [uri],
    };
    expect(await lensesOf(current, uri)).toEqual([{ line: 1, ...command }]);
    const kept = await current.connection.sendRequest(ExecuteCommandRequest.type, {
      command: SHOW_KEPT_SAMPLES_COMMAND,
      arguments: [uri],
    });
    expect(kept).toEqual({
      title: command.title,
      lines: [
        { uri: pathToFileURL(join(dir, "logs", "a.ndjson")).href, line: 0, text: record(502, "/api") },
        { uri: pathToFileURL(join(dir, "logs", "b.ndjson.gz")).href, line: 0, text: record(500, "/x") },
      ],
      more: 0,
    });
    // Unsaved changes count: the lens follows the text.
    const checked = current.nextDiagnostics(uri);
    await current.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: "EdgeResponseStatus lt 300" }],
    });
    await checked;
    expect(await lensesOf(current, uri)).toEqual([
      {
        line: 0,
        title: "▶ keeps 1 of 5 sample lines (logs/*.ndjson*, 1 malformed line)",
        command: SHOW_KEPT_SAMPLES_COMMAND,
        arguments: [uri],
      },
    ]);
  });

  it("says why it evaluates nothing: no file matches, a filter with errors, a malformed glob", async () => {
    await writeFile(join(dir, "filterc.json"), '{"samples": "logs/*.ndjson"}');
    const current = await started();
    const uri = pathToFileURL(join(dir, "a.lpf")).href;
    await opened(current, uri, "EdgeResponseStatus geq 500");
    expect(await lensesOf(current, uri)).toEqual([
      { line: 0, title: '⚠ samples: no file matches "logs/*.ndjson" (filterc.json)', command: "" },
    ]);
    const broken = pathToFileURL(join(dir, "b.lpf")).href;
    await opened(current, broken, "EdgeResponseStatus geq");
    expect(await lensesOf(current, broken)).toEqual([
      { line: 0, title: "⚠ samples: the filter has an error: no sample is evaluated", command: "" },
    ]);
    await mkdir(join(dir, "glob"));
    await writeFile(join(dir, "glob", "filterc.json"), '{"samples": "logs/[b-a].ndjson"}');
    const globbed = pathToFileURL(join(dir, "glob", "c.lpf")).href;
    await opened(current, globbed, "EdgeResponseStatus geq 500");
    expect(await lensesOf(current, globbed)).toEqual([
      {
        line: 0,
        title: '⚠ samples: malformed glob "logs/[b-a].ndjson": the range "b-a" runs backwards (filterc.json)',
        command: "",
      },
    ]);
  });

  it("reads only regular files inside the folder, to its bounds of files, bytes and line length", async () => {
    await mkdir(join(dir, "logs"));
    await writeFile(join(dir, "filterc.json"), '{"samples": "logs/*"}');
    const outside = join(dir, "..", `${join(dir).split("/").pop()}-outside.ndjson`);
    await writeFile(outside, record(500, "/secret"));
    await symlink(outside, join(dir, "logs", "a-link.ndjson"));
    await makeFifo(join(dir, "logs", "b-fifo.ndjson"));
    const long = JSON.stringify({
      EdgeResponseStatus: 500,
      ClientRequestPath: "x".repeat(SAMPLE_LIMITS.maxLineBytes),
    });
    await writeFile(join(dir, "logs", "c-long.ndjson"), `${long}\n${record(500, "/")}\n`);
    const current = await started();
    const uri = pathToFileURL(join(dir, "a.lpf")).href;
    await opened(current, uri, "EdgeResponseStatus geq 500");
    try {
      // The link out of the folder is not followed; the fifo is no file the glob gives; the long line is malformed.
      expect(await lensesOf(current, uri)).toEqual([
        {
          line: 0,
          title: "▶ keeps 1 of 2 sample lines (logs/*, 1 malformed line)",
          command: SHOW_KEPT_SAMPLES_COMMAND,
          arguments: [uri],
        },
      ]);
      const many = Array.from(
        { length: SAMPLE_LIMITS.maxFiles + 1 },
        (_, i) => `m${String(i).padStart(2, "0")}`,
      );
      await mkdir(join(dir, "many", "logs"), { recursive: true });
      await writeFile(join(dir, "many", "filterc.json"), '{"samples": "logs/*"}');
      for (const name of many) await writeFile(join(dir, "many", "logs", name), `${record(500, "/")}\n`);
      const manyUri = pathToFileURL(join(dir, "many", "a.lpf")).href;
      await opened(current, manyUri, "EdgeResponseStatus geq 500");
      expect((await lensesOf(current, manyUri))[0]!.title).toBe(
        `▶ keeps ${SAMPLE_LIMITS.maxFiles} of the first ${SAMPLE_LIMITS.maxFiles} sample lines (logs/*; stopped: ${SAMPLE_LIMITS.maxFiles} files of ${many.length} read)`,
      );
      const line = `${record(500, "/".padEnd(1000, "a"))}\n`;
      const lines = Math.ceil(SAMPLE_LIMITS.maxBytes / line.length) + 10;
      await mkdir(join(dir, "big", "logs"), { recursive: true });
      await writeFile(join(dir, "big", "filterc.json"), '{"samples": "logs/*"}');
      await writeFile(join(dir, "big", "logs", "big.ndjson"), line.repeat(lines));
      const bigUri = pathToFileURL(join(dir, "big", "a.lpf")).href;
      await opened(current, bigUri, "EdgeResponseStatus geq 500");
      const read =
        Math.ceil(SAMPLE_LIMITS.maxBytes / line.length) +
        (SAMPLE_LIMITS.maxBytes % line.length === 0 ? 1 : 0);
      expect((await lensesOf(current, bigUri))[0]!.title).toBe(
        `▶ keeps ${read.toLocaleString("en-US")} of the first ${read.toLocaleString("en-US")} sample lines (logs/*; stopped: at 16 MiB)`,
      );
    } finally {
      await rm(outside, { force: true });
    }
  }, 60_000);
});
