// The vocabulary module, not the syntax stage's index: eval (and its worker threads) loads this
// file, and the index would bring the parser with it.
import { negateOperator } from "../syntax/vocabulary.js";
import { type Cond, type Meaning, withOperator } from "./ir.js";

/**
 * What a condition means: every `not` pushed down to the comparisons (De Morgan and the operator
 * pairs), nested groups of one kind flattened and one-operand groups dropped. Logpush JSON has no
 * `not`, so this is the shape the emitter writes, and the one every stage that evaluates or
 * reasons reads. A condition already in that shape is returned as it is.
 */
export function toNegationNormalForm(cond: Cond, negated = false): Meaning {
  if (!negated && isNormal(cond, undefined)) return cond;
  switch (cond.kind) {
    case "leaf":
      return negated ? withOperator(cond, negateOperator(cond.operator)) : cond;
    case "not":
      return toNegationNormalForm(cond.operand, !negated);
    case "and":
    case "or": {
      const kind = (cond.kind === "and") !== negated ? "and" : "or";
      const operands: Meaning[] = [];
      for (const operand of cond.operands) {
        const normal = toNegationNormalForm(operand, negated);
        if (normal.kind === kind) for (const inner of normal.operands) operands.push(inner);
        else operands.push(normal);
      }
      return operands.length === 1 ? operands[0]! : { kind, operands, range: cond.range };
    }
  }
}

/** Whether a condition is already in the form (no `not`, no nested group of its parent's kind, no one-operand group). */
function isNormal(cond: Cond, parent: "and" | "or" | undefined): cond is Meaning {
  if (cond.kind === "leaf") return true;
  if (cond.kind === "not" || cond.kind === parent || cond.operands.length < 2) return false;
  for (const operand of cond.operands) if (!isNormal(operand, cond.kind)) return false;
  return true;
}
