/**
 * `filterc tail` against a real sandbox playing Instant Logs: the records it prints are exactly the
 * ingested ones its filter keeps (held to `filterc eval` on the same records), with the session's
 * fields; each ending has its message and exit status (stopped at --max-lines and by Ctrl-C,
 * expired, dropped, refused in each way); a slow output drops records with a count rather than
 * hold them; and `ws` is in the bundles that use it only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { CliIO } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { parseRecord } from "../../src/eval/index.js";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { runCli } from "../helpers/cli.js";
import { kernelSocketBytes } from "../helpers/sockets.js";
import { type Running, runSandbox, TOKEN, ZONE } from "../sandbox/helpers.js";

ensureBundles();

const FILTER = 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"';
const FIELDS = ["RayID", "EdgeResponseStatus", "ClientRequestPath", "EdgeStartTimestamp"];

/** Records of every kind the filter tells apart: statuses as numbers and as text, paths, missing fields, exact 64-bit times. */
function records(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const record: Record<string, unknown> = { RayID: `ray${i}`, ClientIP: `192.0.2.${i % 250}` };
    if (i % 7 !== 3)
      record["EdgeResponseStatus"] = i % 5 === 0 ? String(500 + (i % 4)) : [200, 404, 500, 503][i % 4];
    if (i % 3 !== 1) record["ClientRequestPath"] = i % 2 === 0 ? `/api/${i}` : "/health/live";
    const line = JSON.stringify(record);
    // A time past 2^53, written as the service writes it: it must come back digit for digit.
    return i % 4 === 2 ? `${line.slice(0, -1)},"EdgeStartTimestamp":1700000000123456789}` : line;
  });
}

let running: Running | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

interface Tail {
  done: Promise<number>;
  stdout: () => string;
  stderr: () => string;
  connected: Promise<void>;
}

/** `filterc tail` in this process, its output kept; `connected` resolves once it says it is. */
function tail(
  args: string[],
  options: { env?: Record<string, string>; writeStdout?: CliIO["writeStdout"] } = {},
): Tail {
  let stdout = "";
  let stderr = "";
  let onConnected: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => {
    onConnected = resolve;
  });
  const io: CliIO = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
      if (stderr.includes("connected to the Instant Logs session")) onConnected();
    },
    readStdin: async () => "",
    env: { CLOUDFLARE_BASE_URL: running!.api, CLOUDFLARE_API_TOKEN: TOKEN, ...options.env },
    stderrIsTTY: false,
    cwd: process.cwd(),
  };
  if (options.writeStdout)
    io.writeStdout = async (bytes) => {
      await options.writeStdout!(bytes);
      stdout += Buffer.from(bytes).toString("utf8");
    };
  const done = main(["tail", "--zone", ZONE, ...args], io);
  return { done, stdout: () => stdout, stderr: () => stderr, connected };
}

async function ingest(lines: string[]) {
  const response = await fetch(`${running!.api}/zones/${ZONE}/sandbox/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    body: `${lines.join("\n")}\n`,
  });
  expect(response.status).toBe(200);
}

async function sessions(): Promise<unknown[]> {
  const response = await fetch(`${running!.api}/zones/${ZONE}/logpush/edge/jobs`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await response.json()) as { result: unknown[] }).result;
}

/** A record's fields as the session selects them, in its order, those it has. */
function selected(line: string, fields: readonly string[]): Record<string, unknown> {
  const record = parseRecord(line)!;
  return Object.fromEntries(fields.filter((field) => field in record).map((field) => [field, record[field]]));
}

describe("filterc tail prints exactly the records its filter keeps", () => {
  it("matches filterc eval on the same records, field for field, and stops at --max-lines", async () => {
    running = await runSandbox();
    const lines = records(80);
    const evaluated = await runCli(["eval", "--expr", FILTER], `${lines.join("\n")}\n`);
    const kept = evaluated.stdout.split("\n").slice(0, -1);
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(lines.length);
    // One more record, after the rest, that the filter keeps: nothing else may come between.
    const last = '{"RayID":"last","EdgeResponseStatus":599,"ClientRequestPath":"/"}';
    const run = tail([
      "--expr",
      FILTER,
      "--fields",
      FIELDS.join(","),
      "--max-lines",
      String(kept.length + 1),
    ]);
    await run.connected;
    await ingest(lines);
    await ingest(['{"RayID":"skipped","EdgeResponseStatus":200}', last]);
    expect(await run.done).toBe(0);
    const printed = run.stdout().split("\n").slice(0, -1);
    expect(printed.map((line) => selected(line, FIELDS))).toEqual(
      [...kept, last].map((line) => selected(line, FIELDS)),
    );
    // Each record carries its weight (the sample) and nothing the session did not select.
    for (const line of printed)
      expect(Object.keys(parseRecord(line)!)).toEqual([
        ...Object.keys(selected(line, FIELDS)),
        "sampleInterval",
      ]);
    expect(printed[0]).toContain('"sampleInterval":1');
    expect(printed.some((line) => line.includes('"EdgeStartTimestamp":1700000000123456789'))).toBe(true);
    expect(run.stderr()).toMatch(
      /^created the Instant Logs session \{.*"destination_conf":"ws:\/\/127\.0\.0\.1:\d+\/instant-logs\/ws\/sessions\/\*\*\*\*"\}\n/,
    );
    expect(run.stderr()).toMatch(
      new RegExp(`stopped \\(--max-lines ${kept.length + 1}\\): ${kept.length + 1} records printed\\n$`),
    );
    // The session's address (all it takes to read the zone's records) is never printed whole.
    expect(run.stderr()).not.toMatch(/sessions\/[0-9a-f]{32}/);
    // The sandbox ends the session when its client goes: the zone may open another.
    await expect.poll(sessions).toEqual([]);
  });

  it("applies the sample: about one record in N, each carrying N as its weight", async () => {
    running = await runSandbox({ sampleSeed: 7 });
    const lines = records(400).map((line) =>
      line.replace(/"EdgeResponseStatus":[^,}]*/, '"EdgeResponseStatus":500'),
    );
    const run = tail(["--expr", "EdgeResponseStatus geq 500", "--sample", "10", "--fields", "RayID"]);
    await run.connected;
    await ingest(lines);
    await running.sandbox.close();
    await run.done;
    const printed = run.stdout().split("\n").slice(0, -1);
    // About one in ten of the 400 (a deterministic hash: the count is fixed by the seed).
    expect(printed.length).toBeGreaterThan(20);
    expect(printed.length).toBeLessThan(70);
    expect(printed.every((line) => line.endsWith(',"sampleInterval":10}'))).toBe(true);
  });

  it("prints a table for a person", async () => {
    running = await runSandbox();
    const run = tail([
      "--fields",
      "RayID,EdgeResponseStatus,ClientRequestPath",
      "--format",
      "table",
      "--max-lines",
      "2",
    ]);
    await run.connected;
    await ingest([
      '{"RayID":"8a1b2c3d4e5f6789","EdgeResponseStatus":503,"ClientRequestPath":"/api/v1/users/12345/settings"}',
      '{"RayID":"2","ClientRequestPath":"/\\u001b[2Jx"}',
    ]);
    expect(await run.done).toBe(0);
    expect(run.stdout()).toBe(
      "RayID             EdgeResponseStatus  ClientRequestPath\n" +
        "8a1b2c3d4e5f6789  503                 /api/v1/users/12345/settings\n" +
        "2                 -                   /<U+001B>[2Jx\n",
    );
  });
});

describe("the Instant Logs docs' own filters", () => {
  // The three examples of Cloudflare's Instant Logs page, as the page writes them: two the service
  // refuses, one it takes. tail refuses the two before anything is sent.
  it.each([
    ['{"where":{"and":[{"key":"ClientCountry","operator":"neq","value":"ca"}]}}', "E0511"],
    [
      '{"where":{"and":[{"key":"ClientRequestPath","operator":"contains","value":"/static"}, {"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"example.com"}]}}',
      "E0502",
    ],
    ['{"where":{"and":[{"key":"EdgeResponseStatus","operator":"in","value":"200,201"}]}}', "E0512"],
  ])("refuses %s with %s, sending nothing", async (json, code) => {
    const run = await runCli(["tail", "--zone", ZONE, "-", "--dry-run"], json, {
      CLOUDFLARE_API_TOKEN: TOKEN,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error[${code}]`);
    expect(run.stderr).toContain("filterc tail: create Instant Logs session: nothing was sent\n");
    expect(run.stdout).toBe("");
  });

  it("takes the docs' filter that is right, and the dry run shows the request", async () => {
    const json = '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"in","value":[200,201]}]}}';
    const run = await runCli(["tail", "--zone", ZONE, "-", "--fields", "RayID", "--dry-run"], json, {
      CLOUDFLARE_API_TOKEN: TOKEN,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `POST https://api.cloudflare.com/client/v4/zones/${ZONE}/logpush/edge/jobs\n`,
    );
    expect(run.stdout).toContain(
      '{"fields":"RayID","sample":1,"filter":"{\\"where\\":{\\"key\\":\\"EdgeResponseStatus\\",\\"operator\\":\\"in\\",\\"value\\":[200,201]}}","kind":"instant-logs"}',
    );
    expect(run.stdout).not.toContain(TOKEN);
  });
});

describe("each way a session ends", () => {
  it("expired: the service ended it (exit 4)", async () => {
    running = await runSandbox({ instantLogsSessionMs: 1500 });
    const run = tail([]);
    await run.connected;
    await ingest(records(3));
    expect(await run.done).toBe(4);
    expect(run.stdout().split("\n").length).toBe(4);
    expect(run.stderr()).toContain(
      "the session expired: the service ended it (code 1000: session expired: a session lasts at most 2 seconds); 3 records printed\n",
    );
  });

  it("dropped: the connection was lost (exit 3)", async () => {
    running = await runSandbox();
    const run = tail([]);
    await run.connected;
    await running.sandbox.close();
    expect(await run.done).toBe(3);
    expect(run.stderr()).toContain("the session was dropped (the connection was lost); 0 records printed\n");
  });

  it("refused: a filter with errors sends nothing (exit 1)", async () => {
    running = await runSandbox();
    const run = tail(["--expr", 'ClientCountry neq "ca"']);
    expect(await run.done).toBe(1);
    expect(run.stderr()).toContain("error[E0205]");
    expect(run.stderr()).toContain("filterc tail: create Instant Logs session: nothing was sent\n");
    expect(await sessions()).toEqual([]);
    const fields = tail(["--fields", "ClientIp", "--sample", "0"]);
    expect(await fields.done).toBe(2);
    const unknown = tail(["--fields", "ClientIp"]);
    expect(await unknown.done).toBe(1);
    expect(unknown.stderr()).toContain(
      "error[E0612]: fields[0]: unknown field `ClientIp` in dataset `http_requests`; did you mean `ClientIP`?",
    );
  });

  it.each([
    [["--sample", "0"], '--sample takes a whole number from 1 to 1000000, not "0"'],
    [["--max-lines", "abc"], '--max-lines takes a whole number of at least 1, not "abc"'],
    [
      ["--max-lines", "-3"],
      '--max-lines needs a value; one that starts with "-" is written --max-lines=VALUE',
    ],
    [["--format", "csv"], '--format takes ndjson or table, not "csv"'],
    [["--zone", ""], "--zone ID is required (or CLOUDFLARE_ZONE_ID)"],
  ])("usage: %j is said, with the usage, and nothing is sent (exit 2)", async (args, message) => {
    const run = await runCli(["tail", "--zone", ZONE, ...args, "--expr", "BotScore lt 30"], "", {
      CLOUDFLARE_API_TOKEN: TOKEN,
      CLOUDFLARE_BASE_URL: "http://127.0.0.1:9/client/v4",
    });
    const lines = run.stderr.split("\n");
    expect([run.code, run.stdout, lines[0], lines[1]]).toEqual([
      2,
      "",
      `filterc tail: ${message}`,
      "Usage: filterc tail --zone ID [FILE|-|--expr SRC] [--fields A,B,…] [--sample N] [--max-lines N]",
    ]);
  });

  it("refused: a zone has one session at a time (exit 1)", async () => {
    running = await runSandbox();
    const first = tail([]);
    await first.connected;
    const second = tail([]);
    expect(await second.done).toBe(1);
    expect(second.stderr()).toContain(
      "filterc tail: create Instant Logs session: HTTP 409: [1010] an Instant Logs session is already active for this zone; a zone has one at a time",
    );
    await running.sandbox.close();
    await first.done;
  });

  describe("refused: the session's address", () => {
    let fake: Server | undefined;
    afterEach(() => new Promise<void>((resolve) => (fake ? fake.close(() => resolve()) : resolve())));

    /** An API that answers the session's creation with this address. */
    async function answering(address: (port: number) => string): Promise<string> {
      fake = createServer((_request, response) => {
        const { port } = fake!.address() as AddressInfo;
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            success: true,
            errors: [],
            messages: [],
            result: { destination_conf: address(port), session_id: "s" },
          }),
        );
      });
      await new Promise<void>((resolve) => fake!.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(fake.address() as AddressInfo).port}/client/v4`;
    }

    it("is refused by the service when connecting (exit 1)", async () => {
      running = await runSandbox();
      const sandboxPort = new URL(running.api).port;
      const api = await answering(
        () => `ws://127.0.0.1:${sandboxPort}/instant-logs/ws/sessions/${"0".repeat(32)}`,
      );
      const run = tail([], { env: { CLOUDFLARE_BASE_URL: api } });
      expect(await run.done).toBe(1);
      expect(run.stderr()).toContain(
        `refused: the service refused the connection to ws://127.0.0.1:${sandboxPort}/instant-logs/ws/sessions/**** (HTTP 404: no such session: it expired, ended or never was)\n`,
      );
    });

    it("is not encrypted: nothing connects to it (exit 1)", async () => {
      running = await runSandbox();
      const api = await answering(() => "ws://logs.example.com/instant-logs/ws/sessions/secret-session");
      const run = tail([], { env: { CLOUDFLARE_BASE_URL: api } });
      expect(await run.done).toBe(1);
      expect(run.stderr()).toContain(
        "filterc tail: create Instant Logs session: the session's address is ws://logs.example.com/instant-logs/ws/sessions/****, not a wss:// address (nor ws:// on this machine); not connected\n",
      );
      expect(run.stderr()).not.toContain("secret-session");
    });
  });

  it("stopped: Ctrl-C ends it cleanly (exit 0)", async () => {
    running = await runSandbox();
    const child: ChildProcess = spawn(process.execPath, [builtCli(), "tail", "--zone", ZONE], {
      env: { ...process.env, CLOUDFLARE_BASE_URL: running.api, CLOUDFLARE_API_TOKEN: TOKEN, NO_COLOR: "1" },
    });
    let stderr = "";
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    await new Promise<void>((resolve) =>
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        if (stderr.includes("connected to the Instant Logs session")) resolve();
      }),
    );
    await ingest(records(2));
    await expect.poll(() => stdout.split("\n").length).toBe(3);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/stopped \(Ctrl-C\): 2 records printed\n$/);
    await expect.poll(sessions).toEqual([]);
  });
});

describe("bounded memory", () => {
  it("drops what a slow output cannot take, with a count, and prints the rest in order", async () => {
    running = await runSandbox();
    const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
    const run = tail(["--fields", "RayID", "--max-buffered-bytes", "200"], { writeStdout: slow });
    await run.connected;
    await ingest(records(60));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await running.sandbox.close();
    expect(await run.done).toBe(3);
    const printed = run.stdout().split("\n").slice(0, -1);
    const dropped = Number(/note: (\d+) records dropped: the output was read slower/.exec(run.stderr())?.[1]);
    expect(dropped).toBeGreaterThan(0);
    expect(printed.length + dropped).toBe(60);
    const numbers = printed.map((line) => Number(/"ray(\d+)"/.exec(line)![1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it("the sandbox drops a client that does not read, and its ingest never waits for it", async () => {
    running = await runSandbox({ maxInstantLogsBufferedBytes: 64 * 1024 });
    const created = await fetch(`${running.api}/zones/${ZONE}/logpush/edge/jobs`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        fields: "RayID,ClientRequestPath",
        sample: 1,
        filter: "",
        kind: "instant-logs",
      }),
    });
    const { result } = (await created.json()) as { result: { destination_conf: string } };
    const client = new WebSocket(result.destination_conf);
    await new Promise((resolve) => client.once("open", resolve));
    client.pause();
    const closed = new Promise<number>((resolve) => client.once("close", resolve));
    const long = "x".repeat(8000);
    // More than the kernel can hold for a client that does not read (16 MB once fit in it).
    const batches = Math.ceil((1.5 * kernelSocketBytes()) / (2000 * 8000)) + 1;
    const started = Date.now();
    for (let batch = 0; batch < batches; batch++)
      await ingest(Array.from({ length: 2000 }, (_, i) => `{"RayID":"${i}","ClientRequestPath":"/${long}"}`));
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect.poll(sessions).toEqual([]);
    client.resume();
    expect([1008, 1006]).toContain(await closed);
  });
});

describe("the bundles", () => {
  it("carry ws only in the commands that use it, so no other command loads it", async () => {
    const dist = join(builtCli(), "..");
    const files = (await readdir(dist)).filter((name) => name.endsWith(".cjs")).sort();
    const texts = new Map(
      await Promise.all(files.map(async (file) => [file, await readFile(join(dist, file), "utf8")] as const)),
    );
    // A bundle carries ws when it holds it, or requires a shared chunk that does (at any depth).
    const carries = (file: string, seen: Set<string>): boolean => {
      const text = texts.get(file) ?? "";
      if (text.includes("Sec-WebSocket-Accept")) return true;
      return [...text.matchAll(/require\("\.\/(chunk-\w+\.cjs)"\)/g)].some(([, chunk]) => {
        if (seen.has(chunk!)) return false;
        seen.add(chunk!);
        return carries(chunk!, seen);
      });
    };
    const withWs = files.filter((file) => !file.startsWith("chunk-") && carries(file, new Set()));
    expect(withWs).toEqual(["cli-console.cjs", "cli-sandbox.cjs", "cli-tail.cjs"]);
  });
});
