// What typed columns buy: `filterc query`'s SELECT (each record's JSON text read with DuckDB's JSON
// functions) against the condition `filterc sql --columns typed` writes, over DuckDB's NDJSON reader
// with the column types `filterc schema` gives the fields the filter names, and against the same
// filter written by hand over the same read. One DuckDB (@duckdb/node-api, 2 threads), the variants
// in turns, RUNS rounds, medians; LINES generated http_requests lines (default 200,000). Run
// `npm run build` first; prints a markdown table.
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { compile, toSql } from "../dist/index.js";
import { MIXED_FILTER, writeHttpRequests } from "./http-requests.mjs";
import { median } from "./measure.mjs";

const LINES = Number(process.env.LINES ?? 200_000);
const RUNS = 3;
const out = fileURLToPath(new URL("./out/", import.meta.url));
const file = `${out}http_requests-${LINES}.ndjson`;
mkdirSync(out, { recursive: true });
if (!existsSync(file)) writeHttpRequests(file, LINES);

const filter = MIXED_FILTER;
const byHand =
  "EdgeResponseStatus >= 500 AND ClientRequestHost IN ('api.example.com', 'shop.example.com') AND NOT (starts_with(ClientRequestPath, '/health') OR ClientRequestMethod IN ('HEAD', 'OPTIONS')) AND (BotScore < 30 OR ClientCountry NOT IN ('us', 'ca')) AND CacheCacheStatus != 'hit' AND NOT contains(ClientRequestUserAgent, 'bot') AND EdgeResponseBytes > 1000";
const { condition } = compile(filter);
// The schema's types of the fields the filter names, read off `filterc schema`'s CREATE TABLE.
const { spawnSync } = await import("node:child_process");
const fields =
  "EdgeResponseStatus,ClientRequestHost,ClientRequestPath,ClientRequestMethod,BotScore,ClientCountry,CacheCacheStatus,ClientRequestUserAgent,EdgeResponseBytes";
const create = spawnSync(process.execPath, [
  fileURLToPath(new URL("../dist/cli.cjs", import.meta.url)),
  "schema",
  "--dialect",
  "duckdb",
  "--fields",
  fields,
]).stdout.toString();
const columns = [...create.matchAll(/^ {2}"(\w+)" (\S+?),?$/gm)].map(
  ([, name, type]) => `'${name}': '${type}'`,
);
const typedRead = `read_ndjson('${file}', columns = {${columns.join(", ")}})`;

const variants = {
  "query's SELECT (JSON text)": `SELECT count(*) FROM (${toSql(condition, { dialect: "duckdb", from: file }).sql})`,
  "sql --columns typed over the typed read": `SELECT count(*) FROM ${typedRead} WHERE ${toSql(condition, { dialect: "duckdb", columns: "typed" }).sql}`,
  "the filter by hand over the typed read": `SELECT count(*) FROM ${typedRead} WHERE ${byHand}`,
};
const connection = await (await DuckDBInstance.create(":memory:", { threads: "2" })).connect();
const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
const counts = {};
for (let round = 0; round < RUNS; round++)
  for (const [name, sql] of Object.entries(variants)) {
    const start = performance.now();
    counts[name] = (await connection.runAndReadAll(sql)).getRowsJS()[0][0];
    times[name].push(performance.now() - start);
  }
const hand = median(times["the filter by hand over the typed read"]);
console.log(
  `| variant (${LINES.toLocaleString("en")} lines) | median ms | count | the hand-typed query's time over this one |`,
);
console.log("|---|---|---|---|");
for (const name of Object.keys(variants))
  console.log(
    `| ${name} | ${median(times[name]).toFixed(0)} | ${counts[name]} | ${(hand / median(times[name])).toFixed(2)}× |`,
  );
