import type { Catalog } from "../catalog/index.js";
import type { Diagnostic } from "../diagnostics/index.js";

/** What a language service checks against: the same settings as `compile`, changeable while it runs. */
export interface ServiceOptions {
  /**
   * The Logpush dataset of texts that name none with `# dataset:` (default `http_requests`): an
   * editor's setting is a default, and a text's own directive wins over it.
   */
  dataset?: string;
  /** A catalog for a dataset filterc does not ship; wins over `dataset`. */
  catalog?: Catalog;
  /** Most comparisons allowed (default 30). */
  maxOperators?: number;
  /** Most bytes of filter JSON allowed (default 1000). */
  maxBytes?: number;
}

/** A span of the text in UTF-16 offsets, `end` exclusive. Editors convert to their own positions. */
export interface OffsetRange {
  start: number;
  end: number;
}

/** Replace `range` of the text with `newText`. */
export interface TextEdit {
  range: OffsetRange;
  newText: string;
}

export type CompletionKind = "field" | "operator" | "keyword" | "value" | "punctuation";

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** A short note beside the label: a field's type, an operator's meaning. */
  detail: string;
  /** Markdown shown when the item is selected. */
  documentation?: string;
  /** Editors order items by this string; it encodes the ranking. */
  sortText: string;
  /** What the editor matches the typed text against (the label unless a value is quoted differently). */
  filterText: string;
  /** Replaces the partly typed word with the item. */
  edit: TextEdit;
}

export interface Hover {
  /** Markdown. */
  contents: string;
  range: OffsetRange;
}

export interface CodeAction {
  title: string;
  kind: "quickfix";
  /** The diagnostic the action fixes. */
  diagnostic: Diagnostic;
  edit: TextEdit;
}

export interface FormattingOptions {
  /** Column at which lines wrap (default 80). */
  lineWidth?: number;
}

/** What a span of text colours as: a token's class (values by their type), a comment, or characters no token starts with. */
export type HighlightKind =
  | "field"
  | "operator"
  | "logic"
  | "string"
  | "number"
  | "bool"
  | "punctuation"
  | "comment"
  | "invalid";

export interface Highlight {
  offset: number;
  length: number;
  kind: HighlightKind;
  /** A field the catalog marks deprecated. */
  deprecated: boolean;
}

/** The semantic token types, in the order of their indexes in `semanticTokenLegend`. */
export const semanticTokenTypes = ["property", "operator", "keyword", "string", "number", "comment"] as const;
export type SemanticTokenType = (typeof semanticTokenTypes)[number];

/** The semantic token modifiers, in bit order. */
export const semanticTokenModifiers = ["deprecated"] as const;
export type SemanticTokenModifier = (typeof semanticTokenModifiers)[number];

export const semanticTokenLegend = {
  tokenTypes: [...semanticTokenTypes],
  tokenModifiers: [...semanticTokenModifiers],
};

export interface SemanticToken {
  offset: number;
  length: number;
  type: SemanticTokenType;
  modifiers: SemanticTokenModifier[];
}
