import { isObject, isString } from "../diagnostics/index.js";
import type { Expr, FilterSource } from "./ast.js";

/*
 * Whether a value a JavaScript caller gives `print` is an AST as parse builds it, all the way down
 * (walked with a stack, so that a deep one cannot exhaust the call stack): print reads every node.
 */

/** Each node kind, with the fields its node must have: child nodes, child lists, or text and other primitives. */
const shapes: Record<
  string,
  { nodes?: string[]; lists?: string[]; strings?: string[]; booleans?: string[] }
> = {
  filter: { lists: ["comments"] },
  comment: { strings: ["text"] },
  comparison: { nodes: ["field", "operator", "value"] },
  and: { lists: ["operands"] },
  or: { lists: ["operands"] },
  not: { nodes: ["operand"] },
  error: {},
  field: { strings: ["name"] },
  operator: { strings: ["text"] },
  string: { strings: ["value"] },
  int: { strings: ["digits"] },
  decimal: { strings: ["text"] },
  bool: { booleans: ["value"] },
  word: { strings: ["name"] },
  list: { lists: ["elements"] },
};

function isNode(value: unknown, stack: unknown[]): boolean {
  if (!isObject(value) || !isObject(value["range"])) return false;
  const shape = Object.hasOwn(shapes, value["kind"] as string) ? shapes[value["kind"] as string] : undefined;
  if (shape === undefined) return false;
  for (const name of shape.strings ?? []) if (!isString(value[name])) return false;
  for (const name of shape.booleans ?? []) if (typeof value[name] !== "boolean") return false;
  for (const name of shape.nodes ?? []) stack.push(value[name]);
  for (const name of shape.lists ?? []) {
    const list = value[name];
    if (!Array.isArray(list)) return false;
    for (const item of list) stack.push(item);
  }
  // A filter's expression may be null (the empty filter).
  if (value["kind"] === "filter" && value["expr"] !== null) stack.push(value["expr"]);
  return true;
}

/** Whether `value` is what `print` prints: a whole parsed filter or one of its expressions. */
export function isPrintable(value: unknown): value is FilterSource | Expr {
  if (
    !isObject(value) ||
    !["filter", "comparison", "and", "or", "not", "error"].includes(value["kind"] as string)
  )
    return false;
  const stack: unknown[] = [value];
  while (stack.length > 0) if (!isNode(stack.pop(), stack)) return false;
  return true;
}
