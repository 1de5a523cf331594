import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import { bombOf, call, failure, type Running, runSandbox, TOKEN, ZONE } from "./helpers.js";

/** Slow clients, with the sandbox's timeouts made small so each case takes a second or two. */

let running: Running;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await running.stop();
});

async function start(options: Partial<SandboxOptions>): Promise<void> {
  running = await runSandbox(options);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection that sends `head` at once, then `body` a byte every `everyMs`; resolves what came back once it closes. */
function trickle(head: string, body: string, everyMs: number): { answer: Promise<string> } {
  const { port } = new URL(running.api);
  const socket = connect(Number(port), "127.0.0.1");
  sockets.push(socket);
  let received = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", () => undefined);
  socket.once("connect", async () => {
    socket.write(head);
    for (const byte of body) {
      if (socket.destroyed || received !== "") return;
      socket.write(byte);
      await sleep(everyMs);
    }
  });
  return { answer: new Promise((resolve) => socket.once("close", () => resolve(received))) };
}

const post = (path: string, length: number) =>
  `POST /client/v4${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
const statusOf = (answer: string) => answer.slice(0, answer.indexOf("\r\n"));
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;

const slowBody = (received: number) =>
  failure(
    6013,
    `request body arrived too slowly: ${received} bytes; the sandbox waits 0.6 s for a body, and one more second for every 1000 bytes`,
  );

describe("slow clients", () => {
  it("keeps no one waiting while many connections send their bodies a byte at a time, and answers them 408 in time", async () => {
    // They once held every request slot: everyone else got 503 for over 330 s.
    await start({ maxRequestsInFlight: 4, bodyTimeoutMs: 600, minBodyBytesPerSecond: 1000 });
    const body = JSON.stringify({ destination_conf: "s3://slow-bucket/logs?region=us-east-1" });
    const slow = Array.from({ length: 8 }, () =>
      trickle(post(`/zones/${ZONE}/logpush/ownership`, body.length), body, 200),
    );
    await sleep(200);
    const started = performance.now();
    expect(await call(running, "GET", `/zones/${ZONE}/logpush/jobs`)).toEqual({
      status: 200,
      json: { result: [], success: true, errors: [], messages: [] },
    });
    expect(performance.now() - started).toBeLessThan(500);
    const answers = await Promise.all(slow.map((client) => client.answer));
    for (const answer of answers) {
      expect(statusOf(answer)).toBe("HTTP/1.1 408 Request Timeout");
      expect(answer.toLowerCase()).toContain("\r\nconnection: close\r\n");
      const received = Number(/arrived too slowly: (\d+) bytes/.exec(answer)?.[1]);
      expect(received).toBeGreaterThan(0);
      expect(bodyOf(answer)).toEqual(slowBody(received));
    }
  });

  it("cuts two slow ingests, so that ingests go on (they once blocked every ingest with 429)", async () => {
    await start({ bodyTimeoutMs: 600, minBodyBytesPerSecond: 1000 });
    const ingestHead = `POST /client/v4/zones/${ZONE}/sandbox/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 1000\r\n\r\n`;
    const slow = [0, 1].map(() => trickle(ingestHead, `{"RayID":"a"}\n`.repeat(70), 200));
    await sleep(200);
    const busy = await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, '{"RayID":"b"}\n');
    expect(busy.status).toBe(429);
    for (const answer of await Promise.all(slow.map((client) => client.answer)))
      expect(statusOf(answer)).toBe("HTTP/1.1 408 Request Timeout");
    expect((await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, '{"RayID":"b"}\n')).status).toBe(
      200,
    );
  });

  it("counts only the time spent waiting for the client: an ingest slow to work through is not cut", async () => {
    await start({ bodyTimeoutMs: 100, minBodyBytesPerSecond: 1 });
    const started = performance.now();
    const response = await fetch(`${running.api}/zones/${ZONE}/sandbox/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      // Work of about a second: 200,000 lines once took under 300 ms, and the test proved nothing.
      body: new Uint8Array(bombOf(800_000)),
    });
    expect(performance.now() - started).toBeGreaterThan(300);
    expect([
      response.status,
      ((await response.json()) as { result: { records: number } }).result.records,
    ]).toEqual([200, 800_000]);
  });

  it("answers 408 to headers that arrive too slowly", async () => {
    await start({ headersTimeoutMs: 400 });
    const started = performance.now();
    const answer = await trickle("", `GET /client/v4/zones/${ZONE}/logpush/jobs HTTP/1.1\r\nHost: x\r\n`, 100)
      .answer;
    expect([statusOf(answer), bodyOf(answer)]).toEqual([
      "HTTP/1.1 408 Request Timeout",
      failure(6013, "request headers took too long to arrive"),
    ]);
    expect(performance.now() - started).toBeLessThan(2500);
  });

  it("answers 503 on connections past maxConnections, and closes them", async () => {
    await start({ maxConnections: 2 });
    const { port } = new URL(running.api);
    for (let i = 0; i < 2; i++) {
      const idle = connect(Number(port), "127.0.0.1");
      sockets.push(idle);
      await new Promise((resolve) => idle.once("connect", resolve));
    }
    await sleep(50);
    const over = await fetch(`${running.api}/zones/${ZONE}/logpush/jobs`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect([
      over.status,
      over.headers.get("connection"),
      over.headers.get("retry-after"),
      await over.json(),
    ]).toEqual([
      503,
      "close",
      "1",
      failure(6011, "2 connections are open, the most the sandbox holds; retry later"),
    ]);
    for (const socket of sockets.splice(0)) socket.destroy();
    await sleep(100);
    expect((await call(running, "GET", `/zones/${ZONE}/logpush/jobs`)).status).toBe(200);
  });
});
