import { compileFieldReader } from "./field-reader.js";
import { type LineFilter, LineVerdict } from "./line-filter.js";
import { LineScanner } from "./line-scanner.js";
import { ExactNumber } from "./numbers.js";

/** The kinds of value a typed column holds exactly, beside null: those query's typed read compares. */
export type ColumnValueKind = "string" | "int" | "bool";

/** A field, and the kind of value its column holds. */
export interface KindedField {
  name: string;
  kind: ColumnValueKind;
}

/**
 * A filter over blocks of whole lines that reads their bytes only, never decoding them (see
 * evalLines): for a check that builds no value, decoding the text would be most of its work.
 */
export interface ByteFilter {
  /** Makes `bytes` (whole lines, the last ending with its LF) the current block; false when it is too long to scan. */
  load(bytes: Uint8Array): boolean;
  /**
   * The verdict of the current block's line at bytes start…end (end at its LF), match or miss;
   * undefined when the line filter must decide, on the line's text (a malformed line among them).
   */
  test(start: number, end: number): typeof LineVerdict.match | typeof LineVerdict.miss | undefined;
}

/** compileKindCheck's filters. */
export interface KindCheck {
  line: LineFilter;
  /** Undefined where the scanner cannot take the fields, or a name holds U+FFFD (see compileKindCheck). */
  bytes: ByteFilter | undefined;
}

/**
 * The check of the lines behind query's typed reads: a line *matches* when a field holds a value of
 * another kind than its column's, and *misses* when each value is of its kind, null, or missing;
 * malformed lines are eval's. Where no line matches, DuckDB's read of the fields in their column
 * types (which converts a value of another kind, `"503"` or `503.5` into 503, rather than refuse
 * it) reads each value exactly. An int is a number written without a point or an exponent; the
 * line filter, which sees values and not their text, also takes a whole number a double holds
 * exactly (`503.0`, which DuckDB reads as 503 too). The byte filter scans each line in the
 * WebAssembly scanner, lines beyond ASCII too: bytes past ASCII are only ever string content, where
 * JSON.parse of the decoded text takes them all (an invalid one decodes to U+FFFD), and a key
 * matches a name by its bytes, which is the decoded match for names without U+FFFD.
 */
export function compileKindCheck(fields: readonly KindedField[]): KindCheck {
  const names = fields.map((field) => field.name);
  const kinds = fields.map((field) => field.kind);
  const read = compileFieldReader(names);
  const values: unknown[] = new Array(names.length);
  const check: KindCheck = {
    line(text) {
      if (!read(text, values)) return LineVerdict.malformed;
      for (let slot = 0; slot < kinds.length; slot++)
        if (!valueFits(values[slot], kinds[slot]!)) return LineVerdict.match;
      return LineVerdict.miss;
    },
    bytes: undefined,
  };
  const scanner = names.some((name) => name.includes("\ufffd")) ? undefined : LineScanner.of(names);
  if (scanner === undefined) return check;
  const memory = scanner.bytes;
  check.bytes = {
    load: (block) => scanner.load(block),
    test(start, end) {
      if (!scanner.scan(start, end)) return undefined;
      for (let slot = 0; slot < kinds.length; slot++) {
        const at = scanner.valueStart(slot);
        if (at >= 0 && !bytesFit(memory, at, scanner.valueEnd(slot), kinds[slot]!)) return LineVerdict.match;
      }
      return LineVerdict.miss;
    },
  };
  return check;
}

/** Whether the JSON value at bytes start…end is null or of `kind` (an int: see compileKindCheck). */
function bytesFit(memory: Uint8Array, start: number, end: number, kind: ColumnValueKind): boolean {
  const first = memory[start]!;
  if (first === 0x6e) return true; // null
  if (kind === "string") return first === 0x22;
  if (kind === "bool") return first === 0x74 || first === 0x66;
  if (first !== 0x2d && (first < 0x30 || first > 0x39)) return false;
  for (let at = start + 1; at < end; at++) {
    const byte = memory[at]!;
    if (byte === 0x2e || byte === 0x65 || byte === 0x45) return false;
  }
  return true;
}

/** Whether a record's value is null, missing, or of `kind` (an int: see compileKindCheck). */
function valueFits(value: unknown, kind: ColumnValueKind): boolean {
  if (value === undefined || value === null) return true;
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "bool":
      return typeof value === "boolean";
    case "int":
      return Number.isSafeInteger(value) || (value instanceof ExactNumber && !/[.eE]/.test(value.text));
  }
}
