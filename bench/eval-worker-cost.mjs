// What each of eval's workers costs: the CPU time (user + system, all threads, from /proc) of
// `eval --count` with the mixed filter of bench/eval.mjs over 2,400 http_requests lines (1.9 MB),
// cut into ranges of 64 KiB, enough input for 8 workers, with `--jobs 1, 2, 4, 8`, medians of 9
// rounds in turns. Beyond `--jobs 1`, the CPU time is what the workers cost before they run at full
// speed: each starts a thread and its own JavaScript engine, loads eval's code and warms it up.
// `npm run build` first; `--cli FILE` another build of the CLI, to compare. Linux only (/proc).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureHttpRequests, MIXED_FILTER } from "./http-requests.mjs";
import { childrenCpuMs, median } from "./measure.mjs";

const { values } = parseArgs({ options: { cli: { type: "string" } } });
const LINES = 2400;
const RUNS = 9;
const JOBS = [1, 2, 4, 8];
const out = fileURLToPath(new URL("./out/", import.meta.url));
const file = `${out}http_requests-${LINES}.ndjson`;
const cli = values.cli ? resolve(values.cli) : fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
mkdirSync(out, { recursive: true });
ensureHttpRequests(file, LINES);

const taken = new Map(JOBS.map((jobs) => [jobs, { cpu: [], wall: [] }]));
for (let round = 0; round < RUNS; round++)
  for (const jobs of JOBS) {
    const args = [
      cli,
      "eval",
      "--expr",
      MIXED_FILTER,
      "--count",
      "--jobs",
      String(jobs),
      "--range-bytes",
      "65536",
      file,
    ];
    const cpuBefore = childrenCpuMs();
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    const wall = performance.now() - start;
    if (result.status !== 0) throw new Error(`eval --jobs ${jobs} exited ${result.status}: ${result.stderr}`);
    taken.get(jobs).cpu.push(childrenCpuMs() - cpuBefore);
    taken.get(jobs).wall.push(wall);
  }

const one = median(taken.get(1).cpu);
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`${availableParallelism()} cores; load average after the run ${load}. ${LINES.toLocaleString("en-US")} lines, \`--range-bytes 65536\`; medians of ${RUNS} rounds, in turns.

| --jobs | CPU | wall | CPU beyond --jobs 1, a worker |
|---|---|---|---|
${JOBS.map((jobs) => {
  const cpu = median(taken.get(jobs).cpu);
  const each = jobs === 1 ? "-" : `${((cpu - one) / jobs).toFixed(0)} ms`;
  return `| ${jobs} | ${cpu.toFixed(0)} ms | ${median(taken.get(jobs).wall).toFixed(0)} ms | ${each} |`;
}).join("\n")}`);
