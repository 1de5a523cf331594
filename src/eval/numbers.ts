/**
 * Numbers in log records compare by their exact decimal value, whether the log writes a JSON number
 * (`0.12345678901234567`, `18446744073709551615.0`, `1e400`) or a numeric string (`"0500"`), and
 * whatever the constant. A value with at most 15 significant digits and a moderate exponent is
 * compared as a double, which is then exact: distinct such decimals are distinct doubles, in the
 * same order. Anything longer is kept as an exact decimal (JSON numbers as ExactNumber) and compared
 * digit by digit.
 */

/** A decimal exactly: value = (negative ? -1 : 1) × 0.digits × 10^exponent; digits "" is zero. */
export interface Decimal {
  negative: boolean;
  /** The significant digits, without leading or trailing zeros. */
  digits: string;
  exponent: number;
}

/** A JSON number a double would round (see isShort), kept exact. */
export class ExactNumber {
  constructor(
    /** The number as the log writes it. */
    readonly text: string,
    readonly decimal: Decimal,
  ) {}
}

const ZERO: Decimal = { negative: false, digits: "", exponent: 0 };
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Numeric strings: `-?digits[.digits]` (no exponent, no blanks). The SQL stage tests the same in the engines. */
export const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;
/** Past any constant a filter can hold (its source is bounded): exponents this far compare alike. */
const EXPONENT_BOUND = 1e15;
/** Significant digits a double tells apart (DBL_DIG), within exponents where doubles are normal. */
export const SHORT_DIGITS = 15;
const SHORT_EXPONENT = 300;

/** The decimal a JSON number or a numeric string writes (undefined for other text). */
export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL.exec(text);
  if (match === null) return undefined;
  const whole = match[2]!;
  const all = whole + (match[3] ?? "");
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 48) first++;
  let end = all.length;
  while (end > first && all.charCodeAt(end - 1) === 48) end--;
  if (first === end) return ZERO;
  const written = match[4] === undefined ? 0 : Number(match[4]);
  const exponent = Math.max(-EXPONENT_BOUND, Math.min(EXPONENT_BOUND, written));
  return {
    negative: match[1] === "-",
    digits: all.slice(first, end),
    exponent: whole.length + exponent - first,
  };
}

/** Whether comparing as doubles gives the exact order for this decimal. */
export function isShort(decimal: Decimal): boolean {
  return (
    decimal.digits.length <= SHORT_DIGITS &&
    decimal.exponent >= -SHORT_EXPONENT &&
    decimal.exponent <= SHORT_EXPONENT
  );
}

/** Whether a constant's canonical text compares exactly as a double. */
export function isShortText(text: string): boolean {
  return isShort(parseDecimal(text)!);
}

/** Exact order of two decimals, like a sort comparator. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const signA = a.digits === "" ? 0 : a.negative ? -1 : 1;
  const signB = b.digits === "" ? 0 : b.negative ? -1 : 1;
  if (signA !== signB || signA === 0) return signA - signB;
  let magnitude = a.exponent - b.exponent;
  if (magnitude === 0 && a.digits !== b.digits) magnitude = a.digits < b.digits ? -1 : 1;
  return signA * magnitude;
}

/** One text per value, for sets of constants: equal decimals, equal keys. */
export function decimalKey(decimal: Decimal): string {
  return `${decimal.negative ? "-" : ""}${decimal.digits}e${decimal.exponent}`;
}

/** A JSON number token as a record value: a double when that is exact enough, else an ExactNumber. */
export function jsonNumber(text: string): number | ExactNumber {
  const length = text.length;
  if (length <= SHORT_DIGITS) {
    // Most are short integers (status codes, byte counts): their digits are summed in place, exact
    // under 10^15, faster than Number(text).
    const negative = text.charCodeAt(0) === 45;
    let value = 0;
    let i = negative ? 1 : 0;
    for (; i < length; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (i === length) return negative ? -value : value;
    // 15 characters without an exponent hold at most 15 digits and a small exponent.
    if (text.indexOf("e") === -1 && text.indexOf("E") === -1) return Number(text);
  }
  const decimal = parseDecimal(text)!;
  return isShort(decimal) ? Number(text) : new ExactNumber(text, decimal);
}

/**
 * A record value as a double for the fast comparisons with short constants, or NaN when it is no
 * number or one that must be compared exactly (it then equals no short constant).
 */
export function recordNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !NUMERIC_TEXT.test(value)) return Number.NaN;
  if (value.length <= SHORT_DIGITS) return Number(value);
  return isShort(parseDecimal(value)!) ? Number(value) : Number.NaN;
}

/** A record value as an exact decimal, or undefined when it is not a number. */
export function recordDecimal(value: unknown): Decimal | undefined {
  if (typeof value === "number")
    // The shortest text that reads back as the double: the number the log wrote, when it was short.
    return Number.isFinite(value) ? parseDecimal(String(value)) : undefined;
  if (value instanceof ExactNumber) return value.decimal;
  if (typeof value === "string" && NUMERIC_TEXT.test(value)) return parseDecimal(value);
  return undefined;
}
