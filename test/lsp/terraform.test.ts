import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { ensureBundles } from "../helpers/bundles.js";
import { startClient, type TestClient } from "./client.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let client: TestClient | undefined;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-lsp-terraform-"));
  client = startClient();
  await client.connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
  });
  await client.connection.sendNotification(InitializedNotification.type, {});
});
afterEach(async () => {
  if (client && client.child.exitCode === null) client.child.kill();
  client = undefined;
  await rm(dir, { recursive: true, force: true });
});

const shown = (published: PublishDiagnosticsParams) =>
  published.diagnostics.map(
    (d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.code} ${d.message}`,
  );

const job = (filter: string) =>
  `resource "cloudflare_logpush_job" "a" {\n  zone_id = var.zone\n  filter  = ${filter}\n}\n`;

describe("the language server on Terraform documents", () => {
  it("publishes filterc check's diagnostics for a .tf document as the editor holds it", async () => {
    const current = client!;
    const file = join(dir, "main.tf");
    // On disk the filter is fine; the editor's text is what is checked.
    await writeFile(
      file,
      job('jsonencode({ where = { key = "ClientRequestHost", operator = "eq", value = "a" } })'),
    );
    await writeFile(join(dir, "variables.tf"), 'variable "op" {\n  default = "neq"\n}\n');
    const uri = pathToFileURL(file).href;
    let next = current.nextDiagnostics(uri);
    await current.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri,
        languageId: "terraform",
        version: 1,
        text: job('jsonencode({ where = { key = "ClientRequestHost", operator = "in", value = "a,b" } })'),
      },
    });
    expect(shown(await next)).toEqual([
      "2:87 1 E0304 /where/value: `in` takes a list of values, like [200, 201]",
    ]);
    next = current.nextDiagnostics(uri);
    await current.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 2 },
      contentChanges: [
        {
          text: job('jsonencode({ where = { key = "ClientRequestHost", operator = var.op, value = x.y } })'),
        },
      ],
    });
    // var.op is read from its file on disk (else the note would name it); x.y is a note (Information).
    expect(shown(await next)).toEqual([
      "2:89 3 W0900 the filter of cloudflare_logpush_job.a is not checked: x.y: Terraform knows its value only when it plans or applies",
    ]);
    next = current.nextDiagnostics(uri);
    await current.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: 3 },
      contentChanges: [{ text: 'resource "a" "b" {\n' }],
    });
    expect(shown(await next)).toEqual(["0:17 1 E0900 invalid HCL: the `{` at 1:18 is never closed"]);
    next = current.nextDiagnostics(uri);
    await current.connection.sendNotification(DidCloseTextDocumentNotification.type, {
      textDocument: { uri },
    });
    expect((await next).diagnostics).toEqual([]);
  });
});
