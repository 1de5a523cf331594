// `filterc query --count` against the same condition typed by hand over DuckDB's inferred columns
// (read_ndjson), on bench/eval-parallel.mjs's 1,000,000 http_requests lines: the plain file and the
// 8 gzip files (run that bench once first to write them). Both with 2 threads (THREADS=N to change:
// with fewer threads than cores, query's own check of the lines runs on a core of its own), in turns, RUNS
// rounds, medians of wall and of CPU time (user + system, every thread: under load it moves less
// than wall time); counts printed beside. `node bench/query-count.mjs OLD/dist` times an older
// build too, in the same turns. Run `npm run build` first; prints a markdown table.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MIXED_FILTER } from "./http-requests.mjs";
import { childrenCpuMs, median } from "./measure.mjs";

const RUNS = 3;
const THREADS = process.env.THREADS ?? "2";
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
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`exited ${result.status}: ${result.stderr}`);
  const ms = performance.now() - start;
  return { ms, cpu: childrenCpuMs() - cpuBefore, count: result.stdout.toString().trim() };
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`DuckDB threads: ${THREADS}; load average before: ${loadAverage()}`);
console.log(
  `| files | query --count ms (CPU) | typed DuckDB ms (CPU) | typed DuckDB's time over query's (CPU) |${oldCli ? " the older build's query ms (CPU) |" : ""} counts |`,
);
console.log(`|---|---|---|---|${oldCli ? "---|" : ""}---|`);
const cell = (runs) =>
  `${median(runs.map((run) => run.ms)).toFixed(0)} (${median(runs.map((run) => run.cpu)).toFixed(0)})`;
const ratio = (over, under, key) =>
  (median(over.map((run) => run[key])) / median(under.map((run) => run[key]))).toFixed(2);
for (const [name, files] of [
  ["plain file", plain],
  ["8 gzip files", gzipped],
]) {
  const query = [];
  const hand = [];
  const old = [];
  const counts = new Set();
  for (let round = 0; round < RUNS; round++) {
    const q = time([cli, "query", "--count", "--threads", THREADS, "--expr", filter, ...files]);
    const h = time([duckdbScript, "count", THREADS, typed(files)]);
    if (oldCli) {
      const o = time([oldCli, "query", "--count", "--threads", THREADS, "--expr", filter, ...files]);
      old.push(o);
      counts.add(`old ${o.count}`);
    }
    query.push(q);
    hand.push(h);
    counts.add(`${q.count}/${h.count}`);
  }
  console.log(
    `| ${name} | ${cell(query)} | ${cell(hand)} | ${ratio(hand, query, "ms")}× (${ratio(hand, query, "cpu")}×) |${oldCli ? ` ${cell(old)} |` : ""} ${[...counts].join(", ")} |`,
  );
}
console.log(`load average after: ${loadAverage()}`);
