import { A_CONDITION, type Cond, isCond, type ScalarValue } from "../check/index.js";
import { expectArgument, type Range } from "../diagnostics/index.js";
import type { Expr, Scalar } from "../syntax/index.js";

/**
 * The AST that reads as a condition: the way back from the meaning (or from decompiled JSON) to
 * source. Nested groups of one kind are flattened and one-operand groups dropped, as the parser
 * would; every node takes the range of the condition it comes from.
 */
export function conditionToExpr(cond: Cond): Expr {
  expectArgument(cond, isCond, "conditionToExpr", "cond", A_CONDITION);
  return exprOf(cond);
}

function exprOf(cond: Cond): Expr {
  switch (cond.kind) {
    case "leaf": {
      const range = cond.range;
      return {
        kind: "comparison",
        field: { kind: "field", name: cond.field.name, range },
        operator: { kind: "operator", op: cond.operator, text: cond.operator, range },
        value: Array.isArray(cond.value)
          ? { kind: "list", elements: cond.value.map((value) => scalarNode(value, range)), range }
          : scalarNode(cond.value, range),
        range,
      };
    }
    case "not":
      return { kind: "not", operand: exprOf(cond.operand), range: cond.range };
    case "and":
    case "or": {
      const operands: Expr[] = [];
      for (const operand of cond.operands) {
        const expr = exprOf(operand);
        if (expr.kind === cond.kind) for (const inner of expr.operands) operands.push(inner);
        else operands.push(expr);
      }
      return operands.length === 1 ? operands[0]! : { kind: cond.kind, operands, range: cond.range };
    }
  }
}

function scalarNode(value: ScalarValue, range: Range): Scalar {
  switch (value.kind) {
    case "string":
      return { kind: "string", value: value.value, range };
    case "bool":
      return { kind: "bool", value: value.value, range };
    case "number":
      return value.text.includes(".")
        ? { kind: "decimal", text: value.text, range }
        : { kind: "int", digits: value.text, range };
  }
}
