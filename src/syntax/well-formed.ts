import type { IToken, TokenType } from "chevrotain";
import type { Expr, ListValue, OperatorRef, Scalar, Value } from "./ast.js";
import {
  comparisonNode,
  grouped,
  infixNotNode,
  listNode,
  logical,
  notNode,
  operatorNode,
  scalarOf,
  spliceGroup,
  tokenEnd,
} from "./nodes.js";
import {
  AndOperator,
  Comma,
  ComparisonOperator,
  Identifier,
  isOfType,
  LBracket,
  LParen,
  Negation,
  Not,
  OrOperator,
  RBracket,
  RParen,
  Scalar as ScalarToken,
} from "./tokens.js";

/**
 * The tree of a well-formed filter, read straight off its tokens (null for the empty filter,
 * well-formed too); undefined for any other filter, which chevrotain's parser (parser.ts) then
 * reads. That parser is the grammar of record: it recovers from errors, names what was expected,
 * and its serialized grammar drives completion. This one
 * takes only the derivations that parser makes without an error, and builds their nodes with the
 * same functions (nodes.ts), so the trees are the same (test/syntax/well-formed.test.ts holds them to it on
 * generated sources). It declines the rarer well-formed shapes too: a word or `!word` as
 * operator, a `not` before a word, nesting deeper than WELL_FORMED_MAX_DEPTH.
 *
 * Why: chevrotain's rule calls, lookahead and recovery bookkeeping were about half of the parse
 * (bench/RESULTS.md, "Compile with a direct parse of well-formed filters").
 */
export function parseWellFormed(tokens: readonly IToken[]): Expr | null | undefined {
  if (tokens.length === 0) return null;
  const reader = new Reader(tokens);
  try {
    const expr = reader.joined("or");
    return reader.at === tokens.length ? expr : undefined;
  } catch (error) {
    if (error === DECLINED) return undefined;
    throw error;
  }
}

/** Nesting (parentheses and prefix `not`s) past which chevrotain's parser reads the filter, as deep ones always were. */
export const WELL_FORMED_MAX_DEPTH = 64;

/** Thrown where the filter leaves this reader's grammar; caught once, at the top. */
const DECLINED = new Error("declined");

class Reader {
  at = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly IToken[]) {}

  private next(): IToken {
    const token = this.tokens[this.at++];
    if (token === undefined) throw DECLINED;
    return token;
  }

  private nextIs(category: TokenType): boolean {
    const token = this.tokens[this.at];
    return token !== undefined && isOfType(token, category);
  }

  /** An `or` of `and` groups (or one alone), or with `kind` "and" an `and` of unary operands. */
  joined(kind: "and" | "or"): Expr {
    const joiner = kind === "or" ? OrOperator : AndOperator;
    const first = kind === "or" ? this.joined("and") : this.unary();
    if (!this.nextIs(joiner)) return first;
    const operands = spliceGroup(kind, [], first);
    while (this.nextIs(joiner)) {
      this.at++;
      spliceGroup(kind, operands, kind === "or" ? this.joined("and") : this.unary());
    }
    return logical(kind, operands);
  }

  private unary(): Expr {
    const token = this.next();
    if (token.tokenType === Identifier) {
      const operator = this.operator();
      return comparisonNode(token, operator, this.value());
    }
    if (++this.depth > WELL_FORMED_MAX_DEPTH) throw DECLINED;
    let expr: Expr;
    if (isOfType(token, Negation)) expr = notNode(token, this.unary());
    else if (token.tokenType === LParen) {
      const inner = this.joined("or");
      const close = this.next();
      if (close.tokenType !== RParen) throw DECLINED;
      expr = grouped(token, inner, tokenEnd(close));
    } else throw DECLINED;
    this.depth--;
    return expr;
  }

  private operator(): OperatorRef {
    const token = this.next();
    if (isOfType(token, ComparisonOperator)) return operatorNode(token);
    if (token.tokenType === Not) {
      const word = this.next();
      if (isOfType(word, ComparisonOperator)) return infixNotNode(token, word);
    }
    throw DECLINED;
  }

  private value(): Value {
    const token = this.next();
    if (token.tokenType === LBracket) return this.list(token);
    if (isOfType(token, ScalarToken)) return scalarOf(token);
    throw DECLINED;
  }

  /** `[` then scalars between commas, a comma allowed before `]`. */
  private list(open: IToken): ListValue {
    const elements: Scalar[] = [];
    let token = this.next();
    while (token.tokenType !== RBracket) {
      if (!isOfType(token, ScalarToken)) throw DECLINED;
      elements.push(scalarOf(token));
      token = this.next();
      if (token.tokenType === Comma) token = this.next();
      else if (token.tokenType !== RBracket) throw DECLINED;
    }
    return listNode(open, elements, tokenEnd(token));
  }
}
