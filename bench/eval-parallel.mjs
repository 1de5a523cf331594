// `filterc eval --jobs 2` on 1,000,000 generated http_requests lines, as one plain NDJSON file and
// as the same lines in 8 gzip files, against embedded DuckDB (@duckdb/node-api, 2 threads,
// read_ndjson_objects with the same condition, written by toSql) in the same run, and against the
// single-core gunzip floor (Node's zlib alone, the 8 files one after the other). Count and
// lines-out variants; every figure is the median of RUNS rounds taken in turns. Run `npm run build`
// first; prints a markdown section.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { compile, toSql } from "../dist/index.js";
import { ensureHttpRequests, MIXED_FILTER } from "./http-requests.mjs";
import { median } from "./measure.mjs";

const LINES = 1_000_000;
const GZIP_FILES = 8;
const RUNS = 5;
const out = fileURLToPath(new URL("./out/", import.meta.url));
const plain = `${out}http_requests-1m.ndjson`;
const gzipped = Array.from({ length: GZIP_FILES }, (_, i) => `${out}http_requests-1m-${i}.ndjson.gz`);
const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const duckdbScript = fileURLToPath(new URL("./duckdb-query.mjs", import.meta.url));
const gunzipScript = fileURLToPath(new URL("./gunzip-floor.mjs", import.meta.url));
const filter = MIXED_FILTER;

mkdirSync(out, { recursive: true });
ensureHttpRequests(plain, LINES, gzipped);

/** Wall time of one process, its stdout (to /dev/null when `discard`). */
function time(command, args, discard) {
  const start = performance.now();
  const result = spawnSync(command, args, {
    stdio: ["ignore", discard ? "ignore" : "pipe", "pipe"],
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: discard ? "" : result.stdout.toString().trim() };
}

const { condition } = compile(filter);
const sql = (from) => toSql(condition, { dialect: "duckdb", from }).sql;
const variants = [
  { name: "plain file, count", files: [plain], count: true },
  { name: "plain file, lines out", files: [plain], count: false },
  { name: `${GZIP_FILES} gzip files, count`, files: gzipped, count: true },
  { name: `${GZIP_FILES} gzip files, lines out`, files: gzipped, count: false },
];
/**
 * The same condition by hand over DuckDB's inferred columns (read_ndjson): the form the issue timed
 * DuckDB with. It is not eval's semantics (a numeric string or a field of mixed types reads
 * otherwise), so it is a reference for speed only.
 */
const typed = (files) =>
  `SELECT * FROM read_ndjson([${files.map((file) => `'${file}'`).join(", ")}]) WHERE EdgeResponseStatus >= 500 AND ClientRequestHost IN ('api.example.com', 'shop.example.com') AND NOT (starts_with(ClientRequestPath, '/health') OR ClientRequestMethod IN ('HEAD', 'OPTIONS')) AND (BotScore < 30 OR ClientCountry NOT IN ('us', 'ca')) AND CacheCacheStatus != 'hit' AND NOT contains(ClientRequestUserAgent, 'bot') AND EdgeResponseBytes > 1000`;
const commands = (variant) => ({
  eval2: [
    process.execPath,
    [cli, "eval", "--expr", filter, "--jobs", "2", ...(variant.count ? ["--count"] : []), ...variant.files],
  ],
  eval1: [
    process.execPath,
    [cli, "eval", "--expr", filter, "--jobs", "1", ...(variant.count ? ["--count"] : []), ...variant.files],
  ],
  duckdb: [process.execPath, [duckdbScript, variant.count ? "count" : "lines", "2", sql(variant.files)]],
  ...(variant.count ? { typed: [process.execPath, [duckdbScript, "count", "2", typed(variant.files)]] } : {}),
});

// The same records, checked once: eval and DuckDB count alike.
for (const variant of variants.filter((v) => v.count)) {
  const { eval2, duckdb } = commands(variant);
  const counts = [time(...eval2, false).stdout, time(...duckdb, false).stdout];
  if (counts[0] !== counts[1])
    throw new Error(`${variant.name}: eval counts ${counts[0]}, DuckDB ${counts[1]}`);
  variant.matched = Number(counts[0]);
}

const rows = [];
for (const variant of variants) {
  const rounds = { eval2: [], eval1: [], duckdb: [], typed: [] };
  for (let round = 0; round < RUNS; round++)
    for (const [name, command] of Object.entries(commands(variant)))
      rounds[name].push(time(...command, true).ms);
  rows.push({
    variant,
    ms: Object.fromEntries(Object.entries(rounds).map(([name, times]) => [name, median(times)])),
    rounds,
  });
}
const floorRounds = Array.from(
  { length: RUNS },
  () => time(process.execPath, [gunzipScript, ...gzipped], true).ms,
);
const floor = median(floorRounds);

const plainBytes = statSync(plain).size;
const gzipBytes = gzipped.reduce((sum, file) => sum + statSync(file).size, 0);
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
console.log(`## eval on every core, against DuckDB

Command: \`npm run build && node bench/eval-parallel.mjs\` (generates ${LINES.toLocaleString("en-US")} http_requests lines,
${(plainBytes / 1e6).toFixed(0)} MB, into \`bench/out/\` on first run, and the same lines as ${GZIP_FILES} gzip files,
${(gzipBytes / 1e6).toFixed(0)} MB). ${availableParallelism()} cores; load average after the run ${load}. Medians of ${RUNS} rounds, the
commands of a variant taken in turns; output to /dev/null. DuckDB: \`@duckdb/node-api\` in a Node process, 2 threads,
\`read_ndjson_objects\` with the condition \`filterc sql --dialect duckdb\` writes (the bench checks that it counts the
same lines as eval). The filter: the "~10 mixed" one of bench/eval.mjs (${variants[0].matched.toLocaleString("en-US")} lines match).

| variant | eval --jobs 2 | eval --jobs 1 | DuckDB, filterc's SQL | DuckDB, typed columns | eval 2 vs DuckDB (filterc's SQL) | eval 2 vs DuckDB (typed) | eval 2 vs eval 1 |
|---|---|---|---|---|---|---|---|
${rows
  .map(
    ({ variant, ms }) =>
      `| ${variant.name} | ${ms.eval2.toFixed(0)} ms | ${ms.eval1.toFixed(0)} ms | ${ms.duckdb.toFixed(0)} ms | ${ms.typed ? `${ms.typed.toFixed(0)} ms` : "-"} | ${ratio(ms.duckdb, ms.eval2)} | ${ms.typed ? ratio(ms.typed, ms.eval2) : "-"} | ${ratio(ms.eval1, ms.eval2)} |`,
  )
  .join("\n")}

"eval 2 vs DuckDB" is DuckDB's time over eval's: above 1× eval is faster. "filterc's SQL" is what
\`filterc sql\` and \`filterc query\` run: eval's semantics, records read as JSON text. "Typed columns" is the
same condition by hand over DuckDB's inferred columns (\`read_ndjson\`), the form the issue timed; it is not
eval's semantics (numeric strings, fields of mixed types), so it is a reference for speed only; DuckDB's
lines out are rows converted to JavaScript and written by Node. The single-core gunzip floor (Node's zlib
reading the ${GZIP_FILES} files one after the other with 1 MiB output chunks, as eval's inflater has, nothing else): ${floor.toFixed(0)} ms; each of eval's 2 workers on the gzip
files, counting, ran at ${ratio(floor, 2 * rows[2].ms.eval2)} of that floor (floor time over twice eval's time).`);
