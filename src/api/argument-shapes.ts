import { isObject, isString } from "../diagnostics/index.js";

/*
 * The shapes the API module's exported functions take from a JavaScript caller, checked before
 * anything reads them: a wrong one is an InvalidArgumentError naming the argument (see
 * diagnostics/arguments.ts), never a TypeError from inside.
 */

const isOptional = (test: (value: unknown) => boolean) => (value: unknown) =>
  value === undefined || test(value);
export const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);
export const isScopeKind = (value: unknown): value is "zone" | "account" | undefined =>
  value === undefined || value === "zone" || value === "account";

/** Where a job lives (a ResolvedScope), or left out. */
export const isResolvedScope = (
  value: unknown,
): value is { kind: "zone" | "account"; id: string } | undefined =>
  value === undefined ||
  (isObject(value) && value["kind"] !== undefined && isScopeKind(value["kind"]) && isString(value["id"]));

export const A_RESOLVED_SCOPE = 'where the job lives ({kind: "zone" | "account", id})';

/** What each setting of JobSettings a type error would break must be; the rest `checkJobBody` checks itself. */
const settingShapes: Record<string, (value: unknown) => boolean> = {
  name: isOptional((value) => value === null || isString(value)),
  destination: isOptional(isString),
  dataset: isOptional(isString),
  fields: isOptional(isStrings),
  timestamps: isOptional(isString),
  outputOptions: isOptional(isObject),
  logpullOptions: isOptional(isString),
  ownershipChallenge: isOptional(isString),
  compileOptions: isOptional(isObject),
  filter: isOptional(
    (value) =>
      value === null ||
      (isObject(value) && ("json" in value || ("source" in value && isString(value["source"])))),
  ),
};

export const isJobSettings = (value: unknown): value is Record<string, unknown> =>
  isObject(value) && Object.entries(settingShapes).every(([name, test]) => test(value[name]));

export const JOB_SETTINGS =
  "job settings: an object ({fields: string[], filter: {source} | {json} | null, …})";

/** A job as the API returns it: an object (with an id, when it is one the service holds). */
export const isJob = (value: unknown): value is Record<string, unknown> => isObject(value);

/** A Log Explorer dataset named by its ID or by its type. */
export const isExplorerDatasetRef = (value: unknown): value is { datasetId: string } | { dataset: string } =>
  isObject(value) && isString(value["datasetId"]) !== isString(value["dataset"]);

export const EXPLORER_DATASET_REF = "a Log Explorer dataset: {datasetId} or {dataset: its type}";

/** The filter of a Log Explorer dataset: source, JSON or null, and the compiler's options. */
export const isExplorerFilterSettings = (value: unknown): value is Record<string, unknown> =>
  isObject(value) &&
  "filter" in value &&
  settingShapes["filter"]!(value["filter"]) &&
  settingShapes["compileOptions"]!(value["compileOptions"]);

export const EXPLORER_FILTER_SETTINGS = "the filter: {filter: {source} | {json} | null, compileOptions?}";

/** The settings of an Instant Logs session; the values themselves are checked with the service's rules. */
export const isInstantLogsSettings = (value: unknown): value is Record<string, unknown> =>
  isObject(value) &&
  settingShapes["fields"]!(value["fields"]) &&
  (value["sample"] === undefined || typeof value["sample"] === "number") &&
  settingShapes["filter"]!(value["filter"]) &&
  settingShapes["compileOptions"]!(value["compileOptions"]);

export const INSTANT_LOGS_SETTINGS =
  "Instant Logs settings: an object ({fields?: string[], sample?: number, filter?: {source} | {json} | null})";
