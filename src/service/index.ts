export { Analysis } from "./analysis.js";
export { type CompletionContext, completionContext, type GrammarState } from "./completion-context.js";
export { knownValues } from "./enumerations.js";
export {
  type SampleCounts,
  type SampleJudge,
  sampleJudge,
  sampleLensOffset,
  sampleLensTitle,
} from "./sample-evaluation.js";
export { createLanguageService, LanguageService } from "./service.js";
export {
  type CodeAction,
  type CompletionItem,
  type CompletionKind,
  type DocumentLink,
  type DocumentSymbol,
  type DocumentSymbolKind,
  type FoldingRange,
  type FormattingOptions,
  type Highlight,
  type HighlightKind,
  type Hover,
  type InlayHint,
  type InlayHintKind,
  type OffsetRange,
  type SemanticToken,
  type SemanticTokenModifier,
  type SemanticTokenType,
  type ServiceOptions,
  semanticTokenLegend,
  semanticTokenModifiers,
  semanticTokenTypes,
  type TextEdit,
} from "./types.js";
