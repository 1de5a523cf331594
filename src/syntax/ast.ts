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

/** A `#` comment in the source. */
export interface Comment {
  kind: "comment";
  /** The text after `#`, up to the end of the line. */
  text: string;
  range: Range;
}

/** An expression in the source: a comparison, `and`/`or`, `not`, or what could not be parsed. */
export type Expr = Comparison | Logical | Not | ErrorNode;

/** `a and b and c` is one node with three operands; a parenthesized group of the same kind is merged in. */
export interface Logical {
  kind: "and" | "or";
  operands: Expr[];
  range: Range;
}

/** A `not` (or `!`) before an expression in the source. */
export interface Not {
  kind: "not";
  operand: Expr;
  range: Range;
}

/** A comparison in the source: a field, an operator and a value (`BotScore lt 30`). */
export interface Comparison {
  kind: "comparison";
  field: FieldRef;
  operator: OperatorRef | ErrorNode;
  value: Value;
  range: Range;
}

/** A field name as written in the source. */
export interface FieldRef {
  kind: "field";
  name: string;
  range: Range;
}

/** An operator as written in the source (any alias) and its canonical operator. */
export interface OperatorRef {
  kind: "operator";
  /** The canonical operator, or null when the text is not an operator (the checker says which one was meant). */
  op: CanonicalOperator | null;
  /** The operator as written: `>=`, `not in`, `neq`. */
  text: string;
  range: Range;
}

/** A single value in the source (not a list). */
export type Scalar = StringValue | IntValue | DecimalValue | BoolValue | Word | ErrorNode;
/** A comparison's value in the source: a scalar or a list. */
export type Value = Scalar | ListValue;

/** A quoted string in the source. */
export interface StringValue {
  kind: "string";
  value: string;
  range: Range;
}

/** A whole number in the source. */
export interface IntValue {
  kind: "int";
  /** Decimal digits with an optional `-`, exactly as written (never rounded through a float). */
  digits: string;
  range: Range;
}

/** A number with a fraction in the source (`30.5`). */
export interface DecimalValue {
  kind: "decimal";
  text: string;
  range: Range;
}

/** A `true` or `false` value in the source. */
export interface BoolValue {
  kind: "bool";
  value: boolean;
  range: Range;
}

/** A list of values in brackets or parentheses (`[500, 502]`). */
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

/** Any node of the AST. */
export type Node = FilterSource | Expr | FieldRef | OperatorRef | Value | Comment;
