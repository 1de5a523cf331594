import type { ChildProcess } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { runCli } from "../helpers/cli.js";
import {
  bombOf,
  call,
  failure,
  type Running,
  runSandbox,
  spawnSandbox,
  TOKEN,
  tempDir,
  ZONE,
} from "./helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let running: Running;
const logged: string[] = [];
beforeAll(async () => {
  running = await runSandbox({ log: (line) => logged.push(line) });
});
afterAll(() => running.stop());

/** Sends raw bytes on a fresh connection, half-closing after them, and resolves with all that came back. */
function raw(bytes: string, halfClose = true): Promise<string> {
  const { port } = new URL(running.api);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      if (halfClose) socket.end(bytes);
      else socket.write(bytes);
    });
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4)) as unknown;
const statusOf = (response: string) => response.slice(0, response.indexOf("\r\n"));

describe("answers outside the route handlers", () => {
  it("refuses a destination path segment longer than a file name can be, as a 400", async () => {
    const segment = "a".repeat(256);
    const destination = `s3://edge-bucket/${segment}?region=us-east-1`;
    expect(
      await call(running, "POST", `/zones/${ZONE}/logpush/ownership`, { destination_conf: destination }),
    ).toEqual({
      status: 400,
      json: failure(
        1002,
        `destination_conf: a path segment is 256 bytes (with {DATE} filled in); the sandbox takes at most 255`,
      ),
    });
    const dated = `s3://edge-bucket/${"b".repeat(250)}{DATE}?region=us-east-1`;
    expect(
      (await call(running, "POST", `/zones/${ZONE}/logpush/ownership`, { destination_conf: dated })).status,
    ).toBe(400);
    const longest = `s3://edge-bucket/${"c".repeat(255)}?region=us-east-1`;
    expect(
      (await call(running, "POST", `/zones/${ZONE}/logpush/ownership`, { destination_conf: longest })).status,
    ).toBe(200);
  });

  it("refuses a destination_conf over 4096 characters", async () => {
    const destination = `s3://edge-bucket/${"d/".repeat(2100)}x?region=us-east-1`;
    expect(
      await call(running, "POST", `/zones/${ZONE}/logpush/ownership`, { destination_conf: destination }),
    ).toEqual({
      status: 400,
      json: failure(1002, `destination_conf is ${destination.length} characters; at most 4096 are allowed`),
    });
  });

  it("answers a request Node cannot parse in Cloudflare's envelope: 431 for oversized headers, 400 otherwise", async () => {
    const huge = await raw(
      `GET /client/v4/zones/${ZONE}/rulesets HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect([statusOf(huge), bodyOf(huge)]).toEqual([
      "HTTP/1.1 431 Request Header Fields Too Large",
      failure(6012, "request headers are too large"),
    ]);
    const garbage = await raw("NOT HTTP AT ALL\r\n\r\n");
    expect([statusOf(garbage), bodyOf(garbage)]).toEqual([
      "HTTP/1.1 400 Bad Request",
      failure(6012, "malformed HTTP request"),
    ]);
  });

  it("answers a client that half-closes its side after sending its request", async () => {
    const body = JSON.stringify({ destination_conf: "s3://half-bucket/logs?region=us-east-1" });
    const response = await raw(
      `POST /client/v4/zones/${ZONE}/logpush/ownership HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(statusOf(response)).toBe("HTTP/1.1 200 OK");
    const { filename } = (bodyOf(response) as { result: { filename: string } }).result;
    expect(await readFile(join(running.dataDir, filename), "utf8")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("logs nothing when a client goes away in the middle of its body", async () => {
    const { port } = new URL(running.api);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `POST /client/v4/zones/${ZONE}/logpush/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 100\r\n\r\n{"na`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged).toEqual([]);
  });
});

describe("filterc sandbox credentials and stopping", () => {
  it.each([["--api-token"], ["--email"], ["--api-key"]])(
    "refuses an empty %s as a usage error",
    async (flag) => {
      const pair =
        flag === "--email" ? ["--api-key", "k"] : flag === "--api-key" ? ["--email", "e@example.com"] : [];
      const result = await runCli(["sandbox", flag, "", ...pair, "--port", "0"]);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr: expect.stringContaining(`filterc sandbox: ${flag} is empty; give a value\n`),
      });
    },
  );

  it("stops on SIGTERM within its grace period while a gzip bomb is at work (it once took 40 s)", async () => {
    const dataDir = await tempDir();
    let child: ChildProcess | undefined;
    try {
      let api: string;
      ({ child, api } = await spawnSandbox(dataDir, [
        "--shutdown-grace",
        "1",
        "--max-ingest-lines",
        "5000000",
      ]));
      // 4 million lines in about 100 KB: many seconds of work once sent.
      const bomb = httpRequest(`${api}/zones/${ZONE}/sandbox/ingest`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      bomb.on("error", () => undefined);
      bomb.end(bombOf(4_000_000));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const started = performance.now();
      const exit = new Promise<number | null>((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exit).toBe(0);
      const seconds = (performance.now() - started) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(0.9);
      expect(seconds).toBeLessThan(4);
    } finally {
      child?.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("stops on SIGTERM within its grace period although a client stalls mid-request, with exit 0", async () => {
    const dataDir = await tempDir();
    let child: ChildProcess | undefined;
    try {
      let api: string;
      ({ child, api } = await spawnSandbox(dataDir, ["--shutdown-grace", "1"]));
      const { port } = new URL(api);
      const stalled = connect(Number(port), "127.0.0.1");
      stalled.on("error", () => undefined);
      await new Promise((resolve) => stalled.once("connect", resolve));
      stalled.write(
        `POST /client/v4/zones/${ZONE}/logpush/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Length: 100\r\n\r\n{`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      const exit = new Promise<number | null>((resolve) => child!.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exit).toBe(0);
      const seconds = (performance.now() - started) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(0.9);
      expect(seconds).toBeLessThan(10);
      stalled.destroy();
    } finally {
      child?.kill("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
