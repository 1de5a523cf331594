import { readFileSync } from "node:fs";

/** How long a thread has run on a core and waited, runnable, for one; in milliseconds. */
export interface ThreadTimes {
  runMs: number;
  waitMs: number;
}

/**
 * The calling thread's times so far, from Linux's per-thread scheduler statistics (nanoseconds);
 * undefined where there are none. Node 20 has no per-thread CPU clock of its own:
 * `process.cpuUsage()` counts every thread of the process.
 */
export function threadTimes(): ThreadTimes | undefined {
  try {
    const [run, wait] = readFileSync("/proc/thread-self/schedstat", "latin1").split(" ").map(Number);
    return Number.isFinite(run) && Number.isFinite(wait)
      ? { runMs: run! / 1e6, waitMs: wait! / 1e6 }
      : undefined;
  } catch {
    return undefined;
  }
}

/** What a thread ran and waited between two readings. */
export function timesSince(before: ThreadTimes | undefined): ThreadTimes | undefined {
  const now = threadTimes();
  return before && now ? { runMs: now.runMs - before.runMs, waitMs: now.waitMs - before.waitMs } : undefined;
}
