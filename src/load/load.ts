import { type Catalog, DEFAULT_DATASET, getCatalog } from "../catalog/index.js";
import type { Cond, Meaning } from "../check/index.js";
import { type CompileOptions, compile } from "../compile.js";
import { type DecompileOptions, readFilterJson } from "../decompile/index.js";
import {
  type Diagnostic,
  hasErrors,
  isObject,
  LineIndex,
  type Range,
  sortDiagnostics,
} from "../diagnostics/index.js";
import { emitMeaning } from "../emit/index.js";

/**
 * How a filter reaches filterc: as filter source, or as Logpush filter JSON (the filter object,
 * the string a job stores, or a job record holding it, as text or parsed).
 */
export type FilterForm = "source" | "json";

/** Options of `loadFilter`: those of `compile` and of `decompile`, and how to read the input. */
export interface LoadOptions extends CompileOptions, DecompileOptions {
  /**
   * What the input is. By default a string whose first non-blank character is `{` or `"` is JSON
   * and any other string source; anything else (a parsed object, null) is JSON.
   */
  form?: FilterForm;
  /**
   * A job record's own `dataset` wins over `dataset` (`filterc diff` and `test`: a record says
   * which dataset it is of); by default `dataset` wins, as in `decompile`.
   */
  recordDatasetFirst?: boolean;
}

/** A filter loaded: what it was given as, what it means, its JSON, its catalog and every diagnostic. */
export interface LoadedFilter {
  /** True when there is no error (warnings allowed). */
  ok: boolean;
  /** What the input was read as. */
  form: FilterForm;
  /** The filter in the language: the source as given, or the JSON read back and printed; null when JSON has errors. */
  source: string | null;
  /** The checked filter as written (`not` kept, groups as written); null when it is empty or has errors. */
  condition: Cond | null;
  /**
   * What the filter means: `condition` with every `not` pushed down, as its JSON has it, the form
   * every stage that evaluates, translates or compares filters takes; null with `condition`.
   */
  meaning: Meaning | null;
  /** The compact Logpush filter JSON it compiles to, held to the limits; null when empty, on errors or over a limit. */
  filter: string | null;
  /** The catalog it was checked against; undefined when the dataset is unknown. */
  catalog: Catalog | undefined;
  /** The dataset it was read with: a job record's or a source's `# dataset:`, else the options'. */
  dataset: string;
  /** Where a job record or the source names that dataset (for messages), else the start of the text. */
  datasetRange: Range;
  /** Every diagnostic: the source's or the JSON's, then the limits' (in order of place). */
  diagnostics: Diagnostic[];
}

/** Text that holds Logpush filter JSON or a job record, rather than filter source. */
const JSON_TEXT = /^\s*["{]/;

/** The form a filter's text is in: JSON (an object, or the string a job stores) starts with `{` or `"`; the language never does. */
export function formOf(text: string): FilterForm {
  return JSON_TEXT.test(text) ? "json" : "source";
}

/**
 * Loads one filter, whatever form it came in: source is compiled, JSON (text or parsed) read back
 * with the decompiler, and either is held to the Logpush limits, which also bound the work of the
 * stages after it (give `maxOperators` or `maxBytes` Infinity for none). Never throws: every
 * problem is a diagnostic.
 */
export function loadFilter(input: unknown, options: LoadOptions = {}): LoadedFilter {
  // Options that are no object are reported (E0006) by compile and decompile, and read as none here.
  const given: LoadOptions = isObject(options) ? options : {};
  const form = given.form ?? (typeof input === "string" ? formOf(input) : "json");
  const start = new LineIndex(typeof input === "string" ? input : "").rangeOf(0, 0);
  if (form === "source") {
    const compiled = compile(input as string, options);
    const { directive } = compiled.ast;
    return {
      ok: compiled.ok,
      form,
      source: typeof input === "string" ? input : null,
      condition: compiled.condition,
      meaning: compiled.meaning,
      filter: compiled.filter,
      catalog: compiled.catalog,
      dataset:
        compiled.catalog?.dataset ??
        given.dataset ??
        directive?.dataset ??
        given.defaultDataset ??
        DEFAULT_DATASET,
      datasetRange: directive?.range ?? start,
      diagnostics: compiled.diagnostics,
    };
  }
  const read = readFilterJson(input, options);
  const emitted = read.meaning && emitMeaning(read.meaning, options);
  const diagnostics = emitted?.diagnostics.length
    ? sortDiagnostics([...read.diagnostics, ...emitted.diagnostics])
    : read.diagnostics;
  const dataset = read.dataset ?? given.defaultDataset ?? DEFAULT_DATASET;
  return {
    ok: !hasErrors(diagnostics),
    form,
    source: read.source,
    condition: read.condition,
    meaning: read.meaning,
    filter: emitted?.filter ?? null,
    catalog: given.catalog ?? getCatalog(dataset),
    dataset,
    datasetRange: read.datasetRange ?? start,
    diagnostics,
  };
}
