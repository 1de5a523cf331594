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

/** Case-sensitive words (operators and booleans), by length. `and`, `or`, `not` match in any case. */
const wordsByLength: [string, TokenType][][] = [];
for (const entry of [
  ["eq", Eq],
  ["leq", Leq],
  ["le", Le],
  ["lt", Lt],
  ["geq", Geq],
  ["ge", Ge],
  ["gt", Gt],
  ["ne", Ne],
  ["startsWith", StartsWith],
  ["endsWith", EndsWith],
  ["contains", Contains],
  ["in", In],
  ["true", True],
  ["false", False],
] as [string, TokenType][]) {
  const length = entry[0].length;
  wordsByLength[length] ??= [];
  wordsByLength[length].push(entry);
}

const anyCaseWords: [string, TokenType][] = [
  ["and", And],
  ["or", Or],
  ["not", Not],
];

const LONGEST_KEYWORD = "startsWith".length;

/**
 * The keyword written at source[start, end), or Identifier. Compares in place: slicing the word
 * and looking it up would build and hash a string per word.
 */
function keywordAt(source: string, start: number, end: number): TokenType {
  const length = end - start;
  // Indexed loops and char codes: destructuring entries would iterate, slicing would allocate.
  const candidates = wordsByLength[length];
  if (candidates) {
    for (let i = 0; i < candidates.length; i++) {
      const entry = candidates[i]!;
      if (isWordAt(source, start, entry[0], 0)) return entry[1];
    }
  }
  if (length <= 3) {
    for (let i = 0; i < anyCaseWords.length; i++) {
      const entry = anyCaseWords[i]!;
      if (entry[0].length === length && isWordAt(source, start, entry[0], 0x20)) return entry[1];
    }
  }
  return Identifier;
}

/**
 * Whether source at `start` holds `word`; with `caseBit` 0x20, in any letter case (`word` in
 * small letters: setting that bit makes an ASCII capital small).
 */
function isWordAt(source: string, start: number, word: string, caseBit: number): boolean {
  for (let i = 0; i < word.length; i++)
    if ((source.charCodeAt(start + i) | caseBit) !== word.charCodeAt(i)) return false;
  return true;
}

/** `!` followed by one of these words is one token; followed by any other word it is `!` then a field. */
const negatedWords = new Map<TokenType, TokenType>([
  [Eq, NotEqWord],
  [StartsWith, NotStartsWith],
  [EndsWith, NotEndsWith],
  [Contains, NotContains],
  [In, NotIn],
]);

/** Single-character tokens by char code. */
const single: (TokenType | undefined)[] = [];
single[0x28] = LParen;
single[0x29] = RParen;
single[0x5b] = LBracket;
single[0x5d] = RBracket;
single[0x2c] = Comma;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isWordStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isWordPart = (c: number) => isWordStart(c) || isDigit(c);
const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;
/** Characters at which an unrecognized run ends: anything a token or a blank may start with. */
const startsSomething = (c: number) =>
  isSpace(c) || isWordStart(c) || isDigit(c) || "\"'#!=<>&|()[],-".includes(String.fromCharCode(c));

/** Tokens never span lines and their ends follow from their images: only the starts are stored. */
function token(
  type: TokenType,
  source: string,
  start: number,
  end: number,
  line: number,
  lineStart: number,
): IToken {
  return {
    image: source.slice(start, end),
    startOffset: start,
    startLine: line,
    startColumn: start - lineStart + 1,
    tokenTypeIdx: type.tokenTypeIdx!,
    tokenType: type,
  };
}

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
      // Keywords are short and, but for `AND`, `OR`, `NOT` in capitals, start with a small letter;
      // field names are capitalized: only possible keywords are looked up.
      const wordLength = i - start;
      const type =
        wordLength <= 3 || (wordLength <= LONGEST_KEYWORD && c >= 97)
          ? keywordAt(source, start, i)
          : Identifier;
      tokens.push(token(type, source, start, i, line, lineStart));
    } else if (isDigit(c) || (c === 45 && isDigit(source.charCodeAt(i + 1)))) {
      i++;
      while (i < length && isDigit(source.charCodeAt(i))) i++;
      let type = Integer;
      if (source.charCodeAt(i) === 46 && isDigit(source.charCodeAt(i + 1))) {
        i += 2;
        while (i < length && isDigit(source.charCodeAt(i))) i++;
        type = Decimal;
      }
      tokens.push(token(type, source, start, i, line, lineStart));
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
      tokens.push(
        token(
          closed ? (c === 34 ? DoubleQuoted : SingleQuoted) : UnterminatedString,
          source,
          start,
          i,
          line,
          lineStart,
        ),
      );
    } else if (c === 35) {
      while (i < length && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
      comments.push(token(Identifier, source, start, i, line, lineStart));
    } else if (c === 33) {
      const next = source.charCodeAt(i + 1);
      if (next === 61) {
        i += 2;
        tokens.push(token(BangEq, source, start, i, line, lineStart));
      } else {
        let end = i + 1;
        while (end < length && isWordPart(source.charCodeAt(end))) end++;
        const negated = isWordStart(next) ? negatedWords.get(keywordAt(source, i + 1, end)) : undefined;
        i = negated ? end : i + 1;
        tokens.push(token(negated ?? Bang, source, start, i, line, lineStart));
      }
    } else if (c === 60 || c === 62) {
      const withEquals = source.charCodeAt(i + 1) === 61;
      i += withEquals ? 2 : 1;
      tokens.push(
        token(
          c === 60 ? (withEquals ? LtEq : Less) : withEquals ? GtEq : Greater,
          source,
          start,
          i,
          line,
          lineStart,
        ),
      );
    } else if ((c === 61 || c === 38 || c === 124) && source.charCodeAt(i + 1) === c) {
      i += 2;
      tokens.push(token(c === 61 ? EqEq : c === 38 ? AmpAmp : PipePipe, source, start, i, line, lineStart));
    } else {
      const type = single[c];
      if (type) {
        i++;
        tokens.push(token(type, source, start, i, line, lineStart));
      } else {
        i++;
        while (i < length && !startsSomething(source.charCodeAt(i))) i++;
        errors.push({ offset: start, length: i - start });
      }
    }
  }
  return { tokens, comments, errors, end: { offset: length, line, column: length - lineStart + 1 } };
}
