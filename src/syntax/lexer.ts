import type { IToken, TokenType } from "chevrotain";
import type { Position } from "../diagnostics/index.js";
import {
  AmpAmp,
  And,
  Bang,
  BangEq,
  Comma,
  Contains,
  Decimal,
  DoubleQuoted,
  EndsWith,
  Eq,
  EqEq,
  False,
  Ge,
  Geq,
  Greater,
  Gt,
  GtEq,
  Identifier,
  In,
  Integer,
  LBracket,
  Le,
  Leq,
  Less,
  LParen,
  Lt,
  LtEq,
  Ne,
  Not,
  NotContains,
  NotEndsWith,
  NotEqWord,
  NotIn,
  NotStartsWith,
  Or,
  PipePipe,
  RBracket,
  RParen,
  SingleQuoted,
  StartsWith,
  True,
  UnterminatedString,
} from "./tokens.js";

export interface ScanResult {
  tokens: IToken[];
  comments: IToken[];
  /** Runs of characters no token starts with. */
  errors: { offset: number; length: number }[];
  /** The position just past the last character. */
  end: Position;
}

/** Case-sensitive words: operators and booleans. `and`, `or`, `not` are matched in any case below. */
const words: Record<string, TokenType> = Object.assign(Object.create(null), {
  eq: Eq,
  leq: Leq,
  le: Le,
  lt: Lt,
  geq: Geq,
  ge: Ge,
  gt: Gt,
  ne: Ne,
  startsWith: StartsWith,
  endsWith: EndsWith,
  contains: Contains,
  in: In,
  true: True,
  false: False,
});

const anyCaseWords: Record<string, TokenType> = Object.assign(Object.create(null), {
  and: And,
  or: Or,
  not: Not,
});

/** `!` followed by one of these words is one token; followed by any other word it is `!` then a field. */
const negatedWords: Record<string, TokenType> = Object.assign(Object.create(null), {
  eq: NotEqWord,
  startsWith: NotStartsWith,
  endsWith: NotEndsWith,
  contains: NotContains,
  in: NotIn,
});

const single: Record<string, TokenType> = Object.assign(Object.create(null), {
  "(": LParen,
  ")": RParen,
  "[": LBracket,
  "]": RBracket,
  ",": Comma,
});

const isWordStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isWordPart = (c: number) => isWordStart(c) || isDigit(c);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;
/** Characters at which an unrecognized run ends: anything a token or a blank may start with. */
const startsSomething = (c: number) =>
  isSpace(c) || isWordStart(c) || isDigit(c) || "\"'#!=<>&|()[],-".includes(String.fromCharCode(c));

/**
 * Scans filter source into chevrotain tokens. Lines are 1-based; columns are 1-based UTF-16
 * positions, as chevrotain's own lexer reports them. Never throws.
 */
export function scan(source: string): ScanResult {
  const tokens: IToken[] = [];
  const comments: IToken[] = [];
  const errors: ScanResult["errors"] = [];
  const length = source.length;
  let line = 1;
  let lineStart = 0;
  let i = 0;

  const make = (type: TokenType, start: number, end: number): IToken => ({
    image: source.slice(start, end),
    startOffset: start,
    endOffset: end - 1,
    startLine: line,
    endLine: line,
    startColumn: start - lineStart + 1,
    endColumn: end - lineStart,
    tokenTypeIdx: type.tokenTypeIdx!,
    tokenType: type,
  });

  while (i < length) {
    const c = source.charCodeAt(i);
    const start = i;
    if (c === 10 || c === 13) {
      i += c === 13 && source.charCodeAt(i + 1) === 10 ? 2 : 1;
      line++;
      lineStart = i;
    } else if (isSpace(c)) {
      i++;
    } else if (isWordStart(c)) {
      i++;
      while (i < length && isWordPart(source.charCodeAt(i))) i++;
      const word = source.slice(start, i);
      const type =
        words[word] ?? (i - start <= 3 ? anyCaseWords[word.toLowerCase()] : undefined) ?? Identifier;
      tokens.push(make(type, start, i));
    } else if (isDigit(c) || (c === 45 && isDigit(source.charCodeAt(i + 1)))) {
      i++;
      while (i < length && isDigit(source.charCodeAt(i))) i++;
      let type = Integer;
      if (source.charCodeAt(i) === 46 && isDigit(source.charCodeAt(i + 1))) {
        i += 2;
        while (i < length && isDigit(source.charCodeAt(i))) i++;
        type = Decimal;
      }
      tokens.push(make(type, start, i));
    } else if (c === 34 || c === 39) {
      i++;
      let closed = false;
      while (i < length) {
        const d = source.charCodeAt(i);
        if (d === c) {
          i++;
          closed = true;
          break;
        }
        if (d === 10 || d === 13) break;
        if (d === 92 && i + 1 < length && source.charCodeAt(i + 1) !== 10 && source.charCodeAt(i + 1) !== 13)
          i += 2;
        else i++;
      }
      tokens.push(make(closed ? (c === 34 ? DoubleQuoted : SingleQuoted) : UnterminatedString, start, i));
    } else if (c === 35) {
      while (i < length && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
      comments.push(make(Identifier, start, i));
    } else if (c === 33) {
      const next = source.charCodeAt(i + 1);
      if (next === 61) {
        i += 2;
        tokens.push(make(BangEq, start, i));
      } else {
        let end = i + 1;
        while (end < length && isWordPart(source.charCodeAt(end))) end++;
        const negated = isWordStart(next) ? negatedWords[source.slice(i + 1, end)] : undefined;
        i = negated ? end : i + 1;
        tokens.push(make(negated ?? Bang, start, i));
      }
    } else if (c === 60 || c === 62) {
      const withEquals = source.charCodeAt(i + 1) === 61;
      i += withEquals ? 2 : 1;
      tokens.push(make(c === 60 ? (withEquals ? LtEq : Less) : withEquals ? GtEq : Greater, start, i));
    } else if ((c === 61 || c === 38 || c === 124) && source.charCodeAt(i + 1) === c) {
      i += 2;
      tokens.push(make(c === 61 ? EqEq : c === 38 ? AmpAmp : PipePipe, start, i));
    } else {
      const type = single[source[i]!];
      if (type) {
        i++;
        tokens.push(make(type, start, i));
      } else {
        i++;
        while (i < length && !startsSomething(source.charCodeAt(i))) i++;
        errors.push({ offset: start, length: i - start });
      }
    }
  }
  return { tokens, comments, errors, end: { offset: length, line, column: length - lineStart + 1 } };
}
