import { type Catalog, DEFAULT_DATASET, getCatalog, knownDatasets } from "../catalog/index.js";
import {
  type Diagnostic,
  diagnose,
  isObject,
  isString,
  optionDiagnostics,
  sortDiagnostics,
} from "../diagnostics/index.js";
import {
  capDiagnostics,
  type FilterSource,
  isPrintable,
  notText,
  type ParseOptions,
  type ParseResult,
  parse,
} from "../syntax/index.js";
import { analyzeExpr, type FilterAnalysis, unanalyzed } from "./analyze.js";

export interface CheckOptions extends ParseOptions {
  /** The Logpush dataset whose field catalog applies (default `http_requests`). */
  dataset?: string;
  /** A catalog to use instead of a shipped dataset's, for datasets filterc does not ship. */
  catalog?: Catalog;
}

export interface CheckResult extends FilterAnalysis {
  /** The AST, as parsed. */
  filter: FilterSource;
  diagnostics: Diagnostic[];
  /** The catalog the filter was checked against; undefined when the dataset is unknown. */
  catalog: Catalog | undefined;
}

/** Resolves the catalog of the options, or the diagnostic that says the dataset is unknown. */
export function resolveCatalog(options: CheckOptions, filter: FilterSource): Catalog | Diagnostic {
  if (options.catalog) return options.catalog;
  const dataset = options.dataset ?? DEFAULT_DATASET;
  const catalog = getCatalog(dataset);
  if (catalog) return catalog;
  return diagnose(
    "UnknownDataset",
    { start: filter.range.start, end: filter.range.start },
    { dataset, known: knownDatasets(dataset) },
  );
}

/** A parse result with its source, as `check` takes one instead of the source. */
const isParsed = (input: unknown): input is ParseResult & { source: string } =>
  isObject(input) &&
  isString(input["source"]) &&
  isObject(input["filter"]) &&
  input["filter"]["kind"] === "filter" &&
  isPrintable(input["filter"]) &&
  Array.isArray(input["diagnostics"]);

/** Parses (unless given a parse result) and checks a filter against its dataset. Never throws. */
export function check(
  input: string | (ParseResult & { source: string }),
  options: CheckOptions = {},
): CheckResult {
  const invalidOptions = optionDiagnostics(options);
  if (typeof input !== "string" && !isParsed(input)) {
    const { filter, diagnostics } = notText(input, invalidOptions);
    return { filter, ...unanalyzed(), diagnostics, catalog: undefined };
  }
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
    diagnostics: capDiagnostics(sortDiagnostics(diagnostics), options),
    catalog,
  };
}
