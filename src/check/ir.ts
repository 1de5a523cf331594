import type { FieldInfo } from "../catalog/index.js";
import type { Range } from "../diagnostics/index.js";
// The modules, not the syntax stage's index: eval (and its worker threads) loads this file, and the
// index would bring the parser with it.
import { stringLiteral } from "../syntax/strings.js";
import type { CanonicalOperator } from "../syntax/vocabulary.js";

/**
 * The checked filter as written, `not` kept, with every name resolved and every value typed: what
 * printing, formatting and hover read. What it means is its Meaning.
 */
export type Cond = Leaf | Group | Negation;

/**
 * What a filter means: its condition with every `not` pushed down to the comparisons (De Morgan
 * and the operator pairs), the shape of its Logpush JSON. The JSON a job runs defines the meaning,
 * so every stage that evaluates, translates or reasons about records takes this type, which holds
 * no `not`: `not X lt 5` is `X geq 5`, which a record without X fails (docs/language.md#what-not-means).
 */
export type Meaning = Leaf | Group<Meaning>;

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

export interface Group<Operand = Cond> {
  kind: "and" | "or";
  operands: Operand[];
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
