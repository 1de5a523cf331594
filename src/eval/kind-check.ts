import { compileFieldReader } from "./field-reader.js";
import { type LineFilter, LineVerdict } from "./line-filter.js";
import { LineScanner } from "./line-scanner.js";
import { ExactNumber, NUMERIC_TEXT, SHORT_DIGITS } from "./numbers.js";
import { topLevelMembers } from "./records.js";

/** The kinds of value a typed column holds exactly, beside null: those query's typed read compares. */
export type ColumnValueKind = "string" | "int" | "bool";

/** A field, and the kind of value its column holds. */
export interface KindedField {
  name: string;
  kind: ColumnValueKind;
}

/**
 * A field query's SQL reads: read typed in a column of `kind` (none: not read typed), and compared
 * as a number where `numeric` (its values then count for ReadingWatch.numberReadExactly).
 */
export interface CheckedField {
  name: string;
  kind?: ColumnValueKind | undefined;
  numeric?: boolean | undefined;
}

/**
 * What the check also watches for, in query's local read: lines that DuckDB's NDJSON reader, or the
 * SQL over the values it reads, reads otherwise than eval. Those the text shows: a form feed or a
 * vertical tab about a line's object (JSON's blanks are space, tab, CR and LF; DuckDB's reader takes
 * the two as blanks too, eval counts the line malformed), an escape of half a surrogate pair or a
 * U+FFFD, which bytes that are not UTF-8 decode to (DuckDB's reader gives no row for either), a
 * named field given twice (DuckDB reads the first, eval the last), and a number the SQL does not
 * compare by eval's value (numberReadExactly). The bytes themselves (not UTF-8, half a pair in a
 * field no filter names) are for the caller to watch, in the blocks `bytes.load` is given.
 */
export interface ReadingWatch {
  /**
   * Whether the SQL compares a numeric field's value by the exact value eval reads: `text` is a
   * JSON number as written, or a numeric string's content (`quoted`).
   */
  numberReadExactly(text: string, quoted: boolean): boolean;
  /** Called for each line read otherwise. */
  readOtherwise(): void;
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
export function compileKindCheck(fields: readonly CheckedField[], watch?: ReadingWatch): KindCheck {
  const names = fields.map((field) => field.name);
  const kinds = fields.map((field) => field.kind);
  const numeric = fields.flatMap((field, slot) => (field.numeric ? [slot] : []));
  const read = compileFieldReader(names);
  const values: unknown[] = new Array(names.length);
  const check: KindCheck = {
    line(text) {
      if (!read(text, values)) {
        if (watch && BLANK_JSON_REFUSES.test(text)) watch.readOtherwise();
        return LineVerdict.malformed;
      }
      if (watch && readOtherwise(text, values, names, numeric, watch)) watch.readOtherwise();
      for (let slot = 0; slot < kinds.length; slot++) {
        const kind = kinds[slot];
        if (kind !== undefined && !valueFits(values[slot], kind)) return LineVerdict.match;
      }
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
      // A named field twice, or a number that may be read otherwise: the line filter decides.
      if (
        watch &&
        (scanner.repeatedField() || numeric.some((slot) => mayReadOtherwise(scanner, slot, watch)))
      )
        return undefined;
      for (let slot = 0; slot < kinds.length; slot++) {
        const kind = kinds[slot];
        const at = scanner.valueStart(slot);
        if (kind !== undefined && at >= 0 && !bytesFit(memory, at, scanner.valueEnd(slot), kind))
          return LineVerdict.match;
      }
      return LineVerdict.miss;
    },
  };
  return check;
}

/** A form feed or a vertical tab: no JSON blank, but DuckDB's NDJSON reader takes either as one. */
const BLANK_JSON_REFUSES = /[\v\f]/;
/**
 * Whether JSON text holds an escape of half of a surrogate pair (`\ud800` not followed by the
 * escape of a low half, or a low half alone), which DuckDB's reader refuses and JSON.parse reads.
 */
export const holdsHalfPairEscape = (text: string) => halfPairEscape(text, 0) >= 0;

/**
 * JSON text with each escape of half of a surrogate pair written as U+FFFD's (`\ufffd`), as the SQL
 * reads a record's text (src/sql/record-text.ts): DuckDB then reads it.
 */
export function halfPairEscapesReplaced(text: string): string {
  let replaced = "";
  let last = 0;
  for (let at = halfPairEscape(text, 0); at >= 0; at = halfPairEscape(text, last)) {
    replaced += `${text.slice(last, at)}\\ufffd`;
    last = at + 6;
  }
  return last === 0 ? text : replaced + text.slice(last);
}

/**
 * Where the first escape of half a surrogate pair at or after `from` (the start of an escape, or of
 * text outside one) starts; -1 when there is none. Escapes are read from left to right, so an
 * escaped backslash before `u` is no escape.
 */
function halfPairEscape(text: string, from: number): number {
  for (let at = text.indexOf("\\", from); at >= 0; at = text.indexOf("\\", at)) {
    if (text.charCodeAt(at + 1) !== 0x75) {
      at += 2;
      continue;
    }
    const unit = Number.parseInt(text.slice(at + 2, at + 6), 16);
    if (unit >= 0xdc00 && unit <= 0xdfff) return at;
    if (unit < 0xd800 || unit > 0xdbff) {
      at += 6;
      continue;
    }
    const next = text.charCodeAt(at + 7) === 0x75 ? Number.parseInt(text.slice(at + 8, at + 12), 16) : 0;
    if (text.charCodeAt(at + 6) !== 0x5c || next < 0xdc00 || next > 0xdfff) return at;
    at += 12;
  }
  return -1;
}

/**
 * Whether the line (well-formed, its named values read into `values`) is one DuckDB's reader or the
 * SQL over its values reads otherwise than eval (see ReadingWatch).
 */
function readOtherwise(
  text: string,
  values: readonly unknown[],
  names: readonly string[],
  numeric: readonly number[],
  watch: ReadingWatch,
): boolean {
  if (text.includes("\ufffd") || holdsHalfPairEscape(text)) return true;
  for (const slot of numeric) if (!numbersReadExactly(values[slot], watch)) return true;
  return names.length > 0 && repeatsName(text, names);
}

/** Whether each number of a numeric field's value (an array's elements too) is one the SQL reads exactly. */
function numbersReadExactly(value: unknown, watch: ReadingWatch): boolean {
  if (value instanceof ExactNumber) return watch.numberReadExactly(value.text, false);
  if (typeof value === "string") return !NUMERIC_TEXT.test(value) || watch.numberReadExactly(value, true);
  if (Array.isArray(value)) return value.every((element) => numbersReadExactly(element, watch));
  // A double: at most 15 significant digits, which every reading holds.
  return true;
}

/** Whether a named field is a key of the object twice. */
function repeatsName(text: string, names: readonly string[]): boolean {
  // Only a line holding a name's key twice, or an escape (which may spell a name), is read key by key.
  if (!text.includes("\\") && names.every((name) => !occursTwice(text, JSON.stringify(name)))) return false;
  const seen = new Set<string>();
  for (const { key } of topLevelMembers(text)) {
    if (seen.has(key) && names.includes(key)) return true;
    seen.add(key);
  }
  return false;
}

function occursTwice(text: string, part: string): boolean {
  const first = text.indexOf(part);
  return first >= 0 && text.indexOf(part, first + part.length) >= 0;
}

/**
 * Whether a numeric slot's value in the line scanned may be a number the SQL reads otherwise (see
 * numbersReadExactly): a long one with a point or an exponent, or a run of digits the watch says it
 * does not read exactly. Short values, most of them, are not looked at.
 */
function mayReadOtherwise(scanner: LineScanner, slot: number, watch: ReadingWatch): boolean {
  const start = scanner.valueStart(slot);
  const end = scanner.valueEnd(slot);
  if (start < 0 || end - start <= SHORT_DIGITS) return false;
  const memory = scanner.bytes;
  let run = start;
  for (let at = start; at <= end; at++) {
    const byte = at < end ? memory[at]! : 0;
    if (byte === 0x2e || byte === 0x65 || byte === 0x45) return true;
    if (byte >= 0x30 && byte <= 0x39) continue;
    if (at - run > SHORT_DIGITS && !watch.numberReadExactly(asciiText(memory, run, at), false)) return true;
    run = at + 1;
  }
  return false;
}

const asciiText = (memory: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...memory.subarray(start, end));
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
