import { resolve } from "node:path";
import { LineScanner } from "../eval/index.js";
import { fileInput, InputDamage, warningText } from "../logs/index.js";
import type { Location } from "../sql/index.js";

/** What query learns from its own read of the local files, beside DuckDB's. */
export interface LocalRead {
  /**
   * The damage eval would report in the gzip files (a member cut short or corrupt, bytes after the
   * last one), as eval words it: DuckDB reads a gzip file cut short up to the cut and says nothing.
   */
  damage: string[];
  /**
   * Whether each line was checked to be blank or a JSON object as JSON.parse reads one, by eval's
   * line scanner (the JSON grammar 16 bytes at a time). DuckDB's JSON reader also takes a comma
   * before `]` or `}` and the numbers NaN and Infinity, which JSON.parse refuses: query's typed
   * read holds only where this is true. False when not sure: a line the scanner does not take (also
   * a key written with escapes), a line longer than its block, a location that is not a local
   * file, damage, or lines not asked to be checked.
   */
  strict: boolean;
}

/**
 * Reads the local files among `locations` once, inflating the gzip ones: for their damage, and,
 * with `checkLines`, to check every line (see LocalRead). Plain files are read only for the check.
 */
export async function readLocalFiles(
  locations: readonly Location[],
  cwd: string,
  checkLines: boolean,
): Promise<LocalRead> {
  const scanner = checkLines ? LineScanner.of([]) : undefined;
  const read: LocalRead = {
    damage: [],
    strict: scanner !== undefined && locations.every((location) => location.kind === "local"),
  };
  for (const location of locations) {
    if (location.kind !== "local") continue;
    for (const path of location.paths) {
      if (!location.gzip && !read.strict) break;
      const lines = read.strict ? new LineCheck(scanner!) : undefined;
      try {
        for await (const chunk of (await fileInput(resolve(cwd, path))).open(() => undefined)) {
          if (lines && !lines.add(chunk)) read.strict = false;
          if (!location.gzip && !read.strict) break;
        }
        if (lines && read.strict && !lines.end()) read.strict = false;
      } catch (error) {
        if (!(error instanceof InputDamage)) throw error;
        read.damage.push(
          warningText({ kind: "damaged", input: path, reason: error.message, cutLine: undefined }),
        );
        read.strict = false;
      }
    }
  }
  return read;
}

/** The check of one file's lines, a chunk at a time. */
class LineCheck {
  /** The start of a line the chunks so far cut, which a later chunk ends. */
  private cut: Buffer = Buffer.alloc(0);

  constructor(private readonly scanner: LineScanner) {}

  /** False once a line is not sure. */
  add(chunk: Buffer): boolean {
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      this.cut = Buffer.concat([this.cut, chunk]);
      return this.cut.length <= this.scanner.capacity;
    }
    const whole = this.check(Buffer.concat([this.cut, chunk.subarray(0, last + 1)]));
    this.cut = Buffer.from(chunk.subarray(last + 1));
    return whole;
  }

  /** Whether the last line, when the file does not end with a line end, is sure. */
  end(): boolean {
    return this.cut.length === 0 || this.check(Buffer.concat([this.cut, Buffer.from("\n")]));
  }

  /** Whether each line of `lines` (whole lines, the last ending with an LF) is blank or a JSON object. */
  private check(lines: Buffer): boolean {
    const { scanner } = this;
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
}

const isBlank = (bytes: Buffer, start: number, end: number) =>
  bytes.subarray(start, end).every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);
