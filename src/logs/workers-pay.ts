/**
 * Whether a run's workers pay, measured as its parts are done (see coresSince): on cores the run
 * has to itself each worker has a core, and more workers read faster; where other work holds the
 * cores, the workers share what is left, and more of them read no faster than one, each paying its
 * start and warm-up for nothing (bench/RESULTS.md, "eval's default number of workers").
 */

/**
 * The least a worker beyond the first must be able to add, in cores, for the run to keep it: two
 * workers must have had 1.25 cores between them, where one would use at most one.
 */
export const MIN_CORES_A_WORKER = 0.25;

/**
 * How many of `workers` to keep, given the cores the run had over a stretch of it (undefined where
 * that could not be measured: all of them, as with an explicit --jobs). All or one: at least 1 +
 * `minCoresAWorker` for each worker beyond the first keeps them all, less leaves one worker to read
 * the rest.
 */
export function workersThatPay(
  workers: number,
  cores: number | undefined,
  minCoresAWorker = MIN_CORES_A_WORKER,
): number {
  if (workers <= 1 || cores === undefined) return workers;
  return cores >= 1 + minCoresAWorker * (workers - 1) ? workers : 1;
}
