import type { IRecognitionException, IToken } from "chevrotain";
import {
  codePointName,
  type Diagnostic,
  diagnose,
  emptyRangeAt,
  isHiddenCharacter,
  LineIndex,
  optionDiagnostics,
  type Position,
  type Range,
  sortDiagnostics,
  startOfSource,
} from "../diagnostics/index.js";
import type { Comment, Expr, FilterSource } from "./ast.js";
import { readDirective } from "./directive.js";
import { scan } from "./lexer.js";
import { clearExpectations, expectationOf } from "./messages.js";
import { shift, tokenRange } from "./nodes.js";
import { filterParser } from "./parser.js";
import { findInvalidEscapes, isTerminated, stringLiteral, unicodeEscapes } from "./strings.js";
import {
  Bang,
  CurlyQuoted,
  Decimal,
  DoubleQuoted,
  Integer,
  LParen,
  Not,
  RParen,
  SingleQuoted,
  UnterminatedString,
} from "./tokens.js";
import { parseWellFormed } from "./well-formed.js";

export interface ParseOptions {
  /** Longest source accepted, in UTF-16 code units (default 100,000). */
  maxSourceLength?: number;
  /** Deepest nesting of parentheses and `not`s accepted (default 100). */
  maxDepth?: number;
  /** Most diagnostics reported for one source (default 100). */
  maxDiagnostics?: number;
}

export const DEFAULT_MAX_SOURCE_LENGTH = 100_000;
export const DEFAULT_MAX_DEPTH = 100;
export const DEFAULT_MAX_DIAGNOSTICS = 100;

export interface ParseResult {
  filter: FilterSource;
  diagnostics: Diagnostic[];
}

const characterHints: Record<string, string> = {
  "=": "; compare with `eq` or `==`",
  "&": "; join comparisons with `and` or `&&`",
  "|": "; join comparisons with `or` or `||`",
  "{": "; this is the filter language; to read Logpush JSON, use decompile",
};

/** Parses a filter source into its AST and every syntax error in it. Never throws. */
export function parse(source: string, options: ParseOptions = {}): ParseResult {
  const invalidOptions = optionDiagnostics(options);
  if (invalidOptions.length > 0) {
    const range = new LineIndex(source).rangeOf(0, source.length);
    return { filter: { kind: "filter", expr: null, comments: [], range }, diagnostics: invalidOptions };
  }
  const maxSourceLength = options.maxSourceLength ?? DEFAULT_MAX_SOURCE_LENGTH;
  if (source.length > maxSourceLength) {
    const lines = new LineIndex(source);
    const crossing = lines.rangeOf(maxSourceLength, source.length);
    const empty: FilterSource = {
      kind: "filter",
      expr: null,
      comments: [],
      range: lines.rangeOf(0, source.length),
    };
    return {
      filter: empty,
      diagnostics: [diagnose("SourceTooLong", crossing, { length: source.length, limit: maxSourceLength })],
    };
  }

  const diagnostics: Diagnostic[] = [];
  const lexed = scan(source);
  // The scanner tracks lines itself; a line index is built only to place rejected characters.
  const whole: Range = { start: startOfSource, end: lexed.end };
  const empty: FilterSource = { kind: "filter", expr: null, comments: [], range: whole };
  if (lexed.errors.length > 0) {
    const lines = new LineIndex(source);
    for (const error of lexed.errors) diagnostics.push(lexingDiagnostic(error, source, lines));
  }
  for (const token of lexed.tokens) tokenDiagnostics(token, diagnostics);

  const comments: Comment[] = lexed.comments.map((token) => ({
    kind: "comment",
    text: token.image.slice(1),
    range: tokenRange(token),
  }));
  const reading = readDirective(lexed.comments, lexed.tokens);
  for (const diagnostic of reading.diagnostics) diagnostics.push(diagnostic);
  const named = reading.directive ? { directive: reading.directive } : {};

  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const tooDeep = findDepthOverflow(lexed.tokens, maxDepth);
  if (tooDeep) {
    diagnostics.push(diagnose("NestingTooDeep", tokenRange(tooDeep), { limit: maxDepth }));
    return finish({ ...empty, comments, ...named }, diagnostics, options);
  }

  const maxDiagnostics = options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS;
  // Past the diagnostics limit nothing is parsed (see parseFragments).
  const wellFormed = diagnostics.length <= maxDiagnostics ? parseWellFormed(lexed.tokens) : undefined;
  if (wellFormed !== undefined)
    return finish(
      { kind: "filter", expr: wellFormed, comments, range: whole, ...named },
      diagnostics,
      options,
    );
  filterParser().lexingErrorOffsets = lexed.errors.map((error) => error.offset);
  try {
    const expr = parseFragments(lexed.tokens, lexed.end, diagnostics, maxDiagnostics);
    return finish({ kind: "filter", expr, comments, range: whole, ...named }, diagnostics, options);
  } catch (error) {
    // A maxDepth raised past what the call stack holds: still a diagnostic, never a crash.
    if (!(error instanceof RangeError)) throw error;
    const deepest = findDepthOverflow(lexed.tokens, 0, true)!;
    diagnostics.push(diagnose("NestingExhaustsStack", tokenRange(deepest), { limit: maxDepth }));
    return finish({ ...empty, comments, ...named }, diagnostics, options);
  }
}

const startsExpression = new Set(["Identifier", "Not", "Bang", "LParen"]);

/**
 * Parses the tokens; where input is left over after a complete expression, reports it once,
 * skips to the next token that can start a comparison and parses again, so that the errors of
 * the whole source come out in one pass. Fragments are joined under one `and` for the checker;
 * the source has a syntax error, so nothing is ever emitted from that join.
 */
function parseFragments(
  tokens: IToken[],
  endOfInput: Position,
  diagnostics: Diagnostic[],
  maxDiagnostics: number,
): Expr | null {
  const parser = filterParser();
  parser.endOfInput = endOfInput;
  const endOfTokens = lastTokenEnd(tokens);
  const fragments: Expr[] = [];
  let start = 0;
  // Past the diagnostics limit, later fragments could only add dropped diagnostics (they come
  // after every earlier one), so stop: it also bounds the work on long broken inputs.
  clearExpectations();
  while (start < tokens.length && diagnostics.length <= maxDiagnostics) {
    parser.problems = [];
    parser.input = start === 0 ? tokens : tokens.slice(start);
    const expr = parser.filter() as Expr | null | undefined;
    if (expr) fragments.push(expr);
    if (parser.problems.length === 0 && parser.errors.length === 0) break;
    for (const problem of parser.problems) diagnostics.push(problem);
    const reported = new Set(parser.problems.map((d) => d.range.start.offset));
    let leftover: IToken | undefined;
    for (const error of parser.errors) {
      if (error.name !== "NotAllInputParsedException") {
        const diagnostic = parsingDiagnostic(error, endOfTokens);
        if (!reported.has(diagnostic.range.start.offset)) diagnostics.push(diagnostic);
        reported.add(diagnostic.range.start.offset);
        continue;
      }
      const token = error.token;
      leftover = token;
      const index = tokens.indexOf(token, start);
      // A character the lexer rejected just before (`a eq 1 & b eq 2`) already explains the leftover.
      const gapStart = index > 0 ? tokenRange(tokens[index - 1]!).end.offset : 0;
      const explained = parser.lexingErrorOffsets.some(
        (offset) => offset >= gapStart && offset < token.startOffset,
      );
      if (explained || reported.has(token.startOffset)) continue;
      const found = `\`${token.image}\``;
      diagnostics.push(
        expr
          ? diagnose("UnexpectedAfterEnd", tokenRange(token), { found })
          : diagnose("Expected", tokenRange(token), {
              expected: "a comparison such as `EdgeResponseStatus eq 200`",
              found,
            }),
      );
    }
    if (!leftover) break;
    let next = tokens.indexOf(leftover, start) + 1;
    while (next < tokens.length && !startsExpression.has(tokens[next]!.tokenType.name)) next++;
    start = next;
  }
  if (fragments.length <= 1) return fragments[0] ?? null;
  const first = fragments[0]!;
  const last = fragments[fragments.length - 1]!;
  return { kind: "and", operands: fragments, range: { start: first.range.start, end: last.range.end } };
}

function finish(filter: FilterSource, diagnostics: Diagnostic[], options: ParseOptions): ParseResult {
  return { filter, diagnostics: capDiagnostics(sortDiagnostics(diagnostics), options.maxDiagnostics) };
}

/** Keeps the first `limit` diagnostics and says that more were dropped. */
export function capDiagnostics(diagnostics: Diagnostic[], limit = DEFAULT_MAX_DIAGNOSTICS): Diagnostic[] {
  if (diagnostics.length <= limit) return diagnostics;
  const kept = diagnostics.slice(0, limit);
  const last = kept[kept.length - 1]!;
  kept.push(diagnose("TooManyDiagnostics", last.range, { limit }));
  return kept;
}

function lexingDiagnostic(
  error: { offset: number; length: number },
  source: string,
  lines: LineIndex,
): Diagnostic {
  const text = source.slice(error.offset, error.offset + error.length);
  const range = lines.rangeOf(error.offset, error.offset + error.length);
  const hint = characterHints[text[0] ?? ""] ?? "";
  if (text === "=") {
    return diagnose(
      "UnexpectedCharacter",
      range,
      { text, hint },
      { message: "use `==`", range, replacement: "==" },
    );
  }
  // Characters that cannot be seen are named by code point, and they can only be deleted.
  const characters = [...text];
  if (characters.every(isHiddenCharacter)) {
    const names = characters.map(codePointName).join(" ");
    return diagnose(
      "UnexpectedCharacter",
      range,
      { text: names, hint: "; it cannot be seen: delete it" },
      { message: `delete ${names}`, range, replacement: "" },
    );
  }
  return diagnose("UnexpectedCharacter", range, {
    text: text.length > 20 ? `${text.slice(0, 20)}…` : text,
    hint,
  });
}

function tokenDiagnostics(token: IToken, diagnostics: Diagnostic[]): void {
  const type = token.tokenType;
  if (type === UnterminatedString || type === DoubleQuoted || type === SingleQuoted) {
    const range = tokenRange(token);
    if (type === UnterminatedString && !isTerminated(token.image))
      diagnostics.push(unterminatedString(token.image, range));
    if (unseenInString.test(token.image)) warnUnseenCharacters(token.image, range, diagnostics);
    if (token.image.includes("\\")) {
      for (const invalid of findInvalidEscapes(token.image)) {
        const start = shift(range.start, invalid.offset);
        diagnostics.push(
          diagnose(
            "InvalidEscape",
            { start, end: shift(range.start, invalid.offset + invalid.length) },
            { escape: invalid.text },
          ),
        );
      }
    }
  } else if (type === CurlyQuoted) {
    const range = tokenRange(token);
    const text = token.image.slice(
      1,
      isCurlyQuote(token.image.at(-1)) && token.image.length > 1 ? -1 : undefined,
    );
    const replacement = stringLiteral(text);
    diagnostics.push(
      diagnose(
        "CurlyQuotes",
        range,
        { text: token.image, replacement },
        { message: "use straight quotes", range, replacement },
      ),
    );
  } else if (type === Decimal && hasExponent(token.image)) {
    const range = tokenRange(token);
    const plain = plainDigits(token.image);
    diagnostics.push(
      diagnose(
        "ExponentNumber",
        range,
        { text: token.image, hint: plain === undefined ? "" : `: write ${plain}` },
        plain === undefined ? undefined : { message: "write the digits", range, replacement: plain },
      ),
    );
  } else if ((type === Integer || type === Decimal) && startsWithZero(token.image)) {
    const match = /^(-?)0+(?=[0-9])/.exec(token.image);
    if (match) {
      const fixed = match[1] + token.image.slice(match[0].length);
      const range = tokenRange(token);
      diagnostics.push(
        diagnose(
          "LeadingZero",
          range,
          { text: token.image, fixed },
          { message: `write ${fixed}`, range, replacement: fixed },
        ),
      );
    }
  }
}

/** Characters a string holds that cannot be seen where it is read: controls, tabs, bidi and other format characters. */
const unseenInString = /[\0-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * W0107 for each such character written raw in a string (the filter would match text the reader
 * of the source cannot see), with its `\u` escape as the fix; the zero-width joiner of emoji is fine.
 */
function warnUnseenCharacters(image: string, range: Range, diagnostics: Diagnostic[]): void {
  for (let i = 1; i < image.length; i++) {
    const code = image.codePointAt(i)!;
    const character = String.fromCodePoint(code);
    const width = code > 0xffff ? 2 : 1;
    if (character === "\t" || isHiddenCharacter(character)) {
      const at = { start: shift(range.start, i), end: shift(range.start, i + width) };
      const escaped = unicodeEscapes(character);
      diagnostics.push(
        diagnose(
          "UnseenCharacterInString",
          at,
          { name: codePointName(character) },
          { message: `write it as ${escaped}`, range: at, replacement: escaped },
        ),
      );
    }
    i += width - 1;
  }
}

const isCurlyQuote = (character: string | undefined) =>
  character !== undefined && "“”„‘’‚".includes(character);

/**
 * E0102 with the fix most likely meant: a string closed by a curly quote or by the other straight
 * quote gets that quote straightened; one ending in `\"` (an escaped quote) gets a backslash of its
 * own; any other is closed at the end of the line.
 */
function unterminatedString(image: string, range: Range): Diagnostic {
  const quote = image[0]!;
  const other = quote === '"' ? "'" : '"';
  const curly = /[“”„‘’‚]/.exec(image.slice(1));
  let hint = "";
  let fixed = `${image}${quote}`;
  if (curly) {
    const at = curly.index + 1;
    hint = `; \`${curly[0]}\` is a curly quote: end the string with ${quote}`;
    fixed = `${image.slice(0, at)}${quote}${image.slice(at + 1)}`;
  } else if (image.length > 1 && image.endsWith(other)) {
    hint = `; it starts with ${quote} and ends with ${other}: use the same quote at both ends`;
    fixed = `${image.slice(0, -1)}${quote}`;
  } else if (image.endsWith(`\\${quote}`)) {
    hint = `; \`\\${quote}\` is an escaped quote, not the end: for a backslash at the end write \`\\\\${quote}\``;
    fixed = `${image.slice(0, -1)}\\${quote}`;
  } else if (image.endsWith("\\")) {
    fixed = `${image}\\${quote}`;
  }
  return diagnose(
    "UnterminatedString",
    range,
    { quote, hint },
    { message: "close it", range, replacement: fixed },
  );
}

const hasExponent = (number: string) => /[eE]/.test(number);

/** The digits of `1.5e3` without the exponent (`1500`), or undefined past 64 digits of shifting. */
function plainDigits(number: string): string | undefined {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?[eE]([+-]?[0-9]+)$/.exec(number)!;
  const exponent = Number(match[4]);
  if (Math.abs(exponent) > 64) return undefined;
  const digits = match[2]! + (match[3] ?? "");
  const point = match[2]!.length + exponent;
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point, "0");
  const split = Math.max(point, 1);
  const whole = padded.slice(0, split).replace(/^0+(?=[0-9])/, "");
  const fraction = padded.slice(split).replace(/0+$/, "");
  const plain = fraction ? `${whole}.${fraction}` : whole;
  return plain === "0" ? "0" : match[1] + plain;
}

/** Whether the number's digits start with 0: only then can the regex find a leading zero. */
function startsWithZero(number: string): boolean {
  return number.charCodeAt(number.charCodeAt(0) === 0x2d ? 1 : 0) === 0x30;
}

/**
 * The token at which nesting first exceeds `maxDepth` (or with `deepest`, the most deeply nested
 * token). Nesting counts open parentheses plus the prefix `not`s still waiting for their operand,
 * which is how deep the parser will recurse.
 */
function findDepthOverflow(tokens: IToken[], maxDepth: number, deepest = false): IToken | undefined {
  const pendingNotsPerParen: number[] = [];
  let pendingNots = 0;
  let notRun = 0;
  let found: IToken | undefined;
  for (const token of tokens) {
    const type = token.tokenType;
    if (type === Not || type === Bang) {
      notRun++;
    } else if (type === LParen) {
      pendingNotsPerParen.push(notRun);
      pendingNots += notRun;
      notRun = 0;
    } else if (type === RParen) {
      pendingNots -= pendingNotsPerParen.pop() ?? 0;
      notRun = 0;
    } else {
      notRun = 0;
    }
    const depth = pendingNotsPerParen.length + pendingNots + notRun;
    if (depth > maxDepth) {
      found = token;
      if (!deepest) return found;
      maxDepth = depth;
    }
  }
  return found;
}

function lastTokenEnd(tokens: IToken[]): Position {
  const last = tokens[tokens.length - 1];
  return last ? tokenRange(last).end : startOfSource;
}

function parsingDiagnostic(error: IRecognitionException, endOfTokens: Position): Diagnostic {
  const token = error.token;
  const atEnd = token.tokenType.name === "EOF" || !Number.isFinite(token.startOffset);
  const range: Range = atEnd ? emptyRangeAt(endOfTokens) : tokenRange(token);
  const { expected, found } = expectationOf(error.message);
  return diagnose("Expected", range, { expected, found: atEnd ? "the end of the filter" : found });
}
