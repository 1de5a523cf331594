import type { IRecognitionException, IToken } from "chevrotain";
import {
  type Diagnostic,
  describeValue,
  diagnose,
  emptyRangeAt,
  LineIndex,
  type OptionLabels,
  optionDiagnostics,
  optionLabel,
  type Position,
  type Range,
  sortDiagnostics,
  startOfSource,
} from "../diagnostics/index.js";
import type { Comment, Expr, FilterSource } from "./ast.js";
import { readDirective } from "./directive.js";
import { scan } from "./lexer.js";
import { expectationOf } from "./messages.js";
import { tokenRange } from "./nodes.js";
import { filterParser, type ParseContext } from "./parser.js";
import { lintTokens } from "./token-lints.js";
import { Bang, LParen, Not, RParen } from "./tokens.js";
import { readKeywordSlips } from "./typos.js";
import { parseWellFormed, WELL_FORMED_MAX_DEPTH } from "./well-formed.js";

/** Options of `parse`: the limits of what it reads. */
export interface ParseOptions {
  /** How messages name the options: see OptionLabels (default `option maxDepth` and so on). */
  optionLabels?: OptionLabels;
  /** Longest source accepted, in UTF-16 code units (default 100,000). */
  maxSourceLength?: number;
  /** Deepest nesting of parentheses and `not`s accepted (default 100). */
  maxDepth?: number;
  /** Most diagnostics reported for one source (default 100). */
  maxDiagnostics?: number;
}

/** The longest source, in characters, the parser reads (`maxSourceLength`). */
export const DEFAULT_MAX_SOURCE_LENGTH = 100_000;
/** The most levels of parentheses and `not` a source may nest (`maxDepth`). */
export const DEFAULT_MAX_DEPTH = 100;
/** The most diagnostics one call reports (`maxDiagnostics`). */
export const DEFAULT_MAX_DIAGNOSTICS = 100;

/** What `parse` returns: the AST and every syntax error, found in one pass. */
export interface ParseResult {
  filter: FilterSource;
  diagnostics: Diagnostic[];
}

/** The result for a source that is no string (a JavaScript caller's `undefined`, `42`): E0113, and nothing parsed. */
export function notText(source: unknown, diagnostics: Diagnostic[] = []): ParseResult {
  const empty: Range = { start: startOfSource, end: startOfSource };
  return {
    filter: { kind: "filter", expr: null, comments: [], range: empty },
    diagnostics: [diagnose("SourceNotText", empty, { found: describeValue(source) }), ...diagnostics],
  };
}

/** Parses a filter source into its AST and every syntax error in it. Never throws. */
export function parse(source: string, options: ParseOptions = {}): ParseResult {
  const invalidOptions = optionDiagnostics(options);
  if (typeof source !== "string") return notText(source, invalidOptions);
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
      diagnostics: [
        diagnose("SourceTooLong", crossing, {
          length: source.length,
          limit: maxSourceLength,
          option: optionLabel(options.optionLabels, "maxSourceLength"),
        }),
      ],
    };
  }

  const diagnostics: Diagnostic[] = [];
  const lexed = scan(source);
  readKeywordSlips(lexed.tokens, lexed.shortWords, diagnostics);
  const whole: Range = { start: startOfSource, end: lexed.end };
  const empty: FilterSource = { kind: "filter", expr: null, comments: [], range: whole };
  lintTokens(lexed, source, diagnostics);

  const comments: Comment[] = lexed.comments.map((token) => ({
    kind: "comment",
    text: token.image.slice(1),
    range: tokenRange(token),
  }));
  const reading = readDirective(lexed.comments, lexed.tokens);
  for (const diagnostic of reading.diagnostics) diagnostics.push(diagnostic);
  const named = reading.directive ? { directive: reading.directive } : {};

  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxDiagnostics = options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS;
  // Past the diagnostics limit nothing is parsed (see parseFragments).
  const readable = diagnostics.length <= maxDiagnostics;
  // A filter the well-formed reader reads nests at most WELL_FORMED_MAX_DEPTH deep, and the depth
  // check counts at most one more (an infix `not`): under a maxDepth past that (the default is),
  // it is read first, and needs no walk over its tokens for their depth.
  const readFirst = readable && maxDepth > WELL_FORMED_MAX_DEPTH + 1;
  let wellFormed = readFirst ? parseWellFormed(lexed.tokens) : undefined;
  if (wellFormed === undefined) {
    const tooDeep = findDepthOverflow(lexed.tokens, maxDepth);
    if (tooDeep) {
      const option = optionLabel(options.optionLabels, "maxDepth");
      diagnostics.push(diagnose("NestingTooDeep", tokenRange(tooDeep), { limit: maxDepth, option }));
      return finish({ ...empty, comments, ...named }, diagnostics, options);
    }
    if (readable && !readFirst) wellFormed = parseWellFormed(lexed.tokens);
  }
  if (wellFormed !== undefined)
    return finish(
      { kind: "filter", expr: wellFormed, comments, range: whole, ...named },
      diagnostics,
      options,
    );
  const context: ParseContext = {
    source,
    endOfInput: lexed.end,
    lexingErrorOffsets: lexed.errors.map((error) => error.offset),
  };
  try {
    const expr = parseFragments(lexed.tokens, context, diagnostics, maxDiagnostics);
    return finish({ kind: "filter", expr, comments, range: whole, ...named }, diagnostics, options);
  } catch (error) {
    // A maxDepth raised past what the call stack holds: still a diagnostic, never a crash.
    if (!(error instanceof RangeError)) throw error;
    const deepest = findDepthOverflow(lexed.tokens, 0, true)!;
    const option = optionLabel(options.optionLabels, "maxDepth");
    diagnostics.push(diagnose("NestingExhaustsStack", tokenRange(deepest), { limit: maxDepth, option }));
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
  context: ParseContext,
  diagnostics: Diagnostic[],
  maxDiagnostics: number,
): Expr | null {
  const parser = filterParser();
  const endOfTokens = lastTokenEnd(tokens);
  const fragments: Expr[] = [];
  let start = 0;
  // Past the diagnostics limit, later fragments could only add dropped diagnostics (they come
  // after every earlier one), so stop: it also bounds the work on long broken inputs.
  while (start < tokens.length && diagnostics.length <= maxDiagnostics) {
    const { expr, problems, errors } = parser.parseTokens(
      start === 0 ? tokens : tokens.slice(start),
      context,
    );
    if (expr) fragments.push(expr);
    if (problems.length === 0 && errors.length === 0) break;
    for (const problem of problems) diagnostics.push(problem);
    const reported = new Set(problems.map((d) => d.range.start.offset));
    let leftover: IToken | undefined;
    for (const error of errors) {
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
      const explained = context.lexingErrorOffsets.some(
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
  return { filter, diagnostics: capDiagnostics(sortDiagnostics(diagnostics), options) };
}

/** Keeps the first `maxDiagnostics` diagnostics (by the options) and says that more were dropped. */
export function capDiagnostics(
  diagnostics: Diagnostic[],
  options: { maxDiagnostics?: number; optionLabels?: OptionLabels },
): Diagnostic[] {
  const limit = options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS;
  if (diagnostics.length <= limit) return diagnostics;
  const kept = diagnostics.slice(0, limit);
  const last = kept[kept.length - 1]!;
  const option = optionLabel(options.optionLabels, "maxDiagnostics");
  kept.push(diagnose("TooManyDiagnostics", last.range, { limit, option }));
  return kept;
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
