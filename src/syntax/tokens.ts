import { createToken, Lexer, type TokenType } from "chevrotain";
import type { CanonicalOperator } from "./ast.js";

/*
 * The token types of the filter language. The scanner (lexer.ts) recognizes them by hand, which
 * starts faster than chevrotain's regex lexer and runs faster too; the parser only needs the
 * types, their categories and labels (the labels also name them in syntax diagrams).
 */

function token(name: string, label: string, categories: TokenType[] = []): TokenType {
  return createToken({ name, label, pattern: Lexer.NA, categories });
}

/** Every comparison operator token belongs to this category, so the parser takes any of them in one step. */
export const ComparisonOperator = token("ComparisonOperator", "operator");
/** `in`, `contains`, `startsWith`, `endsWith`: the operators that `not` may negate in infix position. */
export const Negatable = token("Negatable", "negatable operator");
export const OrOperator = token("OrOperator", "or");
export const AndOperator = token("AndOperator", "and");
/** Every token a value can be: lists hold these, and a comparison's value is one of these or a list. */
export const Scalar = token("Scalar", "value");
const StringLiteral = token("StringLiteral", "string", [Scalar]);
/** `not` and `!` before an operand. */
export const Negation = token("Negation", "not");

/** Canonical operator of each operator token, by token name. */
export const canonicalOfToken: Record<string, CanonicalOperator> = {};

function operator(
  name: string,
  label: string,
  canonical: CanonicalOperator,
  extra: TokenType[] = [],
): TokenType {
  canonicalOfToken[name] = canonical;
  return token(name, label, [ComparisonOperator, ...extra]);
}

export const Identifier = token("Identifier", "field", [Scalar]);
export const And = token("And", "and", [AndOperator]);
export const Or = token("Or", "or", [OrOperator]);
export const AmpAmp = token("AmpAmp", "&&", [AndOperator]);
export const PipePipe = token("PipePipe", "||", [OrOperator]);
export const Not = token("Not", "not", [Negation]);
export const Bang = token("Bang", "!", [Negation]);
export const True = token("True", "true", [Scalar]);
export const False = token("False", "false", [Scalar]);

export const Eq = operator("Eq", "eq", "eq");
export const Leq = operator("Leq", "leq", "leq");
export const Le = operator("Le", "le", "leq");
export const Lt = operator("Lt", "lt", "lt");
export const Geq = operator("Geq", "geq", "geq");
export const Ge = operator("Ge", "ge", "geq");
export const Gt = operator("Gt", "gt", "gt");
export const Ne = operator("Ne", "ne", "!eq");
export const StartsWith = operator("StartsWith", "startsWith", "startsWith", [Negatable]);
export const EndsWith = operator("EndsWith", "endsWith", "endsWith", [Negatable]);
export const Contains = operator("Contains", "contains", "contains", [Negatable]);
export const In = operator("In", "in", "in", [Negatable]);
export const EqEq = operator("EqEq", "==", "eq");
export const BangEq = operator("BangEq", "!=", "!eq");
export const LtEq = operator("LtEq", "<=", "leq");
export const GtEq = operator("GtEq", ">=", "geq");
export const Less = operator("Less", "<", "lt");
export const Greater = operator("Greater", ">", "gt");
export const NotEqWord = operator("NotEqWord", "!eq", "!eq");
export const NotStartsWith = operator("NotStartsWith", "!startsWith", "!startsWith");
export const NotEndsWith = operator("NotEndsWith", "!endsWith", "!endsWith");
export const NotContains = operator("NotContains", "!contains", "!contains");
export const NotIn = operator("NotIn", "!in", "!in");

export const LParen = token("LParen", "(");
export const RParen = token("RParen", ")");
export const LBracket = token("LBracket", "[");
export const RBracket = token("RBracket", "]");
export const Comma = token("Comma", ",");

export const DoubleQuoted = token("DoubleQuoted", "double-quoted string", [StringLiteral]);
export const SingleQuoted = token("SingleQuoted", "single-quoted string", [StringLiteral]);
/** A string whose closing quote is missing: scanned to the end of the line so one mistake is one error. */
export const UnterminatedString = token("UnterminatedString", "unterminated string", [StringLiteral]);
export const Decimal = token("Decimal", "decimal", [Scalar]);
export const Integer = token("Integer", "integer", [Scalar]);

export const allTokens: TokenType[] = [
  ComparisonOperator,
  Negatable,
  AndOperator,
  OrOperator,
  Scalar,
  Negation,
  StringLiteral,
  Identifier,
  And,
  Or,
  AmpAmp,
  PipePipe,
  Not,
  Bang,
  True,
  False,
  Eq,
  Leq,
  Le,
  Lt,
  Geq,
  Ge,
  Gt,
  Ne,
  StartsWith,
  EndsWith,
  Contains,
  In,
  EqEq,
  BangEq,
  LtEq,
  GtEq,
  Less,
  Greater,
  NotEqWord,
  NotStartsWith,
  NotEndsWith,
  NotContains,
  NotIn,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  DoubleQuoted,
  SingleQuoted,
  UnterminatedString,
  Decimal,
  Integer,
];

/** Token names as diagnostics print them. */
export function describeTokenType(type: TokenType): string {
  switch (type.name) {
    case "Identifier":
      return "a field name";
    case "StringLiteral":
    case "DoubleQuoted":
    case "SingleQuoted":
    case "UnterminatedString":
      return "a string";
    case "Integer":
      return "an integer";
    case "Decimal":
      return "a decimal number";
    case "ComparisonOperator":
      return "an operator such as `eq`";
    case "RParen":
      return "`)`";
    case "RBracket":
      return "`]`";
    case "LParen":
      return "`(`";
    case "LBracket":
      return "`[`";
    case "Comma":
      return "`,`";
    case "EOF":
      return "the end of the filter";
    default:
      return `\`${type.name}\``;
  }
}
