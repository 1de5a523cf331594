import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localFiles } from "../../src/cli/local-files.js";
import { GLOB_LIMITS, type GlobLimits } from "../../src/files/index.js";
import { ensureBundles } from "../helpers/bundles.js";
import { spawnCli } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

/*
 * Where query and `sql --from` read: gzip told by its bytes and its damage reported as eval reports
 * it, one glob for both commands with clear errors and bounds, and --group-by bounded and escaped.
 */

let dir: string;
const lines = Array.from(
  { length: 2000 },
  (_, i) => `{"ClientRequestPath":"/api/${i}","EdgeResponseStatus":${i}}`,
);
const text = `${lines.join("\n")}\n`;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-sql-files-"));
  const gzip = gzipSync(text);
  await writeFile(join(dir, "cut.ndjson.gz"), gzip.subarray(0, gzip.length >> 1));
  await writeFile(join(dir, "gzip.log"), gzip);
  await writeFile(join(dir, "[1].ndjson"), '{"EdgeResponseStatus":1}\n');
  await writeFile(join(dir, "1.ndjson"), '{"EdgeResponseStatus":2}\n');
  await writeFile(join(dir, "*.ndjson"), '{"EdgeResponseStatus":3}\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const inDir = (args: string[], stdin = "") => spawnCli(args, stdin, {}, dir);
const every = "EdgeResponseStatus geq 0";

describe("filterc query on gzip", () => {
  it("reports a gzip file cut short as eval does, and exits 1", async () => {
    const evaluated = await inDir(["eval", "--expr", every, "cut.ndjson.gz", "--count"]);
    const queried = await inDir(["query", "--expr", every, "cut.ndjson.gz", "--count"]);
    const damage = evaluated.stderr.split("\n").find((line) => line.includes("damaged"));
    expect(damage).toMatch(
      /^filterc eval: cut\.ndjson\.gz: damaged: unexpected end of file inside a gzip member at byte \d+; the lines before it were read/,
    );
    expect(queried).toEqual({
      code: 1,
      stdout: evaluated.stdout,
      stderr: `${damage!.replace("filterc eval:", "filterc query:").replace(/; line \d+, cut there, is counted as malformed/, "")}\n`,
    });
    expect(evaluated.code).toBe(1);
  });

  it("reads gzip by its first bytes, whatever the file is called", async () => {
    expect(await inDir(["query", "--expr", every, "gzip.log", "--count"])).toEqual({
      code: 0,
      stdout: "2000\n",
      stderr: "",
    });
    const sql = await inDir(["sql", "--dialect", "duckdb", "--from", "gzip.log"], every);
    expect(sql.stdout).toContain(
      "read_ndjson_objects('gzip.log', ignore_errors = true, compression = 'gzip')",
    );
    const house = await inDir(["sql", "--dialect", "clickhouse", "--from", "gzip.log"], every);
    expect(house.stdout).toContain("file('gzip.log', 'LineAsString', 'line String', 'gzip')");
  });
});

describe("globs of query and sql --from", () => {
  it("names a file whose name holds glob characters, by its name or a class of one", async () => {
    for (const path of ["[1].ndjson", "[[]1].ndjson"])
      expect(await inDir(["query", "--expr", every, path])).toEqual({
        code: 0,
        stdout: '{"EdgeResponseStatus":1}\n',
        stderr: "",
      });
    expect((await inDir(["query", "--expr", every, "[*].ndjson"])).stdout).toBe('{"EdgeResponseStatus":3}\n');
    expect((await inDir(["query", "--expr", every, "[!*[]*.ndjson"])).stdout).toBe(
      '{"EdgeResponseStatus":2}\n',
    );
    const sql = await inDir(["sql", "--dialect", "duckdb", "--from", "[1].ndjson"], every);
    expect(sql.stdout).toContain(
      "read_ndjson_objects('[[]1].ndjson', ignore_errors = true, compression = 'uncompressed')",
    );
  });

  it("says what is wrong with a malformed glob, in both commands", async () => {
    for (const [pattern, problem] of [
      ["logs/[1", 'the [ of "[1" is not closed by ]'],
      ["[z-a].ndjson", 'the range "z-a" runs backwards'],
    ] as const) {
      const message = `malformed glob ${JSON.stringify(pattern)}: ${problem}\n`;
      expect(await inDir(["query", "--expr", every, pattern])).toEqual({
        code: 1,
        stdout: "",
        stderr: `filterc query: ${message}`,
      });
      expect(await inDir(["sql", "--dialect", "duckdb", "--from", pattern], every)).toEqual({
        code: 1,
        stdout: "",
        stderr: `filterc sql: ${message}`,
      });
    }
  });

  it("follows no symbolic link in a walk", async () => {
    const deep = join(dir, "deep");
    await mkdir(join(deep, "a"), { recursive: true });
    await writeFile(join(deep, "a", "x.ndjson"), '{"EdgeResponseStatus":4}\n');
    await symlink(deep, join(deep, "a", "loop"));
    expect((await inDir(["query", "--expr", every, "deep/**/x*"])).stdout).toBe('{"EdgeResponseStatus":4}\n');
  });

  it("bounds a walk's entries and a glob's files by GLOB_LIMITS, 100,000 each", async () => {
    expect(GLOB_LIMITS).toEqual({ maxFiles: 100_000, maxVisits: 100_000 });
    const wide = join(dir, "wide");
    await mkdir(wide);
    // A directory of 101 empty files: one more entry than a walk of 100 may look at, one more
    // file than a glob of 100 may match.
    await Promise.all(Array.from({ length: 101 }, (_, k) => writeFile(join(wide, `x${k}`), "")));
    const refusal = (path: string, limits: GlobLimits) =>
      localFiles(path, dir, limits).then(
        () => "no refusal",
        (error: Error) => error.message,
      );
    expect(await refusal("wide/**/x*", { maxFiles: 1000, maxVisits: 100 })).toBe(
      `"wide/**/x*" reaches more than 100 files and directories; start it in a narrower directory`,
    );
    expect(await refusal("wide/x*", { maxFiles: 100, maxVisits: 1000 })).toBe(
      `"wide/x*" matches more than 100 files; name fewer (a narrower glob)`,
    );
    expect((await localFiles("wide/x*", dir, { maxFiles: 101, maxVisits: 1000 })).length).toBe(101);
  });
});

describe("filterc query --group-by", () => {
  it("prints the groups with most lines, then one line for the rest, with hidden characters shown", async () => {
    const grouped = [
      '{"ClientRequestPath":"/b"}',
      '{"ClientRequestPath":"/b"}',
      '{"ClientRequestPath":"/a\u009b2J\u202e"}',
      '{"ClientRequestPath":"/c"}',
      "{}",
    ];
    await writeFile(join(dir, "grouped.ndjson"), `${grouped.join("\n")}\n`);
    const args = [
      "query",
      "--expr",
      every.replace("EdgeResponseStatus geq 0", "not EdgeResponseStatus eq 1"),
      "grouped.ndjson",
      "--group-by",
      "ClientRequestPath",
    ];
    expect(await inDir([...args, "--top", "2"])).toEqual({
      code: 0,
      stdout: '2\t"/b"\n1\t"/a<U+009B>2J<U+202E>"\n2\t(2 more values)\n',
      stderr: "",
    });
    expect((await inDir(args)).stdout).toBe('2\t"/b"\n1\t"/a<U+009B>2J<U+202E>"\n1\t"/c"\n1\t(missing)\n');
    expect((await inDir(["query", "--expr", every, "grouped.ndjson", "--top", "2"])).code).toBe(2);
  });
});
