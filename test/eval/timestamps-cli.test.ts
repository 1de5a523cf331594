import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_RANGE_BYTES } from "../../src/logs/parts.js";
import { ensureBundles } from "../helpers/bundles.js";
import { jobsNote, spawnCli } from "../helpers/cli.js";
import { LOGPUSH_TIMESTAMP_FORMATS, writtenTimestamp } from "../helpers/timestamps.js";

// Built while the file is collected, outside any test's time limit: the workers run the built bundle.
ensureBundles();

let dir: string;
const file = (name: string) => join(dir, name);

/** Requests a second apart from 2023-11-14T22:13:20Z, each at some milliseconds past its second. */
const instants = Array.from(
  { length: 4000 },
  (_, i) => (1_700_000_000n + BigInt(i)) * 1_000_000_000n + BigInt((i * 7919) % 1000) * 1_000_000n,
);
/**
 * The log in a format, its instants cut to whole seconds: every format writes them exactly. Each
 * line padded by a path: enough bytes for several workers at the least --range-bytes.
 */
const logOf = (format: (typeof LOGPUSH_TIMESTAMP_FORMATS)[number]) =>
  instants
    .map(
      (ns, i) =>
        `{"EdgeStartTimestamp":${writtenTimestamp((ns / 1_000_000_000n) * 1_000_000_000n, format)},"EdgeResponseStatus":${500 + (i % 4)},"ClientRequestPath":"/${"p".repeat(100)}","i":${i}}\n`,
    )
    .join("");

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-timestamps-"));
  for (const format of LOGPUSH_TIMESTAMP_FORMATS) await writeFile(file(`${format}.ndjson`), logOf(format));
  // Values that are no time, among times: in a plain file cut into ranges, and in a gzip file.
  const mixed = logOf("rfc3339")
    .split("\n")
    .map((line, i) =>
      i % 1000 === 999
        ? line.replace(/"EdgeStartTimestamp":"[^"]*"/, `"EdgeStartTimestamp":"2023-11-14 22:13:20Z"`)
        : i % 1000 === 500
          ? line.replace(/"EdgeStartTimestamp":"[^"]*"/, '"EdgeStartTimestamp":1700000000123')
          : line,
    )
    .join("\n");
  await writeFile(file("mixed.ndjson"), mixed);
  await writeFile(file("mixed.ndjson.gz"), gzipSync(mixed));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const evalRun = (...args: string[]) => spawnCli(["eval", ...args]);
/** Between two instants of the log: the records 100 to 999. */
const filter = "EdgeStartTimestamp geq 1700000100000000000 and EdgeStartTimestamp lt 1700001000000000000";

describe("filterc eval over logs in each timestamp format", () => {
  it("selects the records it selects in unixnano, in every format, on one thread and on several", async () => {
    const expected = await evalRun("--expr", filter, file("unixnano.ndjson"));
    expect(expected.stderr).toBe("read 4000 lines, matched 900, malformed 0\n");
    const numbers = (text: string) =>
      text
        .split("\n")
        .slice(0, -1)
        .map((line) => JSON.parse(line).i);
    for (const format of LOGPUSH_TIMESTAMP_FORMATS)
      for (const jobs of ["1", "3"]) {
        const run = await evalRun(
          "--expr",
          filter,
          "--jobs",
          jobs,
          "--range-bytes",
          String(MIN_RANGE_BYTES),
          file(`${format}.ndjson`),
        );
        expect([format, jobs, run.code, run.stderr, numbers(run.stdout)]).toEqual([
          format,
          jobs,
          0,
          jobsNote(jobs) + expected.stderr,
          numbers(expected.stdout),
        ]);
      }
  });

  it("reports the values that cannot be read as a time once per run, the same on every number of threads", async () => {
    const args = ["--expr", filter, "--count", file("mixed.ndjson"), file("mixed.ndjson.gz")];
    const one = await evalRun(...args, "--jobs", "1");
    expect(one).toEqual({
      code: 0,
      stdout: "1796\n",
      stderr:
        "read 8000 lines, matched 1796, malformed 0\n" +
        "filterc eval: 16 values of timestamp fields cannot be read as a time, so they compare as missing fields " +
        `(first at lines ${file("mixed.ndjson")}:501, ${file("mixed.ndjson")}:1000, ${file("mixed.ndjson")}:1501, ` +
        `${file("mixed.ndjson")}:2000, ${file("mixed.ndjson")}:2501, …; line ${file("mixed.ndjson")}:501: ` +
        "EdgeStartTimestamp 1700000000123, a number the size of neither unix seconds nor unix nanoseconds: see --timestamps)\n",
    });
    for (const jobs of ["2", "4"])
      expect(await evalRun(...args, "--jobs", jobs, "--range-bytes", String(MIN_RANGE_BYTES))).toEqual({
        ...one,
        stderr: jobsNote(jobs) + one.stderr,
      });
    const single = await evalRun(
      "--expr",
      filter,
      "--count",
      file("mixed.ndjson"),
      "--timestamps",
      "unixnano",
    );
    expect(single.stderr.split("\n")[1]).toBe(
      'filterc eval: 4 values of timestamp fields cannot be read as a time, so they compare as missing fields (first at lines 1000, 2000, 3000, 4000; line 1000: EdgeStartTimestamp "2023-11-14 22:13:20Z")',
    );
  });

  it("reads numbers as --timestamps says", async () => {
    const seconds = '{"EdgeStartTimestamp":1700000000}\n{"EdgeStartTimestamp":1700000000123}\n';
    const count = async (...args: string[]) =>
      (
        await spawnCli(
          ["eval", "--expr", "EdgeStartTimestamp geq 1700000000000000000", "--count", ...args],
          seconds,
        )
      ).stdout;
    expect(await count()).toBe("1\n");
    expect(await count("--timestamps", "unix")).toBe("2\n");
    expect(await count("--timestamps", "unixnano")).toBe("0\n");
    const one = await spawnCli(
      ["eval", "--expr", "EdgeStartTimestamp eq 1700000000123", "--timestamps", "unixnano"],
      seconds,
    );
    // A constant this small is no nanosecond time of today, which check says (W0120).
    expect(one.stderr.split("\n").slice(-2)).toEqual(["read 2 lines, matched 1, malformed 0", ""]);
    expect(one.stderr).toMatch(/^warning\[W0120\]: 1700000000123 compared with `EdgeStartTimestamp`/);
  });

  it("refuses a --timestamps it does not know, saying that RFC 3339 text needs none", async () => {
    const rfc = await evalRun("--expr", "EdgeStartTimestamp gt 0", "--timestamps", "rfc3339ms", "-");
    expect(rfc.code).toBe(2);
    expect(rfc.stderr.split("\n")[0]).toBe(
      "filterc eval: --timestamps rfc3339ms: RFC 3339 text is read as the time it names whatever --timestamps says; it says how numbers are read: auto, unix or unixnano",
    );
    const unknown = await evalRun("--expr", "EdgeStartTimestamp gt 0", "--timestamps", "ms", "-");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toBe(
      'filterc eval: --timestamps takes auto, unix or unixnano, not "ms"',
    );
  });
});
