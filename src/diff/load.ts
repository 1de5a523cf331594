import { type Catalog, DEFAULT_DATASET } from "../catalog/index.js";
import { type Cond, check } from "../check/index.js";
import { decompile } from "../decompile/index.js";
import { type Diagnostic, diagnose, LineIndex, type OptionLabels } from "../diagnostics/index.js";
import { emit } from "../emit/index.js";

export interface LoadOptions {
  /** The dataset of a filter that does not name one (a job record does); default `http_requests`. */
  dataset?: string;
  catalog?: Catalog;
  /** How messages name the options: see OptionLabels. */
  optionLabels?: OptionLabels;
}

export interface LoadedFilter {
  /** What the filter means; null for the empty filter (every record passes) or when there are errors. */
  condition: Cond | null;
  diagnostics: Diagnostic[];
  /** The dataset the filter was read with: the job record's, else the option's, else the default. */
  dataset: string;
  /** Where a job record names its dataset (for errors), else the start of the text. */
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
  if (isJson(text)) {
    const named = recordDataset(text);
    const dataset = named?.dataset ?? options.dataset ?? DEFAULT_DATASET;
    const { catalog, optionLabels } = options;
    const result = decompile(text, {
      dataset,
      ...(catalog && { catalog }),
      ...(optionLabels && { optionLabels }),
    });
    // The Logpush limits hold for JSON too: they also bound the work of comparing filters.
    const emitted = result.condition && emit(result.condition, { ...(optionLabels && { optionLabels }) });
    return {
      condition: result.condition,
      diagnostics: [...result.diagnostics, ...(emitted?.diagnostics ?? [])],
      dataset,
      datasetRange: named?.range ?? start,
    };
  }
  const dataset = options.dataset ?? DEFAULT_DATASET;
  const { catalog, optionLabels } = options;
  const checked = check(text, {
    dataset,
    ...(catalog && { catalog }),
    ...(optionLabels && { optionLabels }),
  });
  const emitted = checked.condition && emit(checked.condition, { ...(optionLabels && { optionLabels }) });
  const diagnostics = [...checked.diagnostics, ...(emitted?.diagnostics ?? [])];
  return { condition: checked.condition, diagnostics, dataset, datasetRange: start };
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
