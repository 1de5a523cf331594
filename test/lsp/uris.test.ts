import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CodeLensRequest,
  ConfigurationRequest,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  RegistrationRequest,
  ResponseError,
  ShutdownRequest,
} from "vscode-languageserver-protocol/node";
import { ensureBundles } from "../helpers/bundles.js";
import { startClient, type TestClient } from "./client.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;
let dir: string | undefined;
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A started server whose stderr is kept. */
function started(): TestClient & { stderr: () => string } {
  const current = startClient();
  client = current;
  let stderr = "";
  current.child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return Object.assign(current, { stderr: () => stderr });
}

async function initialize(current: TestClient, capabilities: object = {}) {
  await current.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities,
  });
  await current.connection.sendNotification(InitializedNotification.type, {});
}

/** Opens a document and gives the codes of its first diagnostics (the message of one without). */
async function openCodes(current: TestClient, uri: string, text: string, languageId: string) {
  const next = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId, version: 1, text },
  });
  return (await next).diagnostics.map((d) => d.code ?? d.message);
}

const hover = (current: TestClient, uri: string) =>
  current.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri },
    position: { line: 0, character: 25 },
  });

/** Ends the server as an editor does; it must exit 0, having said nothing on stderr. */
async function shutDown(current: ReturnType<typeof started>) {
  await current.connection.sendRequest(ShutdownRequest.type);
  await current.connection.sendNotification(ExitNotification.type);
  expect({ code: await current.exited, stderr: current.stderr() }).toEqual({ code: 0, stderr: "" });
}

// Two errors, whatever the settings: an unknown field and a number compared with a string.
const text = 'ClientIpp eq "1" and EdgeResponseStatus eq "x"';
const codes = ["E0201", "E0302"];

/*
 * Any URI is a document; one that names no local file has no filterc.json. Each of these once
 * ended the server (an uncaught ERR_INVALID_FILE_URL_HOST / _PATH from the filterc.json lookup)
 * or would have, through the same conversion; the others name no file in other ways.
 */
const noLocalFile = [
  "file://server/share/x.lpf",
  "file:///srv/a%2Fb.lpf",
  "file://[::1]/x.lpf",
  "file://%41/x.lpf",
  "file:///%ff/x.lpf",
  "file:///%E0%A4%A/x.lpf",
  "file:///a%00b/x.lpf",
  `file:///${"a".repeat(300)}/x.lpf`,
  "file://[bad/x.lpf",
  "untitled:Untitled-1",
  "vscode-notebook-cell:/work/n.ipynb#W0sZmlsZQ%3D%3D",
  "http://example.com/x.lpf",
  "x.lpf",
  "",
];

describe("documents at any URI", () => {
  it("are checked, and the server goes on answering, whatever the URI names", async () => {
    const current = started();
    await initialize(current);
    for (const uri of noLocalFile) {
      expect({ uri, codes: await openCodes(current, uri, text, "lpf") }).toEqual({ uri, codes });
      expect((await hover(current, uri))?.contents).toBeDefined();
      expect(await current.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })).toEqual(
        [],
      );
    }
    for (const uri of ["file://server/share/main.tf", "file:///srv/a%2Fmain.tf", "untitled:main.tf"]) {
      const tf = 'resource "cloudflare_logpush_job" "a" {\n  filter = "{}"\n}\n';
      expect({ uri, codes: await openCodes(current, uri, tf, "terraform") }).toEqual({ uri, codes: [] });
    }
    // A file here, named with the host `localhost`, is a local file: its filterc.json's dataset,
    // which has no EdgeResponseStatus, applies.
    dir = await mkdtemp(join(tmpdir(), "filterc-lsp-uris-"));
    await writeFile(join(dir, "filterc.json"), '{"dataset": "dns_logs"}');
    const local = `file://localhost${dir}/x.lpf`;
    expect(await openCodes(current, local, "EdgeResponseStatus eq 200", "lpf")).toEqual(["E0201"]);
    await shutDown(current);
  });

  it("survive a client that refuses registrations and settings", async () => {
    const current = started();
    const refused: string[] = [];
    current.connection.onRequest(RegistrationRequest.type, (params) => {
      refused.push(...params.registrations.map((r) => r.method));
      return new ResponseError(-32601, "not here");
    });
    current.connection.onRequest(ConfigurationRequest.type, () => new ResponseError(-32603, "no settings"));
    const logged: string[] = [];
    current.connection.onNotification(LogMessageNotification.type, (params) => {
      if (params.message.startsWith("filterc:")) logged.push(params.message);
    });
    await initialize(current, {
      workspace: {
        configuration: true,
        didChangeConfiguration: { dynamicRegistration: true },
        didChangeWatchedFiles: { dynamicRegistration: true },
      },
    });
    expect(await openCodes(current, "file://server/share/x.lpf", text, "lpf")).toEqual(codes);
    expect(refused.sort()).toEqual(["workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles"]);
    expect(logged.sort()).toEqual([
      "filterc: cannot read settings: no settings",
      "filterc: cannot register for settings changes: not here",
      "filterc: cannot watch filterc.json files: not here",
    ]);
    expect((await hover(current, "file://server/share/x.lpf"))?.contents).toBeDefined();
    await shutDown(current);
  });
});
