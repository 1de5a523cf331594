import type { IToken, TokenType } from "chevrotain";
import type { Position } from "../diagnostics/index.js";
import {
  AmpAmp,
  And,
  Bang,
  Comma,
  CurlyQuoted,
  Decimal,
  DoubleQuoted,
  False,
  Identifier,
  Integer,
  LBrace,
  LBracket,
  LParen,
  Not,
  nearMissTokens,
  Or,
  operatorTokens,
  PipePipe,
  RBrace,
  RBracket,
  RParen,
  SingleQuoted,
  True,
  tokenFacts,
  UnterminatedString,
} from "./tokens.js";
import { isSlipLength } from "./typos.js";
import { continuesNumber } from "./units.js";
import { BOOLEAN_WORDS, LOGIC } from "./vocabulary.js";

export interface ScanResult {
  tokens: IToken[];
  comments: IToken[];
  /** Runs of characters no token starts with. */
  errors: { offset: number; length: number }[];
  /**
   * The indices of the tokens that token lints read (token-lints.ts), in order: strings that are
   * unterminated or hold more than printable ASCII without `\`, curly-quoted ones, and numbers with
   * a leading zero or an exponent. The scanner sees each character anyway; the lints then skip
   * the rest, which was a tenth of a parse.
   */
  lintable: number[];
  /** The indices of the unquoted words (Identifier tokens) a keyword slip may be, by length (typos.ts), in order. */
  shortWords: number[];
  /** The position just past the last character. */
  end: Position;
}

const isWord = (text: string) => /^[A-Za-z_][A-Za-z_0-9]*$/.test(text);

/**
 * Entries by the length of their text, then by its first char code, so a word is compared only
 * with the words it could be.
 */
function byLengthThenFirst(entries: [string, TokenType][]): [string, TokenType][][][] {
  const table: [string, TokenType][][][] = [];
  for (const entry of entries) {
    table[entry[0].length] ??= [];
    const byFirst = table[entry[0].length]!;
    byFirst[entry[0].charCodeAt(0)] ??= [];
    byFirst[entry[0].charCodeAt(0)]!.push(entry);
  }
  return table;
}

const operatorSpellings = [...operatorTokens, ...nearMissTokens];

/** `and`, `or`, `not`: they match in any case. */
const anyCaseWords: [string, TokenType][] = [
  [LOGIC.and.word, And],
  [LOGIC.or.word, Or],
  [LOGIC.not.word, Not],
];

/**
 * Case-sensitive words (operators and booleans), by length, then the logic words as spelled, so
 * that they are found in one lookup; in other cases they are found by anyCaseWords.
 */
const wordsByLength = byLengthThenFirst([
  ...operatorSpellings.filter(([spelling]) => isWord(spelling)),
  [BOOLEAN_WORDS[0], True],
  [BOOLEAN_WORDS[1], False],
  ...anyCaseWords,
]);

/** `!` followed by one of these words (by the word's length) is one token; followed by any other word it is `!` then a field. */
const bangWordsByLength = byLengthThenFirst(
  operatorSpellings
    .filter(([spelling]) => spelling.startsWith("!") && isWord(spelling.slice(1)))
    .map(([spelling, type]) => [spelling.slice(1), type]),
);

/**
 * Operators and logic written in symbols, by first char code, longest first so `<=` wins over `<`.
 * Sorted before they are put in: the table reaches past 65,000 (the full-width forms), and a walk
 * over its holes, to sort each entry, was the largest part of loading the scanner.
 */
const symbolsByFirstChar: [string, TokenType][][] = [];
for (const entry of (
  [
    ...operatorSpellings.filter(([spelling]) => !isWord(spelling) && !isWord(spelling.slice(1))),
    [LOGIC.and.symbol, AmpAmp],
    [LOGIC.or.symbol, PipePipe],
  ] as [string, TokenType][]
).sort((a, b) => b[0].length - a[0].length)) {
  const first = entry[0].charCodeAt(0);
  symbolsByFirstChar[first] ??= [];
  symbolsByFirstChar[first]!.push(entry);
}

const LONGEST_KEYWORD = wordsByLength.length - 1;
const LONGEST_ANY_CASE_WORD = Math.max(...anyCaseWords.map(([word]) => word.length));

/**
 * The keyword written at source[start, end), as its spelling and type (the spelling is the token's
 * image, so a keyword written as spelled needs no slice), or undefined. Compares in place: slicing
 * the word and looking it up would build and hash a string per word.
 */
function keywordAt(source: string, start: number, end: number): [string, TokenType] | undefined {
  const length = end - start;
  // Indexed loops and char codes: destructuring entries would iterate, slicing would allocate.
  const candidates = wordsByLength[length]?.[source.charCodeAt(start)];
  if (candidates) {
    for (let i = 0; i < candidates.length; i++) {
      const entry = candidates[i]!;
      if (isWordAt(source, start, entry[0], 0)) return entry;
    }
  }
  if (length <= LONGEST_ANY_CASE_WORD) {
    for (let i = 0; i < anyCaseWords.length; i++) {
      const entry = anyCaseWords[i]!;
      // Written as spelled, the word was found above: here its image is what the source writes.
      if (entry[0].length === length && isWordAt(source, start, entry[0], 0x20))
        return [source.slice(start, end), entry[1]];
    }
  }
  return undefined;
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

/** The symbol of `entries` (longest first) written at source[start], if any. */
function symbolAt(
  source: string,
  start: number,
  entries: [string, TokenType][] | undefined,
): [string, TokenType] | undefined {
  if (entries === undefined) return undefined;
  for (let i = 0; i < entries.length; i++) if (source.startsWith(entries[i]![0], start)) return entries[i];
  return undefined;
}

/** Single-character tokens by char code. */
const single: (TokenType | undefined)[] = [];
for (const type of [LParen, RParen, LBracket, RBracket, Comma])
  single[(type.LABEL ?? "").charCodeAt(0)] = type;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLineEnd = (c: number) => c === 10 || c === 13;
/** “ ” „ ‘ ’ ‚: the quotes word processors put in, which filters do not take. */
const isCurlyQuote = (c: number) =>
  c === 0x201c || c === 0x201d || c === 0x201e || c === 0x2018 || c === 0x2019 || c === 0x201a;
const isWordStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
/** Letters, digits and `_` by char code: one load per character in the loop over a word, rather than five tests. */
const wordParts = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (isWordStart(c) || isDigit(c)) wordParts[c] = 1;
const isWordPart = (c: number) => wordParts[c] === 1;
const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff;
/** Characters at which an unrecognized run ends: anything a token or a blank may start with. */
const startsSomething = (c: number) =>
  isSpace(c) ||
  isWordStart(c) ||
  isDigit(c) ||
  symbolsByFirstChar[c] !== undefined ||
  single[c] !== undefined ||
  isCurlyQuote(c) ||
  "\"'#!-".includes(String.fromCharCode(c));

/**
 * ASCII characters no token starts with that join words into one unquoted value: `a.com`,
 * `1.2.3.4`, `/api/v1`, `x-debug`, `2001:db8::1`. Braces, backticks and characters that start a
 * token (`=`, `&`, quotes, `#`, …) end such a run.
 */
const asciiJoiners = new Uint8Array(128);
for (const character of "-./:;@$%*+?\\^~") asciiJoiners[character.charCodeAt(0)] = 1;
/** Characters beyond ASCII that end a run: spaces, and those shown as code points (isHiddenCharacter). */
const endsRun = /^[\p{Z}\0-\x1f\x7f-\x9f\p{Cf}\p{Cs}]$/u;
const isLetterOrMark = /^[\p{L}\p{M}\p{N}]$/u;

/**
 * The code units (1 or 2) of the character at `i` when it may stand inside an unquoted run: a word
 * character, an ASCII joiner, or any visible character beyond ASCII but curly quotes (`été`,
 * `日本`, `😀`); else 0. Invisible and space characters never join, so that their own error stays
 * theirs (the zero-width joiner of emoji does).
 */
function runCharacterAt(source: string, i: number): number {
  if (i >= source.length) return 0;
  const c = source.charCodeAt(i);
  if (c < 128) return isWordPart(c) || asciiJoiners[c] === 1 ? 1 : 0;
  if (isCurlyQuote(c)) return 0;
  const code = source.codePointAt(i)!;
  if (code !== 0x200d && endsRun.test(String.fromCodePoint(code))) return 0;
  return code > 0xffff ? 2 : 1;
}

/**
 * Where a run of unquoted value characters from `i` ends. A word, number or stray character
 * followed by a joiner is scanned as one word this far, so that `eq a.com` is one unquoted value
 * whose fix quotes all of it, and `RequestHeaders.x-debug` one name, rather than a cascade.
 */
function runEnd(source: string, i: number): number {
  for (let width = runCharacterAt(source, i); width > 0; width = runCharacterAt(source, i)) i += width;
  return i;
}

/** Whether the character at `i` continues a word or number into an unquoted run. */
function joinsRun(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  return c < 128 ? asciiJoiners[c] === 1 : runCharacterAt(source, i) > 0;
}

/** Letters of a unit word: ASCII letters, the micro sign and the Greek mu. */
const isUnitLetter = (c: number) => ((c | 0x20) >= 97 && (c | 0x20) <= 122) || c === 0xb5 || c === 0x3bc;

/**
 * Where the letters of a unit or a status class right after a number end (`ms` in `50ms`, `xx` in
 * `5xx`), when they are one and nothing of a word follows them; `i` otherwise.
 */
function unitLettersEnd(source: string, i: number): number {
  let end = i;
  while (end < source.length && isUnitLetter(source.charCodeAt(end))) end++;
  if (end === i || (end < source.length && isWordPart(source.charCodeAt(end)))) return i;
  return continuesNumber(source.slice(i, end)) ? end : i;
}

/** Whether source[start, end) holds a letter or digit of any script: a run of punctuation alone stays an error. */
const hasLetterOrDigit = (text: string) => /[\p{L}\p{N}_]/u.test(text);

/** Whether the last token scanned is an operator, after which a `{` opens a list in the wrong brackets. */
function afterOperator(tokens: IToken[]): boolean {
  const last = tokens[tokens.length - 1];
  return last !== undefined && tokenFacts(last).class === "operator";
}

/**
 * Tokens never span lines and their ends follow from their images: only the starts are stored.
 * `image` is given where the spelling is known (a keyword, a symbol), which spares a slice.
 */
function token(
  type: TokenType,
  source: string,
  start: number,
  end: number,
  line: number,
  lineStart: number,
  image = source.slice(start, end),
): IToken {
  return {
    image,
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
  const lintable: number[] = [];
  const shortWords: number[] = [];
  const length = source.length;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  let braceOpen = false;

  while (i < length) {
    const c = source.charCodeAt(i);
    const start = i;
    // A space, the commonest character between tokens, is passed over before any other test.
    if (c === 32) i++;
    else if (c === 10 || c === 13) {
      i += c === 13 && source.charCodeAt(i + 1) === 10 ? 2 : 1;
      line++;
      lineStart = i;
    } else if (isSpace(c)) {
      i++;
    } else if (isWordStart(c)) {
      i++;
      for (; i < length; i++) {
        const d = source.charCodeAt(i);
        if (!(((d | 0x20) >= 97 && (d | 0x20) <= 122) || (d >= 48 && d <= 57) || d === 95)) break;
      }
      // Keywords are short and, but for `AND`, `OR`, `NOT` in capitals, start with a small letter;
      // field names are capitalized: only possible keywords are looked up.
      const wordLength = i - start;
      const keyword =
        wordLength <= LONGEST_ANY_CASE_WORD || (wordLength <= LONGEST_KEYWORD && c >= 97)
          ? keywordAt(source, start, i)
          : undefined;
      if (keyword) tokens.push(token(keyword[1], source, start, i, line, lineStart, keyword[0]));
      else {
        if (i < length && joinsRun(source, i)) i = runEnd(source, i);
        if (isSlipLength(i - start)) shortWords.push(tokens.length);
        tokens.push(token(Identifier, source, start, i, line, lineStart));
      }
    } else if (isDigit(c) || (c === 45 && isDigit(source.charCodeAt(i + 1)))) {
      i++;
      while (i < length && isDigit(source.charCodeAt(i))) i++;
      let type = Integer;
      if (source.charCodeAt(i) === 46 && isDigit(source.charCodeAt(i + 1))) {
        i += 2;
        while (i < length && isDigit(source.charCodeAt(i))) i++;
        type = Decimal;
      }
      // An exponent (`1e3`) is scanned with its number, so that the error can give the plain digits.
      const exponentDigit =
        source.charCodeAt(i + 1) === 43 || source.charCodeAt(i + 1) === 45 ? i + 2 : i + 1;
      let exponent = false;
      if ((source.charCodeAt(i) | 0x20) === 101 && isDigit(source.charCodeAt(exponentDigit))) {
        i = exponentDigit + 1;
        while (i < length && isDigit(source.charCodeAt(i))) i++;
        type = Decimal;
        exponent = true;
      }
      // `1.2.3.4`, `10.0.0.0/8`, `2024-01-01`: one unquoted value. A letter right after digits
      // does not join (`30and` stays 30 and `and`), but a unit or a status class's `x`s do
      // (`50ms`, `5xx`), so that the checker can say what they mean.
      const letters = exponent ? i : unitLettersEnd(source, i);
      if (letters > i) {
        i = letters;
        type = Identifier;
      } else if (i < length && joinsRun(source, i) && !isLetterOrMark.test(source[i]!)) {
        i = runEnd(source, i);
        type = Identifier;
      }
      const leadingZero = source.charCodeAt(c === 45 ? start + 1 : start) === 48;
      if (type !== Identifier && (exponent || leadingZero)) lintable.push(tokens.length);
      else if (type === Identifier && isSlipLength(i - start)) shortWords.push(tokens.length);
      tokens.push(token(type, source, start, i, line, lineStart));
    } else if (c === 34 || c === 39) {
      i++;
      let closed = false;
      let plain = true;
      while (i < length) {
        const d = source.charCodeAt(i);
        if (d === c) {
          i++;
          closed = true;
          break;
        }
        if (d === 10 || d === 13) break;
        if (d < 0x20 || d > 0x7e || d === 92) plain = false;
        if (d === 92 && i + 1 < length && source.charCodeAt(i + 1) !== 10 && source.charCodeAt(i + 1) !== 13)
          i += 2;
        else i++;
      }
      if (!closed || !plain) lintable.push(tokens.length);
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
    } else if (isCurlyQuote(c)) {
      i++;
      while (i < length && !isLineEnd(source.charCodeAt(i)) && !isCurlyQuote(source.charCodeAt(i))) i++;
      if (i < length && isCurlyQuote(source.charCodeAt(i))) i++;
      lintable.push(tokens.length);
      tokens.push(token(CurlyQuoted, source, start, i, line, lineStart));
    } else if (c === 35) {
      while (i < length && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
      comments.push(token(Identifier, source, start, i, line, lineStart));
    } else {
      const symbol = symbolAt(source, i, symbolsByFirstChar[c]);
      if (symbol) {
        i += symbol[0].length;
        tokens.push(token(symbol[1], source, start, i, line, lineStart, symbol[0]));
      } else if (c === 33) {
        let end = i + 1;
        while (end < length && isWordPart(source.charCodeAt(end))) end++;
        const negated = bangWordsByLength[end - i - 1]?.[source.charCodeAt(i + 1)]?.find((entry) =>
          isWordAt(source, i + 1, entry[0], 0),
        );
        i = negated ? end : i + 1;
        tokens.push(token(negated ? negated[1] : Bang, source, start, i, line, lineStart));
      } else if ((c === 123 && afterOperator(tokens)) || (c === 125 && braceOpen)) {
        // `in {"us", "ca"}`: a list in braces, read to say E0111. Any other brace stays an
        // unexpected character (`{"where": …}` given as source is told to use decompile).
        braceOpen = c === 123;
        tokens.push(token(braceOpen ? LBrace : RBrace, source, start, ++i, line, lineStart));
      } else {
        const type = single[c];
        const run = type ? i : runEnd(source, i);
        if (type) tokens.push(token(type, source, start, ++i, line, lineStart, type.LABEL));
        else if (run > i && hasLetterOrDigit(source.slice(i, run))) {
          // `/api/v1`, `*.example.com`, `été`: an unquoted value, not a stray character.
          i = run;
          if (isSlipLength(i - start)) shortWords.push(tokens.length);
          tokens.push(token(Identifier, source, start, i, line, lineStart));
        } else {
          i++;
          while (i < length && !startsSomething(source.charCodeAt(i))) i++;
          errors.push({ offset: start, length: i - start });
        }
      }
    }
  }
  return {
    tokens,
    comments,
    errors,
    lintable,
    shortWords,
    end: { offset: length, line, column: length - lineStart + 1 },
  };
}
