import type { IToken } from "chevrotain";
import { type CanonicalOperator, decodeStringToken } from "../syntax/index.js";
import type { ScanResult } from "../syntax/lexer.js";
import { canonicalOfToken } from "../syntax/tokens.js";
import type { OffsetRange } from "./types.js";

/**
 * Where the cursor stands in the grammar, read from the tokens before it. The parser's grammar
 * (src/syntax/parser.ts) is small and LL(1) at this level, so a left-to-right walk over the
 * tokens recovers the state a recovering parse of the prefix would reach, and forgives the same
 * mistakes (a missing `and`, an unknown operator) by carrying on at the next sensible state.
 */
export type GrammarState =
  /** A comparison, `not` or `(` may start here: at the start, after `(`, `and`, `or`, `not`. */
  | { kind: "operand" }
  /** After a field: an operator; after `Field not`, one of the operators `not` may negate. */
  | { kind: "operator"; field: string; afterNot: boolean }
  /** After an operator: its value. */
  | { kind: "value"; field: string; operator: CanonicalOperator | null }
  /** Inside a list, after `[` or `,`: an element (or `]` after a trailing comma); `listed` holds the strings already there. */
  | {
      kind: "element";
      field: string;
      operator: CanonicalOperator | null;
      afterComma: boolean;
      listed: string[];
    }
  /** Inside a list, after an element: `,` or `]`. */
  | { kind: "afterElement"; field: string; operator: CanonicalOperator | null; listed: string[] }
  /** After a complete comparison or `)`: `and`, `or`, or `)` when a group is open. */
  | { kind: "afterComparison" };

export interface CompletionContext {
  state: GrammarState;
  /** Parentheses open at the cursor. */
  depth: number;
  /** The word the completion replaces, with `text` its part before the cursor (empty when nothing is typed). */
  word: OffsetRange & { text: string };
  /** The word is a string literal being typed (values are then offered inside its quotes). */
  inString: boolean;
}

const andTokens = new Set(["And", "AmpAmp"]);
const orTokens = new Set(["Or", "PipePipe"]);
const notTokens = new Set(["Not", "Bang"]);
const stringTokens = new Set(["DoubleQuoted", "SingleQuoted", "UnterminatedString"]);
const scalarTokens = new Set([...stringTokens, "Integer", "Decimal", "True", "False", "Identifier"]);
const negatableTokens = new Set(["In", "Contains", "StartsWith", "EndsWith"]);

const tokenEnd = (token: IToken) => token.startOffset + token.image.length;

/** Words, numbers and `!`: the tokens a person may be in the middle of typing. */
function isWordToken(token: IToken): boolean {
  return token.tokenType.name !== "BangEq" && /^(?:[A-Za-z_!]|-?[0-9])/.test(token.image);
}

/** The grammar state at the cursor, or null where nothing can be completed (inside a comment). */
export function completionContext(scanned: ScanResult, offset: number): CompletionContext | null {
  for (const comment of scanned.comments) {
    if (comment.startOffset < offset && offset <= tokenEnd(comment)) return null;
  }
  const { tokens } = scanned;
  let count = 0;
  while (count < tokens.length && tokenEnd(tokens[count]!) < offset) count++;
  let word: CompletionContext["word"] = { start: offset, end: offset, text: "" };
  let inString = false;
  const current = tokens[count];
  if (current && current.startOffset < offset) {
    const name = current.tokenType.name;
    const isString = stringTokens.has(name);
    // A closed string with the cursor after its quote is finished; an unterminated one is still being typed.
    const typing = isString
      ? offset < tokenEnd(current) || name === "UnterminatedString"
      : isWordToken(current);
    if (typing) {
      // Typed is what stands before the cursor; the whole word is replaced.
      word = {
        start: current.startOffset,
        end: tokenEnd(current),
        text: current.image.slice(0, offset - current.startOffset),
      };
      inString = isString;
      const previous = tokens[count - 1];
      if (name === "Identifier" && previous?.tokenType.name === "Bang" && tokenEnd(previous) === word.start) {
        // `!st` scans as `!` then `st`: the person is typing `!startsWith`.
        count--;
        word = { start: previous.startOffset, end: word.end, text: `!${word.text}` };
      }
    } else {
      count++;
    }
  }
  const walked = walk(tokens, count);
  if (word.text === "!" && walked.state.kind === "operand") {
    // In operand position `!` is a complete negation, not the start of a word.
    const after = walk(tokens, count + 1);
    return { ...after, word: { start: offset, end: offset, text: "" }, inString: false };
  }
  return { ...walked, word, inString };
}

/** Runs the grammar over the first `count` tokens. */
function walk(tokens: readonly IToken[], count: number): { state: GrammarState; depth: number } {
  let state: GrammarState = { kind: "operand" };
  let depth = 0;
  for (let i = 0; i < count; i++) {
    const name = tokens[i]!.tokenType.name;
    if (name === "LParen") depth++;
    else if (name === "RParen") depth = Math.max(0, depth - 1);
    state = step(state, tokens[i]!);
  }
  return { state, depth };
}

/** The state after one more token. */
function step(state: GrammarState, token: IToken): GrammarState {
  const name = token.tokenType.name;
  if (name === "LParen") return { kind: "operand" };
  if (name === "RParen") return { kind: "afterComparison" };
  if (andTokens.has(name) || orTokens.has(name)) return { kind: "operand" };
  switch (state.kind) {
    case "operand":
    case "afterComparison":
      // After a complete comparison a field means a missing `and`: carry on as if it were there.
      if (name === "Identifier") return { kind: "operator", field: token.image, afterNot: false };
      return notTokens.has(name) ? { kind: "operand" } : state;
    case "operator": {
      const canonical = canonicalOfToken[name];
      if (name === "Not" && !state.afterNot) return { ...state, afterNot: true };
      if (canonical && (!state.afterNot || negatableTokens.has(name))) {
        const operator = state.afterNot ? (`!${canonical}` as CanonicalOperator) : canonical;
        return { kind: "value", field: state.field, operator };
      }
      // An unknown operator (`neq`): the diagnostics name the right one; a value still follows.
      return { kind: "value", field: state.field, operator: null };
    }
    case "value":
      if (name === "LBracket")
        return {
          kind: "element",
          field: state.field,
          operator: state.operator,
          afterComma: false,
          listed: [],
        };
      return scalarTokens.has(name) ? { kind: "afterComparison" } : state;
    case "element": {
      if (name === "RBracket") return { kind: "afterComparison" };
      if (!scalarTokens.has(name)) return state;
      const listed = stringTokens.has(name)
        ? [...state.listed, decodeStringToken(token.image)]
        : state.listed;
      return { kind: "afterElement", field: state.field, operator: state.operator, listed };
    }
    case "afterElement":
      if (name === "RBracket") return { kind: "afterComparison" };
      return name === "Comma"
        ? {
            kind: "element",
            field: state.field,
            operator: state.operator,
            afterComma: true,
            listed: state.listed,
          }
        : state;
  }
}
