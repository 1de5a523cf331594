import { ExactNumber } from "./numbers.js";
import { otherValue, parseRecord } from "./records.js";

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
 * Most lines are read by one regular expression built for their layout, learned from the lines
 * themselves. The expression validates the whole line with the JSON grammar, skips the fields the
 * filter does not name without building their values, and captures the text of the named ones; a
 * JSON.parse of every line would build every value. There are two kinds of layout:
 * - exact: every key of the line in order, written out, each value of the kind it had (string,
 *   other scalar, array, object), no whitespace. The lines of one Logpush job share one key order,
 *   so this is the layout most lines take, and the fastest;
 * - named: only the named fields in their order, any other members and whitespace between them,
 *   for the lines of the same named order the exact one does not take.
 * A line neither takes is read with `parseRecord`, which decides: a malformed line; a key written
 * with escapes (which may spell a named field); nesting deeper than an object or array of scalars
 * as a value; the named fields in another order, or one of them twice.
 */
export function compileFieldReader(fields: readonly string[]): FieldReader {
  const slotOf = new Map(fields.map((field, slot) => [field, slot]));
  if (slotOf.size !== fields.length) throw new Error("compileFieldReader: the field names must be distinct");
  // A key written without escapes holds no quote, backslash or control character.
  const literal = fields.filter((field) => !NEEDS_ESCAPE.test(field));
  const member = unnamedMember(literal);
  /** Named layouts by the slots of the named fields in line order. */
  const layouts = new Map<string, Layout | null>();
  /** Exact layouts by their keys and value kinds. */
  const exactLayouts = new Map<string, Layout | null>();
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
    if (learn) {
      const layout = layoutOf(line, record);
      if (layout !== undefined) current = layout;
    }
    return true;
  };

  /**
   * The layout of a line read by parseRecord: its exact one when that reads it back, else its named
   * one; null when it has none, undefined when no more layouts are compiled.
   */
  const layoutOf = (line: string, record: Record<string, unknown>): Layout | null | undefined => {
    const keys = Object.keys(record);
    const slots: number[] = [];
    for (const key of keys) {
      const slot = slotOf.get(key);
      if (slot !== undefined) slots.push(slot);
    }
    const named = slots.join(",");
    let layout = layouts.get(named);
    if (layout === undefined && layouts.size < MAX_LAYOUTS) {
      layout = compileLayout(fields, slots, literal, member);
      layouts.set(named, layout);
    }
    const kinds = kindsOf(keys, record);
    if (kinds === undefined) return layout;
    // No key holds a control character (kindsOf saw to it), so none holds the separator.
    const shape = `${kinds}\u0000${keys.join("\u0000")}`;
    let exact = exactLayouts.get(shape);
    if (exact === undefined && exactLayouts.size < MAX_LAYOUTS) {
      exact = compileExactLayout(fields.length, keys, kinds, slotOf);
      // Keys Object.keys lists out of line order (integer-like ones), whitespace, a key twice: the
      // line itself says whether the exact layout reads it.
      if (exact !== null && !exact.regex.test(line)) exact = null;
      if (exact !== null) exact.fallback = layout ?? undefined;
      exactLayouts.set(shape, exact);
    }
    return exact ?? layout;
  };

  /** Reads the line with one layout's expression; false when it does not take the line. */
  const readWith = (layout: Layout, line: string, values: unknown[]): boolean => {
    let match: RegExpExecArray | null = null;
    try {
      match = layout.regex.exec(line);
    } catch {
      // An engine limit (backtracking stack): JSON.parse decides.
    }
    if (match === null) return false;
    const { slots, absent } = layout;
    for (let i = 0; i < slots.length; i++) {
      const text = match[2 * i + 1];
      values[slots[i]!] =
        text === undefined
          ? otherValue(match[2 * i + 2]!)
          : text.indexOf("\\") === -1
            ? text
            : JSON.parse(`"${text}"`);
    }
    for (let i = 0; i < absent.length; i++) values[absent[i]!] = undefined;
    return true;
  };

  return (line, values) => {
    if (paused > 0) {
      paused--;
      return readParsed(line, values, false);
    }
    if (current !== null && line.length <= MAX_LINE)
      for (let layout: Layout | undefined = current; layout; layout = layout.fallback)
        if (readWith(layout, line, values)) {
          if (++attempts === WINDOW) attempts = misses = 0;
          return true;
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
  /** Of an exact layout: the named layout of the same slots, tried when the exact one misses. */
  fallback?: Layout | undefined;
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

/** A value's kind: string, other scalar, array, object, or null (which may stand for any scalar). */
type Kind = "s" | "n" | "a" | "o" | "x";

/** What an exact layout asks of another field's value, by the kind of the value it was learned from. */
const KIND_PATTERN: Record<Kind, string> = {
  s: `(?:${STRING}|null)`,
  n: `(?:${NUMBER}|true|false|null)`,
  a: `(?:${ARRAY}|null)`,
  o: `(?:${OBJECT}|null)`,
  x: SCALAR,
};

/** A named field's value, captured as in CAPTURED (a string always taken), of the kind it was learned from. */
const CAPTURED_SCALAR = `(?:"(${STRING_BODY})"|(${NUMBER}|true|false|null))`;
const CAPTURED_KIND: Record<Kind, string> = {
  s: CAPTURED_SCALAR,
  n: CAPTURED_SCALAR,
  a: `(?:"(${STRING_BODY})"|(${ARRAY}|null))`,
  o: `(?:"(${STRING_BODY})"|(${OBJECT}|null))`,
  x: CAPTURED_SCALAR,
};

function kindOf(value: unknown): Kind {
  if (typeof value === "string") return "s";
  if (value === null) return "x";
  if (Array.isArray(value)) return "a";
  return typeof value === "object" && !(value instanceof ExactNumber) ? "o" : "n";
}

/** The kinds of the record's values, a letter each in key order; undefined when a key needs escapes. */
function kindsOf(keys: readonly string[], record: Record<string, unknown>): string | undefined {
  let kinds = "";
  for (const key of keys) {
    if (NEEDS_ESCAPE.test(key)) return undefined;
    kinds += kindOf(record[key]);
  }
  return kinds;
}

/** The exact layout of lines with these keys (in line order) and kinds of values; null when too long. */
function compileExactLayout(
  fieldCount: number,
  keys: readonly string[],
  kinds: string,
  slotOf: ReadonlyMap<string, number>,
): Layout | null {
  const slots: number[] = [];
  const members = keys.map((key, i) => {
    const kind = kinds[i] as Kind;
    const slot = slotOf.get(key);
    if (slot !== undefined) slots.push(slot);
    return `"${escapeRegExp(key)}":${slot === undefined ? KIND_PATTERN[kind] : CAPTURED_KIND[kind]}`;
  });
  const source = `^\\{${members.join(",")}\\}$`;
  return source.length > MAX_SOURCE ? null : newLayout(fieldCount, source, slots);
}

/** A layout of the expression `source`, which captures the fields of `slots` in this order. */
function newLayout(fieldCount: number, source: string, slots: number[]): Layout {
  const absent: number[] = [];
  for (let slot = 0; slot < fieldCount; slot++) if (!slots.includes(slot)) absent.push(slot);
  return { regex: new RegExp(source), slots, absent };
}

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
  return source.length > MAX_SOURCE ? null : newLayout(fields.length, source, slots);
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
