import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import type { Dialect, Location } from "../../src/sql/dialect.js";
import { clickhouse } from "../../src/sql/engines/clickhouse.js";
import { duckdb } from "../../src/sql/engines/duckdb.js";
import { type DialectName, dialects } from "../../src/sql/index.js";
import { engines } from "./engines.js";

/*
 * One interface per SQL engine. `npx tsc --noEmit` runs the type-level half of this file: every
 * member of Dialect is required, so an engine module that lacks one (its DDL, a column kind's
 * type, an operator's function) does not type-check; the `@ts-expect-error` lines fail the type
 * check if it ever would. The rest runs each engine's reads in the engine itself.
 */

/** The members a dialect may leave out: none. */
type Optional = {
  [Member in keyof Dialect]-?: Omit<Dialect, Member> extends Dialect ? Member : never;
}[keyof Dialect];
const noOptionalMember: [Optional] extends [never] ? true : false = true;

const { createTable: _createTable, ...withoutDdl } = duckdb;
// @ts-expect-error an engine without its table DDL is no Dialect
const lacksDdl: Dialect = withoutDdl;

const { endsWith: _endsWith, ...someOperators } = clickhouse.textOperators;
// @ts-expect-error an engine without the function of one text operator is no Dialect
const lacksOperator: Dialect = { ...clickhouse, textOperators: someOperators };

const { ints: _ints, ...someTypes } = duckdb.columnTypes;
// @ts-expect-error an engine without the type of one column kind is no Dialect
const lacksColumnType: Dialect = { ...duckdb, columnTypes: someTypes };

const dir = mkdtempSync(join(tmpdir(), "filterc-dialects-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rows as JSON text, integers as their digits, in each engine. */
const run: Record<DialectName, (sql: string) => Promise<string[]>> = {
  async duckdb(sql) {
    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    try {
      const rows = (await connection.runAndReadAll(sql)).getRowObjectsJS();
      return rows.map((row) =>
        JSON.stringify(row, (_, value) => (typeof value === "bigint" ? `${value}` : value)),
      );
    } finally {
      connection.closeSync();
    }
  },
  async clickhouse(sql) {
    const { query } = await import("chdb");
    const answer = query(`${sql} SETTINGS output_format_json_quote_64bit_integers = 1`, "JSONEachRow");
    return answer.trimEnd().split("\n");
  },
};

describe("the SQL engines", () => {
  it("are one module each, registered under their names, each with its conformance run", () => {
    expect([noOptionalMember, lacksDdl, lacksOperator, lacksColumnType].length).toBe(4);
    expect(Object.entries(dialects).map(([key, dialect]) => [key, dialect.name])).toEqual([
      ["duckdb", "duckdb"],
      ["clickhouse", "clickhouse"],
    ]);
    expect(engines.map((engine) => [engine.dialect, engine.name])).toEqual(
      Object.values(dialects).map((dialect) => [dialect.name, dialect.title]),
    );
  });

  const lines = [
    '{"s":"a\\u00e9","n":18446744073709551615,"b":true,"other":1}',
    '{"s":null,"b":false}',
    '{"n":-9223372036854775808}',
  ];
  const expected = [
    '{"s":"aé","n":"18446744073709551615","b":true}',
    '{"s":null,"n":null,"b":false}',
    '{"s":null,"n":"-9223372036854775808","b":null}',
  ];
  const files: [string, Location][] = [
    ["a named path", { kind: "file", path: join(dir, "plain.ndjson") }],
    ["files named exactly, gzip", { kind: "local", paths: [join(dir, "packed.log")], gzip: true }],
  ];
  writeFileSync(join(dir, "plain.ndjson"), `${lines.join("\n")}\n`);
  writeFileSync(join(dir, "packed.log"), gzipSync(`${lines.join("\n")}\n`));

  for (const dialect of Object.values(dialects))
    for (const [what, location] of files)
      it(`${dialect.title} reads typed columns of NDJSON (${what}), NULL for a missing or null value`, async () => {
        const read = dialect.fieldsRead(
          [location],
          [
            ["s", dialect.columnTypes.string],
            ["n", dialect.columnTypes.int],
            ["b", dialect.columnTypes.bool],
          ],
        );
        if ("problem" in read) throw new Error(read.problem);
        expect(await run[dialect.name](`SELECT s, n, b FROM ${read.table}`)).toEqual(expected);
      });
});
