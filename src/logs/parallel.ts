import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";
import { moduleFile } from "../files/index.js";
import { coresSince, readCores } from "./cores.js";
import { type EvalCounts, type EvalWarning, MALFORMED_SHOWN } from "./lines.js";
import type { Part } from "./parts.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./protocol.js";
import { addTally, type UnreadableTimeTally } from "./unreadable-times.js";

/** The worker's bundle, built beside the CLI's; absent when the CLI runs from source (tests), which then reads on one thread. */
export function workerBundle(): string | undefined {
  const file = join(dirname(moduleFile(import.meta.url)), "eval-worker.cjs");
  return existsSync(file) ? file : undefined;
}

/** Libuv's own default size of its thread pool. */
const DEFAULT_POOL_THREADS = 4;
/** Pool work a reader has in flight at most: a read ahead and a piece being inflated (see fileChunks, gunzipMembers). */
const POOL_THREADS_PER_READER = 2;
/** Libuv's greatest pool. */
const MAX_POOL_THREADS = 1024;

/**
 * Sizes libuv's thread pool for `jobs` readers, unless UV_THREADPOOL_SIZE is set already: every
 * worker's file reads and inflating run there, shared with the main thread, and with its 4 threads
 * by default workers past 2 waited for one (bench/RESULTS.md, "eval on more cores"). Libuv reads the
 * setting when the pool first starts, so this is called before any file is opened.
 */
export function sizeThreadPool(jobs: number): void {
  process.env["UV_THREADPOOL_SIZE"] ??= String(
    Math.min(Math.max(DEFAULT_POOL_THREADS, jobs * POOL_THREADS_PER_READER), MAX_POOL_THREADS),
  );
}

/**
 * The least time the cores are measured over: the idle time comes in ticks of 10 ms a core, so a
 * shorter look errs by more than a tenth.
 */
const MEASURED_MS = 100;

interface PartState {
  chunks: Uint8Array[];
  warnings: EvalWarning[];
  done?: Extract<FromWorker, { type: "done" }>;
  worker: Worker;
}

interface ParallelRun {
  setup: WorkerSetup;
  counts: EvalCounts;
  /** The run's values of timestamp fields that are no time. */
  times: UnreadableTimeTally;
  write: ((bytes: Buffer) => Promise<void>) | undefined;
  /** A warning, its line numbers already those of the whole input. */
  warn: (warning: EvalWarning, lineOffset: number) => void;
  onRead: (bytes: number) => void;
  /**
   * How many workers to keep, asked when a part is done, given the cores the run had since it was
   * last asked (see coresSince); those past that number take no more parts. Absent: all of them.
   */
  keep?: (workers: number, cores: number | undefined) => number;
}

/**
 * Eval's worker threads, started before their work is known: each one's start (Node's own, then
 * the bundle's load) runs while the main thread compiles the filter, and is off the run's critical
 * path (bench/RESULTS.md, "eval's fixed cost per worker"). `stop` ends them, whether they ran or not.
 */
export class EvalWorkers {
  private readonly workers: Worker[];
  private failure: Error | undefined;
  private onFailure: () => void = () => {};

  constructor(workerFile: string, count: number) {
    this.workers = Array.from({ length: count }, () => new Worker(workerFile));
    for (const worker of this.workers)
      worker.on("error", (error) => {
        this.failure ??= error;
        this.onFailure();
      });
  }

  /**
   * Reads the parts on the workers and hands on what they select in the order of the parts, so the
   * output is the one a single thread writes: a part's lines are written once the parts before it
   * are, and until then a worker keeps at most its output window in flight. Line numbers of a
   * range are moved on by the lines of the ranges before it in the same file.
   * Returns false when --strict stopped the run (nothing after the stopping part is written).
   */
  async run(parts: readonly Part[], run: ParallelRun): Promise<boolean> {
    const states: (PartState | undefined)[] = parts.map(() => undefined);
    const lineOffsets = new Map<string, number>();
    let next = 0;
    let current = 0;
    let stopped = false;
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    this.onFailure = finish;

    // All the workers take parts; when a part is done, at least MEASURED_MS after the last look,
    // `keep` says from the cores the run had since then whether they still do, or only the first
    // from then on.
    let taking = this.workers.length;
    let since = readCores();
    const assign = (worker: Worker) => {
      if (next >= parts.length || stopped || this.workers.indexOf(worker) >= taking) return;
      const index = next++;
      states[index] = { chunks: [], warnings: [], worker };
      worker.postMessage({ type: "run", index, part: parts[index]! } satisfies ToWorker);
    };

    /** Writes, warns and counts what the current part has, moving on while parts are done. Serialized by `draining`. */
    let draining = Promise.resolve();
    const drain = () => {
      draining = draining.then(async () => {
        while (current < parts.length && !stopped) {
          const state = states[current];
          if (!state) return;
          const part = parts[current]!;
          const offset = part.whole ? 0 : (lineOffsets.get(part.input) ?? 0);
          // Until nothing is left: output and the part's end may arrive while a write is awaited, and
          // the part is over only when its end came with nothing after the last write (a chunk that
          // came during the last write was once left unwritten; test/logs/chunks.test.ts).
          while (state.warnings.length > 0 || state.chunks.length > 0) {
            for (const warning of state.warnings.splice(0)) run.warn(warning, offset);
            for (const chunk of state.chunks.splice(0)) {
              if (run.write) await run.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
              state.worker.postMessage({ type: "ack", bytes: chunk.byteLength } satisfies ToWorker);
            }
          }
          if (!state.done) return;
          addCounts(run.counts, state.done.counts, offset);
          addTally(run.times, state.done.times, offset);
          if (!part.whole) lineOffsets.set(part.input, offset + state.done.lineCount);
          if (!state.done.completed) stopped = true;
          current++;
        }
        finish();
      });
    };

    for (const worker of this.workers) {
      worker.on("message", (message: FromWorker) => {
        if (message.type === "read") return run.onRead(message.bytes);
        const state = states[message.index]!;
        if (message.type === "out") state.chunks.push(message.bytes);
        else if (message.type === "warn") state.warnings.push(message.warning);
        else {
          state.done = message;
          if (run.keep && taking > 1 && performance.now() - since.wallMs >= MEASURED_MS) {
            taking = run.keep(taking, coresSince(since));
            since = readCores();
          }
          assign(worker);
        }
        if (message.index === current) drain();
      });
      worker.postMessage({ type: "setup", setup: run.setup } satisfies ToWorker);
      assign(worker);
    }
    if (this.failure === undefined) await finished;
    if (this.failure) throw this.failure;
    return !stopped;
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

function addCounts(total: EvalCounts, part: EvalCounts, lineOffset: number): void {
  total.lines += part.lines;
  total.matched += part.matched;
  total.selected += part.selected;
  total.malformed += part.malformed;
  total.damaged += part.damaged;
  total.bytes += part.bytes;
  total.matchedBytes += part.matchedBytes;
  for (const place of part.firstMalformed)
    if (total.firstMalformed.length < MALFORMED_SHOWN)
      total.firstMalformed.push({ input: place.input, line: place.line + lineOffset });
}
