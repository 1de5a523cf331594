import type { IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import { describeTokenType, Scalar } from "./tokens.js";

const found = (token: IToken | undefined) =>
  token && token.tokenType.name !== "EOF" ? `\`${token.image}\`` : "the end of the filter";
const after = (token: IToken | undefined) => (token?.image ? ` after \`${token.image}\`` : "");
const valueExpected = (previous: IToken, actual: IToken | undefined) =>
  `a value${after(previous)}: a "string", a number, true, false or a [list]|${found(actual)}`;

/**
 * Messages in filterc's words. Each returns "expected|found"; parse.ts splits them into the
 * E0104 diagnostic so the found part can point at the end of input when that is what was found.
 */
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
    return `${describeTokenType(expected)}|${found(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }: { firstRedundant: IToken }) {
    return `the end of the filter|${found(firstRedundant)}`;
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
        return `an operator${after(previous)}, such as \`eq\`, \`in\` or \`startsWith\`|${found(next)}`;
      default:
        return `a comparison such as \`EdgeResponseStatus eq 200\`|${found(next)}`;
    }
  },
  buildEarlyExitMessage({ actual }: { actual: IToken[] }) {
    return `more input|${found(actual[0])}`;
  },
};
