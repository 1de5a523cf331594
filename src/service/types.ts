import type { Catalog } from "../catalog/index.js";
import type { Diagnostic, DiagnosticSettings, OptionLabels } from "../diagnostics/index.js";

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
  /** How messages name the options: see OptionLabels (an editor names its settings). */
  optionLabels?: OptionLabels;
  /** Levels of warnings and notes by code, as `compile`'s option (a filterc.json's `diagnostics`). */
  diagnostics?: DiagnosticSettings;
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

/** What a completion inserts: a field, an operator, a keyword, a value or punctuation. */
export type CompletionKind = "field" | "operator" | "keyword" | "value" | "punctuation";

/** One completion an editor offers at a position. */
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

/** What an editor shows over a position: markdown, and the span it is about. */
export interface Hover {
  /** Markdown. */
  contents: string;
  range: OffsetRange;
}

/** A fix an editor offers for a diagnostic: a title and the edits that apply it. */
export interface CodeAction {
  title: string;
  kind: "quickfix";
  /** The diagnostic the action fixes. */
  diagnostic: Diagnostic;
  edit: TextEdit;
}

/** Options of `LanguageService.format`. */
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

/** A span an editor colours, with its kind. */
export interface Highlight {
  offset: number;
  length: number;
  kind: HighlightKind;
  /** A field the catalog marks deprecated. */
  deprecated: boolean;
}

/** The semantic token types, in the order of their indexes in `semanticTokenLegend`. */
export const semanticTokenTypes = ["property", "operator", "keyword", "string", "number", "comment"] as const;
/** An LSP semantic token type the service reports. */
export type SemanticTokenType = (typeof semanticTokenTypes)[number];

/** The semantic token modifiers, in bit order. */
export const semanticTokenModifiers = ["deprecated"] as const;
/** An LSP semantic token modifier the service reports. */
export type SemanticTokenModifier = (typeof semanticTokenModifiers)[number];

export const semanticTokenLegend = {
  tokenTypes: [...semanticTokenTypes],
  tokenModifiers: [...semanticTokenModifiers],
};

/** A span an editor colours, with its LSP token type and modifiers. */
export interface SemanticToken {
  offset: number;
  length: number;
  type: SemanticTokenType;
  modifiers: SemanticTokenModifier[];
}

/** What an outline entry is: the `# dataset:` directive, an `and`/`or` group, a `not`, or a comparison. */
export type DocumentSymbolKind = "dataset" | "group" | "negation" | "comparison";

/** An entry of the document's outline, with the entries inside it. */
export interface DocumentSymbol {
  /** What the outline shows: `dataset gateway_http`, `and`, `not`, or the comparison as written on one line. */
  name: string;
  /** A note beside the name: a group's number of parts, a comparison's field type. */
  detail: string;
  kind: DocumentSymbolKind;
  /** All of the entry, parentheses included. */
  range: OffsetRange;
  /** The part to select when the entry is picked: the dataset's name, a group's first logic word, a comparison's field. */
  selectionRange: OffsetRange;
  children: DocumentSymbol[];
}

/** A span an editor may fold: from the line holding `start` to the line holding `end`. */
export interface FoldingRange {
  start: number;
  /** The last offset folded away: a closing bracket alone at the start of its line stays visible. */
  end: number;
  /** `comment` for a run of comment lines; undefined for a group, a `not` or a list. */
  kind?: "comment";
}

/** What an inlay hint tells: the operator a comparison runs as under `not`, or where a limit is crossed. */
export type InlayHintKind = "negation" | "limit";

/** A label an editor shows in the text, where nothing is written. */
export interface InlayHint {
  /** Where the label goes: after the operator it is about, or at the end of the line that crosses a limit. */
  offset: number;
  label: string;
  /** Markdown shown over the label. */
  tooltip: string;
  kind: InlayHintKind;
}

/** A part of the text that links to a page: a field name to its dataset's documentation. */
export interface DocumentLink {
  range: OffsetRange;
  target: string;
  tooltip: string;
}
