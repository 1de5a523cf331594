import type { FieldInfo } from "../catalog/index.js";
import type { Range } from "../diagnostics/index.js";
// The modules, not the syntax stage's index: eval (and its worker threads) loads this file, and the
// index would bring the parser with it.
import { stringLiteral } from "../syntax/strings.js";
import type { CanonicalOperator } from "../syntax/vocabulary.js";

/**
 * The checked filter: what the source means, with every name resolved and every value typed.
 * It is the shared currency of the later stages: the emitter writes it as Logpush JSON, the
 * evaluator turns it into a predicate, and the decompiler builds it from JSON.
 */
export type Cond = Leaf | Group | Negation;

/** A number keeps its exact decimal text (`"-12"`, `"0.5"`, 20-digit ids): it is never rounded through a float. */
export type ScalarValue =
  | { kind: "string"; value: string }
  | { kind: "number"; text: string }
  | { kind: "bool"; value: boolean };

export interface Leaf {
  kind: "leaf";
  field: FieldInfo;
  operator: CanonicalOperator;
  /** One value for scalar operators (and `contains` on arrays), a non-empty list for `in`/`!in`. */
  value: ScalarValue | ScalarValue[];
  range: Range;
}

export interface Group {
  kind: "and" | "or";
  operands: Cond[];
  range: Range;
}

export interface Negation {
  kind: "not";
  operand: Cond;
  range: Range;
}

/** The same comparison with another operator (the negation pairs). */
export function withOperator(leaf: Leaf, operator: CanonicalOperator): Leaf {
  return { kind: "leaf", field: leaf.field, operator, value: leaf.value, range: leaf.range };
}

/** A scalar's text as Logpush JSON carries it in a string: `"30"`, `"true"`, the string itself. */
export function scalarText(value: ScalarValue): string {
  switch (value.kind) {
    case "string":
      return value.value;
    case "number":
      return value.text;
    case "bool":
      return value.value ? "true" : "false";
  }
}

/** A scalar as the filter language writes it: strings quoted, numbers and booleans bare. */
export function scalarSource(value: ScalarValue): string {
  return value.kind === "string" ? stringLiteral(value.value) : scalarText(value);
}

/** A scalar as one string key: for deduplication and for comparing values of one field. */
export function scalarKey(value: ScalarValue): string {
  switch (value.kind) {
    case "string":
      return `s${value.value}`;
    case "number":
      return `n${value.text}`;
    case "bool":
      return value.value ? "b1" : "b0";
  }
}

/** `scalarKey(a) === scalarKey(b)` without building the keys. */
export function sameScalar(a: ScalarValue, b: ScalarValue): boolean {
  switch (a.kind) {
    case "string":
      return b.kind === "string" && a.value === b.value;
    case "number":
      return b.kind === "number" && a.text === b.text;
    case "bool":
      return b.kind === "bool" && a.value === b.value;
  }
}

export function leafKey(leaf: Leaf): string {
  const value = Array.isArray(leaf.value) ? leaf.value.map(scalarKey).join("\u0000") : scalarKey(leaf.value);
  return `${leaf.field.name}\u0001${leaf.operator}\u0001${value}`;
}
