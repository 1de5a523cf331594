import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "vitest";
import { dialects } from "../../src/sql/index.js";
import { inQueries } from "./engines.js";

/*
 * The engines over typed tables: a table made by the CREATE TABLE `filterc schema` writes, loaded
 * with each engine's plain NDJSON reader (DuckDB's COPY, ClickHouse's INSERT … FORMAT
 * JSONEachRow) with the lines of all of a property's cases at once, then a few queries, each a
 * UNION ALL of one SELECT per case over the case's own rows, that say which rows each WHERE keeps.
 */

type Connection = Awaited<ReturnType<DuckDBInstance["connect"]>>;

/** One case for a typed table: its records, their `id` column, and what each WHERE must keep (ids, sorted). */
export interface TypedCase {
  /** Names the case in a failure. */
  name: string;
  wheres: readonly string[];
  /** NDJSON records whose ids no other case's records have. */
  lines: readonly string[];
  ids: readonly string[];
  expected: readonly (readonly string[])[];
}

/** One engine's typed table, created once and loaded again for each batch. */
export interface TypedTable {
  /**
   * Replaces the table's rows with the lines of all cases, and expects each case's WHEREs to keep
   * exactly its expected rows of its own (named by the `id` column).
   */
  expectKept(cases: readonly TypedCase[], id: string): Promise<void>;
  /** The rows of the table as JSON objects, after loading `lines` (from a gzip file: DuckDB), with integers as their digits. */
  rows(lines: readonly string[], gzip?: boolean): Promise<string[]>;
  close(): void;
}

/** For each case and each of its WHEREs, the ids kept, sorted, from rows `[case, id, verdict…]`. */
function verdicts(cases: readonly TypedCase[], rows: readonly (readonly unknown[])[]): string[][][] {
  const kept = cases.map(({ wheres }) => wheres.map((): string[] => []));
  for (const [c, id, ...cells] of rows)
    cells.forEach((cell, k) => {
      if (cell === true) kept[Number(c)]![k]?.push(String(id));
    });
  return kept.map((ofCase) => ofCase.map((ids) => ids.sort()));
}

/**
 * The cases in queries of at most `budget` bytes, each a UNION ALL of one SELECT per case of the
 * case's number, id and a verdict per WHERE (`verdict` writes one, NULL pads a narrower case) over
 * its own rows; each query's rows as `run` reads them. A query the engine refuses is run again case
 * by case, so that the failure names the case it came from.
 */
async function expectKept(
  cases: readonly TypedCase[],
  budget: number,
  select: (c: number, columns: string[], ids: readonly string[]) => string,
  verdict: (where: string) => string,
  run: (sql: string) => Promise<unknown[][]>,
): Promise<void> {
  const keeps = async (chunk: readonly TypedCase[]) => {
    const width = Math.max(...chunk.map(({ wheres }) => wheres.length));
    const sql = chunk
      .map(({ wheres, ids }, c) =>
        select(
          c,
          Array.from({ length: width }, (_, k) => verdict(wheres[k] ?? "NULL")),
          ids,
        ),
      )
      .join("\nUNION ALL\n");
    return verdicts(chunk, await run(sql));
  };
  const bytes = ({ wheres, ids }: TypedCase) => Buffer.byteLength(select(0, wheres.map(verdict), ids));
  for (const chunk of inQueries(cases, bytes, budget)) {
    const kept = await keeps(chunk).catch(async (error: Error) => {
      for (const one of chunk)
        await keeps([one]).catch((alone: Error) => {
          throw new Error(`${one.name}: ${alone.message}`);
        });
      throw error;
    });
    chunk.forEach((one, c) => {
      expect(kept[c], one.name).toEqual(one.expected);
    });
  }
}

export async function duckdbTable(create: string, table: string): Promise<TypedTable> {
  const connection: Connection = await (await DuckDBInstance.create(":memory:")).connect();
  await connection.run(create);
  const folder = mkdtempSync(join(tmpdir(), "filterc-typed-"));
  const name = dialects.duckdb.identifier(table);
  const load = async (lines: readonly string[], gzip = false) => {
    const text = `${lines.join("\n")}\n`;
    const file = join(folder, gzip ? "lines.log.gz" : "lines.log");
    writeFileSync(file, gzip ? gzipSync(text) : text);
    await connection.run(`DELETE FROM ${name}`);
    await connection.run(`COPY ${name} FROM ${dialects.duckdb.string(file)} (FORMAT json)`);
  };
  return {
    async expectKept(cases, id) {
      await load(cases.flatMap(({ lines }) => lines));
      const { string, identifier } = dialects.duckdb;
      const column = identifier(id);
      await expectKept(
        cases,
        4_000_000,
        (c, columns, ids) =>
          `SELECT ${c} AS c, ${column}, ${columns.map((where, k) => `${where} AS k${k}`).join(", ")} FROM ${name} WHERE ${column} IN (${ids.map(string).join(", ")})`,
        (where) => `(${where})`,
        async (sql) => (await connection.runAndReadAll(sql)).getRowsJS(),
      );
    },
    async rows(lines, gzip) {
      await load(lines, gzip);
      const reader = await connection.runAndReadAll(`SELECT to_json(t)::VARCHAR FROM ${name} AS t`);
      return reader.getRowsJS().map((row) => String(row[0]));
    },
    close() {
      connection.closeSync();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

export async function clickhouseTable(create: string, table: string): Promise<TypedTable> {
  const { Session } = await import("chdb");
  const session = new Session();
  session.query(create);
  const name = dialects.clickhouse.identifier(table);
  const load = (lines: readonly string[]) => {
    session.query(`TRUNCATE TABLE ${name}`);
    session.query(`INSERT INTO ${name} FORMAT JSONEachRow\n${lines.join("\n")}\n`);
  };
  return {
    async expectKept(cases, id) {
      load(cases.flatMap(({ lines }) => lines));
      const { string, identifier } = dialects.clickhouse;
      const column = identifier(id);
      await expectKept(
        cases,
        // ClickHouse parses at most 256 KiB of a query (max_query_size).
        200_000,
        (c, columns, ids) =>
          `SELECT ${c} AS c, ${column}, ${columns.join(", ")} FROM ${name} WHERE ${column} IN (${ids.map(string).join(", ")})`,
        (where) => `toUInt8(${where})`,
        async (sql) =>
          session
            .query(sql, "JSONCompactEachRow")
            .split("\n")
            .filter((line) => line !== "")
            .map((line) => (JSON.parse(line) as unknown[]).map((cell, k) => (k < 2 ? cell : cell === 1))),
      );
    },
    async rows(lines) {
      load(lines);
      return session
        .query(`SELECT * FROM ${name} SETTINGS output_format_json_quote_64bit_integers = 0`, "JSONEachRow")
        .split("\n")
        .filter((line) => line !== "");
    },
    close() {
      session.cleanup();
    },
  };
}

export const typedEngines = [
  { name: "DuckDB", dialect: "duckdb", open: duckdbTable },
  { name: "ClickHouse", dialect: "clickhouse", open: clickhouseTable },
] as const;
