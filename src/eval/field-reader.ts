import { jsonNumber } from "./numbers.js";
import { parseExactJson, parseRecord } from "./records.js";

/**
 * Reads the top-level fields a filter names from one log line into `values` (`values[i]` for
 * `fields[i]`, undefined when the record lacks it). Returns false when the line is malformed.
 */
export type FieldReader = (line: string, values: unknown[]) => boolean;

/**
 * Compiles a reader for the named (distinct) top-level fields that agrees with `parseRecord` followed by
 * reading each field as an own property: the same lines are malformed, the same values are read
 * (the last of duplicate keys; keys of nested objects do not count; numbers a double would round
 * as ExactNumber).
 *
 * Most lines are read by one regular expression built for the order in which the named fields
 * appear in the lines (their layout, learned from the lines themselves). The expression validates
 * the whole line with the JSON grammar, skips the fields the filter does not name without building
 * their values, and captures the text of the named ones; a JSON.parse of every line would build
 * every value. A line it does not take is read with `parseRecord`, which decides: a malformed line;
 * a key written with escapes (which may spell a named field); nesting deeper than an object or
 * array of scalars as a value; the named fields in another order, or one of them twice.
 */
export function compileFieldReader(fields: readonly string[]): FieldReader {
  const slotOf = new Map(fields.map((field, slot) => [field, slot]));
  if (slotOf.size !== fields.length) throw new Error("compileFieldReader: the field names must be distinct");
  // A key written without escapes holds no quote, backslash or control character.
  const literal = fields.filter((field) => !NEEDS_ESCAPE.test(field));
  const member = unnamedMember(literal);
  const layouts = new Map<string, Layout | null>();
  /** The layout tried first: the one of the last line that needed parsing. */
  let current: Layout | null = null;
  let attempts = 0;
  let misses = 0;
  let paused = 0;

  const readParsed = (line: string, values: unknown[], learn: boolean): boolean => {
    const record = parseRecord(line);
    if (record === undefined) return false;
    for (let slot = 0; slot < fields.length; slot++) {
      const field = fields[slot]!;
      values[slot] = hasOwn.call(record, field) ? record[field] : undefined;
    }
    if (!learn) return true;
    const slots: number[] = [];
    for (const key of Object.keys(record)) {
      const slot = slotOf.get(key);
      if (slot !== undefined) slots.push(slot);
    }
    const key = slots.join(",");
    let layout = layouts.get(key);
    if (layout === undefined && layouts.size < MAX_LAYOUTS) {
      layout = compileLayout(fields, slots, literal, member);
      layouts.set(key, layout);
    }
    if (layout !== undefined) current = layout;
    return true;
  };

  const toValue = (text: string): unknown => {
    switch (text.charCodeAt(0)) {
      case 0x74: // t
        return true;
      case 0x66: // f
        return false;
      case 0x6e: // n
        return null;
      case 0x5b: // [
      case 0x7b: // {
        return parseExactJson(text, 1);
      default:
        return jsonNumber(text);
    }
  };

  return (line, values) => {
    if (paused > 0) {
      paused--;
      return readParsed(line, values, false);
    }
    if (current !== null && line.length <= MAX_LINE) {
      let match: RegExpExecArray | null = null;
      try {
        match = current.regex.exec(line);
      } catch {
        // An engine limit (backtracking stack): JSON.parse decides.
      }
      if (match !== null) {
        const { slots, absent } = current;
        for (let i = 0; i < slots.length; i++) {
          const text = match[2 * i + 1];
          values[slots[i]!] =
            text === undefined
              ? toValue(match[2 * i + 2]!)
              : text.indexOf("\\") === -1
                ? text
                : JSON.parse(`"${text}"`);
        }
        for (let i = 0; i < absent.length; i++) values[absent[i]!] = undefined;
        if (++attempts === WINDOW) attempts = misses = 0;
        return true;
      }
    }
    // When most lines of a window miss the expression (lines it cannot read, or layouts changing
    // all the time), stop trying it for a while.
    misses++;
    if (++attempts === WINDOW) {
      if (misses * 2 > WINDOW) paused = PAUSE;
      attempts = misses = 0;
    }
    return readParsed(line, values, true);
  };
}

const hasOwn = Object.prototype.hasOwnProperty;
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** Distinct layouts compiled per reader; lines of further layouts are parsed. */
const MAX_LAYOUTS = 16;
/** Longer lines are parsed (the expression's backtracking stack grows with the line). */
const MAX_LINE = 1 << 20;
/** Layouts needing a longer pattern are parsed: V8 ran patterns past about 20,000 characters twice as slowly. */
const MAX_SOURCE = 18_000;
/** When more than half of a window of lines miss the expression, the next PAUSE lines are parsed. */
const WINDOW = 256;
const PAUSE = 4096;

interface Layout {
  /** Captures two groups per named field present: a string's body, or the text of another value. */
  regex: RegExp;
  /** The slots of the fields present, in line order. */
  slots: number[];
  /** The slots of the named fields the layout lacks. */
  absent: number[];
}

// The JSON grammar (RFC 8259) as JSON.parse applies it, in pieces of regular expressions.
const WS = String.raw`[ \t\n\r]*`;
const CHARS = String.raw`[^"\\\x00-\x1f]*`;
const STRING_BODY = String.raw`${CHARS}(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})${CHARS})*`;
const STRING = `"${STRING_BODY}"`;
const NUMBER = String.raw`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?`;
const SCALAR = `(?:${STRING}|${NUMBER}|true|false|null)`;
// Each element is followed by `,` and another element, or by the closing bracket.
const ARRAY = String.raw`\[${WS}(?:${SCALAR}${WS}(?:,${WS}(?=[^\]])|(?=\])))*\]`;
const OBJECT = String.raw`\{${WS}(?:${STRING}${WS}:${WS}${SCALAR}${WS}(?:,${WS}(?=[^}])|(?=\})))*\}`;
/** A member's value: a scalar, or an array or object of scalars. */
const VALUE = `(?:${SCALAR}|${ARRAY}|${OBJECT})`;
/** A named field's value, captured: a string's body (group 1) or the whole value (group 2). */
const CAPTURED = `(?:"(${STRING_BODY})"|(${NUMBER}|true|false|null|${ARRAY}|${OBJECT}))`;

/** A member whose key is written without escapes and is none of the named fields. */
function unnamedMember(literal: readonly string[]): string {
  const key = literal.length > 0 ? `(?!"${alternation([...new Set(literal)])}")"${CHARS}"` : `"${CHARS}"`;
  return `${key}${WS}:${WS}${VALUE}`;
}

/** The expression for lines whose named fields are `slots`, in this order, each once; null when none fits. */
function compileLayout(
  fields: readonly string[],
  slots: number[],
  literal: readonly string[],
  member: string,
): Layout | null {
  if (slots.some((slot) => !literal.includes(fields[slot]!))) return null;
  const skip = `(?:${member}${WS},${WS})*`;
  let source = `^${WS}\\{${WS}`;
  slots.forEach((slot, i) => {
    if (i > 0) source += `,${WS}`;
    source += `${skip}"${escapeRegExp(fields[slot]!)}"${WS}:${WS}${CAPTURED}${WS}`;
  });
  source += slots.length > 0 ? `(?:,${WS}${skip}${member}${WS})?` : `(?:${skip}${member}${WS})?`;
  source += `\\}${WS}$`;
  if (source.length > MAX_SOURCE) return null;
  const absent = fields.map((_, slot) => slot).filter((slot) => !slots.includes(slot));
  return { regex: new RegExp(source), slots, absent };
}

/** An expression matching exactly the given distinct words, as a trie (alternatives sharing a prefix are slow). */
function alternation(words: readonly string[]): string {
  const byFirst = new Map<string, string[]>();
  let empty = false;
  for (const word of words) {
    if (word === "") empty = true;
    else {
      const rests = byFirst.get(word[0]!) ?? [];
      rests.push(word.slice(1));
      byFirst.set(word[0]!, rests);
    }
  }
  const branches = [...byFirst].map(([first, rests]) => {
    let prefix = rests[0]!;
    for (const rest of rests) while (!rest.startsWith(prefix)) prefix = prefix.slice(0, -1);
    const tail = rests.length === 1 ? "" : alternation(rests.map((rest) => rest.slice(prefix.length)));
    return escapeRegExp(first + prefix) + tail;
  });
  if (empty) branches.push("");
  return branches.length === 1 ? branches[0]! : `(?:${branches.join("|")})`;
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
