import { check } from "../../src/check/index.js";
import { compileBlockFilter, compileLineFilter, type TimestampReading } from "../../src/eval/index.js";
import { streamInput } from "../../src/logs/input.js";
import { DEFAULT_MAX_LINE_BYTES, emptyCounts, evalLines, warningText } from "../../src/logs/lines.js";
import { UnreadableTimes } from "../../src/logs/unreadable-times.js";

export interface RunLinesOptions {
  /** Test ASCII lines with the block filter, as the CLI does (default true). */
  block?: boolean;
  invert?: boolean;
  strict?: boolean;
  maxLineBytes?: number;
  timestamps?: TimestampReading;
  prefilter?: boolean;
}

/**
 * Runs evalLines with the filter of `source` over `chunks` as they come: how it ended, what it
 * wrote, its counts, its warnings and the values of timestamp fields it could not read.
 */
export async function runLines(
  chunks: () => Iterable<Uint8Array>,
  source: string,
  options: RunLinesOptions = {},
) {
  const condition = check(source).meaning;
  const times = new UnreadableTimes();
  const timeOptions = { timestamps: options.timestamps, onUnreadableTime: times.note };
  const filter = compileLineFilter(condition, { ...timeOptions, prefilter: options.prefilter });
  const counts = emptyCounts();
  const written: Buffer[] = [];
  const warnings: string[] = [];
  const end = await evalLines(
    streamInput("<stdin>", async function* () {
      yield* chunks();
    }),
    {
      filter,
      blockFilter: options.block === false ? undefined : compileBlockFilter(condition, filter, timeOptions),
      invert: options.invert ?? false,
      strict: options.strict ?? false,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      write: async (bytes) => {
        written.push(Buffer.from(bytes));
      },
      counts,
      onRead: () => {},
      warn: (warning) => warnings.push(warningText(warning)),
      times,
    },
  );
  return { ...end, out: Buffer.concat(written).toString(), counts, warnings, times: times.tally };
}
