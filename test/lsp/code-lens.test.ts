import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CancellationTokenSource,
  CodeLensRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
} from "vscode-languageserver-protocol/node";
import { ensureBundles } from "../helpers/bundles.js";
import { makeFifo } from "../helpers/fifo.js";
import { startClient, type TestClient } from "./client.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-lens-"));
});
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
  await rm(dir, { recursive: true, force: true });
});

const filter = 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"\n';

const testFile = (filterFile: string, cases: object[]) =>
  `${JSON.stringify({ filter: { file: filterFile }, cases }, null, 2)}\n`;

const errorsCases = [
  { name: "a 502 on the API", record: { EdgeResponseStatus: 502, ClientRequestPath: "/api" }, match: true },
  { name: "health checks", record: { EdgeResponseStatus: 503, ClientRequestPath: "/healthz" }, match: false },
];

async function lenses(current: TestClient, uri: string) {
  const found = await current.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  return (found ?? []).map((lens) => ({ line: lens.range.start.line, title: lens.command?.title }));
}

/** A server, initialized; the client closed after the test. */
async function started(nodeArgs: string[] = []): Promise<TestClient> {
  const current = startClient([], nodeArgs);
  client = current;
  await current.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
  });
  await current.connection.sendNotification(InitializedNotification.type, {});
  return current;
}

/** Opens the filter as a `.lpf` document, once the server has checked it. */
async function opened(current: TestClient, uri: string): Promise<void> {
  const checked = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "lpf", version: 1, text: filter },
  });
  await checked;
}

/** Replaces the document's text, once the server has checked it. */
async function edit(current: TestClient, uri: string, version: number, text: string): Promise<void> {
  const checked = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version },
    contentChanges: [{ text }],
  });
  await checked;
}

describe("the language server's code lens for the test files beside a filter", () => {
  it("shows how each test file naming the filter fares against the text being edited", async () => {
    await writeFile(join(dir, "errors.lpf"), filter);
    await writeFile(join(dir, "errors.test.json"), testFile("errors.lpf", errorsCases));
    // Names a field http_requests does not have: it cannot run, and the lens says why.
    await writeFile(
      join(dir, "typo.test.json"),
      testFile("./errors.lpf", [{ record: { EdgeResponseStatu: 500 }, match: true }]),
    );
    // Another filter's tests, and a file that is no test file: no lens.
    await writeFile(join(dir, "other.test.json"), testFile("other.lpf", errorsCases));
    await writeFile(join(dir, "notes.json"), testFile("errors.lpf", errorsCases));
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    const current = await started();
    await opened(current, uri);
    expect(await lenses(current, uri)).toEqual([
      { line: 0, title: "✓ errors.test.json: 2 cases pass" },
      {
        line: 0,
        title:
          '⚠ typo.test.json:6:5: case 1: the record has "EdgeResponseStatu", which is no field of http_requests',
      },
    ]);

    // Unsaved edits count: dropping the health-check exclusion fails the second case.
    await edit(current, uri, 2, "EdgeResponseStatus geq 500\n");
    expect((await lenses(current, uri))[0]).toEqual({
      line: 0,
      title: '✗ errors.test.json: 1 of 2 cases fail, first "health checks" (errors.test.json:14:5)',
    });

    // A filter with errors: the tests cannot run.
    await edit(current, uri, 3, 'EdgeResponseStatus geq "x"\n');
    expect((await lenses(current, uri))[0]).toEqual({
      line: 0,
      title: "⚠ errors.test.json: the filter errors.lpf has errors",
    });
  });

  it("runs the cases by what the JSON keeps: `not X lt 500` is `X geq 500`, which a record without X fails", async () => {
    await writeFile(join(dir, "errors.lpf"), filter);
    const cases = [
      ...errorsCases,
      { name: "no status", record: { ClientRequestPath: "/api" }, match: false },
    ];
    await writeFile(join(dir, "errors.test.json"), testFile("errors.lpf", cases));
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    const current = await started();
    await opened(current, uri);
    await edit(
      current,
      uri,
      2,
      'not EdgeResponseStatus lt 500 and not ClientRequestPath startsWith "/health"\n',
    );
    expect(await lenses(current, uri)).toEqual([{ line: 0, title: "✓ errors.test.json: 3 cases pass" }]);
  });

  it("gives no lens to a filter without test files, or one not on disk", async () => {
    await writeFile(join(dir, "alone.lpf"), filter);
    const current = await started();
    for (const uri of [pathToFileURL(join(dir, "alone.lpf")).href, "untitled:Untitled-1.lpf"]) {
      await opened(current, uri);
      expect(await lenses(current, uri)).toEqual([]);
    }
  });

  it("reads only regular files: a fifo beside the filter or named as a log never holds a request, nor the next ones (regression: four such requests stopped every read)", async () => {
    await writeFile(join(dir, "errors.lpf"), filter);
    makeFifo(join(dir, "a-fifo.test.json"));
    makeFifo(join(dir, "log.ndjson"));
    await writeFile(
      join(dir, "log.test.json"),
      JSON.stringify({ filter: { file: "errors.lpf" }, log: { file: "log.ndjson", matches: [] } }),
    );
    await writeFile(join(dir, "other.lpf"), filter);
    await writeFile(join(dir, "other.test.json"), testFile("other.lpf", errorsCases));
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    const other = pathToFileURL(join(dir, "other.lpf")).href;
    const current = await started();
    await opened(current, uri);
    await opened(current, other);
    for (let request = 0; request < 6; request++)
      expect(await lenses(current, uri)).toEqual([
        {
          line: 0,
          title:
            "⚠ log.test.json:1:39: cannot read the log log.ndjson: a fifo (named pipe), not a regular file",
        },
      ]);
    expect(await lenses(current, other)).toEqual([{ line: 0, title: "✓ other.test.json: 2 cases pass" }]);
  });

  it("reads no log outside the test file's folder (here no repository holds it): no absolute path, no ..", async () => {
    await writeFile(join(dir, "errors.lpf"), filter);
    await writeFile(
      join(dir, "a.test.json"),
      JSON.stringify({ filter: { file: "errors.lpf" }, log: { file: "/proc/self/environ", matches: [] } }),
    );
    await writeFile(
      join(dir, "b.test.json"),
      JSON.stringify({ filter: { file: "errors.lpf" }, log: { file: "../beside.ndjson", matches: [] } }),
    );
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    const current = await started();
    await opened(current, uri);
    const rule = "(a test file names only files inside its folder or the repository that holds it)";
    expect(await lenses(current, uri)).toEqual([
      {
        line: 0,
        title: `⚠ a.test.json:1:39: cannot read the log /proc/self/environ: not read: it is an absolute path ${rule}`,
      },
      {
        line: 0,
        title: `⚠ b.test.json:1:39: cannot read the log ../beside.ndjson: not read: it leads out of the folder checked ${rule}`,
      },
    ]);
  });

  it("follows no link to a test file out of the folder: it says so, and runs nothing of it", async () => {
    const outside = await mkdtemp(join(tmpdir(), "filterc-lens-outside-"));
    try {
      await writeFile(join(dir, "errors.lpf"), filter);
      await writeFile(join(outside, "out.test.json"), testFile("errors.lpf", errorsCases));
      await symlink(join(outside, "out.test.json"), join(dir, "out.test.json"));
      const uri = pathToFileURL(join(dir, "errors.lpf")).href;
      const current = await started();
      await opened(current, uri);
      expect(await lenses(current, uri)).toEqual([
        { line: 0, title: "⚠ out.test.json: not read: a link in it leads out of the folder checked" },
      ]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("judges a log of 2,000,000 lines in a 40 MB heap, answering other requests meanwhile (regression: the first lens request ran the server out of memory)", async () => {
    await writeFile(join(dir, "errors.lpf"), filter);
    await writeFile(
      join(dir, "big.ndjson"),
      '{"EdgeResponseStatus":502,"ClientRequestPath":"/api"}\n{}\n'.repeat(1_000_000),
    );
    await writeFile(
      join(dir, "big.test.json"),
      JSON.stringify({ filter: { file: "errors.lpf" }, log: { file: "big.ndjson", matches: [1, 3, 5] } }),
    );
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    const current = await started(["--max-old-space-size=40"]);
    await opened(current, uri);
    const answered: string[] = [];
    const lens = lenses(current, uri).then((found) => {
      answered.push("lens");
      return found;
    });
    // Asked after the lens: answered while the log is read, not once it is done.
    const hover = current.connection
      .sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } })
      .then(() => answered.push("hover"));
    expect(await lens).toEqual([
      {
        line: 0,
        title: '✗ big.test.json: 999997 of 2000000 cases fail, first "line 7" (big.ndjson:7)',
      },
    ]);
    await hover;
    expect(answered).toEqual(["hover", "lens"]);
  }, 120_000);

  it("stops judging a log once the editor cancels the request, and gives no lenses", async () => {
    await writeFile(join(dir, "errors.lpf"), filter);
    await writeFile(join(dir, "big.ndjson"), '{"EdgeResponseStatus":502}\n{}\n'.repeat(1_000_000));
    await writeFile(
      join(dir, "big.test.json"),
      JSON.stringify({ filter: { file: "errors.lpf" }, log: { file: "big.ndjson", matches: [1] } }),
    );
    const uri = pathToFileURL(join(dir, "errors.lpf")).href;
    const current = await started();
    await opened(current, uri);
    let start = performance.now();
    expect((await lenses(current, uri))[0]?.title).toBe(
      '✗ big.test.json: 999999 of 2000000 cases fail, first "line 3" (big.ndjson:3)',
    );
    const whole = performance.now() - start;
    const source = new CancellationTokenSource();
    start = performance.now();
    const cancelled = current.connection.sendRequest(
      CodeLensRequest.type,
      { textDocument: { uri } },
      source.token,
    );
    setTimeout(() => source.cancel(), 50);
    expect(await cancelled).toEqual([]);
    // Answered once the next slice of the log sees the cancel, not once the whole log is judged.
    expect(performance.now() - start).toBeLessThan(whole / 2);
  }, 120_000);
});
