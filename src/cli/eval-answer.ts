import { resolve } from "node:path";
import type { Meaning } from "../check/index.js";
import { compileBlockFilter, compileLineFilter, type TimestampReading } from "../eval/index.js";
import {
  DEFAULT_MAX_LINE_BYTES,
  type EvalCounts,
  emptyCounts,
  evalLines,
  fileInput,
  UnreadableTimes,
} from "../logs/index.js";

/** eval's answer over some files: its counts, and the timestamp values that are no time. */
export interface EvalAnswer {
  counts: EvalCounts;
  times: UnreadableTimes;
}

/**
 * Runs the filter over the local `files` as `filterc eval` does on one thread, `write` given the
 * lines it keeps (their bytes as the files hold them, a block of whole lines at a time). Damage is
 * not told: query's check of the lines told it already.
 */
export async function evalAnswer(
  files: readonly string[],
  cwd: string,
  condition: Meaning | null,
  timestamps: TimestampReading | undefined,
  write: ((bytes: Buffer) => Promise<void>) | undefined,
): Promise<EvalAnswer> {
  const answer: EvalAnswer = { counts: emptyCounts(), times: new UnreadableTimes() };
  const timeOptions = { timestamps, onUnreadableTime: answer.times.note };
  const filter = compileLineFilter(condition, timeOptions);
  const blockFilter = compileBlockFilter(condition, filter, timeOptions);
  // Named as the locations name it, as eval names the files it is given.
  for (const file of files)
    await evalLines(
      { ...(await fileInput(resolve(cwd, file))), name: file },
      {
        filter,
        blockFilter,
        invert: false,
        strict: false,
        maxLineBytes: DEFAULT_MAX_LINE_BYTES,
        write,
        counts: answer.counts,
        onRead: () => undefined,
        warn: () => undefined,
        times: answer.times,
      },
    );
  return answer;
}
