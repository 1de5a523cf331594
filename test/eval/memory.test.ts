import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";

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
/** Preloaded into the child: writes its peak resident set size (kB) to rssFile when it exits. */
const recordPeakRss = `data:text/javascript,import { writeFileSync } from "node:fs"; process.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));`;

describe("filterc eval on a large input", () => {
  it("streams 200 MB through a heap capped at 40 MB and a peak RSS under 150 MB", async () => {
    mkdirSync(fileURLToPath(new URL("../out/", import.meta.url)), { recursive: true });
    const child = spawn(process.execPath, [
      "--max-old-space-size=40",
      "--import",
      recordPeakRss,
      builtCli(),
      "eval",
      "--expr",
      "EdgeResponseStatus geq 500",
    ]);
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
