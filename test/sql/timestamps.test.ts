import { DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cond, check } from "../../src/check/index.js";
import { compileLineFilter, LineVerdict, type TimestampReading } from "../../src/eval/index.js";
import { dialects, toSql } from "../../src/sql/index.js";
import {
  condArbitrary,
  intConstants,
  linesArbitrary,
  readingArbitrary,
  timestampValues,
} from "./generators.js";

const RUNS = 300;

/** Every value in every position: a line each, and lines without the field or with null. */
const everyValue = [
  ...timestampValues.map((value) => `{"EdgeStartTimestamp":${value}}`),
  "{}",
  '{"EdgeStartTimestamp":null}',
  "not json",
];

/** Each operator with each constant (lists of neighbours for in). */
const filters = [
  ...["eq", "!eq", "lt", "leq", "gt", "geq"].flatMap((operator) =>
    intConstants.map((constant) => `EdgeStartTimestamp ${operator} ${constant}`),
  ),
  "EdgeStartTimestamp in [1700000000000000000, 1700000000123000000, -1000000000]",
  "EdgeStartTimestamp !in [1700000000000000001, 1700000001000000000]",
];

let duckdb: Awaited<ReturnType<DuckDBInstance["connect"]>>;
beforeAll(async () => {
  duckdb = await (await DuckDBInstance.create(":memory:")).connect();
});
afterAll(() => duckdb.closeSync());

/** The lines the engine keeps, and the sum of `count` over them all. */
async function duckdbRun(where: string, count: string, lines: string[]): Promise<[number[], number]> {
  const rows = lines.map((line, i) => `(${i}, ${dialects.duckdb.string(line)})`).join(", ");
  const [[kept, unreadable]] = (
    await duckdb.runAndReadAll(
      `SELECT list(i ORDER BY i) FILTER (WHERE ${where}), sum(${count}) FROM (VALUES ${rows}) AS t(i, json)`,
    )
  ).getRowsJS() as [[number[] | null, unknown]];
  return [(kept ?? []).map(Number), Number(unreadable)];
}

async function clickhouseRun(where: string, count: string, lines: string[]): Promise<[number[], number]> {
  const { query } = await import("chdb");
  const rows = lines.map((line, i) => `(${i}, ${dialects.clickhouse.string(line)})`).join(", ");
  const answer = query(
    `SELECT arraySort(groupArrayIf(i, ${where})), sum(${count}) FROM values('i UInt32, json String', ${rows})`,
    "JSONCompactEachRow",
  );
  const [kept, unreadable] = JSON.parse(answer) as [number[], number | string];
  return [kept, Number(unreadable)];
}

function evalRun(condition: Cond | null, timestamps: TimestampReading, lines: string[]): [number[], number] {
  let unreadable = 0;
  const filter = compileLineFilter(condition, {
    timestamps,
    onUnreadableTime: () => unreadable++,
  });
  return [lines.flatMap((line, i) => (filter(line) === LineVerdict.match ? [i] : [])), unreadable];
}

describe("the SQL reads timestamp fields as eval does", () => {
  it.each([
    ["DuckDB", "duckdb", duckdbRun],
    ["ClickHouse", "clickhouse", clickhouseRun],
  ] as const)(
    "in %s: every value a job may write against every constant, under each reading, and the count of values that are no time",
    async (_name, dialect, run) => {
      for (const timestamps of ["auto", "unix", "unixnano"] as const)
        for (const source of filters) {
          const sql = toSql(check(source).condition, { dialect, timestamps });
          expect(sql.ok && sql.unreadableTimes).toBeTruthy();
          const answer = await run(sql.sql!, sql.ok ? sql.unreadableTimes! : "0", everyValue);
          const expected = evalRun(check(source).condition, timestamps, everyValue);
          expect([timestamps, source, answer]).toEqual([timestamps, source, expected]);
        }
    },
    240_000,
  );

  it.each([
    ["DuckDB", "duckdb", duckdbRun],
    ["ClickHouse", "clickhouse", clickhouseRun],
  ] as const)(
    `in %s: generated filters over records in every timestamp form, under each reading (${RUNS} runs)`,
    async (_name, dialect, run) => {
      await fc.assert(
        fc.asyncProperty(
          condArbitrary,
          linesArbitrary,
          readingArbitrary,
          async (condition, lines, timestamps) => {
            const sql = toSql(condition, { dialect, timestamps });
            expect(sql.diagnostics).toEqual([]);
            const count = sql.ok ? (sql.unreadableTimes ?? "0") : "0";
            expect(await run(sql.sql!, count, lines)).toEqual(evalRun(condition, timestamps, lines));
          },
        ),
        { numRuns: RUNS },
      );
    },
    240_000,
  );

  it("counts no value when the filter names no timestamp field", () => {
    const sql = toSql(check("EdgeResponseBytes gt 0").condition, { dialect: "duckdb" });
    expect(sql.ok && sql.unreadableTimes).toBeUndefined();
  });
});
