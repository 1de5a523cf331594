import type { IToken } from "chevrotain";
import { expectArgument, isObject, isOffset } from "../diagnostics/index.js";
import {
  type CanonicalOperator,
  decodeStringToken,
  OPERATORS,
  type ScanResult,
  type TokenFacts,
  tokenFacts,
} from "../syntax/index.js";
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

const tokenEnd = (token: IToken) => token.startOffset + token.image.length;

const isString = (facts: TokenFacts) => facts.class === "value" && facts.value === "string";
/** A value in a comparison or list: literals, and a bare word (which the checker reports). */
const isScalar = (facts: TokenFacts) => facts.class === "value" || facts.class === "field";
const isPunctuation = (facts: TokenFacts, text: string) =>
  facts.class === "punctuation" && facts.punctuation === text;
/** `not` written as the word: after a field it starts the infix form (`Field not in`). */
const isNotWord = (token: IToken, facts: TokenFacts) =>
  facts.class === "logic" && facts.logic === "not" && token.image !== "!";

/** Words, numbers and `!` (not `!=`): the tokens a person may be in the middle of typing. */
function isWordToken(token: IToken): boolean {
  return /^(?:[A-Za-z_]|!(?!=)|-?[0-9])/.test(token.image);
}

/** A scan's result as `scan` builds it: its tokens and comments. */
const isScanResult = (value: unknown): value is ScanResult =>
  isObject(value) && Array.isArray(value["tokens"]) && Array.isArray(value["comments"]);

/** The grammar state at the cursor, or null where nothing can be completed (inside a comment). */
export function completionContext(scanned: ScanResult, offset: number): CompletionContext | null {
  expectArgument(scanned, isScanResult, "completionContext", "scanned", "the result of scan");
  expectArgument(offset, isOffset, "completionContext", "offset", "an offset (a whole number of at least 0)");
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
    const facts = tokenFacts(current);
    const string = isString(facts);
    // A closed string with the cursor after its quote is finished; an unterminated one is still being typed.
    const typing = string
      ? offset < tokenEnd(current) || (facts.class === "value" && facts.unterminated === true)
      : isWordToken(current);
    if (typing) {
      // Typed is what stands before the cursor; the whole word is replaced.
      word = {
        start: current.startOffset,
        end: tokenEnd(current),
        text: current.image.slice(0, offset - current.startOffset),
      };
      inString = string;
      const previous = tokens[count - 1];
      if (facts.class === "field" && previous?.image === "!" && tokenEnd(previous) === word.start) {
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
    const facts = tokenFacts(tokens[i]!);
    if (isPunctuation(facts, "(")) depth++;
    else if (isPunctuation(facts, ")")) depth = Math.max(0, depth - 1);
    state = step(state, tokens[i]!);
  }
  return { state, depth };
}

/** The state after one more token. */
function step(state: GrammarState, token: IToken): GrammarState {
  const facts = tokenFacts(token);
  if (isPunctuation(facts, "(")) return { kind: "operand" };
  if (isPunctuation(facts, ")")) return { kind: "afterComparison" };
  if (facts.class === "logic" && facts.logic !== "not") return { kind: "operand" };
  switch (state.kind) {
    case "operand":
    case "afterComparison":
      // After a complete comparison a field means a missing `and`: carry on as if it were there.
      if (facts.class === "field") return { kind: "operator", field: token.image, afterNot: false };
      return facts.class === "logic" ? { kind: "operand" } : state;
    case "operator": {
      if (isNotWord(token, facts) && !state.afterNot) return { ...state, afterNot: true };
      if (facts.class === "operator" && (!state.afterNot || OPERATORS[facts.operator].infixNot)) {
        const operator = state.afterNot ? OPERATORS[facts.operator].negation : facts.operator;
        return { kind: "value", field: state.field, operator };
      }
      // An unknown operator (`neq`): the diagnostics name the right one; a value still follows.
      return { kind: "value", field: state.field, operator: null };
    }
    case "value":
      if (isPunctuation(facts, "["))
        return {
          kind: "element",
          field: state.field,
          operator: state.operator,
          afterComma: false,
          listed: [],
        };
      return isScalar(facts) ? { kind: "afterComparison" } : state;
    case "element": {
      if (isPunctuation(facts, "]")) return { kind: "afterComparison" };
      if (!isScalar(facts)) return state;
      const listed = isString(facts) ? [...state.listed, decodeStringToken(token.image)] : state.listed;
      return { kind: "afterElement", field: state.field, operator: state.operator, listed };
    }
    case "afterElement":
      if (isPunctuation(facts, "]")) return { kind: "afterComparison" };
      return isPunctuation(facts, ",")
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
