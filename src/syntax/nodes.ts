import type { IToken } from "chevrotain";
import type { Position, Range } from "../diagnostics/index.js";
import type { Comparison, ErrorNode, Expr, ListValue, Not, OperatorRef, Scalar, Value } from "./ast.js";
import { decodeStringToken } from "./strings.js";
import { CurlyQuoted, Decimal, False, Identifier, Integer, operatorOfToken, True } from "./tokens.js";
import { OPERATORS } from "./vocabulary.js";

/*
 * The AST nodes built from tokens, in one place for both parsers: chevrotain's (parser.ts) and the
 * one for well-formed filters (well-formed.ts), so that the two build the same trees.
 */

/** Where a token starts and ends; tokens the parser inserts while recovering have no offsets. */
export function tokenStart(token: IToken): Position {
  return { offset: token.startOffset, line: token.startLine ?? 1, column: token.startColumn ?? 1 };
}

export function tokenEnd(token: IToken): Position {
  const length = token.image.length;
  return {
    offset: token.startOffset + length,
    line: token.startLine ?? 1,
    column: (token.startColumn ?? 1) + length,
  };
}

export function tokenRange(token: IToken): Range {
  return { start: tokenStart(token), end: tokenEnd(token) };
}

/** A position `by` code units further along the same line. */
export function shift(position: Position, by: number): Position {
  return { offset: position.offset + by, line: position.line, column: position.column + by };
}

export function isRealToken(token: IToken): boolean {
  return !token.isInsertedInRecovery && Number.isFinite(token.startOffset);
}

/** The span of two adjacent tokens; only the first when the parser invented the second while recovering. */
function spanOfPair(first: IToken, second: IToken): Range {
  return { start: tokenStart(first), end: tokenEnd(isRealToken(second) ? second : first) };
}

/** An operator written as one token (`eq`, `>=`, `!in`, or a near miss such as `<>`, whose op is null). */
export function operatorNode(token: IToken): OperatorRef {
  return {
    kind: "operator",
    op: operatorOfToken(token.tokenType) ?? null,
    text: token.image,
    range: tokenRange(token),
  };
}

/** `not` before an operator (`not in`); a word after it (`NOT In`) is kept, so the checker can name the operator meant. */
export function infixNotNode(not: IToken, token: IToken): OperatorRef {
  const canonical = operatorOfToken(token.tokenType);
  return {
    kind: "operator",
    op: canonical && OPERATORS[canonical].infixNot ? OPERATORS[canonical].negation : null,
    text: `${not.image} ${token.image}`,
    range: spanOfPair(not, token),
  };
}

/** An operator that is no operator token: a word (`like`) or `!` and a word (`!like`). */
export function wordOperatorNode(token: IToken, bang?: IToken): OperatorRef {
  return bang
    ? { kind: "operator", op: null, text: `!${token.image}`, range: spanOfPair(bang, token) }
    : { kind: "operator", op: null, text: token.image, range: tokenRange(token) };
}

export function comparisonNode(name: IToken, operator: OperatorRef | ErrorNode, value: Value): Comparison {
  const field = { kind: "field" as const, name: name.image, range: tokenRange(name) };
  return {
    kind: "comparison",
    field,
    operator,
    value,
    range: { start: field.range.start, end: value.range.end },
  };
}

export function notNode(keyword: IToken, operand: Expr): Not {
  return { kind: "not", operand, range: { start: tokenStart(keyword), end: operand.range.end } };
}

/**
 * A parenthesized group: parentheses only group, so it is the node inside with its range widened
 * to them, so that spans read naturally. The node was built just now for this group: widening its
 * range in place is safe.
 */
export function grouped(open: IToken, inner: Expr, end: Position): Expr {
  inner.range = { start: tokenStart(open), end };
  return inner;
}

export function listNode(open: IToken, elements: Scalar[], end: Position): ListValue {
  return { kind: "list", elements, range: { start: tokenStart(open), end } };
}

/** The AST of a scalar token; one category token and a switch cost less than a six-way alternation. */
export function scalarOf(token: IToken): Scalar {
  const range = tokenRange(token);
  // A value invented while recovering: the syntax error is reported, the checker has nothing to add.
  if (token.isInsertedInRecovery) return { kind: "error", range };
  // Curly quotes and exponents are syntax errors (E0109, E0108) with their fix: no value to check.
  if (token.tokenType === CurlyQuoted || (token.tokenType === Decimal && /[eE]/.test(token.image)))
    return { kind: "error", range };
  switch (token.tokenType) {
    case Integer:
      return { kind: "int", digits: token.image, range };
    case Decimal:
      return { kind: "decimal", text: token.image, range };
    case True:
      return { kind: "bool", value: true, range };
    case False:
      return { kind: "bool", value: false, range };
    case Identifier:
      return { kind: "word", name: token.image, range };
    default:
      return { kind: "string", value: decodeStringToken(token.image), range };
  }
}

/** Adds `operand` to a group of `kind`, merging it in when it is itself a group of that kind. */
export function spliceGroup(kind: "and" | "or", operands: Expr[], operand: Expr): Expr[] {
  // One at a time: spread as arguments, a group of some 150,000 operands overflowed the stack.
  if (operand.kind === kind) for (const inner of operand.operands) operands.push(inner);
  else operands.push(operand);
  return operands;
}

export function logical(kind: "and" | "or", operands: Expr[]): Expr {
  const first = operands[0]!;
  const last = operands[operands.length - 1]!;
  return { kind, operands, range: { start: first.range.start, end: last.range.end } };
}
