/**
 * Reading logs (Node only): files and standard input as byte chunks, the byte ranges a large file
 * is cut into, gzip members inflated as they come, a leading byte order mark dropped, lines capped
 * in length, and eval's lines tested on worker threads (the protocol between them, the progress
 * bar). Eval and the sandbox's ingest read through it.
 */
export { InputDamage } from "./gzip.js";
export {
  decompressed,
  fileChunksOf,
  fileInput,
  type LogInput,
  logContent,
  startsGzip,
  streamInput,
  withoutBom,
} from "./input.js";
export {
  DEFAULT_MAX_LINE_BYTES,
  type EvalCounts,
  type EvalWarning,
  emptyCounts,
  evalLines,
  MAX_LINE_BYTES,
  warningText,
} from "./lines.js";
export { EvalWorkers, sizeThreadPool, workerBundle } from "./parallel.js";
export {
  DEFAULT_RANGE_BYTES,
  GZIP_WORK_PER_BYTE,
  MIN_RANGE_BYTES,
  type Plan,
  planParts,
  RANGES_PER_WORKER,
} from "./parts.js";
export { Progress } from "./progress.js";
export { type TextLine, textLines } from "./text-lines.js";
export { addTally, emptyTally, UnreadableTimes, unreadableTimesReport } from "./unreadable-times.js";
export { MIN_CORES_A_WORKER, workersThatPay } from "./workers-pay.js";
