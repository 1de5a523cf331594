import { constants, isAscii } from "node:buffer";
import { type BlockFilter, type ByteFilter, type LineFilter, LineVerdict } from "../eval/index.js";
import { InputDamage } from "./gzip.js";
import type { LogInput } from "./input.js";
import type { UnreadableTimes } from "./unreadable-times.js";

/** What a run has seen so far, over all inputs. */
export interface EvalCounts {
  lines: number;
  /** Lines the filter matches. */
  matched: number;
  /** Bytes of the well-formed lines read, each with its line end (as read: after decompression). */
  bytes: number;
  /** Bytes of the matching lines, each with its line end. */
  matchedBytes: number;
  /** Lines written (or counted with --count): the matching ones, or with --invert the others. */
  selected: number;
  malformed: number;
  /** Inputs found damaged (a gzip member cut short or corrupt, bytes after the last one). */
  damaged: number;
  /** Where the first malformed lines are, as `name:line` or the line number alone. */
  firstMalformed: { input: string; line: number }[];
}

/** Counts of a run that has read nothing yet. */
export function emptyCounts(): EvalCounts {
  return {
    lines: 0,
    matched: 0,
    selected: 0,
    malformed: 0,
    damaged: 0,
    bytes: 0,
    matchedBytes: 0,
    firstMalformed: [],
  };
}

interface EvalLinesOptions {
  filter: LineFilter;
  /** The same filter over blocks of lines, which tests lines of ASCII faster (see compileBlockFilter). */
  blockFilter: BlockFilter | undefined;
  /**
   * In place of blockFilter, a filter that reads bytes (see ByteFilter): the lines it is sure of
   * are never decoded; the others go to `filter` as text.
   */
  byteFilter?: ByteFilter | undefined;
  /** Select the lines that do not match (malformed lines are never selected). */
  invert: boolean;
  /**
   * Writes the selected lines (undefined with --count). The bytes are the writer's to keep, in an
   * ArrayBuffer of their own (see ownedCopy): a worker moves them to the main thread as they are.
   */
  write: ((bytes: Buffer) => Promise<void>) | undefined;
  /** Stop at the first malformed line. */
  strict: boolean;
  /** Longer lines (in bytes, without the LF) are not read: counted as malformed, with a message. */
  maxLineBytes: number;
  counts: EvalCounts;
  onRead: (bytes: number) => void;
  /** Tells the user about a line that is not read (on stderr; see warningText). */
  warn: (warning: EvalWarning) => void;
  /** Where the filters' onUnreadableTime counts: told the input and the line being tested. */
  times: UnreadableTimes;
}

/**
 * A line not read, or an input damaged, as data: a worker reading part of a file reports line
 * numbers counted from the part's start, and the numbers are shifted once the lines before the
 * part are counted.
 */
export type EvalWarning =
  | { kind: "too-long"; input: string; line: number; limit: number }
  | { kind: "damaged"; input: string; reason: string; cutLine: number | undefined };

/** A warning's text, its line numbers moved on by `lineOffset` (the lines before the part read). */
export function warningText(warning: EvalWarning, lineOffset = 0): string {
  if (warning.kind === "too-long")
    return `line ${warning.line + lineOffset} of ${warning.input} is longer than ${warning.limit} bytes (--max-line-bytes): not read, counted as malformed`;
  const cut =
    warning.cutLine === undefined
      ? ""
      : `; line ${warning.cutLine + lineOffset}, cut there, is counted as malformed`;
  return `${warning.input}: damaged: ${warning.reason}; the lines before it were read${cut}`;
}

/** How a run of one input ended: whether it went to the end (false: --strict stopped it), and its lines, blank ones included. */
interface EvalEnd {
  completed: boolean;
  lineCount: number;
}

/**
 * The default of --max-line-bytes. Logpush lines are a few kB; a line is held whole, twice (its
 * bytes and its text) and parsed, so the limit bounds memory, and it stays well under the longest
 * string V8 can build (2^29 - 24 characters), past which decoding a line failed.
 */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * The greatest --max-line-bytes: a line is decoded with its LF into one string, and a longer one
 * could not be (a 560 MB line under --max-line-bytes 700000000 ended eval with an internal error).
 */
export const MAX_LINE_BYTES = constants.MAX_STRING_LENGTH - 1;

/**
 * The bytes of `parts` in one new ArrayBuffer of their own. Not from Buffer's shared pool, so the
 * buffer can be moved to another thread; and not a piece of an input chunk, which the reader reuses.
 */
function ownedCopy(parts: readonly Uint8Array[]): Buffer {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = Buffer.allocUnsafeSlow(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Malformed lines whose places the summary names. */
export const MALFORMED_SHOWN = 5;
/** Lines are decoded in blocks of about this many bytes (whole lines). */
const BLOCK_BYTES = 64 * 1024;
const NEWLINE = Buffer.from("\n");

/**
 * Streams one input through the filter line by line. Lines are split on LF on the raw bytes; a
 * selected line is written with exactly its bytes (a CR before the LF included), a last line
 * without LF gets one. Blank lines are skipped.
 */
export async function evalLines(input: LogInput, options: EvalLinesOptions): Promise<EvalEnd> {
  const end: EvalEnd = { completed: false, lineCount: 0 };
  end.completed = await evalLineRun(input, options, end);
  return end;
}

/** The run itself; `run.lineCount` counts the lines read so far (the number of the current one). */
async function evalLineRun(input: LogInput, options: EvalLinesOptions, run: EvalEnd): Promise<boolean> {
  const { filter, blockFilter, byteFilter, invert, write, strict, counts, maxLineBytes, times } = options;
  times.input = input.name;
  const selected = invert ? LineVerdict.miss : LineVerdict.match;
  /**
   * The line begun in earlier chunks, as those chunks' pieces: joined once when its LF comes (joining
   * at every chunk copied a long line again per chunk: quadratic).
   */
  let carry: Buffer[] = [];
  let carryBytes = 0;
  /** The current line is longer than the limit: its bytes are skipped up to the next LF. */
  let skipping = false;
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
    // A copy: the parts are pieces of input chunks, which the reader reuses (log-input.ts).
    const out = ownedCopy(parts);
    parts = [];
    await write(out);
  };
  /** Counts the current line as malformed; false when that stops the run (--strict). */
  const malformed = (): boolean => {
    counts.lines++;
    counts.malformed++;
    if (counts.firstMalformed.length < MALFORMED_SHOWN)
      counts.firstMalformed.push({ input: input.name, line: run.lineCount });
    return !strict;
  };
  /** Counts the next line, longer than the limit, as malformed without reading it. */
  const tooLong = (): boolean => {
    run.lineCount++;
    options.warn({ kind: "too-long", input: input.name, line: run.lineCount, limit: maxLineBytes });
    return malformed();
  };
  /**
   * Tests one line, bytes start…end of buf without the LF and characters charStart…charEnd of
   * `text`; `next` is where the following line starts. A line of the block loaded in blockFilter,
   * which starts at byte `scannedBlock` of buf, is tested by it (-1: no such block).
   */
  const take = (
    buf: Buffer,
    start: number,
    end: number,
    next: number,
    text: string,
    charStart: number,
    charEnd: number,
    scannedBlock = -1,
  ): boolean => {
    if (end - start > maxLineBytes) return tooLong();
    run.lineCount++;
    if (start === end) return true;
    times.line = run.lineCount;
    const verdict =
      scannedBlock >= 0
        ? blockFilter!.test(start - scannedBlock, end - scannedBlock, charStart, charEnd)
        : filter(text.slice(charStart, charEnd));
    if (verdict === LineVerdict.malformed) return text.slice(charStart, charEnd).trim() === "" || malformed();
    return count(buf, start, next, verdict);
  };
  /** Counts a line that is not malformed, bytes start…next of buf with its line end, and selects it when the verdict says so. */
  const count = (buf: Buffer, start: number, next: number, verdict: LineVerdict): boolean => {
    counts.lines++;
    counts.bytes += next - start;
    if (verdict === LineVerdict.match) {
      counts.matched++;
      counts.matchedBytes += next - start;
    }
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

  /**
   * Tests one line as `take` does, with the byte filter, whose block (loaded, -1: none) starts at
   * byte `scannedBlock` of buf; a line the filter is not sure of is decoded for the line filter.
   */
  const takeBytes = (buf: Buffer, start: number, end: number, scannedBlock: number): boolean => {
    if (end - start > maxLineBytes) return tooLong();
    run.lineCount++;
    if (start === end) return true;
    times.line = run.lineCount;
    const sure = scannedBlock >= 0 ? byteFilter!.test(start - scannedBlock, end - scannedBlock) : undefined;
    if (sure !== undefined) return count(buf, start, end + 1, sure);
    const text = buf.toString("utf8", start, end);
    const verdict = filter(text);
    if (verdict === LineVerdict.malformed) return text.trim() === "" || malformed();
    return count(buf, start, end + 1, verdict);
  };

  /** The end (an LF) of the block of lines of chunk that starts at `start`, no further than lastNewline. */
  const blockEndOf = (chunk: Buffer, start: number, lastNewline: number): number => {
    if (lastNewline - start <= BLOCK_BYTES) return lastNewline;
    const end = chunk.lastIndexOf(10, start + BLOCK_BYTES);
    return end < start ? chunk.indexOf(10, start + BLOCK_BYTES) : end;
  };

  /** Tests the whole lines of bytes start…lastNewline of chunk with the byte filter, a block at a time. */
  const takeLineBytes = (chunk: Buffer, start: number, lastNewline: number): boolean => {
    while (start <= lastNewline) {
      const blockEnd = blockEndOf(chunk, start, lastNewline);
      const block = chunk.subarray(start, blockEnd + 1);
      const scannedBlock = byteFilter!.load(block) ? start : -1;
      for (let lineStart = start; lineStart <= blockEnd; ) {
        const lineEnd = chunk.indexOf(10, lineStart);
        if (!takeBytes(chunk, lineStart, lineEnd, scannedBlock)) return false;
        lineStart = lineEnd + 1;
      }
      start = blockEnd + 1;
    }
    return true;
  };

  /**
   * Tests the whole lines of bytes start…lastNewline of chunk (which ends with an LF). They are
   * decoded a block at a time, into one string the lines are slices of: as Latin-1 when the bytes
   * are ASCII (the same text, decoded faster, and character offsets are byte offsets), else as
   * UTF-8 (an LF byte is always an LF character: it is never part of a multi-byte sequence, valid
   * or not). Blocks stay small enough for the young generation, where they are freed cheaply.
   */
  const takeLines = (chunk: Buffer, start: number, lastNewline: number): boolean => {
    while (start <= lastNewline) {
      const blockEnd = blockEndOf(chunk, start, lastNewline);
      const ascii = isAscii(chunk.subarray(start, blockEnd));
      const text = chunk.toString(ascii ? "latin1" : "utf8", start, blockEnd + 1);
      const scannedBlock = blockFilter?.load(chunk.subarray(start, blockEnd + 1), text) ? start : -1;
      let charStart = 0;
      for (let byteStart = start; byteStart <= blockEnd; ) {
        const charEnd = text.indexOf("\n", charStart);
        const byteEnd = ascii ? byteStart + (charEnd - charStart) : chunk.indexOf(10, byteStart);
        if (!take(chunk, byteStart, byteEnd, byteEnd + 1, text, charStart, charEnd, scannedBlock))
          return false;
        charStart = charEnd + 1;
        byteStart = byteEnd + 1;
      }
      start = blockEnd + 1;
    }
    return true;
  };

  /** Keeps the unfinished line's bytes, or starts skipping them once they pass the limit. */
  const carryOn = (bytes: Buffer): boolean => {
    if (skipping) return true;
    // A copy, kept past the chunk it is a piece of (the reader reuses chunks).
    carry.push(Buffer.from(bytes));
    carryBytes += bytes.length;
    if (carryBytes <= maxLineBytes) return true;
    carry = [];
    carryBytes = 0;
    skipping = true;
    return tooLong();
  };

  try {
    for await (const chunk of input.open(options.onRead)) {
      let start = 0;
      if (carryBytes > 0 || skipping) {
        // The line begun in earlier chunks: joined on its own, not by copying this whole chunk.
        const newline = chunk.indexOf(10);
        if (newline === -1) {
          if (!carryOn(chunk)) return false;
          continue;
        }
        if (skipping) skipping = false;
        else if (carryBytes + newline > maxLineBytes) stopped = !tooLong();
        else {
          const head = Buffer.concat([...carry, chunk.subarray(0, newline + 1)], carryBytes + newline + 1);
          const end = head.length - 1;
          const text = head.toString("utf8", 0, end);
          stopped = !take(head, 0, end, head.length, text, 0, text.length);
        }
        carry = [];
        carryBytes = 0;
        start = newline + 1;
      }
      const lastNewline = chunk.lastIndexOf(10);
      if (!stopped && lastNewline >= start) {
        stopped = !(byteFilter ? takeLineBytes : takeLines)(chunk, start, lastNewline);
        start = lastNewline + 1;
      }
      if (!stopped && start < chunk.length) stopped = !carryOn(chunk.subarray(start));
      await flush();
      if (stopped) return false;
    }
  } catch (error) {
    if (!(error instanceof InputDamage)) throw error;
    // What was read before the damage stays read; a line it cuts is counted as malformed.
    counts.damaged++;
    let cutLine: number | undefined;
    if (carryBytes > 0 || skipping) {
      if (!skipping) {
        run.lineCount++;
        stopped = !malformed();
      }
      cutLine = run.lineCount;
    }
    options.warn({ kind: "damaged", input: input.name, reason: error.message, cutLine });
    return !stopped;
  }
  if (carryBytes > 0) {
    const last = carry.length === 1 ? carry[0]! : Buffer.concat(carry, carryBytes);
    const text = last.toString("utf8");
    if (!take(last, 0, last.length, last.length, text, 0, text.length)) stopped = true;
    const wroteLast = runBuffer === last;
    await flush();
    if (wroteLast && write) await write(ownedCopy([NEWLINE]));
  }
  return !stopped;
}
