import { type Catalog, DEFAULT_DATASET, getCatalog } from "../catalog/index.js";
import { type CompileResult, compile } from "../compile.js";
import { expectArgument, isObject, isString } from "../diagnostics/index.js";
import { type DatasetDirective, DEFAULT_MAX_SOURCE_LENGTH, readDirective } from "../syntax/index.js";
import { type ScanResult, scan } from "../syntax/lexer.js";
import type { ServiceOptions } from "./types.js";

/**
 * Everything the providers learn about one text, each part computed on first use: completion
 * needs only the tokens, diagnostics the whole compile. A burst of requests on one version of a
 * document shares one analysis, so the text is scanned once and compiled once.
 */
export class Analysis {
  private scanResult: ScanResult | undefined;
  private compileResult: CompileResult | undefined;

  constructor(
    readonly text: string,
    readonly options: ServiceOptions,
  ) {
    expectArgument(text, isString, "Analysis", "text", "the document's text (a string)");
    expectArgument(options, isObject, "Analysis", "options", "an object");
  }

  /**
   * Whether the text is longer than the compiler reads (maxSourceLength): then every request
   * answers from nothing (no tokens, no completion) instead of working through it, as the
   * compile answers with one diagnostic, so a huge document costs nothing to colour.
   */
  get tooLong(): boolean {
    return this.text.length > DEFAULT_MAX_SOURCE_LENGTH;
  }

  get scanned(): ScanResult {
    this.scanResult ??= this.tooLong
      ? {
          tokens: [],
          comments: [],
          errors: [],
          lintable: [],
          shortWords: [],
          end: { offset: 0, line: 1, column: 1 },
        }
      : scan(this.text);
    return this.scanResult;
  }

  get compiled(): CompileResult {
    if (this.compileResult === undefined) {
      // The service's dataset is the editor's default: a text's own `# dataset:` wins over it.
      const { dataset, ...options } = this.options;
      const compileOptions = dataset === undefined ? options : { ...options, defaultDataset: dataset };
      this.compileResult = compile(this.text, compileOptions);
    }
    return this.compileResult;
  }

  /** The dataset the text names with `# dataset:`, from its tokens alone (completion needs no compile). */
  get directive(): DatasetDirective | undefined {
    return readDirective(this.scanned.comments, this.scanned.tokens).directive;
  }

  /** The catalog in use; undefined when the dataset is unknown (diagnostics say so). */
  get catalog(): Catalog | undefined {
    return (
      this.options.catalog ?? getCatalog(this.directive?.dataset ?? this.options.dataset ?? DEFAULT_DATASET)
    );
  }
}
