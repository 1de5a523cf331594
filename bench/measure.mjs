// Shared timing helpers for the benchmarks. Machines here are noisy: every figure is the median
// of several rounds, and every target is a ratio against a baseline measured in the same run.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/**
 * The CPU time, in ms, of this process's children that have ended (user + system: /proc/self/stat's
 * cutime and cstime, in ticks of 10 ms on Linux); undefined without /proc. Under load it moves less
 * than wall time: it shows what a command costs, whatever else runs.
 */
export function childrenCpuMs() {
  if (!existsSync("/proc/self/stat")) return undefined;
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Calls per second of `fn` over at least `ms` milliseconds, calling it in batches of `batch`. */
function callsPerSecond(fn, ms, batch) {
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < batch; i++) fn();
    calls += batch;
    now = performance.now();
  }
  return (calls * 1000) / (now - start);
}

/** Calls per second of `fn`: the median of `rounds` rounds of at least `roundMs` each, after a warm-up. */
export function opsPerSecond(fn, { rounds = 7, roundMs = 300, warmupMs = 300 } = {}) {
  callsPerSecond(fn, warmupMs, 100);
  const results = [];
  for (let i = 0; i < rounds; i++) results.push(callsPerSecond(fn, roundMs, 100));
  return median(results);
}

/**
 * Calls per second of several functions measured in turns: each round runs every function for
 * `roundMs`, so a burst of load on a shared machine hits all of them alike. Returns, per name,
 * the rate of every round; `medianRatio` compares two of them round by round.
 */
export function ratesInTurns(fns, { rounds = 15, roundMs = 100, warmupMs = 200 } = {}) {
  for (const fn of Object.values(fns)) callsPerSecond(fn, warmupMs, 20);
  const rates = Object.fromEntries(Object.keys(fns).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of Object.entries(fns)) rates[name].push(callsPerSecond(fn, roundMs, 20));
  }
  return rates;
}

/** The median over rounds of `rates[name] / rates[baseline]`, formatted like `ratio`. */
export function medianRatio(rates, name, baseline) {
  return `${median(rates[name].map((rate, round) => rate / rates[baseline][round])).toFixed(2)}×`;
}

/** Wall-clock milliseconds of a whole process, the median of `runs` runs. */
export function processMs(command, args, { runs = 21, input } = {}) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(command, args, { input, stdio: ["pipe", "ignore", "ignore"] });
    times.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}`);
  }
  return median(times);
}

export const ratio = (value, baseline) => `${(value / baseline).toFixed(2)}×`;

export function machine() {
  return `Node ${process.version}, ${process.platform}/${process.arch}`;
}
