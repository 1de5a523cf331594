import { readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { jobsNote, runCli, spawnCli } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit: the workers run the built bundle.
ensureBundles();

let dir: string;
let lines: string[];
let path: string;

/**
 * About 7 MB of lines, some of them longer than the 1 MiB chunks files are read in: every chunk
 * boundary cuts a line, and three lines span several chunks. The reader reuses its two chunk
 * buffers, so a line piece or a written run kept past its chunk would come out as other bytes.
 */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-chunks-"));
  lines = [];
  for (let i = 0; i < 60_000; i++) {
    const long = i % 20_000 === 7_000;
    const path = long
      ? `/long/${String(i).repeat(1_600_000 / String(i).length)}`
      : `/p/${i}/${"ab".repeat(i % 60)}`;
    lines.push(JSON.stringify({ EdgeResponseStatus: 200 + (i % 7) * 50, ClientRequestPath: path, i }));
  }
  path = join(dir, "big.ndjson");
  await writeFile(path, `${lines.join("\n")}\n`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const expected = (keep: (record: { EdgeResponseStatus: number }) => boolean) =>
  lines
    .filter((line) => keep(JSON.parse(line)))
    .map((line) => `${line}\n`)
    .join("");

describe("files read in reused chunks", () => {
  it("writes every selected line with its own bytes, on one thread and on three", async () => {
    const args = ["eval", "--expr", "EdgeResponseStatus geq 400", path];
    const want = expected((record) => record.EdgeResponseStatus >= 400);
    const one = await runCli([...args, "--jobs", "1"]);
    expect(one.stdout).toBe(want);
    expect(one.stderr).toBe(`read 60000 lines, matched ${want.split("\n").length - 1}, malformed 0\n`);
    // Ranges longer than a chunk, and input enough for three workers (RANGES_PER_WORKER ranges each).
    const three = await spawnCli([...args, "--jobs", "3", "--range-bytes", "1300000"]);
    expect(three.stdout).toBe(want);
    expect(three.stderr).toBe(jobsNote(3) + one.stderr);
  });

  it("writes the long lines, each carried over several chunks, whole", async () => {
    const run = await runCli([
      "eval",
      "--expr",
      'ClientRequestPath startsWith "/long/"',
      path,
      "--jobs",
      "1",
    ]);
    expect(run.stdout).toBe(expected((record) => (record as unknown as { i: number }).i % 20_000 === 7_000));
    expect(run.stdout.length).toBeGreaterThan(4_800_000);
  });

  it("closes a file the run leaves early: --strict on plain and gzip, a damaged gzip", async () => {
    // A file handle left open is closed only when collected, with a warning on stderr.
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const strict = join(dir, "strict.ndjson");
    await writeFile(strict, `{"EdgeResponseStatus":500}\n{bad\n${lines.join("\n")}\n`);
    const gzipped = join(dir, "strict.ndjson.gz");
    await writeFile(gzipped, gzipSync(await readFile(strict)));
    const damaged = join(dir, "damaged.ndjson.gz");
    const whole = gzipSync(await readFile(path));
    await writeFile(damaged, whole.subarray(0, whole.length >> 1));
    const before = openFiles();
    for (const file of [strict, gzipped]) {
      const run = await runCli(["eval", "--expr", "EdgeResponseStatus geq 400", "--strict", "--count", file]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`stopped at malformed line 2 of ${file} (--strict)`);
    }
    const cut = await runCli(["eval", "--expr", "EdgeResponseStatus geq 400", "--count", damaged]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain(`${damaged}: damaged: unexpected end of file inside a gzip member`);
    expect(openFiles()).toBe(before);
  });
});
