import { jsonNumber } from "./numbers.js";

/**
 * One log line as a record: a JSON object, or undefined when the line is not one (JSON.parse
 * decides). Numbers a double would round are kept exact (ExactNumber) where a filter can compare
 * them: as field values and as elements of array fields.
 */
export function parseRecord(line: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return MAY_HOLD_LONG_NUMBER.test(line)
    ? (parseExactJson(line, 0) as Record<string, unknown>)
    : (value as Record<string, unknown>);
}

/**
 * Some number in the text may have more than 15 significant digits (16 digits, one point allowed
 * among them) or an exponent: only then is the text parsed again, exactly.
 */
const MAY_HOLD_LONG_NUMBER = /\d(?:\.?\d){15}|\d[eE]/;

/**
 * The value of a record field's JSON text that is no string: true, false, null, a number (kept
 * exact, see numbers.ts), an array or an object (their numbers kept exact as in parseRecord).
 */
export function otherValue(text: string): unknown {
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
}

/** Below this depth (a record's field values, and the elements of array values), numbers are kept exact. */
const EXACT_DEPTH = 2;

/**
 * Parses JSON text that JSON.parse accepts into the same value, but with numbers a double would
 * round kept as ExactNumber at depths below EXACT_DEPTH (`depth` is that of the text's value);
 * deeper values, which no filter compares, are left to JSON.parse.
 */
function parseExactJson(text: string, depth: number): unknown {
  let i = 0;
  const skipBlanks = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  };
  const string = (): string => {
    const start = i++;
    for (let c = text.charCodeAt(i); c !== 34; c = text.charCodeAt(i)) i += c === 92 ? 2 : 1;
    i++;
    const raw = text.slice(start, i);
    return raw.indexOf("\\") === -1 ? raw.slice(1, -1) : (JSON.parse(raw) as string);
  };
  /** Moves past the array or object at i. */
  const skipNested = () => {
    let open = 0;
    do {
      const c = text.charCodeAt(i);
      if (c === 34) {
        string();
        continue;
      }
      if (c === 91 || c === 123) open++;
      else if (c === 93 || c === 125) open--;
      i++;
    } while (open > 0);
  };
  const value = (level: number): unknown => {
    skipBlanks();
    const c = text.charCodeAt(i);
    if (c === 34) return string();
    if (c === 91 || c === 123) {
      if (level >= EXACT_DEPTH) {
        const start = i;
        skipNested();
        return JSON.parse(text.slice(start, i));
      }
      i++;
      skipBlanks();
      if (c === 91) {
        const items: unknown[] = [];
        while (text.charCodeAt(i) !== 93) {
          items.push(value(level + 1));
          skipBlanks();
          if (text.charCodeAt(i) === 44) i++;
          skipBlanks();
        }
        i++;
        return items;
      }
      const members: Record<string, unknown> = {};
      while (text.charCodeAt(i) !== 125) {
        const key = string();
        skipBlanks();
        i++; // the colon
        // As JSON.parse: an own property, also for "__proto__".
        Object.defineProperty(members, key, {
          value: value(level + 1),
          writable: true,
          enumerable: true,
          configurable: true,
        });
        skipBlanks();
        if (text.charCodeAt(i) === 44) i++;
        skipBlanks();
      }
      i++;
      return members;
    }
    if (c === 116 || c === 102 || c === 110) {
      // true, false or null
      const literal = c === 116 ? true : c === 102 ? false : null;
      i += c === 102 ? 5 : 4;
      return literal;
    }
    const start = i;
    for (
      let d = text.charCodeAt(i);
      (d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45;
      d = text.charCodeAt(++i)
    );
    return jsonNumber(text.slice(start, i));
  };
  return value(depth);
}

/**
 * The members of the JSON object `text` (one JSON.parse reads), in order, a key given twice twice
 * (JSON.parse keeps only the last): each key, and its value's text as written.
 */
export function topLevelMembers(text: string): { key: string; value: string }[] {
  const members: { key: string; value: string }[] = [];
  let depth = 0;
  let key: string | undefined;
  let valueStart = -1;
  const end = (at: number) => {
    if (key !== undefined) members.push({ key, value: text.slice(valueStart, at).trim() });
    key = undefined;
    valueStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const start = i++;
      for (let d = text.charCodeAt(i); d !== 34; d = text.charCodeAt(i)) i += d === 92 ? 2 : 1;
      if (depth === 1 && key === undefined) {
        const raw = text.slice(start, i + 1);
        key = raw.indexOf("\\") === -1 ? raw.slice(1, -1) : (JSON.parse(raw) as string);
      }
    } else if (c === 58 && depth === 1 && valueStart < 0) valueStart = i + 1;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (--depth === 0) end(i);
    } else if (c === 44 && depth === 1) end(i);
  }
  return members;
}
