// `filterc query --count` against the same condition typed by hand over DuckDB's inferred columns
// (read_ndjson), on bench/eval-parallel.mjs's 1,000,000 http_requests lines: the plain file and the
// 8 gzip files (run that bench once first to write them). Both with 2 threads, in turns, RUNS
// rounds, medians; counts printed beside. `node bench/query-count.mjs OLD/dist` times an older build
// too, in the same turns. Run `npm run build` first; prints a markdown table.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MIXED_FILTER } from "./http-requests.mjs";
import { median } from "./measure.mjs";

const RUNS = 3;
const out = fileURLToPath(new URL("./out/", import.meta.url));
const plain = [`${out}http_requests-1m.ndjson`];
const gzipped = Array.from({ length: 8 }, (_, i) => `${out}http_requests-1m-${i}.ndjson.gz`);
if (![...plain, ...gzipped].every(existsSync)) throw new Error("run node bench/eval-parallel.mjs first");
const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const oldCli = process.argv[2] && `${process.argv[2]}/cli.cjs`;
const duckdbScript = fileURLToPath(new URL("./duckdb-query.mjs", import.meta.url));
const filter = MIXED_FILTER;
const typed = (files) =>
  `SELECT * FROM read_ndjson([${files.map((file) => `'${file}'`).join(", ")}]) WHERE EdgeResponseStatus >= 500 AND ClientRequestHost IN ('api.example.com', 'shop.example.com') AND NOT (starts_with(ClientRequestPath, '/health') OR ClientRequestMethod IN ('HEAD', 'OPTIONS')) AND (BotScore < 30 OR ClientCountry NOT IN ('us', 'ca')) AND CacheCacheStatus != 'hit' AND NOT contains(ClientRequestUserAgent, 'bot') AND EdgeResponseBytes > 1000`;

function time(args) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`exited ${result.status}: ${result.stderr}`);
  return { ms: performance.now() - start, count: result.stdout.toString().trim() };
}

console.log(
  `| files | query --count ms | typed DuckDB ms | typed DuckDB's time over query's |${oldCli ? " the older build's query ms |" : ""} counts |`,
);
console.log(`|---|---|---|---|${oldCli ? "---|" : ""}---|`);
for (const [name, files] of [
  ["plain file", plain],
  ["8 gzip files", gzipped],
]) {
  const query = [];
  const hand = [];
  const old = [];
  const counts = new Set();
  for (let round = 0; round < RUNS; round++) {
    const q = time([cli, "query", "--count", "--threads", "2", "--expr", filter, ...files]);
    const h = time([duckdbScript, "count", "2", typed(files)]);
    if (oldCli) {
      const o = time([oldCli, "query", "--count", "--threads", "2", "--expr", filter, ...files]);
      old.push(o.ms);
      counts.add(`old ${o.count}`);
    }
    query.push(q.ms);
    hand.push(h.ms);
    counts.add(`${q.count}/${h.count}`);
  }
  console.log(
    `| ${name} | ${median(query).toFixed(0)} | ${median(hand).toFixed(0)} | ${(median(hand) / median(query)).toFixed(2)}× |${oldCli ? ` ${median(old).toFixed(0)} |` : ""} ${[...counts].join(", ")} |`,
  );
}
