import { type Catalog, DEFAULT_DATASET, datasetNames, getCatalog, knownDatasets } from "../catalog/index.js";
import {
  closestMatch,
  type Diagnostic,
  diagnose,
  emptyRangeAt,
  optionDiagnostics,
  sortDiagnostics,
} from "../diagnostics/index.js";
import {
  capDiagnostics,
  type FilterSource,
  type ParseOptions,
  type ParseResult,
  parse,
} from "../syntax/index.js";
import { analyzeExpr, type FilterAnalysis, unanalyzed } from "./analyze.js";

export interface CheckOptions extends ParseOptions {
  /**
   * The Logpush dataset whose field catalog applies. A source that names another one with
   * `# dataset:` is an error (E0008) rather than checked against either.
   */
  dataset?: string;
  /**
   * The dataset of a source that names none with `# dataset:`, when no `dataset` is given: an
   * editor's setting, a folder's `filterc.json` (default `http_requests`).
   */
  defaultDataset?: string;
  /**
   * A catalog to use instead of a shipped dataset's, for datasets filterc does not ship: it holds
   * the fields of the dataset the source names, so only a `dataset` given with it is compared with
   * the source's `# dataset:`.
   */
  catalog?: Catalog;
}

export interface CheckResult extends FilterAnalysis {
  /** The AST, as parsed. */
  filter: FilterSource;
  diagnostics: Diagnostic[];
  /** The catalog the filter was checked against; undefined when the dataset is unknown. */
  catalog: Catalog | undefined;
}

/**
 * Resolves the catalog of a source: the `dataset` option, else the source's `# dataset:`, else
 * `defaultDataset`, else http_requests; or the diagnostic that says why there is none (the option
 * and the directive disagree; the dataset is unknown, said where it is named).
 */
export function resolveCatalog(
  options: CheckOptions,
  filter: Pick<FilterSource, "range" | "directive">,
): Catalog | Diagnostic {
  const { directive } = filter;
  if (directive && options.dataset !== undefined && directive.dataset !== options.dataset)
    return diagnose("DatasetConflict", directive.range, { named: directive.dataset, given: options.dataset });
  if (options.catalog) return options.catalog;
  const dataset = options.dataset ?? directive?.dataset ?? options.defaultDataset ?? DEFAULT_DATASET;
  const catalog = getCatalog(dataset);
  if (catalog) return catalog;
  const known = knownDatasets(dataset);
  if (directive?.dataset !== dataset)
    return diagnose("UnknownDataset", emptyRangeAt(filter.range.start), { dataset, known });
  const meant = closestMatch(dataset, datasetNames);
  const fix =
    meant === undefined
      ? undefined
      : { message: `replace with \`${meant}\``, range: directive.range, replacement: meant };
  return diagnose("UnknownDataset", directive.range, { dataset, known }, fix);
}

/** Parses (unless given a parse result) and checks a filter against its dataset. Never throws. */
export function check(
  input: string | (ParseResult & { source: string }),
  options: CheckOptions = {},
): CheckResult {
  const invalidOptions = optionDiagnostics(options);
  if (invalidOptions.length > 0) {
    const filter = typeof input === "string" ? parse(input, options).filter : input.filter;
    return { filter, ...unanalyzed(), diagnostics: invalidOptions, catalog: undefined };
  }
  let parsed: ParseResult & { source: string };
  if (typeof input === "string") {
    const result = parse(input, options);
    parsed = { filter: result.filter, diagnostics: result.diagnostics, source: input };
  } else parsed = input;
  const diagnostics = parsed.diagnostics.slice();
  const catalog = resolveCatalog(options, parsed.filter);
  if (!("fields" in catalog)) {
    diagnostics.push(catalog);
    return { filter: parsed.filter, ...unanalyzed(), diagnostics, catalog: undefined };
  }
  const analysis = analyzeExpr(parsed.filter.expr, catalog, parsed.source, diagnostics);
  return {
    filter: parsed.filter,
    condition: analysis.condition,
    normal: analysis.normal,
    comparisons: analysis.comparisons,
    diagnostics: capDiagnostics(sortDiagnostics(diagnostics), options.maxDiagnostics),
    catalog,
  };
}
