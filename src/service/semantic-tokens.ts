import type { IToken } from "chevrotain";
import { tokenFacts } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import type { Highlight, HighlightKind, SemanticToken, SemanticTokenType } from "./types.js";

/** What each token colours as, from the vocabulary's token classes. */
function kindOf(token: IToken): HighlightKind {
  const facts = tokenFacts(token);
  return facts.class === "value" ? facts.value : facts.class;
}

/**
 * Every span an editor colours, in source order: each token by its class, comments, and runs of
 * characters no token starts with. Deprecated fields are marked.
 */
export function highlights(analysis: Analysis): Highlight[] {
  const { tokens, comments, errors } = analysis.scanned;
  const fields = analysis.catalog?.fields;
  const result: Highlight[] = [];
  let nextComment = 0;
  let nextError = 0;
  const pushBefore = (offset: number) => {
    for (;;) {
      const comment = comments[nextComment];
      const error = errors[nextError];
      const commentOffset = comment && comment.startOffset < offset ? comment.startOffset : Infinity;
      const errorOffset = error && error.offset < offset ? error.offset : Infinity;
      if (commentOffset === Infinity && errorOffset === Infinity) return;
      if (commentOffset < errorOffset) {
        result.push({
          offset: commentOffset,
          length: comment!.image.length,
          kind: "comment",
          deprecated: false,
        });
        nextComment++;
      } else {
        result.push({ offset: errorOffset, length: error!.length, kind: "invalid", deprecated: false });
        nextError++;
      }
    }
  };
  for (const token of tokens) {
    pushBefore(token.startOffset);
    const kind = kindOf(token);
    result.push({
      offset: token.startOffset,
      length: token.image.length,
      kind,
      deprecated: kind === "field" && fields?.get(token.image)?.deprecated === true,
    });
  }
  pushBefore(Infinity);
  return result;
}

/** The LSP type of each highlight; punctuation and invalid runs have none. */
const semanticTypes: Record<HighlightKind, SemanticTokenType | undefined> = {
  field: "property",
  operator: "operator",
  logic: "keyword",
  bool: "keyword",
  string: "string",
  number: "number",
  comment: "comment",
  punctuation: undefined,
  invalid: undefined,
};

/**
 * Every token an editor colours through LSP, in source order; deprecated fields carry the
 * `deprecated` modifier. The `# dataset:` comment has none: the editors' grammars mark out its
 * keyword and name, and a comment token over it would colour it all as a comment.
 */
export function semanticTokens(analysis: Analysis): SemanticToken[] {
  const result: SemanticToken[] = [];
  const directiveAt = analysis.directive?.range.start.offset;
  for (const highlight of highlights(analysis)) {
    const type = semanticTypes[highlight.kind];
    const isDirective =
      highlight.kind === "comment" &&
      directiveAt !== undefined &&
      highlight.offset < directiveAt &&
      directiveAt <= highlight.offset + highlight.length;
    if (type && !isDirective)
      result.push({
        offset: highlight.offset,
        length: highlight.length,
        type,
        modifiers: highlight.deprecated ? ["deprecated"] : [],
      });
  }
  return result;
}
