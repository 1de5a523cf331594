import { negateOperator } from "../syntax/index.js";
import { type Cond, withOperator } from "./ir.js";

/**
 * Pushes every `not` down to the comparisons (De Morgan and the operator pairs), flattens nested
 * groups of one kind and drops one-operand groups. Logpush JSON has no `not`, so this is the
 * shape the emitter writes, and the shape the never/always-true analysis reads.
 */
export function toNegationNormalForm(cond: Cond, negated = false): Cond {
  if (!negated && isNormal(cond, undefined)) return cond;
  switch (cond.kind) {
    case "leaf":
      return negated ? withOperator(cond, negateOperator(cond.operator)) : cond;
    case "not":
      return toNegationNormalForm(cond.operand, !negated);
    case "and":
    case "or": {
      const kind = (cond.kind === "and") !== negated ? "and" : "or";
      const operands: Cond[] = [];
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
function isNormal(cond: Cond, parent: "and" | "or" | undefined): boolean {
  if (cond.kind === "leaf") return true;
  if (cond.kind === "not" || cond.kind === parent || cond.operands.length < 2) return false;
  for (const operand of cond.operands) if (!isNormal(operand, cond.kind)) return false;
  return true;
}
