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
import { formatting } from "./formatting.js";
import { hover } from "./hover.js";
import { highlights, semanticTokens } from "./semantic-tokens.js";
import type {
  CodeAction,
  CompletionItem,
  FormattingOptions,
  Highlight,
  Hover,
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
    const isRange = (value: unknown): value is OffsetRange =>
      isObject(value) && isOffset(value["start"]) && isOffset(value["end"]);
    expectArgument(range, isRange, "LanguageService.codeActions", "range", "{start, end} (offsets)");
    return codeActions(this.analyze(text), range);
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
 * Makes a language service for editors (diagnostics, completion, hover, formatting, code actions, semantic tokens)
 * with these options. Never throws.
 */
export function createLanguageService(options: ServiceOptions = {}): LanguageService {
  expectArgument(options, isOptions, "createLanguageService", "options", "an object");
  return new LanguageService(options);
}
