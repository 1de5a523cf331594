import { unreachable } from "../../diagnostics/arguments.js";
import type { CanonicalOperator } from "../../syntax/vocabulary.js";
import { memberOf } from "../distinct.js";
import type { Leaf, ScalarValue } from "../ir.js";

const listOf = (value: ScalarValue | ScalarValue[]): ScalarValue[] =>
  Array.isArray(value) ? value : [value];
const textOf = (value: ScalarValue) => (value.kind === "string" ? value.value : "");

/** Whether a present string value satisfies one comparison: the evaluator's semantics (exact, case-sensitive, UTF-16 code units). */
export function stringHolds(leaf: Leaf, value: string): boolean {
  // The constants read where they stand, nothing built: the greedy search asks this of every
  // comparison it meets, and a copy of a list's texts (or a closure) per call was garbage each time.
  const constants = leaf.value;
  const constant = textOf(Array.isArray(constants) ? constants[0]! : constants);
  switch (leaf.operator) {
    case "eq":
      return value === constant;
    case "!eq":
      return value !== constant;
    case "in":
      return isOneOf(constants, value);
    case "!in":
      return !isOneOf(constants, value);
    case "startsWith":
      return value.startsWith(constant);
    case "!startsWith":
      return !value.startsWith(constant);
    case "endsWith":
      return value.endsWith(constant);
    case "!endsWith":
      return !value.endsWith(constant);
    case "contains":
      return value.includes(constant);
    case "!contains":
      return !value.includes(constant);
    // No string field takes these.
    case "lt":
    case "leq":
    case "gt":
    case "geq":
      return false;
  }
}

function isOneOf(constants: ScalarValue | ScalarValue[], value: string): boolean {
  if (!Array.isArray(constants)) return textOf(constants) === value;
  for (let i = 0; i < constants.length; i++) if (textOf(constants[i]!) === value) return true;
  return false;
}

/**
 * The test of one comparison on present values, a list's constants looked up through memberOf:
 * each constant of an `in` list is a candidate, tested against every other list.
 */
function stringTest(leaf: Leaf): (value: string) => boolean {
  if (!Array.isArray(leaf.value)) return (value) => stringHolds(leaf, value);
  const isConstant = memberOf(leaf.value.map(textOf));
  // Only `in` and `!in` take a list.
  const negative = leaf.operator === "!in";
  return (value) => isConstant(value) !== negative;
}

/** Separators tried first, for readable values; any character no constant holds will do. */
const READABLE_SEPARATORS = "x_-.0aZ~";

/** A character that occurs in none of the texts (a non-surrogate one, so it never joins a neighbour). */
function freshCharacter(texts: readonly string[]): string {
  const used = (char: string) => texts.some((text) => text.includes(char));
  for (const char of READABLE_SEPARATORS) if (!used(char)) return char;
  for (let code = 0x21; ; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCharCode(code);
    if (!used(char)) return char;
  }
}

/**
 * A string that satisfies every comparison (all of one field, at least one that a missing field
 * fails), or undefined when none does. Complete (docs/diff.md gives the argument):
 * - with an `eq` or `in`, the value is one of its constants: each is tried;
 * - otherwise, with p the longest `startsWith` constant, q the longest `endsWith` one, m1…mk the
 *   `contains` ones and z a character in no constant, the value p z m1 z … z mk z q satisfies all
 *   the comparisons unless some comparison fails on every string that has those parts (the
 *   prefixes do not nest, a `!startsWith` constant is a prefix of p, …); since a negated constant
 *   holds no z, it can occur only inside one of the parts, which every solution holds too.
 * Shorter candidates (the empty string, p, q, p+q, …) are tried first, for readable values.
 */
export function solveString(leaves: readonly Leaf[]): string | undefined {
  const choice = leaves.find((leaf) => leaf.operator === "eq" || leaf.operator === "in");
  // One candidate (an `eq`, the common case): each comparison tested once, in place, no test built.
  if (choice && !Array.isArray(choice.value)) {
    const value = textOf(choice.value);
    return leaves.every((leaf) => stringHolds(leaf, value)) ? value : undefined;
  }
  const tests = leaves.map(stringTest);
  const satisfies = (value: string) => tests.every((test) => test(value));
  if (choice) return listOf(choice.value).map(textOf).find(satisfies);
  const constantsOf = (part: WitnessPart) =>
    leaves
      .filter((leaf) => witnessPart(leaf.operator) === part)
      .map((leaf) => textOf(listOf(leaf.value)[0]!));
  const longest = (texts: string[]) => texts.reduce((a, b) => (b.length > a.length ? b : a), "");
  const prefix = longest(constantsOf("prefix"));
  const suffix = longest(constantsOf("suffix"));
  const infixes = constantsOf("infix");
  const separator = freshCharacter(leaves.flatMap((leaf) => listOf(leaf.value).map(textOf)));
  const joined = (parts: string[]) => parts.join(separator);
  const candidates = [
    "",
    prefix + suffix,
    prefix + infixes.join("") + suffix,
    joined([prefix, ...infixes, suffix]),
    joined([prefix, ...infixes, suffix, ""]),
    joined(["", prefix, ...infixes, suffix]),
    // The general witness: each part set apart by the separator, which ends any unwanted match.
    `${prefix}${separator}${infixes.map((infix) => infix + separator).join("")}${suffix}`,
  ];
  return candidates.find(satisfies);
}

type WitnessPart = "prefix" | "suffix" | "infix";

/**
 * The part of solveString's general witness a comparison's constant is; undefined for those the
 * candidates are only tested against (a choice, a `!` comparison, or one no string field takes).
 */
function witnessPart(operator: CanonicalOperator): WitnessPart | undefined {
  switch (operator) {
    case "startsWith":
      return "prefix";
    case "endsWith":
      return "suffix";
    case "contains":
      return "infix";
    case "eq":
    case "in":
    case "!eq":
    case "!in":
    case "!startsWith":
    case "!endsWith":
    case "!contains":
    case "lt":
    case "leq":
    case "gt":
    case "geq":
      return undefined;
    default:
      return unreachable(operator);
  }
}
