import { DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineVerdict } from "../../src/eval/index.js";
import { type Cond, compileLineFilter, type TimestampReading } from "../../src/index.js";
import { dialects, toSql } from "../../src/sql/index.js";
import { condArbitrary, linesArbitrary, readingArbitrary } from "./generators.js";

const RUNS = 500;

/** The numbers of the lines `filterc eval` keeps, and how many timestamp values it could not read. */
function evalKeeps(condition: Cond, lines: string[], timestamps: TimestampReading) {
  let unreadable = 0;
  const verdict = compileLineFilter(condition, { timestamps, onUnreadableTime: () => unreadable++ });
  const kept = lines.flatMap((line, i) => (verdict(line) === LineVerdict.match ? [i] : []));
  return { kept, unreadable };
}

let duckdb: Awaited<ReturnType<DuckDBInstance["connect"]>>;
beforeAll(async () => {
  duckdb = await (await DuckDBInstance.create(":memory:")).connect();
});
afterAll(() => duckdb.closeSync());

/** The numbers of the lines the engine keeps, and the sum of `count` over them all. */
async function duckdbKeeps(where: string, count: string, lines: string[]) {
  const rows = lines.map((line, i) => `(${i}, ${dialects.duckdb.string(line)})`).join(", ");
  const reader = await duckdb.runAndReadAll(
    `SELECT list(i ORDER BY i) FILTER (WHERE ${where}), sum(${count}) FROM (VALUES ${rows}) AS t(i, json)`,
  );
  const [kept, unreadable] = reader.getRowsJS()[0]!;
  return { kept: ((kept as number[] | null) ?? []).map(Number), unreadable: Number(unreadable) };
}

/** ClickHouse, embedded (chdb). Loaded by this file only: the engine is large. */
async function clickhouseKeeps(where: string, count: string, lines: string[]) {
  const { query } = await import("chdb");
  const rows = lines.map((line, i) => `(${i}, ${dialects.clickhouse.string(line)})`).join(", ");
  const answer = query(
    `SELECT arraySort(groupArrayIf(i, ${where})), sum(${count}) FROM values('i UInt32, json String', ${rows})`,
    "JSONCompactEachRow",
  );
  const [kept, unreadable] = JSON.parse(answer) as [number[], number | string];
  return { kept, unreadable: Number(unreadable) };
}

const engines = [
  { name: "DuckDB", dialect: "duckdb", keeps: duckdbKeeps },
  { name: "ClickHouse", dialect: "clickhouse", keeps: clickhouseKeeps },
] as const;

describe("the SQL selects what eval keeps, and counts the timestamp values eval cannot read", () => {
  it.each(engines)(
    `in $name (${RUNS} filters over generated records)`,
    async ({ dialect, keeps }) => {
      await fc.assert(
        fc.asyncProperty(
          condArbitrary,
          linesArbitrary,
          readingArbitrary,
          async (condition, lines, timestamps) => {
            const sql = toSql(condition, { dialect, timestamps });
            expect(sql.diagnostics).toEqual([]);
            const count = sql.ok ? (sql.unreadableTimes ?? "0") : "0";
            expect(await keeps(sql.sql!, count, lines)).toEqual(evalKeeps(condition, lines, timestamps));
          },
        ),
        { numRuns: RUNS },
      );
    },
    240_000,
  );
});
