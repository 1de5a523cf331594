import { isShort, NUMERIC_TEXT, parseDecimal } from "../eval/index.js";
import { OPERATORS, type PositiveOperatorOn } from "../syntax/index.js";
import type { Dialect, JsonRef } from "./dialect.js";

/** A regular expression's pattern without its anchors, for the engines' whole-text match functions. */
export const unanchoredPattern = (pattern: RegExp) => pattern.source.slice(1, -1);

/** The strings eval reads as numbers, as the engines' regular expressions (RE2 in both) write them. */
const NUMERIC_STRING = unanchoredPattern(NUMERIC_TEXT);

/**
 * Numbers both engines hold exactly as DECIMAL(38, 18): up to 20 digits before the point (every
 * 64-bit integer, 2^64 - 1 included) and 18 after it. Record values of this form compare exactly;
 * constants must have it.
 */
export const EXACT_NUMBER = /^-?[0-9]{1,20}(\.[0-9]{1,18})?$/;
export const EXACT_NUMBER_PATTERN = unanchoredPattern(EXACT_NUMBER);

/** The operators that compare numbers: `eq` and `in`, and the order comparisons. */
export type NumberOperator = PositiveOperatorOn<"int" | "float">;

/** An order comparison's SQL symbol: the symbol the language takes for it too (the vocabulary's alias). */
export function sqlComparator(operator: "lt" | "leq" | "gt" | "geq"): string {
  const symbol = OPERATORS[operator].aliases.find((alias) => /^[<>]=?$/.test(alias));
  if (!symbol) throw new Error(`${operator} is no order comparison`);
  return symbol;
}

/** Whether the value is one eval reads as a number: a JSON number, or a string of the numeric form. */
export function isNumeric(dialect: Dialect, ref: JsonRef): string {
  return `(${dialect.isKind(ref, "number")} OR ${dialect.isKind(ref, "string")} AND ${dialect.fullMatch(dialect.text(ref), NUMERIC_STRING)})`;
}

/**
 * Integers both engines hold exactly in 128 bits, and read from text far faster than a DECIMAL(38,
 * 18), whose cast from text was most of a query's time (bench/RESULTS.md, "query reads fast").
 */
const EXACT_INTEGER = /^-?[0-9]{1,20}$/;

/**
 * `test` of numeric text and the number constants, exactly: as integers of 128 bits when both are
 * (the usual log value), else as decimals of 38 digits when the text is one (every 64-bit integer,
 * every decimal with at most 18 digits after the point), else as doubles (numbers in exponent form or
 * beyond that range; see docs/sql.md).
 */
export function numberCases(
  dialect: Dialect,
  text: string,
  constants: readonly string[],
  test: (value: string, literals: string[]) => string,
): string {
  const as = (read: (text: string) => string) =>
    test(
      read(text),
      constants.map((constant) => read(dialect.string(constant))),
    );
  const inexact = dialect.ifElse(
    dialect.fullMatch(text, EXACT_NUMBER_PATTERN),
    as(dialect.decimal),
    as(dialect.double),
  );
  if (!constants.every((constant) => EXACT_INTEGER.test(constant))) return inexact;
  return dialect.ifElse(
    dialect.fullMatch(text, unanchoredPattern(EXACT_INTEGER)),
    as(dialect.integer),
    inexact,
  );
}

/**
 * Whether the SQL over DuckDB's reading of a record compares a numeric value as eval compares it:
 * `text` is a JSON number as the record writes it, or a numeric string's content (`quoted`).
 * DuckDB reads a JSON number with a point or an exponent as a double and gives it back as the
 * shortest text of that double (`0.12345678901234567` as `0.12345678901234566`); numberCases compares
 * text of EXACT_NUMBER's form exactly and other text as a double. A double holds a value of at most
 * 15 significant digits exactly enough, and one far from every constant (at least 10^21, past every
 * constant and every nanosecond of year 9999, or below 10^-18, under every constant but zero) on
 * the same side of each.
 */
export function readsNumberExactly(text: string, quoted: boolean): boolean {
  const decimal = parseDecimal(text)!;
  if (isShort(decimal)) return true;
  if (Math.abs(decimal.exponent) <= MAX_DOUBLE_EXPONENT && (decimal.exponent > 21 || decimal.exponent <= -18))
    return true;
  return (quoted || !/[.eE]/.test(text)) && EXACT_NUMBER.test(text);
}

/** Decimal exponents well within a double's normal range (as eval's isShort has them). */
const MAX_DOUBLE_EXPONENT = 300;

/** Numeric text compared with number constants exactly (see numberCases). */
export function compareNumber(
  dialect: Dialect,
  text: string,
  operator: NumberOperator,
  constants: readonly string[],
): string {
  return numberCases(dialect, text, constants, (value, literals) => {
    switch (operator) {
      case "eq":
      case "in":
        return literals.length === 1 ? `${value} = ${literals[0]}` : `${value} IN (${literals.join(", ")})`;
      case "lt":
      case "leq":
      case "gt":
      case "geq":
        return `${value} ${sqlComparator(operator)} ${literals[0]}`;
    }
  });
}
