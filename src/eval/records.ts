/** One log line as a record: a JSON object, or undefined when the line is not one. */
export function parseRecord(line: string, exactIntegers: boolean): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    if (exactIntegers && LONG_INTEGER.test(line)) {
      const quoted = quoteLongIntegers(line);
      // Quoting can make a malformed line well-formed ({"a":0123…}, or a number as a key): the
      // line is malformed exactly when JSON.parse refuses it as written.
      if (quoted !== line) JSON.parse(line);
      value = JSON.parse(quoted);
    } else value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** 16 digits in a row: the line may hold a JSON number that a double may not hold exactly. */
export const LONG_INTEGER = /\d{16}/;

/** An integer literal of 16 digits or more: read as its text when exact integers are asked for. */
export const LONG_INTEGER_TOKEN = /^-?\d{16,}$/;

/**
 * Rewrites integer literals of 16 digits or more as JSON strings, so that JSON.parse keeps every
 * digit (numeric strings compare as numbers). Text inside strings is left alone; malformed JSON
 * stays malformed.
 */
export function quoteLongIntegers(line: string): string {
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < line.length) {
    const char = line.charCodeAt(i);
    if (char === 0x22) {
      i++;
      while (i < line.length && line.charCodeAt(i) !== 0x22) i += line.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
    } else if (char === 0x2d || (char >= 0x30 && char <= 0x39)) {
      const start = i;
      i++;
      while (i < line.length && isNumberChar(line.charCodeAt(i))) i++;
      const token = line.slice(start, i);
      if (LONG_INTEGER_TOKEN.test(token)) {
        out += `${line.slice(copied, start)}"${token}"`;
        copied = i;
      }
    } else i++;
  }
  return copied === 0 ? line : out + line.slice(copied);
}

function isNumberChar(char: number): boolean {
  // digits, '.', 'e', 'E', '+', '-'
  return (
    (char >= 0x30 && char <= 0x39) ||
    char === 0x2e ||
    char === 0x65 ||
    char === 0x45 ||
    char === 0x2b ||
    char === 0x2d
  );
}
