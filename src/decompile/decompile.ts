import type { Node } from "jsonc-parser";
import type { Catalog } from "../catalog/index.js";
import { analyzeExpr, type Cond, type FilterAnalysis, type Meaning, resolveCatalog } from "../check/index.js";
import {
  type Diagnostic,
  type DiagnosticSettings,
  diagnose,
  hasErrors,
  isObject,
  isString,
  LineIndex,
  optionDiagnostics,
  optionLabel,
  type Range,
  sortDiagnostics,
  tuneDiagnostics,
} from "../diagnostics/index.js";
import { conditionToExpr, type PrintOptions, print } from "../print/index.js";
import {
  capDiagnostics,
  DEFAULT_MAX_DEPTH,
  type FilterSource,
  withoutByteOrderMark,
} from "../syntax/index.js";
import { JsonDocument, jsonTypeName, membersOf, parseDocument } from "./document.js";
import { at, ShapeReader } from "./shape.js";

/** Options of `decompile`: the catalog to check against, the input's limits, and how to print the source. */
export interface DecompileOptions extends PrintOptions {
  /** The dataset whose catalog types the comparisons (default: the job record's `dataset`, else `defaultDataset`). */
  dataset?: string;
  /** The dataset of a filter that names none (a job record names its own): a folder's default (default `http_requests`). */
  defaultDataset?: string;
  /** A catalog to use instead of a shipped dataset's. */
  catalog?: Catalog;
  /** Longest input text accepted, in UTF-16 code units (default 100,000). */
  maxInputLength?: number;
  /** Deepest nesting of `and`/`or` groups accepted (default 100). */
  maxDepth?: number;
  /** Most diagnostics reported (default 100). */
  maxDiagnostics?: number;
  /** Levels of warnings and notes by code, as `compile`'s option (JSON has no `# filterc-ignore`). */
  diagnostics?: DiagnosticSettings;
}

/** What `decompile` returns: the filter as filterc source (null on errors), and the diagnostics with JSON pointers. */
export interface DecompileResult {
  /** True when there is no error (warnings allowed). */
  ok: boolean;
  /**
   * The checked filter read back as the JSON writes it (its groups as nested there; JSON has no
   * `not`); null for no filter or when there are errors. What it means is `loadFilter`'s `meaning`.
   */
  condition: Cond | null;
  /** The filter in the language, canonically printed; "" for no filter; null when there are errors. */
  source: string | null;
  /** Ranges are in the input text (for an object input: in its JSON with two-space indentation). */
  diagnostics: Diagnostic[];
}

/** The longest JSON text, in characters, `decompile` reads (`maxInputLength`). */
export const DEFAULT_MAX_INPUT_LENGTH = 100_000;

/** How the loader reads JSON: decompile's options, and whose dataset a job record is read with. */
export interface JsonReadOptions extends DecompileOptions {
  /** A job record's own `dataset` wins over `dataset` (otherwise `dataset` wins over it). */
  recordDatasetFirst?: boolean;
}

/** What the loader takes of a decompile: the result, the meaning, and the dataset it was read with. */
export interface JsonReading extends DecompileResult {
  /** What the filter means, from the same analysis as `condition`, its ranges in the input text; null with it. */
  meaning: Meaning | null;
  /** The dataset the filter was read with: the options', else the job record's; undefined when neither names one. */
  dataset: string | undefined;
  /** Where the job record names the dataset it was read with; undefined when it does not. */
  datasetRange: Range | undefined;
}

type Reading = DecompileResult & { meaning: Meaning | null };

const noFilter: Reading = { ok: true, condition: null, source: "", diagnostics: [], meaning: null };

/**
 * Reads Logpush filter JSON back into the language. The input is a filter object, a job record
 * (its `filter`), the string a job stores (JSON inside a JSON string), the text of any of these, or
 * `""`/`null` for no filter. Never throws: every problem is a diagnostic with its JSON pointer.
 */
export function decompile(input: unknown, options: DecompileOptions = {}): DecompileResult {
  const { ok, condition, source, diagnostics } = readFilterJson(input, options);
  return { ok, condition, source, diagnostics };
}

/** `decompile`, with what the loader needs besides. */
export function readFilterJson(input: unknown, options: JsonReadOptions = {}): JsonReading {
  const read = readJson(input, options);
  return "dataset" in read
    ? read
    : {
        ...read,
        dataset: isObject(options) && isString(options["dataset"]) ? options["dataset"] : undefined,
        datasetRange: undefined,
      };
}

function readJson(input: unknown, options: JsonReadOptions): Reading | JsonReading {
  const invalidOptions = optionDiagnostics(options);
  if (invalidOptions.length > 0) return failed(invalidOptions);
  if (input === null || input === undefined) return { ...noFilter, diagnostics: [] };
  let text: string;
  if (typeof input === "string") {
    // A byte order mark at the start is read as a blank, so that offsets stay those of the input.
    text = input.length === withoutByteOrderMark(input).length ? input : ` ${input.slice(1)}`;
  } else if (typeof input === "object") {
    try {
      text = JSON.stringify(input, null, 2);
    } catch {
      return failed([
        diagnose("InvalidJson", startRange, { problem: "the input object cannot be written as JSON" }),
      ]);
    }
  } else {
    return failed([diagnose("NotAFilter", startRange, { at: "", found: `a ${typeof input}` })]);
  }
  const maxInputLength = options.maxInputLength ?? DEFAULT_MAX_INPUT_LENGTH;
  const inputLines = new LineIndex(text);
  if (text.length > maxInputLength) {
    const range = inputLines.rangeOf(maxInputLength, text.length);
    const option = optionLabel(options.optionLabels, "maxInputLength");
    return failed([diagnose("InputTooLong", range, { length: text.length, limit: maxInputLength, option })]);
  }
  if (text.trim() === "") return { ...noFilter, diagnostics: [] };
  try {
    return tuned(new Decompilation(text, inputLines, options).run(), options.diagnostics);
  } catch (error) {
    // The depth check keeps recursion bounded; a stack still exhausted is reported, never thrown.
    if (!(error instanceof RangeError)) throw error;
    const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    const option = optionLabel(options.optionLabels, "maxDepth");
    return failed([diagnose("NestingTooDeep", startRange, { limit: maxDepth, option })]);
  }
}

const startRange: Range = new LineIndex("").rangeOf(0, 0);

/** A result at the levels the settings give; a warning they make an error fails it as any error does. */
function tuned<R extends Reading>(result: R, settings: DiagnosticSettings | undefined): R {
  if (settings === undefined) return result;
  const diagnostics = tuneDiagnostics(result.diagnostics, { settings });
  return result.ok && hasErrors(diagnostics)
    ? { ...result, ...failed(diagnostics) }
    : { ...result, diagnostics };
}

function failed(diagnostics: Diagnostic[]): Reading {
  return { ok: false, condition: null, source: null, diagnostics, meaning: null };
}

class Decompilation {
  private readonly maxDepth: number;
  private dataset: string | undefined;
  private datasetRange: Range | undefined;

  constructor(
    private readonly text: string,
    private readonly inputLines: LineIndex,
    private readonly options: JsonReadOptions,
  ) {
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.dataset = options.dataset;
  }

  run(): JsonReading {
    const document = JsonDocument.ofInput(this.text);
    const parsed = this.parse(document);
    const read = parsed.root
      ? this.fromRoot(document, parsed.root)
      : this.finish(document, parsed.diagnostics);
    return { ...read, dataset: this.dataset, datasetRange: this.datasetRange };
  }

  /** JSON depth allowed: two levels per group (object and array) plus the job and filter around them. */
  private parse(document: JsonDocument) {
    const option = optionLabel(this.options.optionLabels, "maxDepth");
    return parseDocument(document, 2 * this.maxDepth + 6, { limit: this.maxDepth, option });
  }

  private fromRoot(document: JsonDocument, root: Node): Reading {
    switch (root.type) {
      case "null":
        return { ...noFilter, diagnostics: [] };
      case "string":
        return this.fromString(document, root);
      case "object":
        return this.fromObject(document, root);
      default:
        return this.finish(document, [
          diagnose("NotAFilter", document.rangeOf(root), { at: "", found: jsonTypeName(root) }),
        ]);
    }
  }

  /** The string a job stores: the filter JSON inside a JSON string; "" is no filter. */
  private fromString(document: JsonDocument, node: Node): Reading {
    if (String(node.value).trim() === "") return { ...noFilter, diagnostics: [] };
    const inner = document.embedded(node);
    const parsed = this.parse(inner);
    if (!parsed.root) return this.finish(inner, parsed.diagnostics);
    if (parsed.root.type !== "object") {
      const found = jsonTypeName(parsed.root);
      return this.finish(inner, [diagnose("NotAFilter", inner.rangeOf(parsed.root), { at: "", found })]);
    }
    return this.fromFilter(inner, parsed.root);
  }

  private fromObject(document: JsonDocument, node: Node): Reading {
    const members = membersOf(node);
    const member = (name: string) => members.find((entry) => entry.name === name)?.value;
    const isFilter = members.some((entry) =>
      ["where", "key", "operator", "value", "and", "or"].includes(entry.name),
    );
    if (isFilter) return this.fromFilter(document, node);
    // An API envelope around a job: {"result": {…job…}}.
    const result = member("result");
    if (result?.type === "object" && membersOf(result).some((entry) => entry.name === "filter"))
      return this.fromObject(document, result);
    const filter = member("filter");
    if (!members.some((entry) => entry.name === "filter")) return this.fromFilter(document, node);
    const dataset = members.find((entry) => entry.name === "dataset");
    if (
      (this.dataset === undefined || this.options.recordDatasetFirst) &&
      dataset?.value?.type === "string"
    ) {
      this.dataset = String(dataset.value.value);
      const key = document.rangeOf(dataset.key);
      this.datasetRange = this.inputLines.rangeOf(
        document.inputOffset(key.start.offset),
        document.inputOffset(key.end.offset),
      );
    }
    switch (filter?.type) {
      case "null":
        return { ...noFilter, diagnostics: [] };
      case "string":
        return this.fromString(document, filter);
      case "object":
        return this.fromFilter(document, filter);
      default: {
        const range = filter ? document.rangeOf(filter) : document.rangeOf(node);
        const diagnostic = diagnose("WrongJsonType", range, {
          at: at("/filter"),
          what: '"filter"',
          expected: "a string holding the filter JSON, or null",
          found: jsonTypeName(filter),
        });
        diagnostic.pointer = "/filter";
        return this.finish(document, [diagnostic]);
      }
    }
  }

  private fromFilter(document: JsonDocument, node: Node): Reading {
    const stub: FilterSource = { kind: "filter", expr: null, comments: [], range: document.rangeOf(node) };
    const { catalog: given, defaultDataset } = this.options;
    const catalog = resolveCatalog({ dataset: this.dataset, catalog: given, defaultDataset }, stub);
    const reader = new ShapeReader(document, "fields" in catalog ? catalog : undefined);
    const expr = reader.filter(node);
    const diagnostics = [...reader.diagnostics];
    if (!("fields" in catalog)) {
      diagnostics.push(catalog);
      return this.finish(document, diagnostics);
    }
    const read = diagnostics.length;
    const analysis = analyzeExpr(expr, catalog, document.text, diagnostics, "json");
    for (let i = read; i < diagnostics.length; i++) diagnostics[i] = withPointer(diagnostics[i]!, reader);
    return this.finish(document, diagnostics, analysis);
  }

  /** Maps every range to the input text and escapes suggested replacements for where they go. */
  private finish(document: JsonDocument, diagnostics: Diagnostic[], analysis?: FilterAnalysis): Reading {
    const mapRange = (range: Range): Range =>
      this.inputLines.rangeOf(
        document.inputOffset(range.start.offset),
        document.inputOffset(range.end.offset),
      );
    const mapped = diagnostics.map((diagnostic) => {
      const result: Diagnostic = { ...diagnostic, range: mapRange(diagnostic.range) };
      if (diagnostic.related)
        result.related = diagnostic.related.map((related) => ({
          ...related,
          range: mapRange(related.range),
        }));
      if (diagnostic.suggestion) {
        result.suggestion = {
          message: diagnostic.suggestion.message,
          range: mapRange(diagnostic.suggestion.range),
          replacement: document.escape(diagnostic.suggestion.replacement),
        };
      }
      return result;
    });
    const sorted = capDiagnostics(sortDiagnostics(mapped), this.options);
    const ok = !hasErrors(sorted);
    if (!ok || !analysis?.condition || !analysis.meaning)
      return { ok, condition: null, source: ok ? "" : null, diagnostics: sorted, meaning: null };
    const meaning = mapMeaning(analysis.meaning, mapRange);
    // The analysis gives the condition itself as its meaning when it is in that form already.
    const inputCondition =
      analysis.meaning === analysis.condition ? meaning : mapCondition(analysis.condition, mapRange);
    return {
      ok,
      condition: inputCondition,
      source: print(conditionToExpr(inputCondition), this.options),
      diagnostics: sorted,
      meaning,
    };
  }
}

/**
 * A checker diagnostic names the JSON member it is about, and so does each place related to it;
 * its suggestion, written for the language, becomes JSON: a field or operator name is a JSON
 * string there.
 */
function withPointer(diagnostic: Diagnostic, reader: ShapeReader): Diagnostic {
  const place = reader.placeOf(diagnostic.range);
  if (!place) return diagnostic;
  const result = { ...diagnostic, message: at(place.pointer) + diagnostic.message, pointer: place.pointer };
  const suggestion = diagnostic.suggestion;
  const role = suggestion && reader.placeOf(suggestion.range)?.role;
  if (suggestion && (role === "key" || role === "operator"))
    result.suggestion = { ...suggestion, replacement: JSON.stringify(suggestion.replacement) };
  if (diagnostic.related)
    result.related = diagnostic.related.map((related) => {
      const pointer = reader.placeOf(related.range)?.pointer;
      return pointer === undefined ? related : { ...related, pointer };
    });
  return result;
}

function mapMeaning(meaning: Meaning, mapRange: (range: Range) => Range): Meaning {
  if (meaning.kind === "leaf") return { ...meaning, range: mapRange(meaning.range) };
  return {
    kind: meaning.kind,
    operands: meaning.operands.map((operand) => mapMeaning(operand, mapRange)),
    range: mapRange(meaning.range),
  };
}

function mapCondition(cond: Cond, mapRange: (range: Range) => Range): Cond {
  switch (cond.kind) {
    case "leaf":
      return { ...cond, range: mapRange(cond.range) };
    case "not":
      return { kind: "not", operand: mapCondition(cond.operand, mapRange), range: mapRange(cond.range) };
    case "and":
    case "or":
      return {
        kind: cond.kind,
        operands: cond.operands.map((operand) => mapCondition(operand, mapRange)),
        range: mapRange(cond.range),
      };
  }
}
