import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  type LogMessageParams,
  type PublishDiagnosticsParams,
  RegistrationRequest,
} from "vscode-languageserver-protocol/node";
import { TUNABLE_CODES } from "../../src/diagnostics/index.js";
import { ensureBundles } from "../helpers/bundles.js";
import { startClient, type TestClient } from "./client.js";

/*
 * The language server tunes diagnostics as `filterc check` does: the client's `filterc.diagnostics`
 * setting, under the nearest filterc.json's `diagnostics` code by code, and `# filterc-ignore`
 * comments, for filter documents and Terraform documents alike.
 */

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-lsp-tuning-"));
});
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
  await rm(dir, { recursive: true, force: true });
});

const SECONDS = "EdgeStartTimestamp gt 1700000000\n";
const W0120 =
  "1700000000 compared with `EdgeStartTimestamp` is 1970-01-01T00:00:01.7Z in unix nanoseconds, the unit Logpush compares timestamps in; read as seconds it would be 2023-11-14T22:13:20Z";

/** A server whose client answers workspace/configuration with `settings()`; what it logs is kept. */
async function started(settings: () => object) {
  const current = startClient();
  client = current;
  const logged: string[] = [];
  current.connection.onNotification(LogMessageNotification.method, (params: LogMessageParams) => {
    logged.push(params.message);
  });
  current.connection.onRequest(ConfigurationRequest.type, (params) => params.items.map(() => settings()));
  current.connection.onRequest(RegistrationRequest.type, () => {});
  await current.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
    },
  });
  await current.connection.sendNotification(InitializedNotification.type, {});
  return { current, logged };
}

/** Each diagnostic as `line:character severity code message`. */
const shown = (published: PublishDiagnosticsParams) =>
  published.diagnostics.map(
    (d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.code ?? "-"} ${d.message}`,
  );

async function open(current: TestClient, file: string, text: string, languageId = "lpf") {
  const uri = pathToFileURL(file).href;
  const next = current.nextDiagnostics(uri);
  await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId, version: 1, text },
  });
  return shown(await next);
}

describe("the language server's diagnostics settings", () => {
  it("takes the client's filterc.diagnostics, and logs each entry it leaves out with what is right", async () => {
    let settings: object = { diagnostics: { W0120: "error", W0210: "off", W0101: "warn" } };
    const { current, logged } = await started(() => settings);
    expect(await open(current, join(dir, "a.lpf"), SECONDS)).toEqual([`0:22 1 W0120 ${W0120}`]);
    expect(logged).toEqual([
      `filterc: ignoring setting filterc.diagnostics names \`W0210\`, which is no code of a warning or note (those that can be tuned are ${TUNABLE_CODES.join(", ")}, and \`warnings\` for every warning)`,
      'filterc: ignoring setting filterc.diagnostics sets `W0101` to "warn"; a level is "off", "note", "warning" or "error"',
    ]);
    // Settings that change check the open documents again.
    settings = { diagnostics: { W0120: "note" } };
    const next = current.nextDiagnostics(pathToFileURL(join(dir, "a.lpf")).href);
    await current.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
    expect(shown(await next)).toEqual([`0:22 3 W0120 ${W0120}`]);
  });

  it("puts the nearest filterc.json's levels over the client's, code by code", async () => {
    await mkdir(join(dir, "strict"));
    await writeFile(join(dir, "strict", "filterc.json"), '{"diagnostics": {"W0101": "error"}}');
    const { current } = await started(() => ({ diagnostics: { W0120: "off", W0101: "off" } }));
    const text = `WAFFlags eq "1" and ${SECONDS}`;
    expect(await open(current, join(dir, "strict", "a.lpf"), text)).toEqual([
      "0:0 1 W0101 `WAFFlags` is deprecated",
    ]);
    expect(await open(current, join(dir, "b.lpf"), text)).toEqual([]);
  });

  it("tells a filterc.json whose diagnostics are wrong at the start of each document beneath it", async () => {
    await writeFile(join(dir, "filterc.json"), '{"diagnostics": {"E0201": "off"}}');
    const { current } = await started(() => ({}));
    expect(await open(current, join(dir, "a.lpf"), SECONDS)).toEqual([
      `0:0 1 - ${join(dir, "filterc.json")}:1:18: "diagnostics" names \`E0201\`, an error, which cannot be tuned: the filter names what Logpush does not filter on, so it has no JSON; only warnings and notes can`,
      `0:22 2 W0120 ${W0120}`,
    ]);
  });

  it("honours # filterc-ignore, and reports one that silences nothing", async () => {
    const { current } = await started(() => ({}));
    expect(await open(current, join(dir, "a.lpf"), `# filterc-ignore W0120: seconds\n${SECONDS}`)).toEqual(
      [],
    );
    expect(await open(current, join(dir, "b.lpf"), `# filterc-ignore W0105: none\n${SECONDS}`)).toEqual([
      "0:17 2 W0150 this `filterc-ignore` silences no W0105: none is reported where it applies",
      `1:22 2 W0120 ${W0120}`,
    ]);
  });

  it("tunes a Terraform document with the same settings and comments", async () => {
    await writeFile(join(dir, "filterc.json"), '{"diagnostics": {"W0101": "error"}}');
    const { current } = await started(() => ({ diagnostics: { W0120: "error" } }));
    const text = [
      'resource "cloudflare_logpush_job" "a" {',
      '  zone_id = "023e105f4ecef8ad9ca31a8372d0c353"',
      '  dataset = "http_requests"',
      "  # filterc-ignore W0120: the bound is in seconds",
      "  filter = jsonencode({",
      '    where = { and = [{ key = "EdgeStartTimestamp", operator = "gt", value = 1700000000 },',
      '      { key = "WAFFlags", operator = "eq", value = "1" }] }',
      "  })",
      "}",
      "",
    ].join("\n");
    expect(await open(current, join(dir, "main.tf"), text, "terraform")).toEqual([
      "6:14 1 W0101 /where/and/1/key: `WAFFlags` is deprecated",
    ]);
  });
});
