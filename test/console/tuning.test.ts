import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { type ConsoleServer, startConsole, TOKEN_HEADER } from "../../src/console/index.js";
import { ensureConsole } from "../helpers/bundles.js";
import { startConsoleCli } from "../helpers/console.js";
import { type Running, runSandbox, TOKEN, ZONE } from "../sandbox/helpers.js";

/*
 * The console honours the levels it was started with (its folder's filterc.json, its --deny and
 * --allow): the session tells the page, which shows the filter at them, and a job whose filter they
 * give an error is refused before anything is sent.
 */

// Built while the file is collected, outside any test's time limit.
ensureConsole();

let page: string;
let sandbox: Running;
let server: ConsoleServer;

async function call(origin: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { [TOKEN_HEADER]: token, "content-type": "application/json", origin },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the answers are compared whole, or member by member
  return { status: response.status, json: (await response.json()) as any };
}

const api = (method: string, path: string, body?: unknown) =>
  call(server.origin, server.token, method, path, body);

beforeAll(async () => {
  page = await mkdtemp(join(tmpdir(), "filterc-console-tuning-"));
  await writeFile(join(page, "index.html"), "<!doctype html><title>console</title>");
  sandbox = await runSandbox();
  server = await startConsole({
    client: createClient({ baseUrl: sandbox.api, apiToken: TOKEN, env: {}, maxRetries: 0 }),
    api: { kind: "api", url: sandbox.api },
    pageFolder: page,
    secrets: [TOKEN],
    zoneId: ZONE,
    accountId: undefined,
    challengeFolder: sandbox.dataDir,
    diagnostics: { W0101: "error", W0120: "off" },
  });
});

afterAll(async () => {
  await server?.close();
  await sandbox?.stop();
  await rm(page, { recursive: true, force: true });
});

const DESTINATION = "s3://logs/tuning?region=us-west-2";

/** A new job's settings with `source` as its filter, the destination's ownership proven. */
async function settings(source: string) {
  const challenge = await api("POST", "/api/ownership", {
    scope: { zoneId: ZONE },
    destination: DESTINATION,
  });
  return {
    dataset: "http_requests",
    fields: ["ClientIP"],
    destination: DESTINATION,
    ownershipChallenge: challenge.json.token,
    filter: { source },
  };
}

describe("the console's server API and the diagnostics settings", () => {
  it("tells the page the levels in its session", async () => {
    expect(await api("GET", "/api/session")).toEqual({
      status: 200,
      json: {
        ok: true,
        api: { kind: "api", url: sandbox.api },
        zoneId: ZONE,
        accountId: null,
        challengeFromFile: true,
        diagnostics: { W0101: "error", W0120: "off" },
      },
    });
  });

  it("refuses a job whose filter has a warning made an error, on create and on update", async () => {
    const refused = await api("POST", "/api/jobs", {
      scope: { zoneId: ZONE },
      settings: await settings('WAFFlags eq "1"'),
    });
    expect(refused).toEqual({
      status: 200,
      json: {
        ok: false,
        error: {
          kind: "refused",
          operation: "create job",
          problems: [
            {
              code: "E0616",
              path: "filter",
              message: "the filter has 1 error; fix it before sending the job",
            },
          ],
          diagnostics: [
            {
              code: "W0101",
              severity: "error",
              message: "`WAFFlags` is deprecated",
              range: {
                start: { offset: 0, line: 1, column: 1 },
                end: { offset: 8, line: 1, column: 9 },
              },
            },
          ],
          filterSource: 'WAFFlags eq "1"',
        },
      },
    });
    // A warning turned off is not reported; the job is made.
    const created = await api("POST", "/api/jobs", {
      scope: { zoneId: ZONE },
      settings: await settings("EdgeStartTimestamp gt 1700000000"),
    });
    expect(created.json).toMatchObject({
      ok: true,
      diagnostics: [],
      job: { filter: '{"where":{"key":"EdgeStartTimestamp","operator":"gt","value":"1700000000"}}' },
    });
    const update = await api("PUT", `/api/jobs/${created.json.job.id}`, {
      scope: { zoneId: ZONE },
      settings: { filter: { source: 'WAFFlags eq "1"' } },
    });
    expect(update.json.error).toMatchObject({
      kind: "refused",
      operation: "update job",
      diagnostics: [{ code: "W0101", severity: "error" }],
    });
    // A filter silenced where it stands goes through.
    const ignored = await api("PUT", `/api/jobs/${created.json.job.id}`, {
      scope: { zoneId: ZONE },
      settings: { filter: { source: '# filterc-ignore W0101: the old dashboards read it\nWAFFlags eq "1"' } },
    });
    expect(ignored.json).toMatchObject({
      ok: true,
      job: { filter: '{"where":{"key":"WAFFlags","operator":"eq","value":"1"}}' },
    });
  });
});

describe("filterc console", () => {
  it("reads the current folder's filterc.json, with --deny and --allow over it", async () => {
    const folder = await mkdtemp(join(tmpdir(), "filterc-console-tuning-cli-"));
    try {
      await mkdir(join(folder, "project"));
      await writeFile(
        join(folder, "project", "filterc.json"),
        '{"diagnostics": {"W0120": "off", "W0101": "error"}}',
      );
      const running = await startConsoleCli(
        ["--deny", "W0120", "--allow", "W0105"],
        {},
        join(folder, "project"),
      );
      try {
        const session = await call(running.origin, running.token, "GET", "/api/session");
        expect(session.json.diagnostics).toEqual({ W0120: "error", W0101: "error", W0105: "off" });
      } finally {
        await running.stop();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
