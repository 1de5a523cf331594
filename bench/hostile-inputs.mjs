// Peak memory of `filterc test` on a log of 20 million lines and of `filterc eval` on a high-ratio
// gzip file (2 GiB of zeros, 2 MB gzipped), and eval's time on ordinary gzip files, against an
// older build when one is given (`node bench/hostile-inputs.mjs OLD/dist`; without it, this build
// alone). Peak RSS is the child's own high-water mark (VmHWM); times are CPU (user + system) and
// wall, medians of RUNS runs taken in turns. Run `npm run build` first; prints a
// markdown section.
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { finished } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createGzip, gzipSync } from "node:zlib";
import { writeHttpRequests } from "./http-requests.mjs";
import { machine, median } from "./measure.mjs";

const RUNS = 9;
const LOG_LINES = 20_000_000;
/** The older build is given a log a tenth as long: all of it is held, and 20 million lines ran it out of a 4 GB heap. */
const OLD_LOG_LINES = 2_000_000;
const ZERO_BYTES = 2 * 1024 ** 3;
const out = fileURLToPath(new URL("./out/", import.meta.url));
const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const oldCli = process.argv[2] ? `${process.argv[2].replace(/\/$/, "")}/cli.cjs` : undefined;
const rssFile = `${out}hostile-max-rss.txt`;
const usageFile = `${out}hostile-cpu.txt`;
/**
 * Preloaded into each child: writes its peak RSS (kB) and CPU time (µs) when it exits. The peak is
 * its own (VmHWM): getrusage's maxRSS also counts this process's, copied at the fork before exec.
 */
const recordUsage = `data:text/javascript,import { readFileSync, writeFileSync } from "node:fs"; process.on("exit", () => { const u = process.resourceUsage(); writeFileSync(${JSON.stringify(rssFile)}, /VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]); writeFileSync(${JSON.stringify(usageFile)}, String(u.userCPUTime + u.systemCPUTime)); });`;

mkdirSync(out, { recursive: true });

/** `lines` lines of `{}` and a test file that expects none of them to match. */
function emptyLinesLog(lines) {
  const log = `${out}empty-${lines}.ndjson`;
  if (!existsSync(log)) writeFileSync(log, "{}\n".repeat(lines));
  const test = `${out}empty-${lines}.test.json`;
  writeFileSync(
    test,
    JSON.stringify({ filter: "EdgeResponseStatus geq 500", log: { file: log, matches: [] } }),
  );
  return { log, test };
}

const zeros = `${out}zeros-2g.gz`;
if (!existsSync(zeros)) {
  const gzip = createGzip();
  const written = finished(gzip.pipe(createWriteStream(zeros)));
  const chunk = Buffer.alloc(1 << 20);
  for (let left = ZERO_BYTES; left > 0; left -= chunk.length)
    if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once("drain", resolve));
  gzip.end();
  await written;
}
const plain = `${out}http_requests-200k.ndjson`;
const gzipped = `${out}http_requests-200k.ndjson.gz`;
if (!existsSync(gzipped)) {
  writeHttpRequests(plain, 200_000);
  writeFileSync(gzipped, gzipSync(readFileSync(plain)));
}

/** One run: wall ms, CPU ms, peak RSS in MB, and what it wrote. */
function run(entry, args) {
  const start = performance.now();
  const result = spawnSync(process.execPath, ["--import", recordUsage, entry, ...args], { encoding: "utf8" });
  const wall = performance.now() - start;
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  return {
    wall,
    cpu: Number(readFileSync(usageFile, "utf8")) / 1000,
    rss: Number(readFileSync(rssFile, "utf8")) / 1024,
    output: `${result.stdout}${result.stderr}`.trim().split("\n").at(-1),
  };
}

const builds = [["this build", cli], ...(oldCli ? [["older build", oldCli]] : [])];
const rows = [];
const big = emptyLinesLog(LOG_LINES);
const small = emptyLinesLog(OLD_LOG_LINES);
for (const [name, entry] of builds) {
  const log = entry === cli ? big : small;
  const lines = entry === cli ? LOG_LINES : OLD_LOG_LINES;
  const test = run(entry, ["test", log.test]);
  rows.push([
    name,
    `\`filterc test\`, a log of ${lines.toLocaleString("en-US")} lines (${(statSync(log.log).size / 1e6).toFixed(0)} MB)`,
    test,
  ]);
}
for (const [name, entry] of builds) {
  const args = [
    "eval",
    "--expr",
    "EdgeResponseStatus geq 500",
    "--count",
    "--jobs",
    "1",
    "--max-line-bytes",
    "1000",
    zeros,
  ];
  rows.push([
    name,
    `\`filterc eval\`, 2 GiB of zeros gzipped (${(statSync(zeros).size / 1e6).toFixed(1)} MB)`,
    run(entry, args),
  ]);
}
const evalArgs = [
  "eval",
  "--expr",
  'EdgeResponseStatus geq 500 and ClientCountry in ["us", "ca"]',
  "--count",
  "--jobs",
  "1",
  gzipped,
];
const turns = Object.fromEntries(builds.map(([name]) => [name, []]));
for (let round = 0; round < RUNS; round++)
  for (const [name, entry] of builds) turns[name].push(run(entry, evalArgs));
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

console.log(`## Hostile inputs: peak memory of filter tests and of eval on gzip

Command: \`npm run build && node bench/hostile-inputs.mjs${oldCli ? " OLD/dist" : ""}\` (generates its inputs into \`bench/out/\`).
${machine()}, load average after the run ${load}. Peak RSS is the process's own maximum resident set.

| build | command | peak RSS | CPU | wall | last line of output |
|---|---|---|---|---|---|
${rows.map(([name, what, r]) => `| ${name} | ${what} | ${r.rss.toFixed(0)} MB | ${(r.cpu / 1000).toFixed(1)} s | ${(r.wall / 1000).toFixed(1)} s | \`${r.output}\` |`).join("\n")}

eval on ${(statSync(gzipped).size / 1e6).toFixed(1)} MB of gzipped http_requests lines (200,000 lines), \`--jobs 1 --count\`, medians of ${RUNS} runs in turns:

| build | CPU | wall | peak RSS |
|---|---|---|---|
${builds.map(([name]) => `| ${name} | ${median(turns[name].map((r) => r.cpu)).toFixed(0)} ms | ${median(turns[name].map((r) => r.wall)).toFixed(0)} ms | ${median(turns[name].map((r) => r.rss)).toFixed(0)} MB |`).join("\n")}`);
