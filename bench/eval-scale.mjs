// How `filterc eval` scales with the cores, against embedded DuckDB: `eval --count` with the mixed
// filter of bench/eval.mjs over 1,000,000 generated http_requests lines, as one plain NDJSON file and
// as the same lines in 16 gzip files, with `--jobs 1, 2, 4, …` up to the core count and with no
// `--jobs` (the default, measured: the row "default"), and DuckDB
// (typed columns, read_ndjson) with as many threads. Medians of 3 rounds, every command of a round
// taken in turns. `npm run build` first (only `dist/` is needed; DuckDB only when installed). Options:
// `--lines N` (a quicker run on fewer lines), `--cli FILE` (another build of the CLI, to compare),
// `--jobs 1,2,…` (other counts), `--eval-only` (no DuckDB). eval's CPU time (user + system, all its
// threads) comes from /proc where there is one: it shows what each worker costs.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureHttpRequests, MIXED_FILTER } from "./http-requests.mjs";
import { childrenCpuMs, median } from "./measure.mjs";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "1000000" },
    cli: { type: "string" },
    jobs: { type: "string" },
    "eval-only": { type: "boolean" },
  },
});
const LINES = Number(values.lines);
const GZIP_FILES = 16;
const RUNS = 3;
const cores = availableParallelism();
const counts1 = values.jobs
  ? values.jobs.split(",").map(Number)
  : [...new Set([...[1, 2, 4, 8, 16, 32, 64, 128].filter((n) => n < cores), cores])];
// "default": eval with no --jobs, beside the counts it chooses between (DuckDB runs with the cores).
const jobCounts = [...new Set([1, ...counts1]), "default"];
const out = fileURLToPath(new URL("./out/", import.meta.url));
const stem = LINES === 1_000_000 ? "http_requests-1m" : `http_requests-${LINES}`;
const plain = `${out}${stem}.ndjson`;
const gzipped = Array.from({ length: GZIP_FILES }, (_, i) => `${out}${stem}-of-${GZIP_FILES}-${i}.ndjson.gz`);
const cli = values.cli ? resolve(values.cli) : fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const duckdbScript = fileURLToPath(new URL("./duckdb-query.mjs", import.meta.url));
const filter = MIXED_FILTER;

mkdirSync(out, { recursive: true });
ensureHttpRequests(plain, LINES, gzipped);

/** Wall time of one process, its CPU time (see childrenCpuMs) and its stdout. */
function time(command, args) {
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const result = spawnSync(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  const cpuMs = cpuBefore === undefined ? undefined : childrenCpuMs() - cpuBefore;
  return { ms, cpuMs, stdout: result.stdout.toString().trim() };
}

let duckdb = !values["eval-only"];
try {
  createRequire(import.meta.url).resolve("@duckdb/node-api");
} catch {
  duckdb = false;
}
/** The condition by hand over DuckDB's inferred columns: the form the issue timed DuckDB with. */
const typed = (files) =>
  `SELECT * FROM read_ndjson([${files.map((file) => `'${file}'`).join(", ")}]) WHERE EdgeResponseStatus >= 500 AND ClientRequestHost IN ('api.example.com', 'shop.example.com') AND NOT (starts_with(ClientRequestPath, '/health') OR ClientRequestMethod IN ('HEAD', 'OPTIONS')) AND (BotScore < 30 OR ClientCountry NOT IN ('us', 'ca')) AND CacheCacheStatus != 'hit' AND NOT contains(ClientRequestUserAgent, 'bot') AND EdgeResponseBytes > 1000`;
const inputs = { plain: [plain], gzip: gzipped };
const commands = [];
for (const jobs of jobCounts)
  for (const [input, files] of Object.entries(inputs)) {
    commands.push({
      jobs,
      input,
      engine: "eval",
      args: [
        cli,
        "eval",
        "--expr",
        filter,
        "--count",
        ...(jobs === "default" ? [] : ["--jobs", String(jobs)]),
        ...files,
      ],
    });
    if (duckdb && jobs !== "default")
      commands.push({
        jobs,
        input,
        engine: "duckdb",
        args: [duckdbScript, "count", String(jobs === "default" ? cores : jobs), typed(files)],
      });
  }

const counts = new Set();
const rounds = new Map(commands.map((command) => [command, []]));
const cpuRounds = new Map(commands.map((command) => [command, []]));
for (let round = 0; round < RUNS; round++)
  for (const command of commands) {
    const { ms, cpuMs, stdout } = time(process.execPath, command.args);
    rounds.get(command).push(ms);
    if (cpuMs !== undefined) cpuRounds.get(command).push(cpuMs);
    counts.add(stdout);
  }
// Every command counts the same lines (DuckDB's typed form agrees with eval on these records).
if (counts.size !== 1) throw new Error(`the commands disagree: ${[...counts].join(", ")}`);

const find = (jobs, input, engine) =>
  commands.find((c) => c.jobs === jobs && c.input === input && c.engine === engine);
const ms = (jobs, input, engine) => {
  const command = find(jobs, input, engine);
  return command ? median(rounds.get(command)) : undefined;
};
const cpu = (jobs, input) => {
  const taken = cpuRounds.get(find(jobs, input, "eval"));
  return taken.length > 0 ? median(taken) : undefined;
};
const cell = (value) => (value === undefined ? "-" : `${value.toFixed(0)} ms`);
const speedup = (jobs, input) => `${(ms(1, input, "eval") / ms(jobs, input, "eval")).toFixed(2)}×`;
const plainBytes = statSync(plain).size;
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`${cores} cores; load average after the run ${load}. ${LINES.toLocaleString("en-US")} lines, ${(plainBytes / 1e6).toFixed(0)} MB plain, and in ${GZIP_FILES} gzip files; ${[...counts][0]} lines match. Medians of ${RUNS} rounds, in turns.

| --jobs (threads at most) | eval, plain file | vs 1 | CPU | eval, ${GZIP_FILES} gzip files | vs 1 | CPU | DuckDB typed, plain | DuckDB typed, gzip |
|---|---|---|---|---|---|---|---|---|
${jobCounts
  .map(
    (jobs) =>
      `| ${jobs} | ${cell(ms(jobs, "plain", "eval"))} | ${speedup(jobs, "plain")} | ${cell(cpu(jobs, "plain"))} | ${cell(ms(jobs, "gzip", "eval"))} | ${speedup(jobs, "gzip")} | ${cell(cpu(jobs, "gzip"))} | ${cell(ms(jobs, "plain", "duckdb"))} | ${cell(ms(jobs, "gzip", "duckdb"))} |`,
  )
  .join("\n")}`);
