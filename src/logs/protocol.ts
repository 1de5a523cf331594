import type { Meaning } from "../check/index.js";
import type { TimestampReading } from "../eval/index.js";
import type { EvalCounts, EvalWarning } from "./lines.js";
import type { Part } from "./parts.js";
import type { UnreadableTimeTally } from "./unreadable-times.js";

/** What every worker is handed before its first part. */
export interface WorkerSetup {
  /** The filter's meaning (null: every record). */
  meaning: Meaning | null;
  /** The line scanner's module, compiled by the main thread (see lineScannerModule). */
  scannerModule: WebAssembly.Module;
  timestamps: TimestampReading | undefined;
  prefilter: boolean;
  invert: boolean;
  strict: boolean;
  maxLineBytes: number;
  /** Whether the bytes read are sent back, as they are read (for the progress bar: a message a chunk). */
  reportReads: boolean;
  /** Whether selected lines are sent back (false with --count). */
  write: boolean;
  /** Selected bytes a worker may have sent and not yet seen written before it waits. */
  outputWindowBytes: number;
}

export type ToWorker =
  | { type: "setup"; setup: WorkerSetup }
  | { type: "run"; index: number; part: Part }
  | { type: "ack"; bytes: number };

export type FromWorker =
  | { type: "out"; index: number; bytes: Uint8Array }
  | { type: "read"; bytes: number }
  | { type: "warn"; index: number; warning: EvalWarning }
  | {
      type: "done";
      index: number;
      counts: EvalCounts;
      times: UnreadableTimeTally;
      lineCount: number;
      completed: boolean;
    };
