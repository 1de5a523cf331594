import type { FieldInfo } from "../catalog/index.js";
import { type CanonicalOperator, stringLiteral } from "../syntax/index.js";
import { type ScalarValue, scalarText } from "./ir.js";

/*
 * Fixes that rewrite a whole comparison (`X in [a, b]` on an array as `X contains a or X contains
 * b`, a CIDR as `startsWith`, `eq "*.a.com"` as `endsWith`) are built as comparisons joined by one
 * logic word, and written in the syntax of where the comparison stands: filter source, or the
 * Logpush JSON that decompile and the Terraform check read.
 */

/** Where the checked text was written, and so how a fix must be written. */
export type FixSyntax = "source" | "json";

/** One comparison of a rewrite. */
export interface Rewritten {
  field: FieldInfo;
  operator: CanonicalOperator;
  value: ScalarValue | ScalarValue[];
}

/** Comparisons that together say what one comparison meant. */
export interface Rewrite {
  join: "and" | "or";
  comparisons: Rewritten[];
}

function sourceScalar(value: ScalarValue): string {
  switch (value.kind) {
    case "string":
      return stringLiteral(value.value);
    case "number":
      return value.text;
    case "bool":
      return String(value.value);
  }
}

/** A list in Logpush JSON: numbers for number fields, strings otherwise (as the emitter writes it). */
function jsonValue(field: FieldInfo, value: ScalarValue | ScalarValue[]): string {
  if (!Array.isArray(value)) return JSON.stringify(scalarText(value));
  const numbers = field.type === "int" || field.type === "float" || field.elementType === "int";
  return `[${value.map((element) => (numbers && element.kind === "number" ? element.text : JSON.stringify(scalarText(element)))).join(",")}]`;
}

function writeOne(comparison: Rewritten, syntax: FixSyntax): string {
  const { field, operator, value } = comparison;
  if (syntax === "json")
    return `{"key":${JSON.stringify(field.name)},"operator":${JSON.stringify(operator)},"value":${jsonValue(field, value)}}`;
  const written = Array.isArray(value) ? `[${value.map(sourceScalar).join(", ")}]` : sourceScalar(value);
  return `${field.name} ${operator} ${written}`;
}

/** What a comparison stands in: nothing (it is the whole filter), an `and`, an `or`, or a `not`. */
export type Around = "nothing" | "and" | "or" | "not";

/**
 * The rewrite as text: one comparison alone, several joined (in source, in parentheses where the
 * comparison replaced stands in something that would read them otherwise: a `not`, or an `and`
 * around comparisons joined by `or`; in JSON, a group node).
 */
export function writeRewrite(rewrite: Rewrite, syntax: FixSyntax, around: Around): string {
  const written = rewrite.comparisons.map((comparison) => writeOne(comparison, syntax));
  if (written.length === 1) return written[0]!;
  if (syntax === "json") return `{${JSON.stringify(rewrite.join)}:[${written.join(",")}]}`;
  const joined = written.join(` ${rewrite.join} `);
  const reads =
    around === "nothing" || around === rewrite.join || (rewrite.join === "and" && around === "or");
  return reads ? joined : `(${joined})`;
}
