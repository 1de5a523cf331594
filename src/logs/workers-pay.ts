/**
 * Whether a run's workers pay, measured on their first parts: the share of a core each worker got
 * while it had work, its thread's time on a core over that time and the time it waited, runnable,
 * for one (a read or an inflate on the thread pool counts neither way). On cores the run has to
 * itself every worker gets about a whole one; where other work holds the cores, the workers share
 * what there is, and more of them read no faster than one: two workers on 2 vCPUs at a load average
 * of 7 got 0.29 of a core each, one alone 0.47 (bench/RESULTS.md, "eval's default number of workers").
 */
import type { ThreadTimes } from "./thread-cpu.js";

/**
 * The least a worker beyond the first must add, in cores, for the run to keep it: two workers must
 * get 1.25 cores between them, where one would get at most one.
 */
export const MIN_CORES_A_WORKER = 0.25;

/**
 * How many of the workers to keep, given each one's times over its first part (undefined where they
 * could not be read: then all of them, as with an explicit --jobs). All or one: the cores the workers
 * got together, Σ run / (run + wait), must be at least 1 + `minCoresAWorker` for each worker beyond
 * the first, or one worker reads the rest.
 */
export function workersThatPay(
  first: readonly (ThreadTimes | undefined)[],
  minCoresAWorker = MIN_CORES_A_WORKER,
): number {
  const workers = first.length;
  if (workers <= 1 || first.some((times) => times === undefined)) return workers;
  const cores = first.reduce((sum, times) => sum + coreShare(times!), 0);
  return cores >= 1 + minCoresAWorker * (workers - 1) ? workers : 1;
}

/** The share of a core a thread got while it was runnable; a whole one when it never was. */
function coreShare({ runMs, waitMs }: ThreadTimes): number {
  return runMs + waitMs > 0 ? runMs / (runMs + waitMs) : 1;
}
