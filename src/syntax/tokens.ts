import type { IToken, TokenType } from "chevrotain";
import {
  BOOLEAN_WORDS,
  CANONICAL_OPERATORS,
  type CanonicalOperator,
  LOGIC,
  OPERATOR_SPELLINGS,
  OPERATORS,
  type Punctuation,
  type TokenFacts,
} from "./vocabulary.js";

/*
 * The token types of the filter language. The scanner (lexer.ts) recognizes them by hand, which
 * starts faster than chevrotain's regex lexer and runs faster too; the parser only needs the
 * types, their categories and labels (the labels also name them in syntax diagrams). The
 * operator tokens, one per spelling, are made from the vocabulary.
 *
 * They are made here in the shape chevrotain's createToken gives (an index, the categories, the
 * indices each category matches), without chevrotain: a well-formed filter is scanned and read
 * (well-formed.ts) without loading it, and only the recovering parser (parser.ts) does, which then
 * registers them with chevrotain (numberTokenTypes).
 */

/** Every token type, in the order made. */
const tokenTypes: TokenType[] = [];
/** What each token type is, in the order made. */
const factsInOrder: (TokenFacts | undefined)[] = [];
/** What each token type is, by its index: read by `tokenFacts`, the only door to a token's kind outside this stage. */
let factsByIndex: (TokenFacts | undefined)[] = [];
/** The canonical operator each operator spelling's token type spells (not the near misses'). */
const spelledOperators = new Map<TokenType, CanonicalOperator>();
/** The canonical operator of each operator token type, by its index (the parser reads it per comparison). */
let operatorByIndex: (CanonicalOperator | undefined)[] = [];

/** The pattern of a token type no lexer of chevrotain's matches (its `Lexer.NA`): the scanner is filterc's own. */
const NOT_APPLICABLE = /NOT_APPLICABLE/;

/**
 * The index chevrotain's createToken gives the n-th token type made in a process, counting from 0:
 * its counter starts at 1, and its own EOF takes that. Where chevrotain numbered other token types
 * first, numberTokenTypes gives these the indices it registered them at.
 */
const FIRST_INDEX = 2;

function token(name: string, label: string, categories: TokenType[] = [], facts?: TokenFacts): TokenType {
  const type: TokenType = {
    name,
    LABEL: label,
    PATTERN: NOT_APPLICABLE,
    CATEGORIES: categories,
    tokenTypeIdx: FIRST_INDEX + tokenTypes.length,
    categoryMatches: [],
    categoryMatchesMap: {},
    isParent: false,
  };
  tokenTypes.push(type);
  factsInOrder.push(facts);
  return type;
}

/**
 * Gives every token type the index `indexOf` gives it (in the order made), and fills in what the
 * indices decide: each category's matches (every token type beneath it, as chevrotain's createToken
 * fills them), the facts and operators by index.
 */
export function numberTokenTypes(indexOf: (type: TokenType) => number): void {
  factsByIndex = [];
  operatorByIndex = [];
  tokenTypes.forEach((type, order) => {
    type.tokenTypeIdx = indexOf(type);
    type.categoryMatches = [];
    type.categoryMatchesMap = {};
    factsByIndex[type.tokenTypeIdx] = factsInOrder[order];
    operatorByIndex[type.tokenTypeIdx] = spelledOperators.get(type);
  });
  for (const type of tokenTypes) {
    const above = [...(type.CATEGORIES ?? [])];
    for (let i = 0; i < above.length; i++) {
      const category = above[i]!;
      if (category.categoryMatchesMap![type.tokenTypeIdx!]) continue;
      category.categoryMatchesMap![type.tokenTypeIdx!] = true;
      category.categoryMatches!.push(type.tokenTypeIdx!);
      above.push(...(category.CATEGORIES ?? []));
    }
  }
  for (const type of tokenTypes) type.isParent = type.categoryMatches!.length > 0;
}

/** Whether `token` is of `type`, or of a type in the category `type` (chevrotain's tokenMatcher). */
export function isOfType(token: IToken, type: TokenType): boolean {
  return token.tokenTypeIdx === type.tokenTypeIdx || type.categoryMatchesMap![token.tokenTypeIdx] === true;
}

/** Every comparison operator token belongs to this category, so the parser takes any of them in one step. */
export const ComparisonOperator = token("ComparisonOperator", "operator");
export const OrOperator = token("OrOperator", "or");
export const AndOperator = token("AndOperator", "and");
/** Every token a value can be: lists hold these, and a comparison's value is one of these or a list. */
export const Scalar = token("Scalar", "value");
const StringLiteral = token("StringLiteral", "string", [Scalar]);
/** `not` and `!` before an operand. */
export const Negation = token("Negation", "not");

export const Identifier = token("Identifier", "field", [Scalar], { class: "field" });
export const And = token("And", LOGIC.and.word, [AndOperator], { class: "logic", logic: "and" });
export const Or = token("Or", LOGIC.or.word, [OrOperator], { class: "logic", logic: "or" });
export const AmpAmp = token("AmpAmp", LOGIC.and.symbol, [AndOperator], { class: "logic", logic: "and" });
export const PipePipe = token("PipePipe", LOGIC.or.symbol, [OrOperator], { class: "logic", logic: "or" });
export const Not = token("Not", LOGIC.not.word, [Negation], { class: "logic", logic: "not" });
export const Bang = token("Bang", LOGIC.not.symbol, [Negation], { class: "logic", logic: "not" });
const bool = { class: "value", value: "bool" } as const;
export const True = token("True", BOOLEAN_WORDS[0], [Scalar], bool);
export const False = token("False", BOOLEAN_WORDS[1], [Scalar], bool);

const punctuation = (name: string, text: Punctuation) =>
  token(name, text, [], { class: "punctuation", punctuation: text });
export const LParen = punctuation("LParen", "(");
export const RParen = punctuation("RParen", ")");
export const LBracket = punctuation("LBracket", "[");
export const RBracket = punctuation("RBracket", "]");
export const Comma = punctuation("Comma", ",");
/** Braces, scanned as tokens only right after an operator (and the `}` closing one): a list in the wrong brackets. */
export const LBrace = punctuation("LBrace", "{");
export const RBrace = punctuation("RBrace", "}");

const string = { class: "value", value: "string" } as const;
export const DoubleQuoted = token("DoubleQuoted", "double-quoted string", [StringLiteral], string);
export const SingleQuoted = token("SingleQuoted", "single-quoted string", [StringLiteral], string);
/** A string whose closing quote is missing: scanned to the end of the line so one mistake is one error. */
export const UnterminatedString = token("UnterminatedString", "unterminated string", [StringLiteral], {
  ...string,
  unterminated: true,
});
/** A string in curly quotes (“ca”, ‘ca’), as word processors write them: an error whose fix straightens them. */
export const CurlyQuoted = token("CurlyQuoted", "curly-quoted string", [StringLiteral], string);
const number = { class: "value", value: "number" } as const;
export const Decimal = token("Decimal", "decimal", [Scalar], number);
export const Integer = token("Integer", "integer", [Scalar], number);

const symbolNames: Record<string, string> = { "!": "Bang", "=": "Equals", "<": "Less", ">": "Greater" };

/** A token name for an operator spelling: `!startsWith` → `BangStartsWith`, `<=` → `LessEquals`. */
function operatorTokenName(spelling: string): string {
  const words = spelling.match(/[A-Za-z]+|./g) ?? [];
  return words.map((part) => symbolNames[part] ?? part[0]!.toUpperCase() + part.slice(1)).join("");
}

/** The token of each operator spelling the language accepts. */
export const operatorTokens = new Map<string, TokenType>();
for (const [spelling, canonical] of OPERATOR_SPELLINGS) {
  const type = token(operatorTokenName(spelling), spelling, [ComparisonOperator], {
    class: "operator",
    operator: canonical,
  });
  spelledOperators.set(type, canonical);
  operatorTokens.set(spelling, type);
}

export const allTokens: TokenType[] = [
  ComparisonOperator,
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
  ...operatorTokens.values(),
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  LBrace,
  RBrace,
  DoubleQuoted,
  SingleQuoted,
  UnterminatedString,
  CurlyQuoted,
  Decimal,
  Integer,
];

/** The canonical operator an operator token type spells; undefined for any other token type. */
export function operatorOfToken(type: TokenType): CanonicalOperator | undefined {
  return operatorByIndex[type.tokenTypeIdx!];
}

/** What a scanned token is: field, operator, logic word, value or punctuation. */
export function tokenFacts(token: IToken): TokenFacts {
  // Every type the scanner makes has its facts; comments are scanned as Identifier tokens.
  return factsByIndex[token.tokenTypeIdx]!;
}

/**
 * Operators the language does not have but people write, each one token so that the checker can
 * say what to write instead: the symbol near misses (`<>`, `===`) and `!` before a word operator
 * that has no `!` form (`!lt`, whose negation is `geq`). Their facts name the operator meant.
 */
export const nearMissTokens = new Map<string, TokenType>();
for (const canonical of CANONICAL_OPERATORS) {
  const facts = OPERATORS[canonical];
  for (const miss of facts.nearMisses.filter((spelling) => !/^[A-Za-z_]/.test(spelling)))
    nearMissTokens.set(
      miss,
      token(operatorTokenName(miss), miss, [ComparisonOperator], operatorFacts(canonical)),
    );
  for (const spelling of [canonical, ...facts.aliases]) {
    const banged = `!${spelling}`;
    if (/^[A-Za-z]+$/.test(spelling) && !OPERATOR_SPELLINGS.has(banged))
      nearMissTokens.set(
        banged,
        token(operatorTokenName(banged), banged, [ComparisonOperator], operatorFacts(facts.negation)),
      );
  }
}
allTokens.push(...nearMissTokens.values());
numberTokenTypes((type) => type.tokenTypeIdx!);

function operatorFacts(operator: CanonicalOperator): TokenFacts {
  return { class: "operator", operator };
}

/** Token names as diagnostics print them. */
export function describeTokenType(type: TokenType): string {
  switch (type.name) {
    case "Identifier":
      return "a field name";
    case "StringLiteral":
    case "DoubleQuoted":
    case "SingleQuoted":
    case "UnterminatedString":
    case "CurlyQuoted":
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
    case "LBrace":
      return "`{`";
    case "RBrace":
      return "`}`";
    case "EOF":
      return "the end of the filter";
    default:
      return `\`${type.name}\``;
  }
}
