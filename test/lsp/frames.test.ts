import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { StrictFrameReader } from "../../src/lsp/frames.js";
import { builtCli } from "../helpers/bundles.js";
import { type CliRun, outputOf } from "../helpers/cli.js";

/** Runs `filterc lsp --stdio` on raw bytes, then closes (or keeps open) its input; resolves with its exit and output. */
function serve(input: string, close: boolean): Promise<CliRun> {
  const child = spawn(process.execPath, [builtCli(), "lsp", "--stdio"]);
  child.stdin.write(input);
  if (close) child.stdin.end();
  return outputOf(child);
}

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { processId: null, rootUri: null, capabilities: {} },
});

describe("filterc lsp on frames it cannot read", () => {
  it("says what is wrong on stderr and exits 1, with the input still open (regression: it answered nothing, forever)", async () => {
    const cases: [string, string][] = [
      ["Content-Type: application/json\r\n\r\n{}", "the message at byte 0 has no Content-Length"],
      ["Content-Length: 2\n\n{}", "a header line at byte 17 ends in LF without CR"],
      ["Content-Length: two\r\n\r\n{}", 'the Content-Length "two" at byte 0 is not a number'],
      [
        `Content-Length: 5\r\n\r\n${initialize}`,
        "the message at byte 21 is not JSON (is its Content-Length right?)",
      ],
      [
        `${frame(initialize)}Content-Length: 3\r\n\r\n[1]`,
        `the message at byte ${frame(initialize).length + 21} is not a JSON object`,
      ],
      [`${"X".repeat(9000)}`, "no end of the headers (a blank line) within 8192 bytes at byte 0"],
    ];
    for (const [input, problem] of cases) {
      const run = await serve(input, false);
      expect(run.stderr).toBe(`filterc lsp: ${problem}; stopping\n`);
      expect(run.code).toBe(1);
    }
  }, 60_000);

  it("exits 1 when the input ends inside a message (regression: it never exited)", async () => {
    const run = await serve('Content-Length: 100\r\n\r\n{"jsonrpc"', true);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc lsp: the input ended inside a message, at byte 33; stopping\n",
    });
  });

  it("exits 1 when the input ends between messages without a shutdown request, 0 after one (was: 0 either way)", async () => {
    const shutdown = frame(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "shutdown" }));
    const closed = await serve(frame(initialize), true);
    expect({ code: closed.code, stderr: closed.stderr }).toEqual({ code: 1, stderr: "" });
    expect(closed.stdout).toMatch(
      /^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2.0","id":1,"result":\{"capabilities"/,
    );
    const afterShutdown = await serve(`${frame(initialize)}${shutdown}`, true);
    expect({ code: afterShutdown.code, stderr: afterShutdown.stderr }).toEqual({ code: 0, stderr: "" });
    expect(afterShutdown.stdout).toContain('{"jsonrpc":"2.0","id":2,"result":null}');
  });

  it("answers the frames before a bad one", async () => {
    const run = await serve(`${frame(initialize)}Content-Length: 2\n\n{}`, false);
    expect(run.stdout).toMatch(
      /^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2.0","id":1,"result":\{"capabilities"/,
    );
    expect(run.code).toBe(1);
  });
});

describe("the frame reader", () => {
  it("skips a message over the size limit without holding it and reads the next one, split anywhere", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", method: "x", params: "y".repeat(200) });
    const small = JSON.stringify({ jsonrpc: "2.0", method: "after" });
    const bytes = Buffer.from(frame(big) + frame(small) + frame(small));
    for (const size of [1, 7, bytes.length]) {
      const input = new PassThrough();
      const skipped: string[] = [];
      const reader = new StrictFrameReader(input, { maxMessageBytes: 100, maxHeaderBytes: 100 }, (m) =>
        skipped.push(m),
      );
      const received: unknown[] = [];
      reader.listen((message) => received.push(message));
      let closed = false;
      reader.onClose(() => {
        closed = true;
      });
      for (let i = 0; i < bytes.length; i += size) input.write(bytes.subarray(i, i + size));
      input.end();
      await new Promise((resolve) => input.on("end", resolve));
      expect(received).toEqual([JSON.parse(small), JSON.parse(small)]);
      expect(skipped).toEqual([
        `a message of ${big.length} bytes at byte ${frame(big).length - big.length} is longer than 100 bytes: skipped`,
      ]);
      expect(closed).toBe(true);
    }
  });
});
