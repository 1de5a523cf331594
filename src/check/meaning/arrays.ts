import { unreachable } from "../../diagnostics/arguments.js";
import type { CanonicalOperator } from "../../syntax/vocabulary.js";
import type { Leaf, ScalarValue } from "../ir.js";

const listOf = (value: ScalarValue | ScalarValue[]): ScalarValue[] =>
  Array.isArray(value) ? value : [value];
/** An element constant as one key: integer elements compare by value, and their text is canonical. */
const keyOf = (value: ScalarValue) =>
  value.kind === "string" ? value.value : value.kind === "number" ? value.text : "";

/**
 * The elements of an array value that satisfies every comparison (`contains`/`in` and their `!`
 * forms, all of one field), or undefined when none does. Every positive comparison asks for an
 * element among its constants, every negative one forbids its constants, and nothing else matters:
 * the value holds what `contains` asks, one allowed constant of each `in`, and nothing forbidden.
 */
export function solveArray(leaves: readonly Leaf[], intElements: boolean): (string | bigint)[] | undefined {
  const forbidden = new Set<string>();
  for (const leaf of leaves)
    if (asksForElement(leaf.operator) === false)
      for (const value of listOf(leaf.value)) forbidden.add(keyOf(value));
  const elements = new Set<string>();
  for (const leaf of leaves) {
    if (asksForElement(leaf.operator) !== true) continue;
    const keys = listOf(leaf.value).map(keyOf);
    if (keys.some((key) => elements.has(key))) continue;
    const allowed = keys.find((key) => !forbidden.has(key));
    if (allowed === undefined) return undefined;
    elements.add(allowed);
  }
  return [...elements].map((key) => (intElements ? BigInt(key) : key));
}

/** Whether a present list satisfies one comparison: `contains`/`in` when some element is one of the constants. */
export function arrayHolds(leaf: Leaf, elements: readonly (string | bigint)[]): boolean {
  const keys = new Set(elements.map(String));
  const found = listOf(leaf.value).some((value) => keys.has(keyOf(value)));
  return found === asksForElement(leaf.operator);
}

/**
 * Whether a comparison on an array field asks for an element among its constants (true) or
 * forbids them (false); undefined for the operators no array field takes.
 */
function asksForElement(operator: CanonicalOperator): boolean | undefined {
  switch (operator) {
    case "contains":
    case "in":
      return true;
    case "!contains":
    case "!in":
      return false;
    case "eq":
    case "!eq":
    case "lt":
    case "leq":
    case "gt":
    case "geq":
    case "startsWith":
    case "!startsWith":
    case "endsWith":
    case "!endsWith":
      return undefined;
    default:
      return unreachable(operator);
  }
}
