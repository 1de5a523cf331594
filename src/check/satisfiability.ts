import type { FieldInfo } from "../catalog/index.js";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import { negateOperator } from "../syntax/index.js";
import { type Leaf, type Meaning, withOperator } from "./ir.js";
import { constancyOf, satisfiable } from "./meaning/field.js";

/**
 * Warns about comparisons of one field, side by side in one group, that can never all hold
 * (`X eq 1 and X eq 2`) or of which one always holds (`X lt 5 or X geq 5`). It reads the
 * meaning (`not X lt 5` is the `X geq 5` it emits) and reasons about present fields only, exactly:
 * it asks the field solvers of the whole-filter analysis (one semantics of the operators for both).
 */
export function findConstantGroups(cond: Meaning, diagnostics: Diagnostic[]): void {
  if (cond.kind === "leaf") {
    findConstantComparison(cond, diagnostics);
    return;
  }
  let constant: Set<FieldInfo> | undefined;
  for (const operand of cond.operands) {
    if (operand.kind !== "leaf") findConstantGroups(operand, diagnostics);
    else if (findConstantComparison(operand, diagnostics)) {
      constant ??= new Set();
      constant.add(operand.field);
    }
  }
  // Most groups compare each field once: then there is no group of one field to test.
  if (!repeatsField(cond.operands)) return;
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
    if (leaves.length < 2 || constant?.has(info)) continue;
    // An `or` always holds when the negations of its comparisons can never all hold.
    const tested =
      cond.kind === "and" ? leaves : leaves.map((leaf) => withOperator(leaf, negateOperator(leaf.operator)));
    if (satisfiable(tested)) continue;
    const [first, ...others] = conflicting(tested).map((leaf) => leaf.range);
    const kind = cond.kind === "and" ? "NeverTrue" : "AlwaysTrue";
    diagnostics.push(diagnose(kind, first!, { field: info.name }, undefined, others));
  }
}

/** Past this many operands, a group's fields are told apart in a set rather than pair by pair. */
const PAIRWISE_FIELDS_LIMIT = 16;

/** Whether two comparisons among the operands compare the same field; pair by pair up to PAIRWISE_FIELDS_LIMIT, which allocates nothing. */
function repeatsField(operands: readonly Meaning[]): boolean {
  if (operands.length > PAIRWISE_FIELDS_LIMIT) {
    const seen = new Set<FieldInfo>();
    for (const operand of operands) {
      if (operand.kind !== "leaf") continue;
      if (seen.has(operand.field)) return true;
      seen.add(operand.field);
    }
    return false;
  }
  for (let i = 1; i < operands.length; i++) {
    const operand = operands[i]!;
    if (operand.kind !== "leaf") continue;
    for (let j = 0; j < i; j++) {
      const other = operands[j]!;
      if (other.kind === "leaf" && other.field === operand.field) return true;
    }
  }
  return false;
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

/** Warns about one comparison that holds for every present value of its field, or for none; returns whether it did. */
function findConstantComparison(leaf: Leaf, diagnostics: Diagnostic[]): boolean {
  const constancy = constancyOf(leaf);
  if (constancy === undefined) return false;
  const kind = constancy === "never" ? "ComparisonNeverTrue" : "ComparisonAlwaysTrue";
  diagnostics.push(diagnose(kind, leaf.range, { field: leaf.field.name }));
  return true;
}
