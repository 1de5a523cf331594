import {
  type Diagnostic,
  expectArgument,
  isObject,
  isOffset,
  isOptions,
  isString,
} from "../diagnostics/index.js";
import { Analysis } from "./analysis.js";
import { codeActions } from "./code-actions.js";
import { complete } from "./completion.js";
import { documentLinks } from "./document-links.js";
import { documentSymbols } from "./document-symbols.js";
import { foldingRanges } from "./folding-ranges.js";
import { formatting } from "./formatting.js";
import { hover } from "./hover.js";
import { inlayHints } from "./inlay-hints.js";
import { selectionRanges } from "./selection-ranges.js";
import { highlights, semanticTokens } from "./semantic-tokens.js";
import type {
  CodeAction,
  CompletionItem,
  DocumentLink,
  DocumentSymbol,
  FoldingRange,
  FormattingOptions,
  Highlight,
  Hover,
  InlayHint,
  OffsetRange,
  SemanticToken,
  ServiceOptions,
  TextEdit,
} from "./types.js";

/**
 * Analyses kept: the document being typed in and one more (a split view, a second file). Each
 * analysis holds a whole compile; keeping more of them keeps more objects alive through every
 * garbage collection, which shows in the p99 latency (bench/lsp-latency.mjs).
 */
const CACHED_ANALYSES = 2;

const AN_OFFSET = "an offset into the text (a whole number of at least 0)";
const A_RANGE = "{start, end} (offsets)";

const isRange = (value: unknown): value is OffsetRange =>
  isObject(value) && isOffset(value["start"]) && isOffset(value["end"]);

/**
 * The language service: every editor feature over plain text and UTF-16 offsets, for any text,
 * half-typed included. It keeps the analyses of the latest texts, so the requests an editor sends
 * for one version of a document (diagnostics, semantic tokens, completion, hover) parse it once.
 */
export class LanguageService {
  private options: ServiceOptions;
  /**
   * Most recent first. A short array, not a Map keyed by text: a Map holding edited texts as keys
   * made V8 promote and mark-compact far more often (p99 of diagnostics 10x worse in the bench).
   */
  private analyses: Analysis[] = [];

  constructor(options: ServiceOptions = {}) {
    expectArgument(options, isOptions, "LanguageService", "options", "an object");
    this.options = { ...options };
  }

  /** Changes the settings (dataset, catalog, limits); later requests use them. */
  configure(options: ServiceOptions): void {
    expectArgument(options, isOptions, "LanguageService.configure", "options", "an object");
    this.options = { ...options };
    this.analyses = [];
  }

  get settings(): Readonly<ServiceOptions> {
    return this.options;
  }

  /**
   * The analysis of `text`, from the cache when the text was seen lately.
   *
   * @internal
   */
  analyze(text: string): Analysis {
    expectArgument(text, isString, "LanguageService", "text", "the document's text (a string)");
    const index = this.analyses.findIndex((analysis) => analysis.text === text);
    const analysis = index >= 0 ? this.analyses[index]! : new Analysis(text, this.options);
    if (index !== 0) {
      if (index > 0) this.analyses.splice(index, 1);
      this.analyses.unshift(analysis);
      if (this.analyses.length > CACHED_ANALYSES) this.analyses.pop();
    }
    return analysis;
  }

  diagnostics(text: string): Diagnostic[] {
    return this.analyze(text).compiled.diagnostics;
  }

  completions(text: string, offset: number): CompletionItem[] {
    expectArgument(offset, isOffset, "LanguageService.completions", "offset", AN_OFFSET);
    return complete(this.analyze(text), offset);
  }

  hover(text: string, offset: number): Hover | null {
    expectArgument(offset, isOffset, "LanguageService.hover", "offset", AN_OFFSET);
    return hover(this.analyze(text), offset);
  }

  format(text: string, options: FormattingOptions = {}): TextEdit[] {
    expectArgument(options, isOptions, "LanguageService.format", "options", "an object");
    return formatting(this.analyze(text), options);
  }

  codeActions(text: string, range: OffsetRange): CodeAction[] {
    expectArgument(range, isRange, "LanguageService.codeActions", "range", A_RANGE);
    return codeActions(this.analyze(text), range);
  }

  /** The outline: the `# dataset:` directive, then each group, `not` and comparison, nested. */
  documentSymbols(text: string): DocumentSymbol[] {
    return documentSymbols(this.analyze(text));
  }

  /** The groups, lists and comment runs written over several lines. */
  foldingRanges(text: string): FoldingRange[] {
    return foldingRanges(this.analyze(text));
  }

  /** For each offset, the spans "expand selection" steps through, smallest first. */
  selectionRanges(text: string, offsets: readonly number[]): OffsetRange[][] {
    const isOffsets = (value: unknown): value is number[] => Array.isArray(value) && value.every(isOffset);
    expectArgument(
      offsets,
      isOffsets,
      "LanguageService.selectionRanges",
      "offsets",
      `an array of ${AN_OFFSET}`,
    );
    return selectionRanges(this.analyze(text), offsets);
  }

  /** The operators a `not` changes, and where a line takes the filter past a limit; within `range` if given. */
  inlayHints(text: string, range?: OffsetRange): InlayHint[] {
    const isOptionalRange = (value: unknown) => value === undefined || isRange(value);
    expectArgument(range, isOptionalRange, "LanguageService.inlayHints", "range", `${A_RANGE}, or nothing`);
    return inlayHints(this.analyze(text), range);
  }

  /** Each field name, linked to its entry in its dataset's documentation. */
  documentLinks(text: string): DocumentLink[] {
    return documentLinks(this.analyze(text));
  }

  semanticTokens(text: string): SemanticToken[] {
    return semanticTokens(this.analyze(text));
  }

  /** The spans an editor colours, punctuation and unrecognized characters included. */
  highlights(text: string): Highlight[] {
    return highlights(this.analyze(text));
  }
}

/**
 * Makes a language service for editors (diagnostics, completion, hover, formatting, code actions,
 * semantic tokens, outline, folding, selection ranges, inlay hints, links) with these options. Never throws.
 */
export function createLanguageService(options: ServiceOptions = {}): LanguageService {
  expectArgument(options, isOptions, "createLanguageService", "options", "an object");
  return new LanguageService(options);
}
