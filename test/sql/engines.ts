import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "vitest";
import { dialects } from "../../src/sql/index.js";

/*
 * The SQL engines the tests run filters in: embedded DuckDB (@duckdb/node-api) and ClickHouse
 * (chdb). A property gathers its cases (WHERE expressions over a batch of lines, in a column named
 * `column`, default json, and the lines each must keep) while it runs, then has each engine judge
 * them all in a few queries, each a UNION ALL of one SELECT per case: an engine's call costs far
 * more than a case, so hundreds of calls per run would be most of the property's time.
 */

/** One case for the engines: what each WHERE must keep of the lines (their indexes, ascending). */
export interface EngineCase {
  /** Names the case in a failure: the filter and its lines. */
  name: string;
  wheres: readonly string[];
  lines: readonly string[];
  column?: string;
  expected: readonly (readonly number[])[];
}

type Connection = Awaited<ReturnType<DuckDBInstance["connect"]>>;
let duckdb: Promise<Connection> | undefined;

/** Closes the DuckDB connection, if one was opened (call it in `afterAll`). */
export async function closeEngines(): Promise<void> {
  const opened = duckdb;
  duckdb = undefined;
  if (opened) (await opened).closeSync();
}

/** For each case and each of its WHEREs, the lines kept, from rows `[case, line, verdict…]`. */
function keptOf(wheres: readonly (readonly string[])[], rows: Iterable<readonly unknown[]>): number[][][] {
  const kept = wheres.map((ofCase) => ofCase.map((): number[] => []));
  for (const [c, i, ...verdicts] of rows)
    verdicts.forEach((verdict, k) => {
      if (verdict === true) kept[Number(c)]![k]?.push(Number(i));
    });
  for (const ofCase of kept) for (const lines of ofCase) lines.sort((a, b) => a - b);
  return kept;
}

/** How an engine judges cases: each case's SELECT, then rows `[case, line, verdict…]` of their UNION ALL. */
interface Judge {
  /** Case `c`'s SELECT of its number, its line numbers and a verdict per WHERE. */
  select(c: number, wheres: readonly string[], lines: readonly string[], column: string): string;
  rows(sql: string): Promise<Iterable<readonly unknown[]>>;
  /** The most bytes of SQL one query holds. */
  bytes: number;
}

const duckdbJudge: Judge = {
  select(c, wheres, lines, column) {
    const { string, identifier } = dialects.duckdb;
    const rows = lines.map((line, i) => `(${i}, ${string(line)})`).join(", ");
    const columns = wheres.map((where, k) => `(${where}) AS k${k}`).join(", ");
    return `SELECT ${c} AS c, i, ${columns} FROM (VALUES ${rows}) AS t(i, ${identifier(column)})`;
  },
  async rows(sql) {
    duckdb ??= DuckDBInstance.create(":memory:").then((instance) => instance.connect());
    return (await (await duckdb).runAndReadAll(sql)).getRowsJS();
  },
  bytes: 4_000_000,
};

/** ClickHouse, embedded. Loaded when first asked for: the engine is large. */
const clickhouseJudge: Judge = {
  select(c, wheres, lines, column) {
    const { string, identifier } = dialects.clickhouse;
    const rows = lines.map((line, i) => `(${i}, ${string(line)})`).join(", ");
    const columns = wheres.map((where) => `toUInt8(${where})`).join(", ");
    return `SELECT ${c} AS c, i, ${columns} FROM values(${string(`i UInt32, ${identifier(column)} String`)}, ${rows})`;
  },
  async rows(sql) {
    const { query } = await import("chdb");
    return query(sql, "TabSeparated")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => line.split("\t").map((cell, k) => (k < 2 ? cell : cell === "1")));
  },
  // ClickHouse parses at most 256 KiB of a query (max_query_size).
  bytes: 200_000,
};

/**
 * For each case and each of its WHEREs, the lines kept, the cases in one query. A WHERE a case
 * holds twice (the SQL of a filter and of its JSON are often the same text) is run once.
 */
async function keeps(judge: Judge, cases: readonly EngineCase[]): Promise<number[][][]> {
  const distinct = cases.map(({ wheres }) => [...new Set(wheres)]);
  // Every SELECT of a UNION ALL has as many columns: a case of fewer WHEREs is padded with NULLs.
  const width = Math.max(...distinct.map((wheres) => wheres.length));
  const sql = cases
    .map(({ lines, column = "json" }, c) =>
      judge.select(
        c,
        Array.from({ length: width }, (_, k) => distinct[c]![k] ?? "NULL"),
        lines,
        column,
      ),
    )
    .join("\nUNION ALL\n");
  const kept = keptOf(distinct, await judge.rows(sql));
  return cases.map(({ wheres }, c) => wheres.map((where) => kept[c]![distinct[c]!.indexOf(where)]!));
}

/** The cases in runs whose SQL (`bytes` of each case) stays within `budget` (a case alone if it is over). */
export function* inQueries<Case>(
  cases: readonly Case[],
  bytes: (one: Case) => number,
  budget: number,
): Generator<Case[]> {
  let chunk: Case[] = [];
  let total = 0;
  for (const one of cases) {
    // With what joins it to the next: the UNION ALL, and the NULLs of a narrower case.
    const size = bytes(one) + 100;
    if (chunk.length > 0 && total + size > budget) {
      yield chunk;
      chunk = [];
      total = 0;
    }
    chunk.push(one);
    total += size;
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * Has the engine judge every case, as many per query as its query size allows, and expects each
 * case's WHEREs to keep exactly its expected lines. A query the engine refuses is run again case by
 * case, so that the failure names the case it came from.
 */
async function expectKept(judge: Judge, cases: readonly EngineCase[]): Promise<void> {
  const bytes = ({ wheres, lines, column = "json" }: EngineCase) =>
    Buffer.byteLength(judge.select(cases.length, [...new Set(wheres)], lines, column));
  for (const chunk of inQueries(cases, bytes, judge.bytes)) {
    const kept = await keeps(judge, chunk).catch(async (error: Error) => {
      for (const one of chunk)
        await keeps(judge, [one]).catch((alone: Error) => {
          throw new Error(`${one.name}: ${alone.message}`);
        });
      throw error;
    });
    chunk.forEach((one, c) => {
      expect(kept[c], one.name).toEqual(one.expected);
    });
  }
}

export const engines = [
  {
    name: "DuckDB",
    dialect: "duckdb",
    expectKept: (cases: readonly EngineCase[]) => expectKept(duckdbJudge, cases),
  },
  {
    name: "ClickHouse",
    dialect: "clickhouse",
    expectKept: (cases: readonly EngineCase[]) => expectKept(clickhouseJudge, cases),
  },
] as const;
