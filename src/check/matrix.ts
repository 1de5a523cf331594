import type { FieldType } from "../catalog/index.js";
import { CANONICAL_OPERATORS, type CanonicalOperator } from "../syntax/index.js";

/**
 * The operator × type matrix of Logpush filters, as one exhaustive switch. Float fields take the
 * int rules; object fields take nothing. `contains` and `in` on an array field test its elements.
 */
export function operatorAccepts(operator: CanonicalOperator, type: FieldType): boolean {
  switch (operator) {
    case "eq":
    case "!eq":
      return type === "string" || type === "int" || type === "float" || type === "bool";
    case "lt":
    case "leq":
    case "gt":
    case "geq":
      return type === "int" || type === "float";
    case "startsWith":
    case "endsWith":
    case "!startsWith":
    case "!endsWith":
      return type === "string";
    case "contains":
    case "!contains":
      return type === "string" || type === "array";
    case "in":
    case "!in":
      return type === "string" || type === "int" || type === "float" || type === "array";
    default:
      return unreachable(operator);
  }
}

function unreachable(value: never): never {
  throw new Error(`unhandled operator ${String(value)}`);
}

/** The operators a field of `type` accepts, in canonical order. */
export function operatorsFor(type: FieldType): CanonicalOperator[] {
  return CANONICAL_OPERATORS.filter((operator) => operatorAccepts(operator, type));
}

export function isListOperator(operator: CanonicalOperator): boolean {
  return operator === "in" || operator === "!in";
}

/** Whether the operator holds for a record that lacks the field: the `!` operators do, the others do not. */
export function isNegativeOperator(operator: CanonicalOperator): boolean {
  return operator.startsWith("!");
}

const negations: Record<CanonicalOperator, CanonicalOperator> = {
  eq: "!eq",
  "!eq": "eq",
  lt: "geq",
  geq: "lt",
  gt: "leq",
  leq: "gt",
  startsWith: "!startsWith",
  "!startsWith": "startsWith",
  endsWith: "!endsWith",
  "!endsWith": "endsWith",
  contains: "!contains",
  "!contains": "contains",
  in: "!in",
  "!in": "in",
};

/** The operator that holds exactly when `operator` does not (for a present field): the pairs Logpush JSON needs for `not`. */
export function negateOperator(operator: CanonicalOperator): CanonicalOperator {
  return negations[operator];
}
