import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import { describeTokenType, Scalar } from "./tokens.js";

const found = (token: IToken | undefined) =>
  token && token.tokenType.name !== "EOF" ? `\`${token.image}\`` : "the end of the filter";
const after = (token: IToken | undefined) => (token?.image ? ` after \`${token.image}\`` : "");
/** What a syntax error says: what the parser expected, and what it found. */
interface Expectation {
  expected: string;
  found: string;
}

/**
 * Chevrotain takes a message as a string: the provider answers with a key, and the expectation
 * waits in this side table until parse.ts takes it for the E0104 diagnostic (where the found
 * part may become "the end of the filter"). Emptied at the start of every parse.
 */
const expectations = new Map<string, Expectation>();

function keyed(expected: string, found: string): string {
  const key = `expectation ${expectations.size}`;
  expectations.set(key, { expected, found });
  return key;
}

/** The expectation a recognition error's message names. */
export function expectationOf(message: string): Expectation {
  return expectations.get(message) ?? { expected: message, found: "something else" };
}

export function clearExpectations(): void {
  // Clearing an empty map still rebuilds its table: most parses have no error to forget.
  if (expectations.size > 0) expectations.clear();
}

const valueExpected = (previous: IToken, actual: IToken | undefined) =>
  keyed(`a value${after(previous)}: a "string", a number, true, false or a [list]`, found(actual));

/** Messages in filterc's words, as keys of their expectations (see `expectationOf`). */
export const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({
    expected,
    actual,
    previous,
  }: {
    expected: TokenType;
    actual: IToken;
    previous: IToken;
  }) {
    if (expected === Scalar) return valueExpected(previous, actual);
    return keyed(describeTokenType(expected), found(actual));
  },
  buildNotAllInputParsedMessage({ firstRedundant }: { firstRedundant: IToken }) {
    return keyed("the end of the filter", found(firstRedundant));
  },
  buildNoViableAltMessage({
    actual,
    previous,
    ruleName,
  }: {
    actual: IToken[];
    previous: IToken;
    ruleName: string;
  }) {
    const next = actual[0];
    switch (ruleName) {
      case "element":
        return valueExpected(previous, next);
      case "operator":
        return keyed(`an operator${after(previous)}, such as \`eq\`, \`in\` or \`startsWith\``, found(next));
      default:
        return keyed("a comparison such as `EdgeResponseStatus eq 200`", found(next));
    }
  },
  buildEarlyExitMessage({ actual }: { actual: IToken[] }) {
    return keyed("more input", found(actual[0]));
  },
};
