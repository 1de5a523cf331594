import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { dialects } from "../../src/sql/index.js";

/*
 * The engines over typed tables: a table made by the CREATE TABLE `filterc schema` writes, loaded
 * with each engine's plain NDJSON reader (DuckDB's COPY, ClickHouse's INSERT … FORMAT
 * JSONEachRow), once per batch of lines, then one query that says which rows each WHERE keeps.
 */

type Connection = Awaited<ReturnType<DuckDBInstance["connect"]>>;

/** One engine's typed table, created once and loaded again for each batch. */
export interface TypedTable {
  /** Replaces the table's rows with `lines` (NDJSON records); for each WHERE, the `id` column of the rows it keeps, sorted. */
  keeps(wheres: readonly string[], lines: readonly string[], id: string): Promise<string[][]>;
  /** The rows of the table as JSON objects, after loading `lines` (from a gzip file: DuckDB), with integers as their digits. */
  rows(lines: readonly string[], gzip?: boolean): Promise<string[]>;
  close(): void;
}

function verdicts(rows: unknown[][], count: number): string[][] {
  const kept = Array.from({ length: count }, (): string[] => []);
  for (const row of rows)
    for (let k = 0; k < count; k++) if (row[k + 1] === true) kept[k]!.push(String(row[0]));
  return kept.map((ids) => ids.sort());
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
    async keeps(wheres, lines, id) {
      await load(lines);
      const columns = wheres.map((where, k) => `(${where}) AS k${k}`).join(", ");
      const reader = await connection.runAndReadAll(
        `SELECT ${dialects.duckdb.identifier(id)}, ${columns} FROM ${name}`,
      );
      return verdicts(reader.getRowsJS(), wheres.length);
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
    async keeps(wheres, lines, id) {
      load(lines);
      const columns = wheres.map((where) => `toUInt8(${where})`).join(", ");
      const answer = session.query(
        `SELECT ${dialects.clickhouse.identifier(id)}, ${columns} FROM ${name}`,
        "JSONCompactEachRow",
      );
      const rows = answer
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as unknown[]).map((cell, k) => (k === 0 ? cell : cell === 1)));
      return verdicts(rows, wheres.length);
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
