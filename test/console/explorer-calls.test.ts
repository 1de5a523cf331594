/**
 * The console's Log Explorer calls against a real sandbox: the datasets of a zone or an account
 * with their fields and ingestion filter; a filter set as exactly the JSON `compile` gives, cleared
 * as `""`, nothing else of the dataset changed; and nothing sent for a filter with errors.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Cloudflare from "cloudflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { compile } from "../../src/compile.js";
import { type ConsoleServer, startConsole, TOKEN_HEADER } from "../../src/console/index.js";
import { type Running, runSandbox, sdk, TOKEN, ZONE } from "../sandbox/helpers.js";

const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const SOURCE = 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"';

let page: string;
let sandbox: Running;
let server: ConsoleServer;
let client: Cloudflare;
let id: string;

beforeAll(async () => {
  page = await mkdtemp(join(tmpdir(), "filterc-console-page-"));
  await writeFile(join(page, "index.html"), "<!doctype html><title>console</title>");
  sandbox = await runSandbox();
  client = sdk(sandbox);
  server = await startConsole({
    client: createClient({ baseUrl: sandbox.api, apiToken: TOKEN, env: {}, maxRetries: 0 }),
    api: { kind: "api", url: sandbox.api },
    pageFolder: page,
    secrets: [TOKEN],
    zoneId: ZONE,
    accountId: ACCOUNT,
    challengeFolder: undefined,
  });
  ({ dataset_id: id } = await client.logs.logExplorer.datasets.create({
    zone_id: ZONE,
    dataset: "http_requests",
    fields: [
      { name: "rayid", enabled: true },
      { name: "clientip", enabled: false },
    ],
  }));
  await client.logs.logExplorer.datasets.create({ account_id: ACCOUNT, dataset: "audit_logs" });
});

afterAll(async () => {
  await server?.close();
  await sandbox?.stop();
  await rm(page, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: each answer is compared whole, or read member by member
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: { [TOKEN_HEADER]: server.token, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(text).not.toContain(TOKEN);
  return { status: response.status, json: JSON.parse(text) };
}

const live = () => client.logs.logExplorer.datasets.get(id, { zone_id: ZONE });

describe("the console's Log Explorer calls", () => {
  it("lists a scope's datasets with their fields and filter", async () => {
    const zone = await api("GET", `/api/explorer/datasets?zoneId=${ZONE}`);
    expect(zone.json.ok).toBe(true);
    expect(zone.json.more).toBe(0);
    expect(zone.json.datasets).toEqual([await live()]);
    expect(zone.json.datasets[0].fields).toEqual([
      { name: "rayid", enabled: true },
      { name: "clientip", enabled: false },
    ]);
    const account = await api("GET", `/api/explorer/datasets?accountId=${ACCOUNT}`);
    expect(account.json.datasets.map((d: { dataset: string }) => d.dataset)).toEqual(["audit_logs"]);
  });

  it("sets the filter as exactly the JSON compile gives, and clears it, changing nothing else", async () => {
    const before = await live();
    const set = await api("PUT", `/api/explorer/datasets/${id}`, {
      scope: { zoneId: ZONE },
      filter: { source: SOURCE },
    });
    const json = compile(SOURCE).filter!;
    expect(set.json).toMatchObject({ ok: true, before: "", after: json, changed: true, notices: [] });
    const after = await live();
    expect(after.filter).toBe(json);
    const { filter: _filter, updated_at: _updated, ...rest } = after;
    const { updated_at: _was, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    const again = await api("PUT", `/api/explorer/datasets/${id}`, {
      scope: { zoneId: ZONE },
      filter: { source: SOURCE },
    });
    expect(again.json).toMatchObject({
      ok: true,
      changed: false,
      notices: ["nothing to change: the dataset already has this filter"],
    });
    const cleared = await api("PUT", `/api/explorer/datasets/${id}`, {
      scope: { zoneId: ZONE },
      filter: null,
    });
    expect(cleared.json).toMatchObject({ ok: true, before: json, after: "", changed: true });
    expect((await live()).filter).toBeUndefined();
  });

  it("sends nothing for a filter with errors, nor for a body the page never sends", async () => {
    const refused = await api("PUT", `/api/explorer/datasets/${id}`, {
      scope: { zoneId: ZONE },
      filter: { source: 'ClientCountry neq "ca"' },
    });
    expect(refused.json.ok).toBe(false);
    expect(refused.json.error).toMatchObject({
      kind: "refused",
      operation: "set Log Explorer filter",
      filterSource: 'ClientCountry neq "ca"',
    });
    expect(refused.json.error.diagnostics.map((d: { code: string }) => d.code)).toEqual(["E0205"]);
    expect((await live()).filter).toBeUndefined();
    const malformed = await api("PUT", `/api/explorer/datasets/${id}`, {
      scope: { zoneId: ZONE },
      filter: "EdgeResponseStatus eq 200",
    });
    expect([malformed.status, malformed.json.error.message]).toEqual([
      400,
      "filter is null (to clear it) or {source}",
    ]);
    const badId = await api("PUT", "/api/explorer/datasets/a%2Fb", { scope: { zoneId: ZONE }, filter: null });
    expect(badId.json.error.kind).toBe("refused");
    expect(badId.json.error.problems[0].path).toBe("datasetId");
    const undecodable = await api("PUT", "/api/explorer/datasets/%E0", {
      scope: { zoneId: ZONE },
      filter: null,
    });
    expect([undecodable.status, undecodable.json.error.message]).toEqual([
      400,
      "the dataset ID in the path is not percent-encoded UTF-8",
    ]);
    const unknown = await api("GET", "/api/explorer/datasets/x");
    expect([unknown.status, unknown.json.error.message]).toEqual([
      405,
      "GET is not a call of /api/explorer/datasets/x",
    ]);
  });
});
