import { type LineFilter, LineVerdict } from "../eval/index.js";
import type { LogInput } from "./log-input.js";

/** What a run has seen so far, over all inputs. */
export interface EvalCounts {
  lines: number;
  /** Lines the filter matches. */
  matched: number;
  /** Lines written (or counted with --count): the matching ones, or with --invert the others. */
  selected: number;
  malformed: number;
  /** Where the first malformed lines are, as `name:line` or the line number alone. */
  firstMalformed: { input: string; line: number }[];
}

export interface EvalLinesOptions {
  filter: LineFilter;
  /** Select the lines that do not match (malformed lines are never selected). */
  invert: boolean;
  /** Write the selected lines (false with --count). */
  write: ((bytes: Buffer) => Promise<void>) | undefined;
  /** Stop at the first malformed line. */
  strict: boolean;
  counts: EvalCounts;
  onRead: (bytes: number) => void;
}

const MALFORMED_SHOWN = 5;
const NEWLINE = Buffer.from("\n");

/**
 * Streams one input through the filter line by line. Lines are split on LF on the raw bytes; a
 * selected line is written with exactly its bytes (a CR before the LF included), a last line
 * without LF gets one. Blank lines are skipped. Returns false when --strict stopped the run.
 */
export async function evalLines(input: LogInput, options: EvalLinesOptions): Promise<boolean> {
  const { filter, invert, write, strict, counts } = options;
  const selected = invert ? LineVerdict.miss : LineVerdict.match;
  let line = 0;
  let carry: Buffer | undefined;
  let stopped = false;
  let parts: Buffer[] = [];
  let runStart = -1;
  let runEnd = -1;
  let runBuffer: Buffer | undefined;

  const closeRun = () => {
    if (runBuffer && runStart < runEnd) parts.push(runBuffer.subarray(runStart, runEnd));
    runBuffer = undefined;
    runStart = runEnd = -1;
  };
  const flush = async () => {
    closeRun();
    if (!write || parts.length === 0) return;
    const out = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    parts = [];
    await write(out);
  };
  /** Tests one line, bytes start…end of buf without the LF; `next` is where the following line starts. */
  const take = (buf: Buffer, start: number, end: number, next: number): boolean => {
    line++;
    if (start === end) return true;
    const text = buf.toString("utf8", start, end);
    const verdict = filter(text);
    if (verdict === LineVerdict.malformed) {
      if (text.trim() === "") return true;
      counts.lines++;
      counts.malformed++;
      if (counts.firstMalformed.length < MALFORMED_SHOWN)
        counts.firstMalformed.push({ input: input.name, line });
      return !strict;
    }
    counts.lines++;
    if (verdict === LineVerdict.match) counts.matched++;
    if (verdict !== selected) return true;
    counts.selected++;
    if (!write) return true;
    if (runBuffer === buf && runEnd === start) runEnd = next;
    else {
      closeRun();
      runBuffer = buf;
      runStart = start;
      runEnd = next;
    }
    return true;
  };

  for await (const chunk of input.open(options.onRead)) {
    const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let newline = buf.indexOf(10, start); newline !== -1; newline = buf.indexOf(10, start)) {
      if (!take(buf, start, newline, newline + 1)) {
        stopped = true;
        break;
      }
      start = newline + 1;
    }
    carry = start < buf.length ? buf.subarray(start) : undefined;
    await flush();
    if (stopped) return false;
  }
  if (carry) {
    const last = carry;
    if (!take(last, 0, last.length, last.length)) stopped = true;
    const wroteLast = runBuffer === last;
    await flush();
    if (wroteLast && write) await write(NEWLINE);
  }
  return !stopped;
}
