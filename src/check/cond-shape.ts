import { expectArgument, isObject, isString } from "../diagnostics/arguments.js";
import { isCanonicalOperator, operatorAccepts } from "../syntax/vocabulary.js";
import type { Cond, Meaning } from "./ir.js";
import { toNegationNormalForm } from "./negate.js";

/*
 * What the stages after the checker take from a JavaScript caller is held to the shape check and
 * compile build, before they read it: a wrong value is then an InvalidArgumentError naming the
 * argument, never a TypeError from inside.
 */

const fieldTypes = new Set(["string", "int", "float", "bool", "array", "object"]);
const elementTypes = new Set(["string", "int", "object"]);

const isScalar = (value: unknown): boolean =>
  isObject(value) &&
  ((value["kind"] === "string" && isString(value["value"])) ||
    (value["kind"] === "number" && isString(value["text"])) ||
    (value["kind"] === "bool" && typeof value["value"] === "boolean"));

/** A comparison: a filterable field of the catalog's shape, an operator it takes, and a value or non-empty list. */
function isLeaf(node: Record<string, unknown>): boolean {
  const { field, operator, value } = node;
  if (!isObject(field) || !isString(field["name"]) || !fieldTypes.has(field["type"] as string)) return false;
  if (field["filterable"] === false) return false;
  if (field["type"] === "array" && !elementTypes.has(field["elementType"] as string)) return false;
  if (!isString(operator) || !isCanonicalOperator(operator)) return false;
  if (!operatorAccepts(operator, field["type"] as never)) return false;
  return Array.isArray(value) ? value.length > 0 && value.every(isScalar) : isScalar(value);
}

/**
 * Whether `value` is a condition as check and compile build it, all the way down; walked with a
 * stack, so that a deep one cannot exhaust the call stack.
 */
export function isCond(value: unknown): value is Cond {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) return false;
    if (node["kind"] === "leaf") {
      if (!isLeaf(node)) return false;
    } else if (node["kind"] === "and" || node["kind"] === "or") {
      const operands = node["operands"];
      if (!Array.isArray(operands) || operands.length === 0) return false;
      for (const operand of operands) stack.push(operand);
    } else if (node["kind"] === "not") stack.push(node["operand"]);
    else return false;
  }
  return true;
}

/** A condition, or null for no filter. */
export const isCondOrNull = (value: unknown): value is Cond | null => value === null || isCond(value);

/** What the argument holding a condition takes, as messages say it. */
export const A_CONDITION = "a condition from check or compile";

/**
 * The meaning of the condition a library caller hands a stage (`emit`, `toSql`, `compilePredicate`
 * …): held to the shape check and compile build (else InvalidArgumentError naming `argument` of
 * `functionName`), and taken as written or as its meaning alike, its `not`s pushed down. This is
 * the one door a written condition comes in by: the stages behind it take only a Meaning.
 */
export function meaningArgument(value: unknown, functionName: string, argument: string): Meaning {
  return toNegationNormalForm(expectArgument(value, isCond, functionName, argument, A_CONDITION));
}

/** `meaningArgument` for the stages that also take null, the empty filter. */
export function meaningOrNullArgument(
  value: unknown,
  functionName: string,
  argument: string,
): Meaning | null {
  const condition = expectArgument(value, isCondOrNull, functionName, argument, `${A_CONDITION}, or null`);
  return condition && toNegationNormalForm(condition);
}
