import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { finished } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";
import { describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { outputOf } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const block = Array.from(
  { length: 1000 },
  (_, i) =>
    `{"ClientCountry":"${i % 7 === 0 ? "us" : "fr"}","EdgeResponseStatus":${i % 10 === 0 ? 503 : 200},` +
    `"ClientRequestPath":"/assets/${i}/app.js","ClientRequestUserAgent":"Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0"}\n`,
).join("");
const BLOCKS = 1200;
const rssFile = fileURLToPath(new URL("../out/eval-memory-max-rss.txt", import.meta.url));
/**
 * Preloaded into the child: writes its peak resident set size (kB) to rssFile when it exits. Its
 * own (VmHWM): getrusage's maxRSS also counts the test process's, copied at the fork before exec.
 */
const recordPeakRss = `data:text/javascript,import { readFileSync, writeFileSync } from "node:fs"; process.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, /VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]));`;

/** `filterc eval --expr "EdgeResponseStatus geq 500" …args` under a 40 MB heap, writing its peak RSS to rssFile. */
const cappedEval = (...args: string[]) =>
  spawn(process.execPath, [
    "--max-old-space-size=40",
    "--import",
    recordPeakRss,
    builtCli(),
    "eval",
    "--expr",
    "EdgeResponseStatus geq 500",
    ...args,
  ]);

describe("filterc eval on a large input", () => {
  it("streams 200 MB through a heap capped at 40 MB and a peak RSS under 150 MB", async () => {
    mkdirSync(fileURLToPath(new URL("../out/", import.meta.url)), { recursive: true });
    const child = cappedEval();
    let matchedBytes = 0;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      matchedBytes += chunk.length;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    const chunk = Buffer.from(block);
    for (let i = 0; i < BLOCKS; i++) {
      if (!child.stdin.write(chunk)) await new Promise((resolve) => child.stdin.once("drain", resolve));
    }
    child.stdin.end();
    expect(chunk.length * BLOCKS).toBeGreaterThan(200_000_000);
    expect(await closed).toBe(0);
    expect(stderr).toBe(`read ${1000 * BLOCKS} lines, matched ${100 * BLOCKS}, malformed 0\n`);
    const matchedPerBlock = block
      .split("\n")
      .filter((line) => line.includes(":503,"))
      .reduce((sum, line) => sum + line.length + 1, 0);
    expect(matchedBytes).toBe(matchedPerBlock * BLOCKS);
    expect(Number(readFileSync(rssFile, "utf8"))).toBeLessThan(150_000);
  }, 60_000);
});

/** A gzip file of `bytes` zero bytes (a thousandfold ratio: 256 MiB is 255 KB), written a MiB at a time. */
async function zerosGzip(path: string, bytes: number): Promise<void> {
  const gzip = createGzip();
  const written = finished(gzip.pipe(createWriteStream(path)));
  const zeros = Buffer.alloc(1 << 20);
  for (let left = bytes; left > 0; left -= zeros.length)
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once("drain", resolve));
  gzip.end('\n{"EdgeResponseStatus":503}\n');
  await written;
}

describe("filterc eval on a high-ratio gzip file", () => {
  it("inflates 640 MiB of zeros in a peak RSS under 150 MB (regression: a 256 KiB piece inflated at once, 0.6 GB)", async () => {
    const gz = fileURLToPath(new URL("../out/eval-memory-zeros.gz", import.meta.url));
    await zerosGzip(gz, 640 << 20);
    const child = cappedEval("--max-line-bytes", "1000", "--jobs", "1", gz);
    const { code, stdout, stderr } = await outputOf(child);
    expect(code).toBe(0);
    expect({ stdout, stderr }).toEqual({
      stdout: '{"EdgeResponseStatus":503}\n',
      stderr: [
        `filterc eval: line 1 of ${gz} is longer than 1000 bytes (--max-line-bytes): not read, counted as malformed`,
        "read 2 lines, matched 1, malformed 1 (first at line 1)",
        "",
      ].join("\n"),
    });
    expect(Number(readFileSync(rssFile, "utf8"))).toBeLessThan(150_000);
  }, 60_000);
});
