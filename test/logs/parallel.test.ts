import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_RANGE_BYTES } from "../../src/logs/parts.js";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { jobsNote, spawnCli } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit: the workers run the built bundle.
ensureBundles();

let dir: string;
const file = (name: string) => join(dir, name);

/** Lines of every kind: matches, misses, malformed, blank, CRLF, non-ASCII; one longer than 300 bytes. */
function logLines(count: number, seed: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = (i * 7919 + seed) % 97;
    if (n === 3) lines.push("not json");
    else if (n === 5) lines.push("");
    else if (n === 7) lines.push(`{"EdgeResponseStatus":503,"ClientRequestPath":"/${"x".repeat(400)}"}`);
    else if (n === 11) lines.push(`{"EdgeResponseStatus":"0502","ClientRequestPath":"/é/${i}"}\r`);
    else
      lines.push(
        JSON.stringify({ EdgeResponseStatus: [200, 404, 500, 503][n % 4], ClientRequestPath: `/p/${i}`, i }),
      );
  }
  return `${lines.join("\n")}\n`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-parallel-"));
  await writeFile(file("a.ndjson"), `\ufeff${logLines(10_000, 1)}`);
  await writeFile(file("b.ndjson.gz"), gzipSync(logLines(2000, 2)));
  await writeFile(file("c.ndjson"), logLines(8000, 3).slice(0, -1)); // no LF after the last line
  // Padded: enough bytes for four workers (RANGES_PER_WORKER ranges each) at the least --range-bytes.
  const good = Array.from({ length: 8000 }, (_, i) =>
    JSON.stringify({ EdgeResponseStatus: 500 + (i % 4), i, pad: "x".repeat(80) }),
  );
  good[2999] = "{not json";
  await writeFile(file("e.ndjson"), `${good.join("\n")}\n`);
  const gzip = gzipSync(logLines(500, 4));
  await writeFile(file("d.ndjson.gz"), gzip.subarray(0, gzip.length - 30)); // cut short: damaged
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const filter = 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/p/1"';
const evalWith = (jobs: number, ...args: string[]) =>
  spawnCli([
    "eval",
    "--expr",
    filter,
    "--jobs",
    String(jobs),
    "--range-bytes",
    String(MIN_RANGE_BYTES),
    "--max-line-bytes",
    "300",
    ...args,
  ]);

describe("filterc eval --jobs", () => {
  it("writes byte for byte what one thread writes, with the same summary, line numbers and warnings", async () => {
    const files = [file("a.ndjson"), file("b.ndjson.gz"), file("c.ndjson"), file("d.ndjson.gz")];
    const one = await evalWith(1, ...files, "--stats");
    expect(one.code).toBe(1); // the damaged gzip
    expect(one.stdout.length).toBeGreaterThan(100_000);
    // In the last of a.ndjson's ten ranges: numbered from the file's start all the same.
    expect(one.stderr).toContain(`filterc eval: line 9917 of ${file("a.ndjson")} is longer than 300 bytes`);
    expect(one.stderr).toContain(`${file("d.ndjson.gz")}: damaged:`);
    for (const jobs of [2, 3, 8])
      expect(await evalWith(jobs, ...files, "--stats")).toEqual({
        ...one,
        stderr: jobsNote(jobs) + one.stderr,
      });
  });

  it("counts, inverts and stops at the first malformed line with --strict as one thread does", async () => {
    const files = [file("b.ndjson.gz"), file("c.ndjson"), file("a.ndjson")];
    for (const args of [["--count", "--stats"], ["--invert"], ["--strict"]]) {
      const one = await evalWith(1, ...files, ...args);
      expect(await evalWith(2, ...files, ...args)).toEqual({ ...one, stderr: jobsNote(2) + one.stderr });
    }
    // The first malformed line is in the sixth of e.ndjson's sixteen ranges: nothing after it is written.
    const one = await evalWith(1, file("e.ndjson"), "--strict");
    const strict = await evalWith(4, file("e.ndjson"), "--strict");
    expect(strict).toEqual({ ...one, stderr: jobsNote(4) + one.stderr });
    expect(strict.code).toBe(1);
    expect(strict.stdout.split("\n").length).toBe(3000);
    expect(strict.stderr.split("\n").at(-2)).toBe(
      `filterc eval: stopped at malformed line 3000 of ${file("e.ndjson")} (--strict)`,
    );
  });

  it("writes what one thread writes by default, whether the workers it measured are kept or not", async () => {
    const files = [file("a.ndjson"), file("b.ndjson.gz"), file("c.ndjson"), file("e.ndjson")];
    const args = ["--range-bytes", String(MIN_RANGE_BYTES), "--max-line-bytes", "300", ...files];
    for (const extra of [["--stats"], ["--strict"]]) {
      const one = await evalWith(1, ...files, ...extra);
      // FILTERC_MIN_CORES_A_WORKER forces the measured rule's outcome: -1 keeps every worker, 2 one.
      for (const minCores of ["-1", "2", ""])
        expect(
          await spawnCli(["eval", "--expr", filter, ...args, ...extra], "", {
            FILTERC_MIN_CORES_A_WORKER: minCores,
          }),
        ).toEqual(one);
    }
  });

  it("stops the workers it started before the filter was compiled when the filter has errors", async () => {
    // Input enough for three workers, started before the filter's errors are known; left running,
    // they kept the process from ending.
    const files = [file("a.ndjson"), file("c.ndjson")];
    const wrong = ["eval", "--expr", "EdgeResponseStatus geq", "--range-bytes", String(MIN_RANGE_BYTES)];
    const one = await spawnCli([...wrong, "--jobs", "1", ...files]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain("error[");
    expect(await spawnCli([...wrong, "--jobs", "3", ...files])).toEqual({
      ...one,
      stderr: jobsNote(3) + one.stderr,
    });
  });

  it("refuses a --jobs or --range-bytes that is no positive whole number", async () => {
    for (const flag of ["--jobs", "--range-bytes"]) {
      const run = await spawnCli(["eval", "--expr", filter, flag, "0", file("a.ndjson")]);
      expect(run.code).toBe(2);
    }
  });

  it("starts its workers on eval's code alone: no parser, no dataset catalogs", async () => {
    const worker = await readFile(join(dirname(builtCli()), "eval-worker.cjs"), "utf8");
    // chevrotain's error class, and the first field of the first catalog.
    expect(worker).not.toContain("MismatchedTokenException");
    expect(worker).not.toContain("AISecurityCustomTopicCategories");
    expect(worker.length).toBeLessThan(64 * 1024);
  });
});
