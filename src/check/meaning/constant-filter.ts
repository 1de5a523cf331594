import { type Diagnostic, diagnose } from "../../diagnostics/index.js";
import { isNegativeOperator } from "../../syntax/index.js";
import type { Leaf, Meaning } from "../ir.js";
import { constancyOf } from "./field.js";
import { provedNoRecord } from "./search.js";

/**
 * Codes that already say a part of the filter never or always holds. When one of them is
 * reported, the whole-filter warning is left out: the part is what to fix, and a second warning
 * over the whole filter for the same cause would be noise.
 */
const PART_WARNINGS = new Set(["W0103", "W0104", "W0105", "W0106"]);

/**
 * The search budget of the whole-filter warnings: small, so that checking stays fast on any
 * filter; a filter that needs more gets no warning (the warning is only ever given when proved).
 */
const CONSTANT_FILTER_MAX_STEPS = 20_000;

/**
 * The most comparisons a filter may have for the whole-filter warnings: well past what Logpush
 * takes (30), and small enough that a filter far over the limits (already an error) costs nothing.
 */
const CONSTANT_FILTER_MAX_COMPARISONS = 200;

/** The deepest nesting the whole-filter warnings analyze: the parser's default maxDepth. */
const CONSTANT_FILTER_MAX_DEPTH = 100;

/**
 * Warns when no record can pass the whole filter (W0115) or every record does (W0116), records
 * being those the dataset can produce (any field missing, a present one of its catalog type). The
 * meaning analysis decides both exactly; it is silent when a part warning already covers the filter.
 */
export function findConstantFilter(cond: Meaning, diagnostics: Diagnostic[]): void {
  if (diagnostics.some((diagnostic) => PART_WARNINGS.has(diagnostic.code))) return;
  // Each field compared once, by comparisons that can each hold and fail: making every comparison
  // hold makes the filter hold (the meaning has no `not`), and failing them all fails it. No
  // search needed, and that is most filters, for which the search would cost most of a compile.
  const { leaves, tooDeep, fieldRepeats } = shapeOf(cond);
  // Deep nesting (with maxDepth raised) would exhaust the stack of the recursive analysis: past
  // this depth the warnings are left out.
  if (tooDeep || leaves.length > CONSTANT_FILTER_MAX_COMPARISONS) return;
  if (!fieldRepeats && !leaves.some((leaf) => constancyOf(leaf) !== undefined)) return;
  // The record with every field missing answers one of the two questions at once.
  if (!holdsWithFieldsMissing(cond)) {
    if (provedNoRecord([{ cond, negated: false }], CONSTANT_FILTER_MAX_STEPS))
      diagnostics.push(diagnose("FilterNeverMatches", cond.range, {}));
  } else if (provedNoRecord([{ cond, negated: true }], CONSTANT_FILTER_MAX_STEPS))
    diagnostics.push(diagnose("FilterAlwaysMatches", cond.range, {}));
}

/**
 * The comparisons of a condition, whether its nesting goes deeper than CONSTANT_FILTER_MAX_DEPTH
 * and whether a field is compared twice, in one walk. The walk recurses no deeper than that
 * depth (nesting may be deep when maxDepth is raised), and past it the warnings are left out, so
 * the comparisons below need no counting.
 */
function shapeOf(cond: Meaning): Shape {
  // Keyed by the catalog's field object: one per field, and cheaper to hash than its name.
  const shape: Shape = { leaves: [], tooDeep: false, fieldRepeats: false, fields: new Set() };
  walkShape(cond, 1, shape);
  shape.fieldRepeats = shape.fields.size < shape.leaves.length;
  return shape;
}

interface Shape {
  leaves: Leaf[];
  tooDeep: boolean;
  fieldRepeats: boolean;
  fields: Set<Leaf["field"]>;
}

/** shapeOf's walk: a function of its own, where a closure made per call cost an allocation and a slower call. */
function walkShape(part: Meaning, depth: number, shape: Shape): void {
  if (part.kind === "leaf") {
    shape.leaves.push(part);
    shape.fields.add(part.field);
  } else if (depth === CONSTANT_FILTER_MAX_DEPTH) shape.tooDeep ||= part.operands.length > 0;
  else for (const operand of part.operands) walkShape(operand, depth + 1, shape);
}

/** Whether the filter passes the record with every field missing: the `!` comparisons hold then, the others fail. */
function holdsWithFieldsMissing(cond: Meaning): boolean {
  switch (cond.kind) {
    case "leaf":
      return isNegativeOperator(cond.operator);
    case "and":
      return cond.operands.every(holdsWithFieldsMissing);
    case "or":
      return cond.operands.some(holdsWithFieldsMissing);
  }
}
