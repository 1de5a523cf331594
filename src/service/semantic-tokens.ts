import type { IToken } from "chevrotain";
import { canonicalOfToken } from "../syntax/tokens.js";
import type { Analysis } from "./analysis.js";
import type { SemanticToken, SemanticTokenType } from "./types.js";

const typeOfToken: Record<string, SemanticTokenType> = {
  Identifier: "property",
  And: "keyword",
  Or: "keyword",
  Not: "keyword",
  Bang: "keyword",
  AmpAmp: "keyword",
  PipePipe: "keyword",
  True: "keyword",
  False: "keyword",
  DoubleQuoted: "string",
  SingleQuoted: "string",
  UnterminatedString: "string",
  Integer: "number",
  Decimal: "number",
};

/** Every token an editor colours, in source order; deprecated fields carry the `deprecated` modifier. */
export function semanticTokens(analysis: Analysis): SemanticToken[] {
  const { tokens, comments } = analysis.scanned;
  const fields = analysis.catalog?.fields;
  const result: SemanticToken[] = [];
  const push = (token: IToken, type: SemanticTokenType) => {
    const deprecated = type === "property" && fields?.get(token.image)?.deprecated === true;
    result.push({
      offset: token.startOffset,
      length: token.image.length,
      type,
      modifiers: deprecated ? ["deprecated"] : [],
    });
  };
  let nextComment = 0;
  for (const token of tokens) {
    while (nextComment < comments.length && comments[nextComment]!.startOffset < token.startOffset) {
      push(comments[nextComment++]!, "comment");
    }
    const name = token.tokenType.name;
    const type = typeOfToken[name] ?? (canonicalOfToken[name] ? "operator" : undefined);
    if (type) push(token, type);
  }
  while (nextComment < comments.length) push(comments[nextComment++]!, "comment");
  return result;
}
