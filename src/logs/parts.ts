import type { FileHandle } from "node:fs/promises";
// The module, not the stage's index: eval's workers load this file, and the index reads catalogs.
import { openFile } from "../files/open.js";
import type { LogInput } from "./input.js";
import { fileChunksOf, startsGzip, withoutBom } from "./input.js";
import { cannotRead } from "./read-error.js";

/** Part of one input file: all of it (gzip is read whole), or the lines that start in a byte range of a plain file. */
export interface Part {
  /** The input's name as given, for messages. */
  input: string;
  /** Byte range start…end of the file; a range's lines are exactly those that start in it. */
  start: number;
  end: number;
  /** The whole file, read as `eval` reads any input (gzip detected by content). */
  whole: boolean;
}

/** The default of --range-bytes: smaller ranges are not worth a worker's start and hand-over. */
export const DEFAULT_RANGE_BYTES = 32 * 1024 * 1024;

/** How far a boundary search reads at a time. */
const SEARCH_BYTES = 64 * 1024;

/**
 * The least --range-bytes: one read of the boundary search. A part costs a worker about 0.2 ms to
 * take and hand back, so tiny ranges cost far more than they read.
 */
export const MIN_RANGE_BYTES = SEARCH_BYTES;

/**
 * The work of a byte of gzip, in bytes of plain text: about the log it holds (logs inflate about
 * tenfold). The same lines plain and gzipped run fastest on the same number of workers; counting
 * inflating too (16) started half as many again, and they were slower (bench/RESULTS.md, "Quiet 16
 * cores, after this round's merges").
 */
export const GZIP_WORK_PER_BYTE = 10;

/**
 * A worker is started for each this many ranges' worth of work (96 MiB by default): a worker's
 * start costs about as much as reading tens of MiB, so one with less input costs more than it saves
 * (bench/RESULTS.md, "eval's fixed cost per worker").
 */
export const RANGES_PER_WORKER = 3;

/** What a parallel eval reads: its parts, in order, and how many workers to read them on. */
export interface Plan {
  parts: Part[];
  /** At most --jobs and the number of parts; 1 when the input is too small for more. */
  workers: number;
}

/**
 * The parts the workers read, and how many workers: a worker for each RANGES_PER_WORKER ranges'
 * worth of work (a gzip byte counted as GZIP_WORK_PER_BYTE plain ones), at most `jobs`. Each file is
 * a part whole, except a plain (not gzip) file larger than `rangeBytes`, which is cut into ranges of
 * about `rangeBytes`, every cut moved to just after a line end so that no line is split, as many
 * ranges as a multiple of the workers, so that no worker is left reading the last one alone. Ranges
 * that size, rather than one per worker, keep each part's output small: a worker that is done with a
 * later part waits while its output is not written, and with one range per worker the second waited
 * half its range.
 */
export async function planParts(
  files: readonly { name: string; size: number }[],
  rangeBytes: number,
  jobs: number,
): Promise<Plan> {
  const workersFor = (work: number) =>
    Math.max(1, Math.min(jobs, Math.floor(work / (RANGES_PER_WORKER * rangeBytes))));
  // A file larger than a range is cut unless it is gzip, so whether it is must be known. A smaller
  // file is one part either way, and is opened to weigh its work only when that could change the
  // count: many small files are opened once, to be read, not twice.
  const gzip: (boolean | undefined)[] = [];
  for (const { name, size } of files) gzip.push(size > rangeBytes ? await gzipFile(name) : undefined);
  const workOf = (smallAsGzip: boolean) =>
    files.reduce(
      (sum, { size }, i) => sum + ((gzip[i] ?? smallAsGzip) ? size * GZIP_WORK_PER_BYTE : size),
      0,
    );
  let workers = workersFor(workOf(false));
  if (workersFor(workOf(true)) !== workers) {
    for (const [i, { name }] of files.entries()) gzip[i] ??= await gzipFile(name);
    workers = workersFor(workOf(false));
  }
  const parts: Part[] = [];
  for (const [i, { name, size }] of files.entries()) {
    const ofFile = gzip[i]
      ? [{ input: name, start: 0, end: size, whole: true }]
      : await partsOf(name, size, rangeBytes, workers).catch((error: unknown) => {
          throw cannotRead(name, error);
        });
    // One at a time: spread as arguments, the parts of a small --range-bytes overflowed the stack.
    for (const part of ofFile) parts.push(part);
  }
  return { parts, workers: Math.min(workers, parts.length) };
}

/** A plain file's parts (see planParts). */
async function partsOf(name: string, size: number, rangeBytes: number, workers: number): Promise<Part[]> {
  const whole = { input: name, start: 0, end: size, whole: true };
  if (size <= rangeBytes) return [whole];
  const count = Math.ceil(Math.round(size / rangeBytes) / workers) * workers;
  if (count === 1) return [whole];
  const bounds = [0];
  // Only a regular file is cut into parts (its size is known); opened as every reader opens one.
  const { handle } = await openFile(name, "regular");
  const window: Window = { bytes: Buffer.alloc(SEARCH_BYTES), start: 0, length: 0 };
  try {
    for (let i = 1; i < count; i++) {
      const position = Math.round((size * i) / count);
      // The last cut is a line start at or after this position: the search would find it again.
      // Skipped, so a line longer than many ranges is read once, not once per range it spans.
      if (position <= bounds[bounds.length - 1]!) continue;
      const cut = await lineStartFrom(handle, window, position, size);
      // No line starts after this position, nor after any later one.
      if (cut >= size) break;
      bounds.push(cut);
    }
  } finally {
    await handle.close();
  }
  bounds.push(size);
  const parts: Part[] = [];
  for (let i = 0; i + 1 < bounds.length; i++)
    parts.push({ input: name, start: bounds[i]!, end: bounds[i + 1]!, whole: false });
  return parts;
}

/** Whether a file holds gzip, its failure told as `cannot read FILE: …`. */
function gzipFile(name: string): Promise<boolean> {
  return isGzip(name).catch((error: unknown) => {
    throw cannotRead(name, error);
  });
}

async function isGzip(name: string): Promise<boolean> {
  const { handle } = await openFile(name, "regular");
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return startsGzip(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The bytes of the file last read by the boundary search: cuts close together are found in them without reading again. */
interface Window {
  bytes: Buffer;
  /** Where in the file `bytes` starts, and how many of them were read. */
  start: number;
  length: number;
}

/** The first line start at or after `position`: just after the LF at or after `position - 1`. */
async function lineStartFrom(
  handle: FileHandle,
  window: Window,
  position: number,
  size: number,
): Promise<number> {
  for (let at = position - 1; at < size; at = window.start + window.length) {
    if (at < window.start || at >= window.start + window.length) {
      const { bytesRead } = await handle.read(window.bytes, 0, SEARCH_BYTES, at);
      if (bytesRead === 0) break;
      window.start = at;
      window.length = bytesRead;
    }
    const newline = window.bytes.subarray(0, window.length).indexOf(10, at - window.start);
    if (newline !== -1) return window.start + newline + 1;
  }
  return size;
}

/** A range of a plain file as an input: its bytes as stored, a byte order mark dropped only at the file's start. */
export function rangeInput(part: Part): LogInput {
  return {
    name: part.input,
    size: part.end - part.start,
    open: (onRead) => {
      const counted = (async function* () {
        for await (const chunk of fileChunksOf(part.input, part.start, part.end)) {
          onRead(chunk.length);
          yield chunk;
        }
      })();
      return part.start === 0 ? withoutBom(counted) : counted;
    },
  };
}
