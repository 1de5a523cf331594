import { NUMERIC_TEXT } from "../eval/index.js";
import type { PositiveOperator } from "../syntax/index.js";

/** A regular expression's pattern without its anchors, for the engines' whole-text match functions. */
const unanchored = (pattern: RegExp) => pattern.source.slice(1, -1);

/** The strings eval reads as numbers, as the engines' regular expressions (RE2 in both) write them. */
export const NUMERIC_STRING = unanchored(NUMERIC_TEXT);

/**
 * Numbers both engines hold exactly as DECIMAL(38, 18): up to 20 digits before the point (every
 * 64-bit integer, 2^64 - 1 included) and 18 after it. Record values of this form compare exactly;
 * constants must have it.
 */
export const EXACT_NUMBER = /^-?[0-9]{1,20}(\.[0-9]{1,18})?$/;
export const EXACT_NUMBER_PATTERN = unanchored(EXACT_NUMBER);

const comparators: Partial<Record<PositiveOperator, string>> = { lt: "<", leq: "<=", gt: ">", geq: ">=" };

export function sqlComparator(operator: PositiveOperator): string {
  const comparator = comparators[operator];
  if (!comparator) throw new Error(`${operator} is no order comparison`);
  return comparator;
}
