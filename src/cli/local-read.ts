import { isUtf8 } from "node:buffer";
import { resolve } from "node:path";
import {
  type ByteFilter,
  type CheckedField,
  compileKindCheck,
  holdsHalfPairEscape,
  type LineFilter,
  LineVerdict,
} from "../eval/index.js";
import {
  DEFAULT_MAX_LINE_BYTES,
  decompressed,
  emptyCounts,
  evalLines,
  fileChunksOf,
  type LogInput,
  UnreadableTimes,
  warningText,
  withoutBom,
} from "../logs/index.js";
import { type Location, readsNumberExactly } from "../sql/index.js";

/** What query learns from its own read of the local files, beside DuckDB's. */
export interface LocalRead {
  /**
   * The damage eval would report in the gzip files (a member cut short or corrupt, bytes after the
   * last one), as eval words it: DuckDB reads a gzip file cut short up to the cut and says nothing.
   */
  damage: string[];
  /**
   * The local files (named as their locations name them) that DuckDB's NDJSON reader, or the SQL
   * over what it reads, reads otherwise than eval, somewhere (see readOtherwise): query answers
   * them with eval's reading, and DuckDB reads the others.
   */
  byEval: string[];
  /**
   * Whether every line of the files DuckDB reads is blank or a JSON object as JSON.parse reads one:
   * eval's reading of the lines, with no filter. DuckDB's JSON reader also takes a comma before `]`
   * or `}` and the numbers NaN and Infinity, which JSON.parse refuses: query's typed read holds only
   * where this is true. False also for a location that is not a local file, damage, or lines not
   * asked to be checked.
   */
  strict: boolean;
  /** The lines of those files where a field holds a value of another kind than its column's (see compileKindCheck). */
  misfits: number;
}

/** What the read checks: the fields query's SQL reads, whether the typed read asks, and whether each line's bytes count (--stats). */
export interface LocalCheck {
  fields: readonly CheckedField[];
  typed: boolean;
  bytes: boolean;
}

/**
 * DuckDB's reader fails on a longer line (its `maximum_object_size`), where eval reads one up to
 * DEFAULT_MAX_LINE_BYTES.
 */
const DUCKDB_MAX_LINE_BYTES = 16 * 1024 * 1024;
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Reads every line of the local files among `locations` once, as eval reads it (gzip inflated, a
 * byte order mark dropped): for their damage, for the kinds of the typed read's values (see
 * LocalRead), and for where DuckDB reads a file otherwise than eval. That is a line DuckDB's reader
 * gives no row for or reads otherwise (compileKindCheck's ReadingWatch: half of a surrogate pair,
 * bytes that are not UTF-8, a form feed or a vertical tab about the object, a named field twice, a
 * number it rounds; a line longer than it reads), a byte order mark, a gzip file with damage or
 * padding after its last member (DuckDB fails on both), and where each line's bytes count, a line
 * whose text DuckDB trims (blanks or a CR about the object) or a last line without its LF (DuckDB
 * counts one).
 */
export async function readLocalFiles(
  locations: readonly Location[],
  cwd: string,
  check: LocalCheck,
): Promise<LocalRead> {
  const read: LocalRead = {
    damage: [],
    byEval: [],
    strict: check.typed && locations.every((location) => location.kind === "local"),
    misfits: 0,
  };
  let otherwise = false;
  const readOtherwise = () => {
    otherwise = true;
  };
  const kinds = compileKindCheck(check.fields, { numberReadExactly: readsNumberExactly, readOtherwise });
  const line: LineFilter = (text) => {
    const verdict = kinds.line(text);
    if (otherwise) return verdict;
    if (text.length * 3 > DUCKDB_MAX_LINE_BYTES && Buffer.byteLength(text) > DUCKDB_MAX_LINE_BYTES)
      readOtherwise();
    else if (
      check.bytes &&
      verdict !== LineVerdict.malformed &&
      !(text.startsWith("{") && text.endsWith("}"))
    )
      readOtherwise();
    return verdict;
  };
  const bytes = kinds.bytes && watchedBytes(kinds.bytes, check.bytes, () => otherwise, readOtherwise);
  for (const location of locations) {
    if (location.kind !== "local") continue;
    for (const path of location.paths) {
      otherwise = false;
      const content = new ContentWatch();
      const input: LogInput = {
        name: path,
        size: undefined,
        open: () =>
          withoutBom(content.watch(decompressed(fileChunksOf(resolve(cwd, path)), false, readOtherwise))),
      };
      const counts = emptyCounts();
      await evalLines(input, {
        filter: line,
        blockFilter: undefined,
        byteFilter: bytes,
        invert: false,
        write: undefined,
        strict: false,
        maxLineBytes: DEFAULT_MAX_LINE_BYTES,
        counts,
        onRead: () => undefined,
        warn: (warning) => {
          if (warning.kind === "damaged")
            read.damage.push(warningText({ ...warning, input: path, cutLine: undefined }));
          readOtherwise();
        },
        times: new UnreadableTimes(),
      });
      if (content.startsWith(BYTE_ORDER_MARK) || (check.bytes && !content.endsWithLineEnd())) readOtherwise();
      if (otherwise) read.byEval.push(path);
      else {
        if (counts.malformed > 0) read.strict = false;
        read.misfits += counts.matched;
      }
    }
  }
  return read;
}

/**
 * The byte filter with the checks of the bytes themselves: each block of lines is UTF-8 and holds
 * no escape of half a surrogate pair (in any field), and, where `lineBytes`, each line the filter
 * is sure of starts and ends with its object's braces.
 */
function watchedBytes(
  filter: ByteFilter,
  lineBytes: boolean,
  known: () => boolean,
  readOtherwise: () => void,
): ByteFilter {
  let block: Uint8Array = new Uint8Array(0);
  return {
    load(bytes) {
      block = bytes;
      if (!known()) {
        const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        // Escapes are ASCII: the block read as Latin-1 holds them as the text holds them.
        if (!isUtf8(buffer) || (buffer.includes("\\u") && holdsHalfPairEscape(buffer.toString("latin1"))))
          readOtherwise();
      }
      return filter.load(bytes);
    },
    test(start, end) {
      const verdict = filter.test(start, end);
      if (lineBytes && verdict !== undefined && (block[start] !== 0x7b || block[end - 1] !== 0x7d))
        readOtherwise();
      return verdict;
    },
  };
}

/** The first bytes of a content and whether it ends with an LF, seen as it passes. */
class ContentWatch {
  private head = Buffer.alloc(0);
  private last = -1;

  async *watch(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      if (this.head.length < BYTE_ORDER_MARK.length)
        this.head = Buffer.concat([this.head, chunk.subarray(0, BYTE_ORDER_MARK.length)]);
      if (chunk.length > 0) this.last = chunk[chunk.length - 1]!;
      yield chunk;
    }
  }

  startsWith(bytes: Buffer): boolean {
    return this.head.subarray(0, bytes.length).equals(bytes);
  }

  /** True also for no content at all. */
  endsWithLineEnd(): boolean {
    return this.last === -1 || this.last === 0x0a;
  }
}
