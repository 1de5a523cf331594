import type { Range } from "../diagnostics/index.js";
import type { CanonicalOperator } from "./vocabulary.js";

/** A whole source: one expression, or none for the empty filter. */
export interface FilterSource {
  kind: "filter";
  expr: Expr | null;
  comments: Comment[];
  range: Range;
  /** The dataset the source names with `# dataset: NAME` before the filter, if it names one. */
  directive?: DatasetDirective;
}

/** `# dataset: NAME`: the dataset whose catalog a file is checked against. */
export interface DatasetDirective {
  /** The name as written; the checker says when no dataset has it. */
  dataset: string;
  /** Where the name is written. */
  range: Range;
}

export interface Comment {
  kind: "comment";
  /** The text after `#`, up to the end of the line. */
  text: string;
  range: Range;
}

export type Expr = Comparison | Logical | Not | ErrorNode;

/** `a and b and c` is one node with three operands; a parenthesized group of the same kind is merged in. */
export interface Logical {
  kind: "and" | "or";
  operands: Expr[];
  range: Range;
}

export interface Not {
  kind: "not";
  operand: Expr;
  range: Range;
}

export interface Comparison {
  kind: "comparison";
  field: FieldRef;
  operator: OperatorRef | ErrorNode;
  value: Value;
  range: Range;
}

export interface FieldRef {
  kind: "field";
  name: string;
  range: Range;
}

export interface OperatorRef {
  kind: "operator";
  /** The canonical operator, or null when the text is not an operator (the checker says which one was meant). */
  op: CanonicalOperator | null;
  /** The operator as written: `>=`, `not in`, `neq`. */
  text: string;
  range: Range;
}

export type Scalar = StringValue | IntValue | DecimalValue | BoolValue | Word | ErrorNode;
export type Value = Scalar | ListValue;

export interface StringValue {
  kind: "string";
  value: string;
  range: Range;
}

export interface IntValue {
  kind: "int";
  /** Decimal digits with an optional `-`, exactly as written (never rounded through a float). */
  digits: string;
  range: Range;
}

export interface DecimalValue {
  kind: "decimal";
  text: string;
  range: Range;
}

export interface BoolValue {
  kind: "bool";
  value: boolean;
  range: Range;
}

export interface ListValue {
  kind: "list";
  elements: Scalar[];
  range: Range;
}

/** An unquoted word in value position: the checker reports it with the quoted form as the fix. */
export interface Word {
  kind: "word";
  name: string;
  range: Range;
}

/** What the parser builds where the source is broken; the syntax error is already reported. */
export interface ErrorNode {
  kind: "error";
  range: Range;
}

export type Node = FilterSource | Expr | FieldRef | OperatorRef | Value | Comment;
