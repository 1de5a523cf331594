import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { seededHex } from "../helpers/random-text.js";
import {
  bombOf,
  failure,
  filesUnder,
  ownershipToken,
  type Running,
  runSandbox,
  sdk,
  TOKEN,
  ZONE,
} from "./helpers.js";

const DESTINATION = "s3://ingest-bucket/logs?region=us-east-1";

let running: Running;
afterEach(() => running.stop());

async function start(options: Partial<SandboxOptions> = {}): Promise<void> {
  running = await runSandbox(options);
  const client = sdk(running);
  await client.logpush.jobs.create({
    zone_id: ZONE,
    destination_conf: DESTINATION,
    ownership_challenge: await ownershipToken(client, running, DESTINATION),
    enabled: true,
    output_options: { field_names: ["RayID"] },
  } as never);
}

async function ingest(body: Buffer | string, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.api}/zones/${ZONE}/sandbox/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The records the push wrote, across its files. */
async function delivered(): Promise<string> {
  const files = (await filesUnder(running.dataDir)).filter((file) => file.endsWith(".log.gz"));
  const contents = await Promise.all(files.map((file) => readFile(join(running.dataDir, file))));
  return contents.map((content) => gunzipSync(content).toString("utf8")).join("");
}

const ok = (records: number, malformedLines: number[], malformed = malformedLines.length) => ({
  result: {
    records,
    malformed,
    malformed_lines: malformedLines,
    deliveries: expect.any(Array),
    failures: [],
  },
  success: true,
  errors: [],
  messages: [],
});

const lines = `{"RayID":"a"}\n{"RayID":"b"}\n`;

describe("the ingest reads what Logpush writes", () => {
  it.each([
    ["gzip declared by Content-Encoding", gzipSync(lines), { "content-encoding": "gzip" }],
    ["gzip known by its magic bytes", gzipSync(lines), {}],
    [
      "two gzip members in a row",
      Buffer.concat([gzipSync('{"RayID":"a"}\n'), gzipSync('{"RayID":"b"}\n')]),
      {},
    ],
    ["a byte order mark before the first line", `\ufeff${lines}`, {}],
    ["a byte order mark inside gzip", gzipSync(`\ufeff${lines}`), {}],
  ])("reads %s", async (_name, body, headers) => {
    await start();
    expect(await ingest(body, headers)).toEqual({ status: 200, json: ok(2, []) });
    expect(await delivered()).toBe(`{"RayID":"a"}\n{"RayID":"b"}\n`);
  });

  it("keeps a byte order mark that is not at the start: the line holding it is malformed", async () => {
    await start();
    expect(await ingest(`{"RayID":"a"}\n\ufeff{"RayID":"b"}\n`)).toEqual({ status: 200, json: ok(1, [2]) });
  });

  it("refuses a body that is not valid gzip, and delivers nothing of it", async () => {
    await start();
    // Random ray ids compress poorly: cut at 2,000 bytes, the stream ends inside the records.
    const records = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ RayID: `${i}-${Math.random()}` }),
    );
    const truncated = gzipSync(records.join("\n")).subarray(0, 2000);
    expect(await ingest(truncated)).toEqual({
      status: 400,
      json: failure(
        6010,
        "the body is not valid gzip: unexpected end of file inside a gzip member at byte 2000",
      ),
    });
    const garbage = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from("not gzip at all")]);
    expect(await ingest(garbage)).toEqual({
      status: 400,
      json: failure(6010, "the body is not valid gzip: unknown gzip compression method at byte 2"),
    });
    expect(await ingest(lines, { "content-encoding": "gzip" })).toEqual({
      status: 400,
      json: failure(6010, "the body is not valid gzip: not gzip data at byte 0"),
    });
    expect(await delivered()).toBe("");
  });

  it("refuses a body whose deflate data is corrupt midway (the class of eval's silent end on it)", async () => {
    await start();
    const hex = seededHex(11);
    const records = Array.from({ length: 20_000 }, () => JSON.stringify({ RayID: `${hex()}${hex()}` }));
    const body = gzipSync(records.join("\n"));
    body.fill(0xff, 100_000, 100_064);
    expect(await ingest(body)).toEqual({
      status: 400,
      json: failure(6010, "the body is not valid gzip: gzip CRC mismatch at byte 200407"),
    });
    expect(await delivered()).toBe("");
  });
});

describe("the ingest's bounds", () => {
  it("counts a line longer than the limit as malformed without holding it", async () => {
    await start({ maxIngestLineBytes: 64 });
    const long = JSON.stringify({ RayID: "x".repeat(100) });
    expect(await ingest(`{"RayID":"a"}\n${long}\n{"RayID":"b"}`)).toEqual({ status: 200, json: ok(2, [2]) });
    expect(await delivered()).toBe(`{"RayID":"a"}\n{"RayID":"b"}\n`);
  });

  it("reports the first 100 malformed line numbers and counts them all", async () => {
    await start();
    const body = `${"nope\n".repeat(150)}{"RayID":"a"}\n`;
    expect(await ingest(body)).toEqual({
      status: 200,
      json: ok(
        1,
        Array.from({ length: 100 }, (_, i) => i + 1),
        150,
      ),
    });
  });

  it("answers 429 beyond the ingests it runs at once, and 503 beyond the requests it handles at once", async () => {
    await start({ maxIngestsInFlight: 1, maxRequestsInFlight: 1 });
    // An ingest whose body never ends holds the one ingest slot and the one request slot.
    const stalled = httpRequest(`${running.api}/zones/${ZONE}/sandbox/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-length": "1000" },
    });
    stalled.on("error", () => undefined);
    stalled.write('{"RayID":"a"}\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await fetch(`${running.api}/zones/${ZONE}/sandbox/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: lines,
    });
    expect([second.status, second.headers.get("retry-after"), await second.json()]).toEqual([
      429,
      "1",
      failure(6011, "1 ingests are under way, the most the sandbox runs at once; retry later"),
    ]);
    const third = await fetch(`${running.api}/zones/${ZONE}/logpush/jobs`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect([third.status, third.headers.get("retry-after"), await third.json()]).toEqual([
      503,
      "1",
      failure(6011, "1 requests are under way, the most the sandbox serves at once; retry later"),
    ]);
    stalled.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await ingest(lines)).status).toBe(200);
  });

  it("refuses a body of more lines than maxIngestLines, blank ones counted, and delivers nothing of it", async () => {
    await start({ maxIngestLines: 3 });
    const refused = failure(
      6008,
      "the body holds more than 3 lines, the most one ingest reads; send it in parts",
    );
    expect(await ingest(`${lines}${lines}`)).toEqual({ status: 413, json: refused });
    expect(await ingest(gzipSync("\n".repeat(4)))).toEqual({ status: 413, json: refused });
    expect(await delivered()).toBe("");
    expect(await ingest(`${lines}\n`)).toEqual({ status: 200, json: ok(2, []) });
  });

  it("refuses a body that inflates past maxIngestInflatedBytes (a gzip bomb), and delivers nothing of it", async () => {
    await start({ maxIngestInflatedBytes: 1000 });
    const bomb = gzipSync(`{"RayID":"a"}\n`.repeat(100));
    expect(bomb.length).toBeLessThan(100);
    expect(await ingest(bomb)).toEqual({
      status: 413,
      json: failure(
        6008,
        "the body holds more than 1000 bytes once inflated, the most one ingest reads; send it in parts",
      ),
    });
    expect(await delivered()).toBe("");
  });

  it("stops the work of an ingest whose client has gone (a bomb once ran on for minutes)", async () => {
    await start({ maxIngestsInFlight: 1 });
    const gone = httpRequest(`${running.api}/zones/${ZONE}/sandbox/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    gone.on("error", () => undefined);
    gone.end(bombOf(900_000));
    await new Promise((resolve) => setTimeout(resolve, 300));
    gone.destroy();
    // The slot is free again as soon as the ingest notices, not when its 900,000 lines are done.
    const started = performance.now();
    let status = 0;
    while (status !== 200 && performance.now() - started < 3000) {
      status = (await ingest(lines)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
    expect(await delivered()).toBe(`{"RayID":"a"}\n{"RayID":"b"}\n`);
  });
});
