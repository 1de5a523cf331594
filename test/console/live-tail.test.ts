/**
 * The console's live tail (Instant Logs) against a real sandbox: the server creates the session
 * with the API client, connects to it itself and relays exactly the records its filter keeps to the
 * page's WebSocket; that WebSocket is refused to anything but the console's own page (Host, Origin,
 * the session token); each ending reaches the page; what waits for a page is bounded, the rest
 * dropped with a count; and nothing is sent for settings the client's checks refuse.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createClient } from "../../src/api/index.js";
import { type ConsoleServer, startConsole, TOKEN_HEADER } from "../../src/console/index.js";
import type { LiveTailLimits } from "../../src/console/live-tail.js";
import {
  LIVE_TAIL_PATH,
  LIVE_TAIL_PROTOCOL,
  type LiveTailMessage,
  TOKEN_PROTOCOL_PREFIX,
} from "../../src/console/live-tail-protocol.js";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { runCli } from "../helpers/cli.js";
import { kernelSocketBytes } from "../helpers/sockets.js";
import { type Running, runSandbox, TOKEN, ZONE } from "../sandbox/helpers.js";

const FILTER = 'EdgeResponseStatus geq 500 and not ClientRequestURI startsWith "/health"';
const FIELDS = ["RayID", "EdgeResponseStatus", "ClientRequestURI", "EdgeStartTimestamp"];

let sandbox: Running | undefined;
let server: ConsoleServer | undefined;
let page: string | undefined;
/** Every text the console sent in this file (answers and messages), to look for the credential in. */
const sent: string[] = [];

afterEach(async () => {
  await server?.close();
  await sandbox?.stop();
  if (page) await rm(page, { recursive: true, force: true });
  server = sandbox = page = undefined;
});

async function start(
  limits: Partial<LiveTailLimits> = {},
  sandboxOptions: Partial<SandboxOptions> = {},
): Promise<ConsoleServer> {
  page = await mkdtemp(join(tmpdir(), "filterc-console-page-"));
  await writeFile(join(page, "index.html"), "<!doctype html><title>console</title>");
  sandbox = await runSandbox(sandboxOptions);
  server = await startConsole({
    client: createClient({ baseUrl: sandbox.api, apiToken: TOKEN, env: {}, maxRetries: 0 }),
    api: { kind: "api", url: sandbox.api },
    pageFolder: page,
    secrets: [TOKEN],
    zoneId: ZONE,
    accountId: undefined,
    challengeFolder: undefined,
    liveTails: limits,
  });
  return server;
}

/** A call as the page makes it. */
// biome-ignore lint/suspicious/noExplicitAny: each answer is compared whole, or read member by member
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server!.origin}${path}`, {
    method,
    headers: { [TOKEN_HEADER]: server!.token, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  sent.push(text);
  return { status: response.status, json: JSON.parse(text) };
}

const startTail = (settings: Record<string, unknown>) =>
  api("POST", "/api/instant-logs", { scope: { zoneId: ZONE }, settings });

interface PageSocket {
  socket?: WebSocket;
  status?: number;
  body?: string;
  messages: LiveTailMessage[];
  closed: Promise<number>;
}

/** The page's WebSocket to a tail, with the headers a browser on the console's page sends unless others are given. */
function connect(tail: string, headers: Record<string, string | undefined> = {}, token = server!.token) {
  const { port } = new URL(server!.origin);
  const given = {
    host: `127.0.0.1:${port}`,
    origin: server!.origin,
    "sec-fetch-site": "same-origin",
    ...headers,
  };
  const messages: LiveTailMessage[] = [];
  let onClose: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => {
    onClose = resolve;
  });
  return new Promise<PageSocket>((resolve) => {
    const socket = new WebSocket(
      `ws://127.0.0.1:${port}${LIVE_TAIL_PATH}${tail}`,
      [LIVE_TAIL_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`],
      {
        headers: Object.fromEntries(
          Object.entries(given).filter(([, value]) => value !== undefined),
        ) as Record<string, string>,
      },
    );
    socket.on("message", (data) => {
      sent.push(String(data));
      messages.push(JSON.parse(String(data)) as LiveTailMessage);
    });
    socket.on("close", (code) => onClose(code));
    socket.once("open", () => resolve({ socket, messages, closed }));
    socket.once("unexpected-response", (_request, response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode!, body, messages, closed }));
    });
    socket.on("error", () => undefined);
  });
}

async function ingest(lines: string[]): Promise<void> {
  const response = await fetch(`${sandbox!.api}/zones/${ZONE}/sandbox/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    body: `${lines.join("\n")}\n`,
  });
  expect(response.status).toBe(200);
}

async function sessions(): Promise<unknown[]> {
  const response = await fetch(`${sandbox!.api}/zones/${ZONE}/logpush/edge/jobs`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await response.json()) as { result: unknown[] }).result;
}

/** Records of every kind the filter tells apart, numbered by their RayID. */
function records(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const record: Record<string, unknown> = { RayID: `ray${i}`, ClientIP: `192.0.2.${i % 250}` };
    if (i % 7 !== 3)
      record["EdgeResponseStatus"] = i % 5 === 0 ? String(500 + (i % 4)) : [200, 404, 500, 503][i % 4];
    if (i % 3 !== 1) record["ClientRequestURI"] = i % 2 === 0 ? `/api/${i}` : "/health/live";
    const line = JSON.stringify(record);
    return i % 4 === 2 ? `${line.slice(0, -1)},"EdgeStartTimestamp":1700000000123456789}` : line;
  });
}

/** The lines of every records message so far. */
const linesOf = (messages: readonly LiveTailMessage[]) =>
  messages.flatMap((message) => (message.kind === "records" ? message.lines : []));

/** A record's fields as the session selects them, in its order. */
function selected(line: string): Record<string, unknown> {
  const record = JSON.parse(line) as Record<string, unknown>;
  return Object.fromEntries(FIELDS.filter((field) => field in record).map((field) => [field, record[field]]));
}

describe("the console's live tail", () => {
  it("relays exactly the records the filter keeps, as the service sent them, and Stop ends the session", async () => {
    await start();
    const created = await startTail({ fields: FIELDS, sample: 1, filter: { source: FILTER } });
    expect(created.status).toBe(200);
    expect(created.json.ok).toBe(true);
    expect(created.json.tail).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // The page is told the session, never its address: all it takes to read the zone's records.
    expect(created.json.session.destination_conf).toMatch(
      /^ws:\/\/127\.0\.0\.1:\d+\/instant-logs\/ws\/sessions\/\*\*\*\*$/,
    );
    expect(created.json.session.filter).toBe(
      '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"geq","value":"500"},{"key":"ClientRequestURI","operator":"!startsWith","value":"/health"}]}}',
    );
    const page = await connect(created.json.tail);
    expect(page.socket).toBeDefined();
    const lines = records(80);
    const evaluated = await runCli(["eval", "--expr", FILTER], `${lines.join("\n")}\n`);
    const kept = evaluated.stdout.split("\n").slice(0, -1);
    expect(kept.length).toBeGreaterThan(10);
    await ingest(lines);
    await expect.poll(() => linesOf(page.messages).length).toBe(kept.length);
    const relayed = linesOf(page.messages);
    expect(relayed.map(selected)).toEqual(kept.map(selected));
    // The exact text of the service's record: a time past 2^53 digit for digit, its weight.
    expect(relayed.find((line) => line.includes("1700000000123456789"))).toMatch(
      /^\{"RayID":"ray\d+","EdgeResponseStatus":\d+,("ClientRequestURI":"[^"]+",)?"EdgeStartTimestamp":1700000000123456789,"sampleInterval":1\}$/,
    );
    expect(page.messages.every((message) => message.kind === "records" && message.dropped === 0)).toBe(true);
    expect(await sessions()).toHaveLength(1);
    page.socket!.close(1000);
    expect(await page.closed).toBe(1000);
    await expect.poll(sessions).toEqual([]);
    for (const text of sent) expect(text).not.toContain(TOKEN);
  });

  it("tells the page how the session ended: expired", async () => {
    await start({}, { instantLogsSessionMs: 1500 });
    const created = await startTail({ fields: ["RayID"] });
    const page = await connect(created.json.tail);
    expect(await page.closed).toBe(1000);
    expect(page.messages).toEqual([
      {
        kind: "end",
        ending: "expired",
        detail: "code 1000: session expired: a session lasts at most 2 seconds",
        dropped: 0,
      },
    ]);
  });

  it("tells the page how the session ended: dropped, when the service goes away", async () => {
    await start();
    const created = await startTail({ fields: ["RayID"] });
    const page = await connect(created.json.tail);
    await sandbox!.sandbox.close();
    expect(await page.closed).toBe(1000);
    expect(page.messages).toEqual([
      { kind: "end", ending: "dropped", detail: "the connection was lost", dropped: 0 },
    ]);
  });

  it("holds what comes before the page connects, up to its bound, and counts the rest as dropped", async () => {
    const line = (i: number) => `{"RayID":"${String(i).padStart(4, "0")}"}`;
    // Room for 3 of these messages, each {"kind":"records","lines":["{\"RayID\":\"0000\",\"sampleInterval\":1}"],"dropped":0}.
    const message = JSON.stringify({
      kind: "records",
      lines: ['{"RayID":"0000","sampleInterval":1}'],
      dropped: 0,
    });
    await start({ maxBufferedBytes: Buffer.byteLength(message) * 3 });
    const created = await startTail({ fields: ["RayID"] });
    await ingest(Array.from({ length: 10 }, (_, i) => line(i)));
    const page = await connect(created.json.tail);
    await ingest([line(10)]);
    await expect.poll(() => linesOf(page.messages).length).toBe(4);
    expect(linesOf(page.messages)).toEqual(
      [0, 1, 2, 10].map((i) => `{"RayID":"${String(i).padStart(4, "0")}","sampleInterval":1}`),
    );
    expect(page.messages.map((m) => m.dropped)).toEqual([0, 0, 0, 7]);
  });

  it("drops what a page that does not read cannot take, with a count, and relays the rest in order", async () => {
    // The sandbox shares this process: it must not drop the console, which reads once the ingest ends.
    await start({ maxBufferedBytes: 64 * 1024 }, { maxInstantLogsBufferedBytes: 64 * 1024 * 1024 });
    const created = await startTail({ fields: ["RayID", "ClientRequestURI"] });
    const page = await connect(created.json.tail);
    page.socket!.pause();
    const long = "x".repeat(8000);
    // More than the kernel can hold for a reader that does not read (its largest receive buffer
    // and the sender's, 36 MB here), so that the console must drop: 16 MB once fit in them all.
    const batches = Math.ceil((1.5 * kernelSocketBytes()) / (2000 * 8000)) + 1;
    for (let batch = 0; batch < batches; batch++)
      await ingest(
        Array.from(
          { length: 2000 },
          (_, i) => `{"RayID":"${batch * 2000 + i}","ClientRequestURI":"/${long}"}`,
        ),
      );
    // The console read every record from the service: the sandbox kept the session.
    expect(await sessions()).toHaveLength(1);
    page.socket!.resume();
    await ingest(['{"RayID":"last"}']);
    await expect.poll(() => linesOf(page.messages).at(-1) ?? "", { timeout: 30_000 }).toContain('"last"');
    const relayed = linesOf(page.messages);
    const dropped = page.messages.at(-1)!.dropped;
    expect(dropped).toBeGreaterThan(0);
    expect(relayed.length + dropped).toBe(batches * 2000 + 1);
    const numbers = relayed.slice(0, -1).map((text) => Number(/"RayID":"(\d+)"/.exec(text)![1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  }, 60_000);

  it("sends nothing for settings the client's checks refuse, and says every problem", async () => {
    await start();
    const refused = await startTail({
      fields: ["RayId"],
      sample: 0,
      filter: { source: 'ClientCountry neq "ca"' },
    });
    expect(refused.status).toBe(200);
    expect(refused.json.ok).toBe(false);
    expect(refused.json.error.kind).toBe("refused");
    expect(refused.json.error.operation).toBe("create Instant Logs session");
    expect(refused.json.error.problems.map((p: { path: string }) => p.path)).toEqual([
      "fields[0]",
      "sample",
      "filter",
    ]);
    expect(refused.json.error.diagnostics[0].code).toBe("E0205");
    expect(await sessions()).toEqual([]);
    for (const [settings, message] of [
      [{ fields: "RayID" }, "settings.fields is a list of field names"],
      [{ sample: "10" }, "settings.sample is a number"],
      [{ filter: "EdgeResponseStatus eq 200" }, "settings.filter is null or {source}"],
      [{ kind: "instant-logs" }, "settings.kind is not a setting of a session"],
    ] as const) {
      const answer = await startTail(settings);
      expect([answer.status, answer.json]).toEqual([400, { ok: false, error: { kind: "request", message } }]);
    }
    const account = await api("POST", "/api/instant-logs", { scope: { accountId: ZONE }, settings: {} });
    expect(account.json.error.message).toBe("scope names a zoneId: Instant Logs streams a zone's records");
  });

  it("says what the service answered: a zone has one session at a time", async () => {
    await start();
    expect((await startTail({ fields: ["RayID"] })).json.ok).toBe(true);
    const second = await startTail({ fields: ["RayID"] });
    expect(second.json).toEqual({
      ok: false,
      error: {
        kind: "api",
        operation: "create Instant Logs session",
        failure: "http",
        status: 409,
        errors: [
          {
            code: expect.any(Number),
            message: "an Instant Logs session is already active for this zone; a zone has one at a time",
          },
        ],
        message: expect.stringContaining("already active for this zone"),
      },
    });
  });

  it("relays at most maxTails at once", async () => {
    await start({ maxTails: 1 });
    expect((await startTail({ fields: ["RayID"] })).json.ok).toBe(true);
    const more = await api("POST", "/api/instant-logs", {
      scope: { zoneId: "9a7806061c88ada191ed06f989cc3dac" },
      settings: {},
    });
    expect([more.status, more.json.error.message]).toEqual([
      429,
      "1 live tails are open in this console, the most it relays at once; stop one first",
    ]);
  });

  it("forgets a tail whose page never connects, and closes its session", async () => {
    await start({ pageConnectTimeoutMs: 300 });
    const created = await startTail({ fields: ["RayID"] });
    await expect.poll(sessions).toEqual([]);
    const late = await connect(created.json.tail);
    expect([late.status, JSON.parse(late.body!)]).toEqual([
      404,
      { ok: false, error: { kind: "request", message: "no such live tail: it ended, or was never started" } },
    ]);
  });
});

describe("the page's WebSocket is the console's page's only", () => {
  it("refuses it without the token, with another, from another origin or none, cross-site, for another host", async () => {
    await start();
    const { port } = new URL(server!.origin);
    const created = await startTail({ fields: ["RayID"] });
    const tail = created.json.tail as string;
    const refusals: [Record<string, string | undefined>, string | undefined, number, string][] = [
      [
        {},
        "",
        403,
        "refused: the call lacks the console's session token; open the address filterc console printed (it ends in #token=…)",
      ],
      [
        {},
        "guessed",
        403,
        "refused: the session token is not this console's; open the address filterc console printed",
      ],
      [
        { origin: "http://evil.example" },
        undefined,
        403,
        'refused: a request from "http://evil.example"; the console takes calls from its own page only',
      ],
      [
        { origin: undefined },
        undefined,
        403,
        "refused: a WebSocket without an Origin; the console takes them from its own page only",
      ],
      [
        { "sec-fetch-site": "cross-site" },
        undefined,
        403,
        'refused: a "cross-site" request; the console takes calls from its own page only',
      ],
      [
        { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
        undefined,
        403,
        `refused: this console answers at 127.0.0.1:${port} or localhost:${port}, not at "evil.example:${port}"`,
      ],
    ];
    for (const [headers, token, status, message] of refusals) {
      const refused = await connect(tail, headers, token);
      expect([refused.status, JSON.parse(refused.body!)]).toEqual([
        status,
        { ok: false, error: { kind: "denied", message } },
      ]);
    }
    // The header the page's calls carry is not taken in place of the subprotocol.
    const byHeader = await connect(tail, { [TOKEN_HEADER]: server!.token }, "");
    expect(byHeader.status).toBe(403);
    const unknown = await connect("A".repeat(24));
    expect(unknown.status).toBe(404);
    // Refused attempts leave the tail to its page; a second page is refused.
    const first = await connect(tail);
    expect(first.socket).toBeDefined();
    const second = await connect(tail);
    expect([second.status, JSON.parse(second.body!).error.message]).toEqual([
      409,
      "the live tail already has its page",
    ]);
  });

  it("serves no other WebSocket", async () => {
    await start();
    const { port } = new URL(server!.origin);
    const other = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/session`, {
        headers: { origin: server!.origin },
      });
      socket.once("unexpected-response", (_request, response) => resolve(response.statusCode!));
      socket.on("error", () => undefined);
    });
    expect(other).toBe(404);
  });
});
