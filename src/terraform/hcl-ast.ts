import type { Diagnostic } from "../diagnostics/index.js";
import type { MappedText } from "./mapped-text.js";
import type { SourceFile } from "./source-file.js";

/*
 * The HCL native syntax as the checks read it: bodies of attributes and blocks, and expressions
 * with their offsets in the file. Strings are read through their escapes (and heredocs through
 * their indentation) with the place of every character kept.
 */

export interface Span {
  start: number;
  end: number;
}

export interface HclFile {
  source: SourceFile;
  body: Body;
  /** Syntax errors (E0900) and limits crossed (E0902); a file with any is not fixed. */
  diagnostics: Diagnostic[];
}

export interface Body {
  items: (Attribute | Block)[];
}

export interface Attribute extends Span {
  kind: "attribute";
  name: string;
  nameSpan: Span;
  value: Expr;
}

export interface Block extends Span {
  kind: "block";
  type: string;
  typeSpan: Span;
  labels: { value: string; span: Span }[];
  body: Body;
}

/** A string without interpolation: its value, each character mapped to where it is written. */
export interface StringLiteral extends Span {
  kind: "string";
  value: MappedText;
}

/** A quoted string or heredoc with `${…}` or `%{…}` in it. */
export interface Template extends Span {
  kind: "template";
  parts: TemplatePart[];
}

export type TemplatePart =
  | { kind: "text"; value: MappedText }
  | { kind: "interpolation"; expr: Expr }
  | ({ kind: "directive"; parts: Expr[] } & Span);

export interface NumberLiteral extends Span {
  kind: "number";
  text: string;
}

export interface BoolLiteral extends Span {
  kind: "bool";
  value: boolean;
}

export interface NullLiteral extends Span {
  kind: "null";
}

export interface Tuple extends Span {
  kind: "tuple";
  elements: Expr[];
}

/** `{ key = value, … }`: a key is a name (an identifier or a string) or an expression in parentheses. */
export interface ObjectConstructor extends Span {
  kind: "object";
  items: ObjectItem[];
}

export interface ObjectItem extends Span {
  key: { kind: "name"; name: MappedText; span: Span } | { kind: "expression"; expr: Expr };
  value: Expr;
}

export interface Call extends Span {
  kind: "call";
  name: string;
  args: Expr[];
  /** `f(list...)`: the last argument's elements are the arguments. */
  expandsLast: boolean;
}

/** A name on its own: `var`, `local`, `path`, a resource type. */
export interface Variable extends Span {
  kind: "variable";
  name: string;
}

/** `target.name` or `target[key]`. */
export interface Access extends Span {
  kind: "access";
  target: Expr;
  key: { kind: "attribute"; name: string } | { kind: "index"; expr: Expr };
}

/**
 * An expression the checks never evaluate (an operation, a conditional, a `for`, a splat, a node
 * the reader does not know), named in words, with the expressions read inside it.
 */
export interface Dynamic extends Span {
  kind: "dynamic";
  what: string;
  parts: Expr[];
}

export type Expr =
  | StringLiteral
  | Template
  | NumberLiteral
  | BoolLiteral
  | NullLiteral
  | Tuple
  | ObjectConstructor
  | Call
  | Variable
  | Access
  | Dynamic;

/** The attribute of a body with this name (the first, when written twice: HCL refuses that). */
export function attributeOf(body: Body, name: string): Attribute | undefined {
  return body.items.find((item): item is Attribute => item.kind === "attribute" && item.name === name);
}

export function blocksOf(body: Body, type: string): Block[] {
  return body.items.filter((item): item is Block => item.kind === "block" && item.type === type);
}
