import { resolve } from "node:path";
import { LineScanner } from "../eval/index.js";
import { fileInput } from "../logs/index.js";
import type { Location } from "../sql/index.js";

/**
 * Whether each line of the local files among `locations` (inflated when gzip) is blank or a JSON
 * object as JSON.parse reads one, by eval's line scanner, which checks the JSON grammar 16 bytes at
 * a time. DuckDB's JSON reader also takes a comma before `]` or `}` and the numbers NaN and
 * Infinity, which JSON.parse refuses: query's typed read holds only where this is true. Answers
 * false when not sure: a line the scanner does not take (also a key written with escapes), a line
 * longer than its block, a location that is not a local file, a file that cannot be read to its end.
 */
export async function allLinesStrict(locations: readonly Location[], cwd: string): Promise<boolean> {
  const scanner = LineScanner.of([]);
  if (scanner === undefined) return false;
  try {
    for (const location of locations) {
      if (location.kind !== "local") return false;
      for (const path of location.paths) if (!(await fileStrict(scanner, resolve(cwd, path)))) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function fileStrict(scanner: LineScanner, path: string): Promise<boolean> {
  /** The start of a line the chunks so far cut, which a later chunk ends. */
  let cut: Buffer = Buffer.alloc(0);
  for await (const chunk of (await fileInput(path)).open(() => undefined)) {
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      cut = Buffer.concat([cut, chunk]);
      if (cut.length > scanner.capacity) return false;
      continue;
    }
    if (!blockStrict(scanner, Buffer.concat([cut, chunk.subarray(0, last + 1)]))) return false;
    cut = Buffer.from(chunk.subarray(last + 1));
  }
  return cut.length === 0 || blockStrict(scanner, Buffer.concat([cut, Buffer.from("\n")]));
}

/** Whether each line of `lines` (whole lines, the last ending with an LF) is blank or a JSON object. */
function blockStrict(scanner: LineScanner, lines: Buffer): boolean {
  for (let from = 0; from < lines.length; ) {
    // The scanner takes at most `capacity` bytes at a time: whole lines of them.
    const end = lines.lastIndexOf(10, Math.min(lines.length, from + scanner.capacity) - 1);
    if (end < from) return false;
    const block = lines.subarray(from, end + 1);
    scanner.load(block);
    for (let start = 0; start < block.length; ) {
      const lineEnd = block.indexOf(10, start);
      if (!scanner.scan(start, lineEnd) && !isBlank(block, start, lineEnd)) return false;
      start = lineEnd + 1;
    }
    from = end + 1;
  }
  return true;
}

const isBlank = (bytes: Buffer, start: number, end: number) =>
  bytes.subarray(start, end).every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);
