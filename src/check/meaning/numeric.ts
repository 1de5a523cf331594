import { unreachable } from "../../diagnostics/arguments.js";
import { memberOf } from "../distinct.js";
import type { Leaf, ScalarValue } from "../ir.js";
import { canonicalNumber, compareNumbers } from "../numbers.js";

/**
 * The values of a number field, as exact integers: the int fields' 64-bit range, or a float
 * field's decimals scaled to integers (see decimalDomain). The evaluator compares every number by
 * its exact value, so a constant is one point of the domain.
 */
interface NumberDomain {
  min: bigint;
  max: bigint;
  /** The point of a constant's text. */
  value(text: string): bigint;
}

/** The longest integer text read through a double: 15 characters, below 2^53 whatever they are. */
const SHORT_DIGITS = 15;

/** Integers of -2^63 … 2^64-1, exact, as the evaluator compares them. */
export const intDomain: NumberDomain = {
  min: -(2n ** 63n),
  max: 2n ** 64n - 1n,
  // Through a double when the text is short, which a double holds exactly: faster than parsing the text.
  value: (text) => (text.length <= SHORT_DIGITS ? BigInt(Number(text)) : BigInt(text)),
};

/**
 * Decimals (float fields: the log writes any decimal, and the evaluator compares exact values)
 * scaled to integers by 10^places, where `places` is one more than any constant's fraction digits:
 * between two distinct constants lies a multiple of 10^-places, so the values of that grid fall in
 * every class the comparisons tell apart, and the integer solver decides them exactly.
 */
function decimalDomain(places: number, wholeDigits: number): NumberDomain {
  const scale = 10n ** BigInt(places);
  const bound = 10n ** BigInt(wholeDigits + places + 1);
  return { min: -bound, max: bound, value: scaled };
  function scaled(text: string): bigint {
    const negative = text.startsWith("-");
    const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
    const value = BigInt(whole) * scale + BigInt(fraction.padEnd(places, "0") || "0");
    return negative ? -value : value;
  }
}

/** A decimal value of a float field that satisfies every comparison, as canonical text; undefined when none does. */
export function solveDecimal(comparisons: readonly NumberComparison[]): string | undefined {
  const texts = comparisons.flatMap((comparison) => listOf(comparison.present.value).map(numberText));
  // A loop, not Math.max(...texts): a list of some 150,000 constants overflowed the stack as arguments.
  let places = 1;
  let wholeDigits = 1;
  for (const text of texts) {
    const [whole = "", fraction = ""] = text.replace("-", "").split(".");
    places = Math.max(places, 1 + fraction.length);
    wholeDigits = Math.max(wholeDigits, whole.length);
  }
  // Points depend on the scale: computed afresh, never kept on the comparisons.
  const fresh = comparisons.map((comparison) => ({ present: comparison.present }));
  const value = solveNumber(decimalDomain(places, wholeDigits), fresh);
  if (value === undefined) return undefined;
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(places + 1, "0");
  const text = `${negative ? "-" : ""}${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return canonicalNumber(text);
}

/** Whether a decimal value satisfies one comparison, compared exactly as the evaluator does. */
export function decimalHolds(leaf: Leaf, value: string): boolean {
  const orders = listOf(leaf.value).map((constant) => compareNumbers(value, numberText(constant)));
  const first = orders[0]!;
  switch (leaf.operator) {
    case "lt":
      return first < 0;
    case "leq":
      return first <= 0;
    case "gt":
      return first > 0;
    case "geq":
      return first >= 0;
    case "eq":
    case "in":
      return orders.includes(0);
    case "!eq":
    case "!in":
      return !orders.includes(0);
    // No number field takes these.
    case "startsWith":
    case "!startsWith":
    case "endsWith":
    case "!endsWith":
    case "contains":
    case "!contains":
      return false;
  }
}

const listOf = (value: ScalarValue | ScalarValue[]): ScalarValue[] =>
  Array.isArray(value) ? value : [value];
const numberText = (value: ScalarValue) => (value.kind === "number" ? value.text : "0");

/**
 * A value of a number field that satisfies every comparison (all of that field, none holding for
 * a missing field alone), or undefined when there is none; the most readable one: 0, else the
 * least positive value, else the greatest negative one. Exact: the comparisons bound the values
 * from below and above, the `eq`/`in` ones leave a set of points, the `!eq`/`!in` ones take points
 * out. (Bounds and point sets rather than lists of intervals: faster, bench/RESULTS.md.)
 */
export function solveNumber(
  domain: NumberDomain,
  comparisons: readonly NumberComparison[],
): bigint | undefined {
  let low = domain.min;
  let high = domain.max;
  /** The values the `eq`/`in` comparisons leave, once there is one. */
  let points: bigint[] | undefined;
  const excluded: bigint[] = [];
  for (const comparison of comparisons) {
    const values = pointsOf(domain, comparison);
    const first = values[0]!;
    switch (comparison.present.operator) {
      case "lt":
        if (first - 1n < high) high = first - 1n;
        break;
      case "leq":
        if (first < high) high = first;
        break;
      case "gt":
        if (first + 1n > low) low = first + 1n;
        break;
      case "geq":
        if (first > low) low = first;
        break;
      case "eq":
      case "in":
        points = points ? points.filter(memberOf(values)) : values;
        break;
      case "!eq":
      case "!in":
        for (const value of values) excluded.push(value);
        break;
      // No number field takes these.
      case "startsWith":
      case "!startsWith":
      case "endsWith":
      case "!endsWith":
      case "contains":
      case "!contains":
        break;
      default:
        unreachable(comparison.present.operator);
    }
    if (low > high || points?.length === 0) return undefined;
  }
  const isExcluded = memberOf(excluded);
  const allowed = (value: bigint) => value >= low && value <= high && !isExcluded(value);
  if (points) return readable(points.filter(allowed));
  if (allowed(0n)) return 0n;
  // Each excluded value moves the search one step at most: it ends.
  for (let value = low > 1n ? low : 1n; value <= high; value++) if (allowed(value)) return value;
  for (let value = high < -1n ? high : -1n; value >= low; value--) if (allowed(value)) return value;
  return undefined;
}

/** 0 when among the values, else the least positive one, else the greatest negative one. */
function readable(values: readonly bigint[]): bigint | undefined {
  let best: bigint | undefined;
  for (const value of values) {
    if (best === undefined) best = value;
    else if (value >= 0n ? best < 0n || value < best : best < 0n && value > best) best = value;
  }
  return best;
}

/** A comparison, with room to keep its points once computed (the search asks again at every branch). */
interface NumberComparison {
  present: Leaf;
  points?: unknown[];
}

function pointsOf(domain: NumberDomain, comparison: NumberComparison): bigint[] {
  if (!comparison.points) {
    comparison.points = listOf(comparison.present.value).map((value) => domain.value(numberText(value)));
  }
  return comparison.points as bigint[];
}

/**
 * Whether a present integer satisfies one comparison: compared as doubles where each constant it
 * reads is short (intDomain reads those through a double too), which makes no BigInt; else as
 * numberHolds compares. Exact: a short constant is a double exactly, and the value made a double
 * keeps its order to it (past 2^53, where it may round, it is past every short constant).
 */
export function intHolds(comparison: NumberComparison, value: bigint): boolean {
  return shortIntHolds(comparison.present, Number(value)) ?? numberHolds(intDomain, comparison, value);
}

/** intHolds in doubles; undefined where a constant it reads is too long to be exact as one. */
function shortIntHolds(leaf: Leaf, value: number): boolean | undefined {
  const constants = leaf.value;
  switch (leaf.operator) {
    case "lt":
    case "leq":
    case "gt":
    case "geq": {
      const text = numberText(Array.isArray(constants) ? constants[0]! : constants);
      if (text.length > SHORT_DIGITS) return undefined;
      const first = Number(text);
      const operator = leaf.operator;
      return operator === "lt"
        ? value < first
        : operator === "leq"
          ? value <= first
          : operator === "gt"
            ? value > first
            : value >= first;
    }
    case "eq":
    case "in":
    case "!eq":
    case "!in": {
      const found = isShortOneOf(constants, value);
      if (found === undefined) return undefined;
      return found === (leaf.operator === "eq" || leaf.operator === "in");
    }
    // No number field takes these.
    case "startsWith":
    case "!startsWith":
    case "endsWith":
    case "!endsWith":
    case "contains":
    case "!contains":
      return false;
  }
}

/** Whether a constant equals the value, undefined when one is too long to be read as a double. */
function isShortOneOf(constants: ScalarValue | ScalarValue[], value: number): boolean | undefined {
  if (!Array.isArray(constants)) {
    const text = numberText(constants);
    return text.length > SHORT_DIGITS ? undefined : Number(text) === value;
  }
  let found = false;
  for (let i = 0; i < constants.length; i++) {
    const text = numberText(constants[i]!);
    if (text.length > SHORT_DIGITS) return undefined;
    if (Number(text) === value) found = true;
  }
  return found;
}

/** Whether a present value satisfies one comparison, the constants placed as the evaluator places them. */
function numberHolds(domain: NumberDomain, comparison: NumberComparison, value: bigint): boolean {
  const values = pointsOf(domain, comparison);
  const first = values[0]!;
  switch (comparison.present.operator) {
    case "lt":
      return value < first;
    case "leq":
      return value <= first;
    case "gt":
      return value > first;
    case "geq":
      return value >= first;
    case "eq":
    case "in":
      return values.includes(value);
    case "!eq":
    case "!in":
      return !values.includes(value);
    // No number field takes these.
    case "startsWith":
    case "!startsWith":
    case "endsWith":
    case "!endsWith":
    case "contains":
    case "!contains":
      return false;
  }
}
