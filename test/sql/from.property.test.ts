import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineVerdict } from "../../src/eval/index.js";
import { type Cond, compileLineFilter } from "../../src/index.js";
import { toSql } from "../../src/sql/index.js";
import { condArbitrary, linesArbitrary } from "./generators.js";

/** Fewer runs than the expression's property: each writes two files and has both engines read them. */
const RUNS = 200;

let dir: string;
let duckdb: Awaited<ReturnType<DuckDBInstance["connect"]>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-sql-"));
  duckdb = await (await DuckDBInstance.create(":memory:")).connect();
});
afterAll(async () => {
  duckdb.closeSync();
  await rm(dir, { recursive: true, force: true });
});

const evalKeeps = (condition: Cond, lines: string[]) => {
  const verdict = compileLineFilter(condition);
  return lines.filter((line) => verdict(line) === LineVerdict.match);
};

/** The lines split over two files, one of them gzip: the SELECT reads both through a glob. */
async function writeLogs(lines: string[], run: number): Promise<string> {
  const half = Math.ceil(lines.length / 2);
  await writeFile(join(dir, `logs-${run}-a.ndjson`), `${lines.slice(0, half).join("\n")}\n`);
  await writeFile(join(dir, `logs-${run}-b.ndjson.gz`), gzipSync(`${lines.slice(half).join("\n")}\n`));
  return join(dir, `logs-${run}-*`);
}

const sorted = (lines: string[]) => [...lines].sort();

describe("the SELECT of --from returns the lines eval keeps, plain and gzip", () => {
  it(`DuckDB and ClickHouse (${RUNS} filters)`, async () => {
    const { query } = await import("chdb");
    let run = 0;
    await fc.assert(
      fc.asyncProperty(condArbitrary, linesArbitrary, async (condition, lines) => {
        // A line the engines read as several (a raw newline cannot be in NDJSON) is not generated.
        const from = await writeLogs(lines, run++);
        const expected = sorted(evalKeeps(condition, lines));
        const duck = toSql(condition, { dialect: "duckdb", from });
        const rows = (await duckdb.runAndReadAll(duck.sql!)).getRowsJS().map((row) => String(row[0]));
        expect(sorted(rows)).toEqual(expected);
        const house = toSql(condition, { dialect: "clickhouse", from });
        const answer = query(house.sql!, "TSVRaw");
        expect(sorted(answer === "" ? [] : answer.trimEnd().split("\n"))).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  }, 240_000);
});
