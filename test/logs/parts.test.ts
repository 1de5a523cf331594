import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { GZIP_WORK_PER_BYTE, MIN_RANGE_BYTES, planParts, RANGES_PER_WORKER } from "../../src/logs/parts.js";
import { temporaryFolder } from "../helpers/folders.js";

const folder = temporaryFolder("filterc-parts-");

describe("planParts", () => {
  it("cuts 200,000 lines into a part each (the parts, spread as call arguments, overflowed the stack)", async () => {
    const path = join(folder(), "short.ndjson");
    await writeFile(path, "{}\n".repeat(200_000));
    const { parts } = await planParts([{ name: path, size: 600_000 }], 1, 1);
    expect(parts).toHaveLength(200_000);
    expect(parts[1]).toEqual({ input: path, start: 3, end: 6, whole: false });
    expect(parts.at(-1)).toEqual({ input: path, start: 599_997, end: 600_000, whole: false });
  });

  it("cuts only at line starts: the ranges a long line spans become one part", async () => {
    const path = join(folder(), "long.ndjson");
    const long = `{"a":"${"x".repeat(300_000)}"}\n`;
    await writeFile(path, `{}\n${long}{}\n`);
    const size = 3 + long.length + 3;
    // Four ranges of about 75,000 bytes: the first three cuts fall in the long line and move past it.
    expect((await planParts([{ name: path, size }], 70_000, 1)).parts).toEqual([
      { input: path, start: 0, end: 3 + long.length, whole: false },
      { input: path, start: 3 + long.length, end: size, whole: false },
    ]);
  });
});

describe("planParts: how many workers", () => {
  /** The work that pays for one worker, at the least --range-bytes. */
  const unit = RANGES_PER_WORKER * MIN_RANGE_BYTES;
  /** A plain file of `size` bytes, lines of 64. */
  const plain = async (name: string, size: number) => {
    const path = join(folder(), name);
    await writeFile(path, `${"x".repeat(63)}\n`.repeat(Math.ceil(size / 64)).slice(0, size));
    return { name: path, size };
  };

  it("starts a worker for each RANGES_PER_WORKER ranges of input, at most --jobs, at least one", async () => {
    const workers = async (size: number, jobs: number) =>
      (await planParts([await plain("log.ndjson", size)], MIN_RANGE_BYTES, jobs)).workers;
    expect(await workers(2 * unit - 1, 8)).toBe(1);
    expect(await workers(2 * unit, 8)).toBe(2);
    expect(await workers(3 * unit - 1, 8)).toBe(2);
    expect(await workers(8 * unit, 8)).toBe(8);
    expect(await workers(8 * unit, 5)).toBe(5);
    expect(await workers(20 * unit, 8)).toBe(8);
    expect(await workers(100, 8)).toBe(1);
  });

  it("cuts a file into a multiple of the workers, so that none reads the last range alone", async () => {
    // Ten ranges' worth: three workers, and ten ranges rounded up to twelve.
    const file = await plain("ten.ndjson", 10 * MIN_RANGE_BYTES);
    const { parts, workers } = await planParts([file], MIN_RANGE_BYTES, 8);
    expect(workers).toBe(3);
    expect(parts).toHaveLength(12);
    expect(parts.map((part) => part.end - part.start)).toEqual([
      54_656, 54_592, 54_592, 54_656, 54_592, 54_592, 54_656, 54_592, 54_592, 54_656, 54_592, 54_592,
    ]);
  });

  it("counts a gzip byte as GZIP_WORK_PER_BYTE plain ones, and no more workers than parts", async () => {
    // Random bytes do not shrink: each file is a little more than `bytes` long.
    const gzip = async (name: string, bytes: number) => {
      const path = join(folder(), name);
      const content = gzipSync(randomBytes(bytes));
      await writeFile(path, content);
      return { name: path, size: content.length };
    };
    const small = Math.ceil(unit / GZIP_WORK_PER_BYTE / 2);
    const two = [await gzip("a.gz", small), await gzip("b.gz", small)];
    // Together a little more than one worker's work as gzip; as plain bytes, far less.
    expect((await planParts(two, MIN_RANGE_BYTES, 8)).workers).toBe(1);
    const large = [
      await gzip("c.gz", 2 * small),
      await gzip("d.gz", 2 * small),
      await gzip("e.gz", 2 * small),
    ];
    expect(await planParts(large, MIN_RANGE_BYTES, 8)).toEqual({
      parts: large.map(({ name, size }) => ({ input: name, start: 0, end: size, whole: true })),
      workers: 3,
    });
    // Each file is one part: two workers at most, however much work they hold.
    expect((await planParts(large.slice(0, 2), MIN_RANGE_BYTES, 8)).workers).toBe(2);
  });

  it("opens a file no larger than a range only when its being gzip could change the count", async () => {
    // Not there: opened, it would fail. 100 bytes are one worker's work even as gzip.
    const missing = join(folder(), "missing.ndjson");
    expect(await planParts([{ name: missing, size: 100 }], MIN_RANGE_BYTES, 8)).toEqual({
      parts: [{ input: missing, start: 0, end: 100, whole: true }],
      workers: 1,
    });
    // As gzip, 50,000 bytes would be two workers' work: the file is opened to know.
    await expect(planParts([{ name: missing, size: 50_000 }], MIN_RANGE_BYTES, 8)).rejects.toThrow(
      `${missing}: no such file`,
    );
  });
});
