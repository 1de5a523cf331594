import { availableParallelism } from "node:os";
import { DEFAULT_DATASET } from "../../catalog/index.js";
import { compileBlockFilter, compileLineFilter, lineScannerModule } from "../../eval/index.js";
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_RANGE_BYTES,
  type EvalCounts,
  type EvalWarning,
  EvalWorkers,
  emptyCounts,
  evalLines,
  fileInput,
  GZIP_WORK_PER_BYTE,
  type LogInput,
  MAX_LINE_BYTES,
  MIN_CORES_A_WORKER,
  MIN_RANGE_BYTES,
  type Plan,
  Progress,
  planParts,
  RANGES_PER_WORKER,
  sizeThreadPool,
  streamInput,
  UnreadableTimes,
  unreadableTimesReport,
  warningText,
  workerBundle,
  workersThatPay,
} from "../../logs/index.js";
import { MAX_THREADS, parseCommandArgs, parseCount } from "../args.js";
import { loadEvalFilter } from "../eval-filter.js";
import { type CliIO, stdoutWriter, UsageError } from "../io.js";
import { keptStats } from "../kept-stats.js";
import { parseTimestampReading, TIMESTAMPS_USAGE } from "../timestamps-option.js";
import { inMiB } from "../usage-rows.js";

/**
 * The most workers --jobs gives by default: on 16 cores, 16 workers were slower than 8 on every input
 * of bench/eval-scale.mjs (bench/RESULTS.md, "eval on 16 cores"). More can be asked for.
 */
const DEFAULT_MAX_JOBS = 8;

export const usage = `filterc eval (--filter FILE | --expr SOURCE) [LOG...|-] [options]

Applies a filter to Logpush output (NDJSON, gzip-compressed or not: detected by content) read
from files or standard input, and writes the matching lines to stdout exactly as they were read.
A summary (lines read, matched, malformed, with the first malformed line numbers) goes to stderr.

Options:
  --filter FILE         the filter: source, or Logpush filter JSON (or a job record holding it)
  --expr SOURCE         the filter source, inline
  --dataset NAME        field catalog to check the filter against (default ${DEFAULT_DATASET})
  --catalog FILE        a JSON field catalog for a dataset filterc does not ship
  --count               print the number of selected lines instead of the lines
  --invert              select the lines that do not match (malformed lines never are)
  --strict              stop with status 1 at the first malformed line
  --max-line-bytes N    longer lines are not read: counted as malformed, with a message
                        (default ${inMiB(DEFAULT_MAX_LINE_BYTES)})
  --stats               also tell the share of lines and of bytes the filter keeps
  --no-prefilter        no quick rejection on the raw text (the same output, more slowly)
  --jobs N              the most worker threads (default: the number of cores, at most ${DEFAULT_MAX_JOBS};
                        at most ${MAX_THREADS}): one is started for each ${RANGES_PER_WORKER} ranges' worth of
                        input (a gzip byte counts as ${GZIP_WORK_PER_BYTE} plain ones), and less than two
                        workers' worth is read on one thread; a plain file larger than
                        --range-bytes is cut into ranges of about that size at line ends; the
                        output is the same as with --jobs 1; more than the cores is noted;
                        without --jobs, one worker reads on once the cores the run had
                        are found fewer than 1 + 0.25 a worker beyond the first
  --range-bytes N       the size of the ranges a plain file is cut into (default ${inMiB(DEFAULT_RANGE_BYTES)};
                        at least ${MIN_RANGE_BYTES})
${TIMESTAMPS_USAGE}
Exit status: 0 ran (also when nothing matched), 1 errors in the filter, an unreadable or
damaged input (what came before the damage is read) or a malformed line with --strict, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals: files } = parseCommandArgs(argv, {
    filter: { type: "string" },
    expr: { type: "string" },
    dataset: { type: "string" },
    catalog: { type: "string" },
    count: { type: "boolean" },
    invert: { type: "boolean" },
    strict: { type: "boolean" },
    "no-prefilter": { type: "boolean" },
    "max-line-bytes": { type: "string" },
    stats: { type: "boolean" },
    jobs: { type: "string" },
    "range-bytes": { type: "string" },
    timestamps: { type: "string" },
  });
  const maxLineBytes =
    parseCount(values["max-line-bytes"], "--max-line-bytes", 0, MAX_LINE_BYTES) ?? DEFAULT_MAX_LINE_BYTES;
  const positionals: string[] = files;
  if ((values.filter === undefined) === (values.expr === undefined))
    throw new UsageError("give the filter with exactly one of --filter FILE and --expr SOURCE");
  if (values.filter === "-" && (positionals.length === 0 || positionals.includes("-")))
    throw new UsageError("standard input cannot hold both the filter and the logs");
  const timestamps = parseTimestampReading(values.timestamps);
  const cores = availableParallelism();
  const jobs = parseCount(values.jobs, "--jobs", 1, MAX_THREADS) ?? Math.min(cores, DEFAULT_MAX_JOBS);
  if (jobs > cores)
    io.stderr(`filterc eval: --jobs ${jobs} is more than the ${cores} cores here: the workers share them\n`);
  // Before the filter file or any log is read: libuv sizes its pool on first use.
  sizeThreadPool(jobs);
  const rangeBytes =
    parseCount(values["range-bytes"], "--range-bytes", MIN_RANGE_BYTES) ?? DEFAULT_RANGE_BYTES;
  const workerFile = jobs > 1 ? workerBundle() : undefined;
  // The default is measured: the workers are kept only if the run had the cores to pay for them.
  const keep = values.jobs === undefined ? keepMeasured() : undefined;
  // The parts are planned, and the workers started, before the filter is compiled, so that their
  // start overlaps it. An input the plan cannot read has its error told after the filter's, as
  // one thread tells it.
  const planned = workerFile ? await planParallel(positionals, rangeBytes, jobs) : undefined;
  const plan = planned && "parts" in planned && planned.workers > 1 ? planned : undefined;
  const workers = plan ? new EvalWorkers(workerFile!, plan.workers) : undefined;
  const planError = planned && "error" in planned ? planned : undefined;
  try {
    return await evalRun(values, positionals, io, {
      plan,
      planError,
      workers,
      keep,
      maxLineBytes,
      timestamps,
    });
  } finally {
    await workers?.stop();
  }
}

interface EvalValues {
  filter?: string | undefined;
  expr?: string | undefined;
  dataset?: string | undefined;
  catalog?: string | undefined;
  count?: boolean | undefined;
  invert?: boolean | undefined;
  strict?: boolean | undefined;
  "no-prefilter"?: boolean | undefined;
  stats?: boolean | undefined;
}

interface RunSettings {
  /** The parts, when they are read on worker threads, and the workers started for them. */
  plan: Plan | undefined;
  workers: EvalWorkers | undefined;
  /** How many of the workers to keep once they have read a part: given when --jobs is not. */
  keep: ((workers: number, cores: number | undefined) => number) | undefined;
  /** Why the parts could not be planned: an input that cannot be read. */
  planError: { error: unknown } | undefined;
  maxLineBytes: number;
  timestamps: ReturnType<typeof parseTimestampReading>;
}

async function evalRun(
  values: EvalValues,
  positionals: string[],
  io: CliIO,
  settings: RunSettings,
): Promise<number> {
  const { plan, planError, workers, keep, maxLineBytes, timestamps } = settings;
  const loaded = await loadEvalFilter(values, io);
  if (loaded === undefined) return 1;
  const { meaning } = loaded;

  const inputs = await openInputs(positionals, io);
  if (planError) throw planError.error;
  const counts = emptyCounts();
  const times = new UnreadableTimes();
  const totalBytes = inputs.every((input) => input.size !== undefined)
    ? inputs.reduce((sum, input) => sum + input.size!, 0)
    : undefined;
  const progress = io.stderrIsTTY ? new Progress(io.stderr, totalBytes) : undefined;
  const write = values.count ? undefined : stdoutWriter(io);
  const onRead = (bytes: number) => {
    progress?.read(bytes);
    progress?.update(counts.lines);
  };
  const warn = (warning: EvalWarning, lineOffset = 0) => {
    progress?.clear();
    io.stderr(`filterc eval: ${warningText(warning, lineOffset)}\n`);
  };
  let completed = true;
  if (plan && workers) {
    completed = await workers.run(plan.parts, {
      counts,
      times: times.tally,
      write,
      warn,
      onRead,
      ...(keep && { keep }),
      setup: {
        meaning,
        scannerModule: lineScannerModule(),
        timestamps,
        prefilter: !values["no-prefilter"],
        invert: values.invert === true,
        strict: values.strict === true,
        maxLineBytes,
        write: write !== undefined,
        reportReads: progress !== undefined,
        outputWindowBytes: OUTPUT_WINDOW_BYTES,
      },
    });
  } else {
    const timeOptions = { timestamps, onUnreadableTime: times.note };
    const filter = compileLineFilter(meaning, { ...timeOptions, prefilter: !values["no-prefilter"] });
    const blockFilter = compileBlockFilter(meaning, filter, timeOptions);
    for (const input of inputs) {
      ({ completed } = await evalLines(input, {
        filter,
        blockFilter,
        invert: values.invert === true,
        strict: values.strict === true,
        maxLineBytes,
        write,
        counts,
        onRead,
        warn,
        times,
      }));
      if (!completed) break;
    }
  }
  progress?.clear();
  if (values.count) io.stdout(`${counts.selected}\n`);
  io.stderr(`${summary(counts, inputs.length > 1)}\n`);
  const unreadable = unreadableTimesReport(times.tally, inputs.length > 1);
  if (unreadable) io.stderr(`filterc eval: ${unreadable}\n`);
  if (values.stats)
    io.stderr(
      `${keptStats({ lines: counts.matched, bytes: counts.matchedBytes }, { lines: counts.lines - counts.malformed, bytes: counts.bytes })}\n`,
    );
  if (!completed) {
    const first = counts.firstMalformed[counts.firstMalformed.length - 1]!;
    io.stderr(`filterc eval: stopped at malformed line ${first.line} of ${first.input} (--strict)\n`);
    return 1;
  }
  return counts.damaged > 0 ? 1 : 0;
}

/**
 * The parts and workers of a run over the named files on worker threads; undefined when it reads
 * standard input or a file that is not a regular one (a fifo is read in order, on one thread); the
 * error when a file cannot be read, to be thrown once the filter is known to be good.
 */
async function planParallel(
  names: string[],
  rangeBytes: number,
  jobs: number,
): Promise<Plan | { error: unknown } | undefined> {
  if (names.length === 0 || names.includes("-")) return undefined;
  try {
    const inputs = await Promise.all(names.map((name) => fileInput(name)));
    if (inputs.some((input) => input.size === undefined)) return undefined;
    return await planParts(
      inputs.map((input) => ({ name: input.name, size: input.size! })),
      rangeBytes,
      jobs,
    );
  } catch (error) {
    return { error };
  }
}

async function openInputs(positionals: string[], io: CliIO): Promise<LogInput[]> {
  const names = positionals.length === 0 ? ["-"] : positionals;
  if (names.filter((name) => name === "-").length > 1)
    throw new UsageError("standard input (-) can be read only once");
  const stdin =
    io.stdinBytes ??
    async function* () {
      yield new TextEncoder().encode(await io.readStdin());
    };
  return Promise.all(names.map((name) => (name === "-" ? streamInput("<stdin>", stdin) : fileInput(name))));
}

/**
 * The measured rule of the default --jobs (workersThatPay). FILTERC_MIN_CORES_A_WORKER, a number,
 * replaces its threshold: tests force either outcome with it (-1 keeps every worker, 2 one).
 */
function keepMeasured(): (workers: number, cores: number | undefined) => number {
  const given = Number(process.env["FILTERC_MIN_CORES_A_WORKER"] ?? Number.NaN);
  const minCores = Number.isFinite(given) ? given : MIN_CORES_A_WORKER;
  return (workers, cores) => workersThatPay(workers, cores, minCores);
}

/**
 * Selected bytes a worker may have in flight before the main thread has written them: what bounds
 * memory when a later part is done before an earlier one (at most this much per worker).
 */
const OUTPUT_WINDOW_BYTES = 8 * 1024 * 1024;

function summary(counts: EvalCounts, manyInputs: boolean): string {
  const plural = counts.lines === 1 ? "line" : "lines";
  let text = `read ${counts.lines} ${plural}, matched ${counts.matched}, malformed ${counts.malformed}`;
  if (counts.malformed > 0) {
    const places = counts.firstMalformed.map((place) =>
      manyInputs ? `${place.input}:${place.line}` : String(place.line),
    );
    const more = counts.malformed > places.length ? ", …" : "";
    text += ` (first at line${places.length === 1 ? "" : "s"} ${places.join(", ")}${more})`;
  }
  if (counts.damaged > 0)
    text += `; ${counts.damaged} damaged input${counts.damaged === 1 ? "" : "s"}, read up to the damage`;
  return text;
}
