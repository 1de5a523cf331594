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
 * Chevrotain takes a message as a string: the provider writes both parts into it as JSON, and
 * parse.ts reads them back for the E0104 diagnostic (where the found part may become "the end of
 * the filter"). The message carries everything, so no table outlives a parse or is shared.
 */
function messageOf(expected: string, found: string): string {
  return JSON.stringify([expected, found]);
}

/** The expectation a recognition error's message holds (a message of chevrotain's own is all expectation). */
export function expectationOf(message: string): Expectation {
  if (!message.startsWith("[")) return { expected: message, found: "something else" };
  const [expected, found] = JSON.parse(message) as [string, string];
  return { expected, found };
}

const valueExpected = (previous: IToken, actual: IToken | undefined) =>
  messageOf(`a value${after(previous)}: a "string", a number, true, false or a [list]`, found(actual));

/** Messages in filterc's words, each holding its expectation (see `expectationOf`). */
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
    return messageOf(describeTokenType(expected), found(actual));
  },
  buildNotAllInputParsedMessage({ firstRedundant }: { firstRedundant: IToken }) {
    return messageOf("the end of the filter", found(firstRedundant));
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
        return messageOf(
          `an operator${after(previous)}, such as \`eq\`, \`in\` or \`startsWith\``,
          found(next),
        );
      default:
        return messageOf("a comparison such as `EdgeResponseStatus eq 200`", found(next));
    }
  },
  buildEarlyExitMessage({ actual }: { actual: IToken[] }) {
    return messageOf("more input", found(actual[0]));
  },
};
