import { DEFAULT_DATASET } from "../catalog/index.js";
import { check, type Meaning, toNegationNormalForm } from "../check/index.js";
import type { CompileOptions } from "../compile.js";
import { decompile } from "../decompile/index.js";
import { type Diagnostic, diagnose, LineIndex } from "../diagnostics/index.js";
import { emitNormal } from "../emit/index.js";

/**
 * How a filter is read: `dataset` is the dataset given for it (a job record's own wins; a source's
 * `# dataset:` must agree), `defaultDataset` that of a filter that names none, and the limits
 * those its JSON is held to.
 */
export type LoadOptions = Pick<
  CompileOptions,
  "dataset" | "defaultDataset" | "catalog" | "maxOperators" | "maxBytes"
>;

export interface LoadedFilter {
  /**
   * What the filter means, its `not`s pushed down as its JSON has them; null for the empty filter
   * (every record passes) or when there are errors.
   */
  condition: Meaning | null;
  diagnostics: Diagnostic[];
  /** The dataset the filter was read with: the job record's or the source's, else the options'. */
  dataset: string;
  /** Where the job record or the source names its dataset (for errors), else the start of the text. */
  datasetRange: Diagnostic["range"];
}

/** Text that holds Logpush filter JSON or a job record, rather than filter source. */
const isJson = (text: string) => /^\s*["{]/.test(text);

/**
 * Reads one filter as `diff` and `test` take it: filter source (checked, and its
 * JSON checked against the limits, as `compile` does), or Logpush filter JSON, the string a job
 * stores, or a job record (decompiled; a record's own `dataset` applies to it).
 */
export function loadFilter(text: string, options: LoadOptions = {}): LoadedFilter {
  const start = new LineIndex(text).rangeOf(0, 0);
  const { maxOperators, maxBytes, ...checkOptions } = options;
  const limits = {
    ...(maxOperators !== undefined ? { maxOperators } : {}),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
  };
  if (isJson(text)) {
    const named = recordDataset(text);
    const dataset = named?.dataset ?? options.dataset ?? options.defaultDataset ?? DEFAULT_DATASET;
    const result = decompile(text, { dataset, ...(options.catalog ? { catalog: options.catalog } : {}) });
    // The Logpush limits hold for JSON too: they also bound the work of comparing filters.
    const condition = result.condition && toNegationNormalForm(result.condition);
    const emitted = condition && emitNormal(condition, limits);
    return {
      condition,
      diagnostics: [...result.diagnostics, ...(emitted?.diagnostics ?? [])],
      dataset,
      datasetRange: named?.range ?? start,
    };
  }
  const checked = check(text, checkOptions);
  const emitted = checked.normal && emitNormal(checked.normal, limits);
  const diagnostics = [...checked.diagnostics, ...(emitted?.diagnostics ?? [])];
  const { directive } = checked.filter;
  const dataset =
    checked.catalog?.dataset ??
    options.dataset ??
    directive?.dataset ??
    options.defaultDataset ??
    DEFAULT_DATASET;
  return { condition: checked.normal, diagnostics, dataset, datasetRange: directive?.range ?? start };
}

/** The `dataset` a job record names, and where. */
function recordDataset(text: string): { dataset: string; range: Diagnostic["range"] } | undefined {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) return undefined;
  const dataset = (record as Record<string, unknown>).dataset;
  if (typeof dataset !== "string") return undefined;
  const at = text.indexOf(`"dataset"`);
  return { dataset, range: new LineIndex(text).rangeOf(Math.max(at, 0), Math.max(at, 0) + 9) };
}

/** E0700 on `filter` when the two filters were read with different datasets, else undefined. */
export function datasetMismatch(
  filter: LoadedFilter,
  other: LoadedFilter,
  otherName: string,
): Diagnostic | undefined {
  if (filter.dataset === other.dataset) return undefined;
  return diagnose("DatasetsDiffer", filter.datasetRange, {
    dataset: filter.dataset,
    other: other.dataset,
    otherName,
  });
}
