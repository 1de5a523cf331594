import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { readChallengeToken } from "../../src/console/challenge.js";
import { type ConsoleServer, startConsole, TOKEN_HEADER } from "../../src/console/index.js";
import { makeFifo } from "../helpers/fifo.js";
import { type Running, runSandbox, TOKEN, ZONE } from "../sandbox/helpers.js";

const ACCOUNT = "9a7806061c88ada191ed06f989cc3dac";

let page: string;
let sandbox: Running;
let server: ConsoleServer;
/** Every answer the console gave in this file, to look for the credentials in. */
const answers: string[] = [];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so that Host, Origin and the rest reach the server exactly as written. */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: "127.0.0.1", port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          answers.push(JSON.stringify(response.headers) + text);
          resolve({ status: response.statusCode!, headers: response.headers, body: text });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** A call as the page makes it: its token, its origin, JSON. */
// biome-ignore lint/suspicious/noExplicitAny: each answer is compared whole, or read member by member
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {
    [TOKEN_HEADER]: server.token,
    origin: server.origin,
    "sec-fetch-site": "same-origin",
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  const answer = await send(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
  return { status: answer.status, json: JSON.parse(answer.body) };
}

beforeAll(async () => {
  page = await mkdtemp(join(tmpdir(), "filterc-console-page-"));
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
  });
});

afterAll(async () => {
  await server?.close();
  await sandbox?.stop();
  await rm(page, { recursive: true, force: true });
});

describe("the console's server", () => {
  it("listens on 127.0.0.1 and gives the page's address with the session token", () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).toBe(`${server.origin}/#token=${server.token}`);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("serves the page with headers that keep it to itself", async () => {
    const answer = await send("GET", "/");
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("<!doctype html><title>console</title>");
    expect(answer.headers["content-security-policy"]).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(answer.headers["x-frame-options"]).toBe("DENY");
    expect(answer.headers["referrer-policy"]).toBe("no-referrer");
    expect((await send("GET", "/", { host: `localhost:${new URL(server.origin).port}` })).status).toBe(200);
  });

  it("refuses a request for another host: a site whose name was pointed at 127.0.0.1 gets nothing", async () => {
    const { port } = new URL(server.origin);
    const message = `refused: this console answers at 127.0.0.1:${port} or localhost:${port}, not at "evil.example:${port}"`;
    const headers = { host: `evil.example:${port}`, [TOKEN_HEADER]: server.token };
    const forPage = await send("GET", "/", headers);
    expect([forPage.status, forPage.body]).toEqual([403, `${message}\n`]);
    const forCall = await send("GET", "/api/session", headers);
    expect([forCall.status, JSON.parse(forCall.body)]).toEqual([
      403,
      { ok: false, error: { kind: "denied", message } },
    ]);
  });

  it("refuses calls without the session token, with another token, from another origin or marked cross-site", async () => {
    const denied = async (headers: Record<string, string>) => {
      const answer = await send("POST", "/api/custom-fields", headers, "{}");
      return [answer.status, JSON.parse(answer.body)];
    };
    const refusal = (message: string) => [403, { ok: false, error: { kind: "denied", message } }];
    expect(await denied({})).toEqual(
      refusal(
        "refused: the call lacks the console's session token; open the address filterc console printed (it ends in #token=…)",
      ),
    );
    expect(await denied({ [TOKEN_HEADER]: "guessed" })).toEqual(
      refusal("refused: the session token is not this console's; open the address filterc console printed"),
    );
    expect(await denied({ [TOKEN_HEADER]: server.token, origin: "https://evil.example" })).toEqual(
      refusal(
        'refused: a request from "https://evil.example"; the console takes calls from its own page only',
      ),
    );
    expect(await denied({ [TOKEN_HEADER]: server.token, origin: "null" })).toEqual(
      refusal('refused: a request from "null"; the console takes calls from its own page only'),
    );
    expect(await denied({ [TOKEN_HEADER]: server.token, "sec-fetch-site": "cross-site" })).toEqual(
      refusal('refused: a "cross-site" request; the console takes calls from its own page only'),
    );
    // A preflight from another site gets no CORS answer: the browser sends nothing after it.
    const preflight = await send("OPTIONS", "/api/jobs", { origin: "https://evil.example" });
    expect(preflight.status).toBe(403);
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    // Nothing was written on the way.
    expect(
      await createClient({ baseUrl: sandbox.api, apiToken: TOKEN, env: {} }).getCustomFields({
        zoneId: ZONE,
      }),
    ).toBeNull();
  });

  it("tells the page what it drives, never with a credential", async () => {
    expect(await api("GET", "/api/session")).toEqual({
      status: 200,
      json: {
        ok: true,
        api: { kind: "api", url: sandbox.api },
        zoneId: ZONE,
        accountId: null,
        challengeFromFile: true,
      },
    });
  });

  it("answers a call the page would never make with 400, 404, 405 or 413 and what is wrong", async () => {
    expect(await api("GET", "/api/nothing")).toEqual({
      status: 404,
      json: { ok: false, error: { kind: "request", message: "no such call" } },
    });
    expect(await api("PATCH", "/api/jobs")).toEqual({
      status: 405,
      json: { ok: false, error: { kind: "request", message: "PATCH is not a call of /api/jobs" } },
    });
    for (const path of ["//[", "http://["]) {
      const unreadable = await send("GET", path, { [TOKEN_HEADER]: server.token });
      expect([unreadable.status, unreadable.body]).toEqual([
        400,
        "bad request: the path does not read as a URL's path\n",
      ]);
    }
    const notJson = await send("POST", "/api/jobs", { [TOKEN_HEADER]: server.token }, "{oops");
    expect([notJson.status, JSON.parse(notJson.body)]).toEqual([
      400,
      { ok: false, error: { kind: "request", message: "the body is not JSON" } },
    ]);
    const large = await send(
      "POST",
      "/api/jobs",
      { [TOKEN_HEADER]: server.token },
      "x".repeat(1024 * 1024 + 1),
    );
    expect([large.status, JSON.parse(large.body)]).toEqual([
      413,
      { ok: false, error: { kind: "request", message: "the body is larger than 1048576 bytes" } },
    ]);
    expect(
      await api("POST", "/api/jobs", { scope: { zoneId: ZONE }, settings: { fields: "ClientIP" } }),
    ).toEqual({
      status: 400,
      json: { ok: false, error: { kind: "request", message: "settings.fields has the wrong type" } },
    });
    expect(await api("DELETE", `/api/jobs/%E0?zoneId=${ZONE}`)).toEqual({
      status: 400,
      json: {
        ok: false,
        error: { kind: "request", message: "the job ID in the path is not percent-encoded UTF-8" },
      },
    });
    expect(await api("POST", "/api/jobs", { scope: {}, settings: {} })).toEqual({
      status: 400,
      json: { ok: false, error: { kind: "request", message: "scope names a zoneId or an accountId" } },
    });
  });

  it("adds and removes custom fields with the client: the ruleset made once, the rules applied", async () => {
    const added = await api("POST", "/api/custom-fields", {
      scope: { zoneId: ZONE },
      merge: "add",
      config: { requestHeaders: ["X-Trace-Id"] },
    });
    expect(added.json).toMatchObject({
      ok: true,
      created: true,
      changed: true,
      config: { requestHeaders: ["x-trace-id"] },
      notices: [
        'requestHeaders[0]: header name "X-Trace-Id" sent as "x-trace-id" (header names are lower case)',
      ],
    });
    const cookie = await api("POST", "/api/custom-fields", {
      scope: { zoneId: ZONE },
      merge: "add",
      config: { cookies: ["SessionID"] },
    });
    expect(cookie.json).toMatchObject({
      ok: true,
      created: false,
      config: { requestHeaders: ["x-trace-id"], cookies: ["SessionID"] },
    });
    expect(await api("GET", `/api/custom-fields?zoneId=${ZONE}`)).toEqual({
      status: 200,
      json: {
        ok: true,
        rulesetId: added.json.rulesetId,
        config: { requestHeaders: ["x-trace-id"], cookies: ["SessionID"] },
        limit: "service",
      },
    });
    const refused = await api("POST", "/api/custom-fields", {
      scope: { zoneId: ZONE },
      merge: "add",
      config: { responseHeaders: ["bad name"] },
    });
    expect(refused).toEqual({
      status: 200,
      json: {
        ok: false,
        error: {
          kind: "refused",
          operation: "add custom fields",
          problems: [
            {
              code: "E0602",
              message:
                '"bad name" is not a valid header name; use letters, digits and !#$%&\'*+-.^_`|~ only (custom-field rule 2)',
              path: "responseHeaders[0]",
            },
          ],
          diagnostics: [],
          filterSource: null,
        },
      },
    });
    const removed = await api("POST", "/api/custom-fields", {
      scope: { zoneId: ZONE },
      merge: "remove",
      config: { cookies: ["SessionID"] },
    });
    expect(removed.json).toMatchObject({ ok: true, config: { requestHeaders: ["x-trace-id"] } });
  });

  it("creates a job after the ownership challenge it reads from the sandbox's file, then lists, updates and deletes it", async () => {
    const destination = "s3://logs/errors?region=us-west-2";
    const challenge = await api("POST", "/api/ownership", { scope: { zoneId: ZONE }, destination });
    expect(challenge.json).toEqual({
      ok: true,
      filename: expect.stringMatching(/^logs\/errors\/ownership-challenge-[0-9a-f]{8}\.txt$/),
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await readFile(join(sandbox.dataDir, challenge.json.filename), "utf8")).toBe(challenge.json.token);

    const settings = {
      name: "errors",
      dataset: "http_requests",
      fields: ["ClientIP", "EdgeResponseStatus"],
      filter: { source: "EdgeResponseStatus geq 500" },
      destination,
      timestamps: "unix",
      outputOptions: { sample_rate: 0.5 },
    };
    const missing = await api("POST", "/api/jobs", { scope: { zoneId: ZONE }, settings });
    expect(
      missing.json.error.problems.map((p: { code: string; path: string }) => `${p.code} ${p.path}`),
    ).toEqual(["E0627 ownership_challenge"]);
    const created = await api("POST", "/api/jobs", {
      scope: { zoneId: ZONE },
      settings: { ...settings, ownershipChallenge: challenge.json.token },
    });
    expect(created.json).toMatchObject({
      ok: true,
      job: {
        id: 1,
        name: "errors",
        filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
        destination_conf: destination,
        output_options: {
          field_names: ["ClientIP", "EdgeResponseStatus"],
          timestamp_format: "unix",
          sample_rate: 0.5,
        },
      },
    });
    expect(
      (await api("GET", `/api/jobs?zoneId=${ZONE}`)).json.jobs.map((job: { id: number }) => job.id),
    ).toEqual([1]);
    const disabled = await api("PUT", "/api/jobs/1", {
      scope: { zoneId: ZONE },
      settings: { enabled: false },
    });
    expect(disabled.json).toMatchObject({
      ok: true,
      changes: [{ path: "enabled", before: true, after: false }],
    });
    const filtered = await api("PUT", "/api/jobs/1", {
      scope: { zoneId: ZONE },
      settings: { filter: { source: 'EdgeResponseStatus in [500, 502] and ClientCountry eq "ca"' } },
    });
    expect(filtered.json.job.filter).toBe(
      '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"in","value":[500,502]},{"key":"ClientCountry","operator":"eq","value":"ca"}]}}',
    );
    const badFilter = await api("PUT", "/api/jobs/1", {
      scope: { zoneId: ZONE },
      settings: { filter: { source: 'EdgeResponseStatus eq "abc"' } },
    });
    expect(badFilter.json.error).toMatchObject({
      kind: "refused",
      operation: "update job",
      problems: [{ code: "E0616", path: "filter" }],
      diagnostics: [{ code: "E0302" }],
      filterSource: 'EdgeResponseStatus eq "abc"',
    });
    // A change of destination answers both sides masked, as the job's own destination is.
    const keyed = (key: string) =>
      `s3://logs/errors?region=us-west-2&access-key-id=ID${key}&secret-access-key=SECRET${key}`;
    await api("PUT", "/api/jobs/1", { scope: { zoneId: ZONE }, settings: { destination: keyed("OLD") } });
    const moved = await api("PUT", "/api/jobs/1", {
      scope: { zoneId: ZONE },
      settings: { destination: keyed("NEW") },
    });
    expect(moved.json).toMatchObject({
      ok: true,
      job: {
        destination_conf: "s3://logs/errors?region=us-west-2&access-key-id=****&secret-access-key=****",
      },
      changes: [
        {
          path: "destination_conf",
          before: "s3://logs/errors?region=us-west-2&access-key-id=****&secret-access-key=****",
          after: "s3://logs/errors?region=us-west-2&access-key-id=****&secret-access-key=****",
        },
      ],
    });
    expect(JSON.stringify(moved.json)).not.toMatch(/SECRET|IDOLD|IDNEW/);
    expect(JSON.stringify((await api("GET", `/api/jobs?zoneId=${ZONE}`)).json)).not.toMatch(/SECRET|IDNEW/);
    expect(await api("DELETE", `/api/jobs/1?zoneId=${ZONE}`)).toEqual({
      status: 200,
      json: { ok: true, id: 1 },
    });
    expect((await api("GET", `/api/jobs?zoneId=${ZONE}`)).json.jobs).toEqual([]);
  });

  it("shows a destination's keys masked", async () => {
    const destination =
      "s3://keyed/logs?region=us-east-1&access-key-id=AKIAKEYID0000&secret-access-key=hush-hush-secret";
    const created = await api("POST", "/api/jobs", {
      scope: { accountId: ACCOUNT },
      settings: { dataset: "gateway_http", fields: ["Datetime"], destination },
    });
    expect(created.json.job.destination_conf).toBe(
      "s3://keyed/logs?region=us-east-1&access-key-id=****&secret-access-key=****",
    );
    const listed = await api("GET", `/api/jobs?accountId=${ACCOUNT}`);
    expect(listed.json.jobs[0].destination_conf).toBe(
      "s3://keyed/logs?region=us-east-1&access-key-id=****&secret-access-key=****",
    );
    expect(answers.join("\n")).not.toContain("hush-hush-secret");
  });

  it("gives up on a body that keeps it waiting, with 408", async () => {
    const slow = await startConsole({
      client: createClient({ baseUrl: sandbox.api, apiToken: TOKEN, env: {}, maxRetries: 0 }),
      api: { kind: "api", url: sandbox.api },
      pageFolder: page,
      zoneId: ZONE,
      accountId: undefined,
      challengeFolder: undefined,
      bodyTimeoutMs: 200,
    });
    try {
      const { port } = new URL(slow.origin);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () =>
          socket.write(
            `POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${TOKEN_HEADER}: ${slow.token}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"scope":`,
          ),
        );
        let text = "";
        socket.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        socket.on("close", () => resolve(text)).on("error", reject);
        setTimeout(() => socket.end(), 5000);
      });
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
        ok: false,
        error: {
          kind: "request",
          message:
            "the body arrived too slowly: the console waits 0.2 s for a body, and one more second for every 65536 bytes",
        },
      });
    } finally {
      await slow.close();
    }
  });

  it("answers the API going away with its failure, naming the operation", async () => {
    const gone = await runSandbox();
    const { port } = new URL(gone.api);
    await gone.stop();
    const orphan = await startConsole({
      client: createClient({
        baseUrl: `http://127.0.0.1:${port}/client/v4`,
        apiToken: TOKEN,
        env: {},
        maxRetries: 0,
      }),
      api: { kind: "api", url: "unused" },
      pageFolder: page,
      zoneId: ZONE,
      accountId: undefined,
      challengeFolder: undefined,
    });
    try {
      const answer = await fetch(`${orphan.origin}/api/jobs?zoneId=${ZONE}`, {
        headers: { [TOKEN_HEADER]: orphan.token },
      });
      expect(await answer.json()).toEqual({
        ok: false,
        error: {
          kind: "api",
          operation: "list jobs",
          failure: "network",
          status: null,
          errors: [],
          message: expect.stringMatching(/^list jobs: /),
        },
      });
    } finally {
      await orphan.close();
    }
  });

  it("never gives the page the API's credential, nor its own token back", () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers) {
      expect(answer).not.toContain(TOKEN);
      expect(answer).not.toContain(server.token);
    }
  });
});

describe("reading an ownership challenge file", () => {
  it("reads the token the sandbox wrote, and no file outside its data directory", async () => {
    const folder = await mkdtemp(join(tmpdir(), "filterc-challenge-"));
    try {
      await writeFile(join(folder, "challenge.txt"), "  0123abcd\n");
      expect(await readChallengeToken(folder, "challenge.txt")).toEqual({ token: "0123abcd" });
      expect(await readChallengeToken(folder, "missing.txt")).toEqual({ problem: "no such file" });
      expect(await readChallengeToken(join(folder, "inner"), "../challenge.txt")).toEqual({
        problem: "no such file",
      });
      await writeFile(join(folder, "empty.txt"), "\n");
      expect(await readChallengeToken(folder, "empty.txt")).toEqual({ problem: "the file is empty" });
      const inner = join(folder, "data");
      await mkdir(inner);
      expect(await readChallengeToken(inner, "../challenge.txt")).toEqual({
        problem: "the file is not in the sandbox's data directory",
      });
      // A fifo would keep the read waiting for a writer that never comes.
      makeFifo(join(folder, "fifo.txt"));
      expect(await readChallengeToken(folder, "fifo.txt")).toEqual({
        problem: "a fifo (named pipe), not a regular file",
      });
      await writeFile(join(folder, "large.txt"), "a".repeat(5000));
      expect(await readChallengeToken(folder, "large.txt")).toEqual({
        problem: "larger than 4096 bytes; not read",
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
