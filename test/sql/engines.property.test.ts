import { DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineVerdict } from "../../src/eval/index.js";
import { type Cond, compileLineFilter } from "../../src/index.js";
import { dialects, toSql } from "../../src/sql/index.js";
import { condArbitrary, linesArbitrary } from "./generators.js";

const RUNS = 500;

/** The numbers of the lines `filterc eval` keeps. */
function evalKeeps(condition: Cond, lines: string[]): number[] {
  const verdict = compileLineFilter(condition);
  return lines.flatMap((line, i) => (verdict(line) === LineVerdict.match ? [i] : []));
}

let duckdb: Awaited<ReturnType<DuckDBInstance["connect"]>>;
beforeAll(async () => {
  duckdb = await (await DuckDBInstance.create(":memory:")).connect();
});
afterAll(() => duckdb.closeSync());

async function duckdbKeeps(where: string, lines: string[]): Promise<number[]> {
  const rows = lines.map((line, i) => `(${i}, ${dialects.duckdb.string(line)})`).join(", ");
  const reader = await duckdb.runAndReadAll(
    `SELECT i FROM (VALUES ${rows}) AS t(i, json) WHERE ${where} ORDER BY i`,
  );
  return reader.getRowsJS().map((row) => Number(row[0]));
}

/** ClickHouse, embedded (chdb). Loaded by this file only: the engine is large. */
async function clickhouseKeeps(where: string, lines: string[]): Promise<number[]> {
  const { query } = await import("chdb");
  const rows = lines.map((line, i) => `(${i}, ${dialects.clickhouse.string(line)})`).join(", ");
  const answer = query(
    `SELECT i FROM values('i UInt32, json String', ${rows}) WHERE ${where} ORDER BY i`,
    "TabSeparated",
  );
  return answer === "" ? [] : answer.trimEnd().split("\n").map(Number);
}

const engines = [
  { name: "DuckDB", dialect: "duckdb", keeps: duckdbKeeps },
  { name: "ClickHouse", dialect: "clickhouse", keeps: clickhouseKeeps },
] as const;

describe("the SQL selects what eval keeps", () => {
  it.each(engines)(
    `in $name (${RUNS} filters over generated records)`,
    async ({ dialect, keeps }) => {
      await fc.assert(
        fc.asyncProperty(condArbitrary, linesArbitrary, async (condition, lines) => {
          const sql = toSql(condition, { dialect });
          expect(sql.diagnostics).toEqual([]);
          expect(await keeps(sql.sql!, lines)).toEqual(evalKeeps(condition, lines));
        }),
        { numRuns: RUNS },
      );
    },
    240_000,
  );
});
