import { DuckDBInstance } from "@duckdb/node-api";
import { dialects } from "../../src/sql/index.js";

/*
 * The SQL engines the tests run filters in: embedded DuckDB (@duckdb/node-api) and ClickHouse
 * (chdb). Each takes several WHERE expressions over one batch of lines in one query, and says for
 * each which lines it keeps: one query per batch keeps a property of many runs fast.
 */

type Connection = Awaited<ReturnType<DuckDBInstance["connect"]>>;
let duckdb: Promise<Connection> | undefined;

/** Closes the DuckDB connection, if one was opened (call it in `afterAll`). */
export async function closeEngines(): Promise<void> {
  const opened = duckdb;
  duckdb = undefined;
  if (opened) (await opened).closeSync();
}

async function duckdbKeeps(wheres: readonly string[], lines: readonly string[]): Promise<number[][]> {
  duckdb ??= DuckDBInstance.create(":memory:").then((instance) => instance.connect());
  const rows = lines.map((line, i) => `(${i}, ${dialects.duckdb.string(line)})`).join(", ");
  const columns = wheres.map((where, k) => `(${where}) AS k${k}`).join(", ");
  const reader = await (await duckdb).runAndReadAll(
    `SELECT i, ${columns} FROM (VALUES ${rows}) AS t(i, json) ORDER BY i`,
  );
  const kept = wheres.map((): number[] => []);
  for (const row of reader.getRowsJS())
    for (let k = 0; k < wheres.length; k++) if (row[k + 1] === true) kept[k]!.push(Number(row[0]));
  return kept;
}

/** ClickHouse, embedded. Loaded when first asked for: the engine is large. */
async function clickhouseKeeps(wheres: readonly string[], lines: readonly string[]): Promise<number[][]> {
  const { query } = await import("chdb");
  const rows = lines.map((line, i) => `(${i}, ${dialects.clickhouse.string(line)})`).join(", ");
  const columns = wheres.map((where) => `toUInt8(${where})`).join(", ");
  const answer = query(
    `SELECT i, ${columns} FROM values('i UInt32, json String', ${rows}) ORDER BY i`,
    "TabSeparated",
  );
  const kept = wheres.map((): number[] => []);
  for (const line of answer.trimEnd().split("\n")) {
    if (line === "") continue;
    const [i, ...verdicts] = line.split("\t");
    verdicts.forEach((verdict, k) => {
      if (verdict === "1") kept[k]!.push(Number(i));
    });
  }
  return kept;
}

export const engines = [
  { name: "DuckDB", dialect: "duckdb", keeps: duckdbKeeps },
  { name: "ClickHouse", dialect: "clickhouse", keeps: clickhouseKeeps },
] as const;
