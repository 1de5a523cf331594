import type { FieldInfo } from "../catalog/index.js";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import { negateOperator, OPERATORS, type PositiveOperator } from "../syntax/index.js";
import { Distinct } from "./distinct.js";
import { type Cond, type Leaf, type ScalarValue, sameScalar, scalarKey, withOperator } from "./ir.js";
import { compareNumbers } from "./numbers.js";

/**
 * Warns about comparisons of one field, side by side in one group, that can never all hold
 * (`X eq 1 and X eq 2`) or of which one always holds (`X lt 5 or X geq 5`). It reads the
 * negation normal form and reasons about present fields only; where it cannot be sure it is silent.
 */
export function findConstantGroups(cond: Cond, diagnostics: Diagnostic[]): void {
  if (cond.kind === "leaf") {
    findConstantComparison(cond, diagnostics);
    return;
  }
  if (cond.kind === "not") {
    findConstantGroups(cond.operand, diagnostics);
    return;
  }
  let leafCount = 0;
  const constant = new Set<FieldInfo>();
  for (const operand of cond.operands) {
    if (operand.kind !== "leaf") findConstantGroups(operand, diagnostics);
    else {
      leafCount++;
      if (findConstantComparison(operand, diagnostics)) constant.add(operand.field);
    }
  }
  if (leafCount < 2) return;
  // Keyed by the catalog's field object: one per field, and cheaper to hash than its name.
  const byField = new Map<FieldInfo, Leaf[]>();
  for (const operand of cond.operands) {
    if (operand.kind !== "leaf") continue;
    const leaves = byField.get(operand.field);
    if (leaves) leaves.push(operand);
    else byField.set(operand.field, [operand]);
  }
  for (const [info, leaves] of byField) {
    // A comparison constant by itself already has its warning; the group adds nothing.
    if (leaves.length < 2 || constant.has(info)) continue;
    // An `or` always holds when the negations of its comparisons can never all hold.
    const tested =
      cond.kind === "and" ? leaves : leaves.map((leaf) => withOperator(leaf, negateOperator(leaf.operator)));
    if (satisfiable(tested)) continue;
    const [first, ...others] = conflicting(tested).map((leaf) => leaf.range);
    const kind = cond.kind === "and" ? "NeverTrue" : "AlwaysTrue";
    diagnostics.push(diagnose(kind, first!, { field: info.name }, undefined, others));
  }
}

/** Past this many comparisons of one field in one group, a warning names them all rather than search for the few that conflict. */
const CONFLICT_SEARCH_LIMIT = 16;

/**
 * The comparisons a warning points at: the fewest of `leaves` (which cannot all hold) that still
 * cannot, found by dropping each one the conflict does not need. `X eq 1 and X gt 0 and X eq 2`
 * points at `X eq 1` and `X eq 2`. Each drop costs one satisfiability test, so the search is
 * bounded by CONFLICT_SEARCH_LIMIT.
 */
function conflicting(leaves: Leaf[]): Leaf[] {
  if (leaves.length > CONFLICT_SEARCH_LIMIT) return leaves;
  let needed = leaves;
  for (const leaf of leaves) {
    if (needed.length === 1) break;
    const without = needed.filter((other) => other !== leaf);
    if (!satisfiable(without)) needed = without;
  }
  return needed;
}

/**
 * Warns about one comparison that holds for every value of a present field (`X contains ""`,
 * `X startsWith ""`) or for none (`X !endsWith ""`); returns whether it did.
 */
function findConstantComparison(leaf: Leaf, diagnostics: Diagnostic[]): boolean {
  // Alone, only a string comparison with "" can hold for every value or for none (a number, bool
  // or array comparison always has a value on each side): others skip the test, which on every
  // comparison of a small filter cost about 5% of its compile (node --cpu-prof).
  const value = leaf.value;
  if (leaf.field.type !== "string" || Array.isArray(value) || value.kind !== "string" || value.value !== "")
    return false;
  const args = { field: leaf.field.name };
  if (!satisfiable([leaf])) diagnostics.push(diagnose("ComparisonNeverTrue", leaf.range, args));
  else if (!satisfiable([withOperator(leaf, negateOperator(leaf.operator))]))
    diagnostics.push(diagnose("ComparisonAlwaysTrue", leaf.range, args));
  else return false;
  return true;
}

/** Whether some value of the field satisfies every leaf (all on one field). */
function satisfiable(leaves: Leaf[]): boolean {
  switch (leaves[0]!.field.type) {
    case "int":
    case "float":
      return numbersSatisfiable(leaves, leaves[0]!.field.type === "int");
    case "string":
      return stringsSatisfiable(leaves);
    case "bool":
      return [true, false].some((candidate) =>
        leaves.every((leaf) => holds(leaf, { kind: "bool", value: candidate })),
      );
    default:
      return arraySatisfiable(leaves);
  }
}

const listOf = (leaf: Leaf): ScalarValue[] => (Array.isArray(leaf.value) ? leaf.value : [leaf.value]);
/**
 * A list's values as a set: long lists are looked up by key (element by element, two lists of
 * 8,000 values on one field took half a second to check, and each thousand more a tenth more).
 */
function setOf(values: ScalarValue[]): Distinct<ScalarValue> {
  const set = new Distinct(sameScalar, scalarKey);
  for (const value of values) set.add(value);
  return set;
}

/** The values the `eq`/`in` leaves allow, or undefined when none of them restricts the field to a finite set. */
function candidatesOf(leaves: Leaf[]): ScalarValue[] | undefined {
  let candidates: ScalarValue[] | undefined;
  for (const leaf of leaves) {
    if (leaf.operator !== "eq" && leaf.operator !== "in") continue;
    const values = listOf(leaf);
    if (!candidates) candidates = values;
    else {
      const allowed = setOf(values);
      candidates = candidates.filter((candidate) => allowed.has(candidate));
    }
  }
  return candidates;
}

/** Whether one of the candidates satisfies every leaf; each leaf's list is made a set once. */
function someCandidateHolds(candidates: ScalarValue[], leaves: Leaf[]): boolean {
  const lists = leaves.map((leaf) => (Array.isArray(leaf.value) ? setOf(leaf.value) : undefined));
  return candidates.some((candidate) => leaves.every((leaf, i) => holds(leaf, candidate, lists[i])));
}

/**
 * Whether one leaf holds for a present value: the semantics the evaluator implements, for
 * scalars. A `!` operator is the negation of its positive one; where the types differ (never,
 * for values of one field) it is taken to hold, so no warning follows from it. `list` is the
 * leaf's list as a set, when the caller made one.
 */
function holds(leaf: Leaf, value: ScalarValue, list?: Distinct<ScalarValue>): boolean {
  const facts = OPERATORS[leaf.operator];
  const positive =
    list && facts.positive === "in" ? list.has(value) : positiveHolds(facts.positive, listOf(leaf), value);
  return positive === undefined || positive !== facts.negative;
}

function positiveHolds(
  operator: PositiveOperator,
  values: ScalarValue[],
  value: ScalarValue,
): boolean | undefined {
  const first = values[0]!;
  switch (operator) {
    case "eq":
      return sameScalar(value, first);
    case "in":
      return values.some((v) => sameScalar(value, v));
    case "lt":
    case "leq":
    case "gt":
    case "geq": {
      if (value.kind !== "number" || first.kind !== "number") return undefined;
      const order = compareNumbers(value.text, first.text);
      return operator === "lt"
        ? order < 0
        : operator === "leq"
          ? order <= 0
          : operator === "gt"
            ? order > 0
            : order >= 0;
    }
    case "startsWith":
    case "endsWith":
    case "contains": {
      if (value.kind !== "string" || first.kind !== "string") return undefined;
      if (operator === "startsWith") return value.value.startsWith(first.value);
      return operator === "endsWith" ? value.value.endsWith(first.value) : value.value.includes(first.value);
    }
  }
}

function numbersSatisfiable(leaves: Leaf[], integers: boolean): boolean {
  const candidates = candidatesOf(leaves);
  if (candidates) return someCandidateHolds(candidates, leaves);
  // No finite set: intersect the bounds, then see whether the exclusions fill what is left.
  let low: { text: string; inclusive: boolean } | undefined;
  let high: { text: string; inclusive: boolean } | undefined;
  const excluded: string[] = [];
  for (const leaf of leaves) {
    const values = listOf(leaf).map((v) => (v.kind === "number" ? v.text : ""));
    const text = values[0]!;
    switch (leaf.operator) {
      case "gt":
      case "geq": {
        const inclusive = leaf.operator === "geq";
        const order = low ? compareNumbers(text, low.text) : 1;
        if (order > 0 || (order === 0 && !inclusive)) low = { text, inclusive };
        break;
      }
      case "lt":
      case "leq": {
        const inclusive = leaf.operator === "leq";
        const order = high ? compareNumbers(text, high.text) : -1;
        if (order < 0 || (order === 0 && !inclusive)) high = { text, inclusive };
        break;
      }
      case "!eq":
      case "!in":
        for (const value of values) excluded.push(value);
        break;
    }
  }
  if (!low || !high) return true;
  const order = compareNumbers(low.text, high.text);
  if (order > 0 || (order === 0 && !(low.inclusive && high.inclusive))) return false;
  if (!integers) return order < 0 || !excluded.includes(low.text);
  const first = BigInt(low.text) + (low.inclusive ? 0n : 1n);
  const last = BigInt(high.text) - (high.inclusive ? 0n : 1n);
  if (first > last) return false;
  const size = last - first + 1n;
  if (size > BigInt(excluded.length)) return true;
  const excludedInRange = new Set(excluded.filter((text) => BigInt(text) >= first && BigInt(text) <= last));
  return size > BigInt(excludedInRange.size);
}

function stringsSatisfiable(leaves: Leaf[]): boolean {
  const candidates = candidatesOf(leaves);
  if (candidates) return someCandidateHolds(candidates, leaves);
  const textOf = (leaf: Leaf) => {
    const value = listOf(leaf)[0]!;
    return value.kind === "string" ? value.value : "";
  };
  const prefixes = leaves.filter((leaf) => leaf.operator === "startsWith").map(textOf);
  const suffixes = leaves.filter((leaf) => leaf.operator === "endsWith").map(textOf);
  const infixes = leaves.filter((leaf) => leaf.operator === "contains").map(textOf);
  const longestPrefix = prefixes.reduce((a, b) => (b.length > a.length ? b : a), "");
  const longestSuffix = suffixes.reduce((a, b) => (b.length > a.length ? b : a), "");
  if (!prefixes.every((prefix) => longestPrefix.startsWith(prefix))) return false;
  if (!suffixes.every((suffix) => longestSuffix.endsWith(suffix))) return false;
  for (const leaf of leaves) {
    const text = textOf(leaf);
    if (leaf.operator === "!startsWith" && longestPrefix.startsWith(text)) return false;
    if (leaf.operator === "!endsWith" && longestSuffix.endsWith(text)) return false;
    if (
      leaf.operator === "!contains" &&
      [longestPrefix, longestSuffix, ...infixes].some((part) => part.includes(text))
    ) {
      return false;
    }
  }
  return true;
}

function arraySatisfiable(leaves: Leaf[]): boolean {
  const required = leaves.filter((leaf) => leaf.operator === "contains").map((leaf) => listOf(leaf)[0]!);
  const forbidden = leaves.filter((leaf) => leaf.operator === "!contains").map((leaf) => listOf(leaf)[0]!);
  return !required.some((value) => forbidden.some((other) => sameScalar(value, other)));
}
