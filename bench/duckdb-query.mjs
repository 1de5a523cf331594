// Runs one SELECT with embedded DuckDB in its own process, for bench/eval-parallel.mjs:
// `node duckdb-query.mjs count|lines THREADS SQL` prints the count, or every selected line.
import { DuckDBInstance } from "@duckdb/node-api";

const [mode, threads, sql] = process.argv.slice(2);
const connection = await (await DuckDBInstance.create(":memory:", { threads })).connect();
if (mode === "count") {
  const reader = await connection.runAndReadAll(`SELECT count(*) FROM (${sql})`);
  process.stdout.write(`${reader.getRowsJS()[0][0]}\n`);
} else {
  const result = await connection.stream(sql);
  for await (const rows of result.yieldRows())
    process.stdout.write(rows.map((row) => `${row[0]}\n`).join(""));
}
