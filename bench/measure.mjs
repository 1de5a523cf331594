// Shared timing helpers for the benchmarks. Machines here are noisy: every figure is the median
// of several rounds, and every target is a ratio against a baseline measured in the same run.
import { spawnSync } from "node:child_process";

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Calls per second of `fn`: the median of `rounds` rounds of at least `roundMs` each, after a warm-up. */
export function opsPerSecond(fn, { rounds = 7, roundMs = 300, warmupMs = 300 } = {}) {
  const runFor = (ms) => {
    let calls = 0;
    const start = performance.now();
    let now = start;
    while (now - start < ms) {
      for (let i = 0; i < 100; i++) fn();
      calls += 100;
      now = performance.now();
    }
    return (calls * 1000) / (now - start);
  };
  runFor(warmupMs);
  const results = [];
  for (let i = 0; i < rounds; i++) results.push(runFor(roundMs));
  return median(results);
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
