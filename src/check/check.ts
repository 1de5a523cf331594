import { type Catalog, DEFAULT_DATASET, datasetNames, getCatalog, knownDatasets } from "../catalog/index.js";
import {
  closestMatch,
  type Diagnostic,
  type DiagnosticSettings,
  diagnose,
  emptyRangeAt,
  hasErrors,
  isObject,
  isString,
  optionDiagnostics,
  sortDiagnostics,
  tuneDiagnostics,
} from "../diagnostics/index.js";
import {
  capDiagnostics,
  type FilterSource,
  isPrintable,
  notText,
  type ParseOptions,
  type ParseResult,
  parse,
  sourceIgnores,
} from "../syntax/index.js";
import { analyzeExpr, type FilterAnalysis, unanalyzed } from "./analyze.js";
import type { Cond, Leaf, Meaning } from "./ir.js";

/** Options of `check`: the dataset or catalog to check against, and the parser's limits. */
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
  /**
   * Levels of warnings and notes by code (`{"W0120": "off", "warnings": "error"}`), as a
   * filterc.json's `diagnostics` sets them; the source's `# filterc-ignore` comments apply too.
   * A warning raised to an error is one: the result then has no condition, as with any error.
   */
  diagnostics?: DiagnosticSettings;
}

/** What `check` returns: the parsed and checked filter, its meaning and every diagnostic. */
export interface CheckResult extends FilterAnalysis {
  /** The AST, as parsed. */
  filter: FilterSource;
  diagnostics: Diagnostic[];
  /** The catalog the filter was checked against; undefined when the dataset is unknown. */
  catalog: Catalog | undefined;
  /** The former name of `meaning`, kept for callers written against it. @deprecated Read `meaning`. */
  readonly normal: Meaning | null;
}

/** A check's result; `normal` is a getter, so that only `meaning` is among its own properties. */
class Checked implements CheckResult {
  filter: FilterSource;
  condition: Cond | null;
  meaning: Meaning | null;
  comparisons: Leaf[];
  diagnostics: Diagnostic[];
  catalog: Catalog | undefined;

  constructor(
    filter: FilterSource,
    analysis: FilterAnalysis,
    diagnostics: Diagnostic[],
    catalog: Catalog | undefined,
  ) {
    this.filter = filter;
    this.condition = analysis.condition;
    this.meaning = analysis.meaning;
    this.comparisons = analysis.comparisons;
    this.diagnostics = diagnostics;
    this.catalog = catalog;
  }

  get normal(): Meaning | null {
    return this.meaning;
  }
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
    return new Checked(filter, unanalyzed(), diagnostics, undefined);
  }
  if (invalidOptions.length > 0) {
    const filter = typeof input === "string" ? parse(input, options).filter : input.filter;
    return new Checked(filter, unanalyzed(), invalidOptions, undefined);
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
    return new Checked(parsed.filter, unanalyzed(), tuneSource(diagnostics, parsed, options), undefined);
  }
  const analysis = analyzeExpr(parsed.filter.expr, catalog, parsed.source, diagnostics);
  const tuned = tuneSource(sortDiagnostics(diagnostics), parsed, options);
  // A warning the settings raise to an error stops the filter as an error does.
  const stopped = analysis.condition !== null && hasErrors(tuned);
  return new Checked(
    parsed.filter,
    stopped ? { ...analysis, condition: null, meaning: null } : analysis,
    capDiagnostics(tuned, options),
    catalog,
  );
}

/** The diagnostics of a source as its settings and `# filterc-ignore` comments tune them. */
function tuneSource(
  diagnostics: Diagnostic[],
  parsed: ParseResult & { source: string },
  options: CheckOptions,
): Diagnostic[] {
  const ignores = sourceIgnores(parsed.filter, parsed.source);
  if (ignores.length === 0 && options.diagnostics === undefined) return diagnostics;
  return tuneDiagnostics(diagnostics, { settings: options.diagnostics, ignores });
}
