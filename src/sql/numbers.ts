import { NUMERIC_TEXT } from "../eval/index.js";
import { OPERATORS, type PositiveOperator } from "../syntax/index.js";

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

/** An order comparison's SQL symbol: the symbol the language takes for it too (the vocabulary's alias). */
export function sqlComparator(operator: PositiveOperator): string {
  const symbol = OPERATORS[operator].aliases.find((alias) => /^[<>]=?$/.test(alias));
  if (!symbol) throw new Error(`${operator} is no order comparison`);
  return symbol;
}
