import { canonicalNumber, compareNumbers } from "../check/index.js";

/**
 * Numbers in log records: int and float fields hold JSON numbers or numeric strings (Logpush
 * writes timestamps either way). A constant with at most 15 significant digits compares as a
 * double; a longer one (20-digit ids, nanosecond timestamps) compares exactly on decimal text.
 */

const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;

/** Whether the double nearest to `text` orders every record value the way the exact decimal does. */
export function isExactAsDouble(text: string): boolean {
  const digits = text.replace(/^-/, "").replace(".", "").replace(/^0+/, "");
  return digits.length <= 15;
}

/** A record value as a double, or NaN when it is not a number (so every comparison is false). */
export function recordNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && NUMERIC_TEXT.test(value)) return Number(value);
  return Number.NaN;
}

/** A record value as canonical decimal text, or undefined when it is not a number. */
export function recordNumberText(value: unknown): string | undefined {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    // Every double at or past 2^53 is an integer: BigInt writes all its digits, without exponent.
    if (Number.isInteger(value)) return BigInt(value).toString();
    return canonicalNumber(plainDecimal(value));
  }
  if (typeof value === "string" && NUMERIC_TEXT.test(value)) return canonicalNumber(value);
  return undefined;
}

/** A non-integer double in positional notation (String() writes 1e-7 for small ones). */
function plainDecimal(value: number): string {
  const text = String(value);
  if (!text.includes("e")) return text;
  return value.toFixed(20).replace(/0+$/, "");
}

/** Compares a record value with canonical constant text: a sort result, or NaN when the value is no number. */
export function compareExact(value: unknown, constant: string): number {
  const text = recordNumberText(value);
  return text === undefined ? Number.NaN : compareNumbers(text, constant);
}
