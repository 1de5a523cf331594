import type { FieldInfo } from "../../catalog/index.js";
import { negateOperator } from "../../syntax/index.js";
import { type Leaf, type ScalarValue, withOperator } from "../ir.js";
import { arrayHolds, solveArray } from "./arrays.js";
import { decimalHolds, intDomain, intHolds, solveDecimal, solveNumber } from "./numeric.js";
import { solveString, stringHolds } from "./strings.js";
import type { FieldValue } from "./value.js";

/** A field's value in a record: present with a value, or missing. */
export type FieldChoice = FieldValue | "missing";

/**
 * One comparison or its negation, as two facts: whether it holds when the field is missing, and
 * the comparison that says when it holds for a present value. `X lt 5` is false when X is missing;
 * `not X lt 5` is true then, and for a present X it is `X geq 5`: the negation pairs of the
 * operators are exact only for present fields.
 */
export interface Literal {
  present: Leaf;
  holdsWhenMissing: boolean;
  /** A number comparison's constants as points of the field's values, once computed. */
  points?: unknown[];
}

/**
 * A value of one field that satisfies all the given literals of it, or undefined when no value
 * does. A missing field (or an empty array, which every comparison treats alike) is the answer
 * when every literal holds for it; otherwise the value is present and of the field's catalog type.
 */
export function solveField(field: FieldInfo, literals: readonly Literal[]): FieldChoice | undefined {
  if (literals.every((literal) => literal.holdsWhenMissing)) return "missing";
  switch (field.type) {
    case "string": {
      const value = solveString(leavesOf(literals));
      return value === undefined ? undefined : { type: "string", value };
    }
    case "int": {
      const value = solveNumber(intDomain, literals);
      return value === undefined ? undefined : { type: "int", value };
    }
    case "float": {
      const value = solveDecimal(literals);
      return value === undefined ? undefined : { type: "float", value };
    }
    case "bool": {
      const leaves = leavesOf(literals);
      const value = [true, false].find((candidate) => leaves.every((leaf) => boolHolds(leaf, candidate)));
      return value === undefined ? undefined : { type: "bool", value };
    }
    case "array": {
      const elements = solveArray(leavesOf(literals), field.elementType === "int");
      return elements === undefined ? undefined : { type: "array", elements };
    }
    case "object":
      return undefined;
  }
}

/** The comparisons of literals, for the solvers that read no more (the number solvers keep their points on the literals). */
const leavesOf = (literals: readonly Literal[]) => literals.map((literal) => literal.present);

/**
 * Whether one comparison, alone, holds for every present value of its field ("always"), for none
 * ("never"), or for some and not others (undefined). Only three kinds can be constant, and the
 * others skip the solver, which every comparison would otherwise pay: a string comparison with ""
 * (`X startsWith ""`), an integer one with a bound at an end of the 64-bit range
 * (`X lt -9223372036854775808`), and a float one (`X eq` a long constant no double is written as).
 */
export function constancyOf(leaf: Leaf): "always" | "never" | undefined {
  const type = leaf.field.type;
  const mayBeConstant =
    type === "float" ||
    (type === "string" && someValue(leaf, isEmptyString)) ||
    (type === "int" && someValue(leaf, isIntBound));
  if (!mayBeConstant) return undefined;
  if (!satisfiable([leaf])) return "never";
  if (!satisfiable([withOperator(leaf, negateOperator(leaf.operator))])) return "always";
  return undefined;
}

/**
 * Whether some present value of the field satisfies every leaf (all on one field): the exact
 * solver of the whole-filter analysis, asked for a present value.
 */
export function satisfiable(leaves: readonly Leaf[]): boolean {
  const literals = leaves.map((present) => ({ present, holdsWhenMissing: false }));
  return solveField(leaves[0]!.field, literals) !== undefined;
}

/** Whether one of the comparison's constants (one, or a list's) passes `test`; every comparison asks, so nothing is allocated. */
function someValue(leaf: Leaf, test: (value: ScalarValue) => boolean): boolean {
  const { value } = leaf;
  if (!Array.isArray(value)) return test(value);
  for (let i = 0; i < value.length; i++) if (test(value[i]!)) return true;
  return false;
}

const isEmptyString = (value: ScalarValue) => value.kind === "string" && value.value === "";

const INT_MIN_TEXT = String(intDomain.min);
const INT_MAX_TEXT = String(intDomain.max);
const isIntBound = (value: ScalarValue) =>
  value.kind === "number" && (value.text === INT_MIN_TEXT || value.text === INT_MAX_TEXT);

/** Whether a value already chosen for the field satisfies one more literal (then it need not be solved again). */
export function choiceHolds(literal: Literal, choice: FieldChoice): boolean {
  if (choice === "missing") return literal.holdsWhenMissing;
  const leaf = literal.present;
  switch (choice.type) {
    case "string":
      return stringHolds(leaf, choice.value);
    case "int":
      return intHolds(literal, choice.value);
    case "float":
      return decimalHolds(leaf, choice.value);
    case "bool":
      return boolHolds(leaf, choice.value);
    case "array":
      return arrayHolds(leaf, choice.elements);
  }
}

function boolHolds(leaf: Leaf, value: boolean): boolean {
  const constant = !Array.isArray(leaf.value) && leaf.value.kind === "bool" && leaf.value.value;
  switch (leaf.operator) {
    case "eq":
      return value === constant;
    case "!eq":
      return value !== constant;
    // No bool field takes these.
    case "lt":
    case "leq":
    case "gt":
    case "geq":
    case "startsWith":
    case "!startsWith":
    case "endsWith":
    case "!endsWith":
    case "contains":
    case "!contains":
    case "in":
    case "!in":
      return false;
  }
}
