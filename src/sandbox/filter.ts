import { getCatalog } from "../catalog/index.js";
import type { Meaning } from "../check/index.js";
import { type Diagnostic, DiagnosticKind, type OptionLabels } from "../diagnostics/index.js";
import { DEFAULT_MAX_BYTES, utf8Length } from "../emit/index.js";
import { loadFilter } from "../load/index.js";
import { ErrorCode, SandboxError } from "./errors.js";

const badPredicate = (detail: string) =>
  new SandboxError(400, ErrorCode.badFilter, `bad predicate: ${detail}`);

/** The service has no options to name: its messages give the limits alone. */
const serviceLabels: OptionLabels = {
  maxInputLength: null,
  maxDepth: null,
  maxDiagnostics: null,
  maxOperators: null,
  maxBytes: null,
  optimize: null,
};

const firstError = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.find((d) => d.severity === "error")?.message ?? "invalid filter";

/**
 * Checks a job's `filter` (a string of JSON; "" or null for none) as the service would: its shape,
 * field names, operator × type matrix and values (through the decompiler), then the limits on
 * comparisons and bytes of the filter as sent: the service does not optimize what it measures, so
 * neither does the sandbox (31 comparisons that filterc would merge into one `in` are still 31).
 * Returns what the filter means, for the push.
 */
export function checkJobFilter(filter: unknown, dataset: string): Meaning | null {
  if (filter === undefined || filter === null || filter === "") return null;
  if (typeof filter !== "string")
    throw new SandboxError(400, ErrorCode.invalidJob, "filter must be a string holding the filter's JSON");
  rejectWrappedFilter(filter);
  // Its comparisons counted as sent (not optimized); its bytes are those of the text, below.
  const loaded = loadFilter(filter, {
    form: "json",
    dataset,
    optimize: false,
    maxBytes: Number.POSITIVE_INFINITY,
    optionLabels: serviceLabels,
  });
  if (!loaded.ok || !loaded.meaning) {
    // The decompiler finds comma-joined lists; the service words that failure its own way.
    if (loaded.diagnostics.some((d) => d.code === DiagnosticKind.CommaJoinedList.code))
      rejectJoinedLists(filter, dataset);
    throw badPredicate(firstError(loaded.diagnostics));
  }
  const bytes = utf8Length(filter);
  if (bytes > DEFAULT_MAX_BYTES)
    throw badPredicate(`the filter is ${bytes} bytes; Logpush accepts at most ${DEFAULT_MAX_BYTES}`);
  return loaded.meaning;
}

/**
 * The decompiler also reads a filter's JSON inside a JSON string and a whole job record; the
 * service takes only the filter object itself, so neither wrapping is accepted here.
 */
function rejectWrappedFilter(filter: string): void {
  let json: unknown;
  try {
    json = JSON.parse(filter);
  } catch {
    return; // the decompiler reports where the JSON breaks
  }
  const isJob = typeof json === "object" && json !== null && !Array.isArray(json) && "filter" in json;
  if (typeof json === "string" || isJob)
    throw badPredicate(
      `the filter is the JSON object {"where": …} itself, not ${isJob ? "a job holding it" : "a string holding it"}`,
    );
}

/**
 * The service decodes an `in` list on a number field as a list of numbers: a comma-joined string
 * (the docs' own `"200,201"`) fails with its own wording, reproduced here for the first such list.
 */
function rejectJoinedLists(filter: string, dataset: string): void {
  let json: unknown;
  try {
    json = JSON.parse(filter);
  } catch {
    return; // the decompiler reports where the JSON breaks
  }
  const catalog = getCatalog(dataset);
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    for (const group of [record["where"], record["and"], record["or"]]) {
      if (Array.isArray(group)) group.forEach(visit);
      else visit(group);
    }
    const { key, operator, value } = record;
    if ((operator !== "in" && operator !== "!in") || typeof value !== "string" || typeof key !== "string")
      return;
    const field = catalog?.fields.get(key);
    const numeric = field?.type === "int" || field?.type === "float" || field?.elementType === "int";
    if (!numeric) return;
    const kind = field?.type === "float" ? "[]float64" : "[]uint64";
    throw badPredicate(
      `failed to decode value ${JSON.stringify(JSON.stringify(value))}, supported kinds: ${kind}`,
    );
  };
  visit(json);
}
