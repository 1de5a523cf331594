import { type Catalog, datasetScopes, knownDatasets, type ScopeKind } from "../catalog/index.js";
import { closestMatch, expectArgument, isCatalog, isObject, isString } from "../diagnostics/index.js";
import { isScopeKind } from "./argument-shapes.js";
import { checkDestination } from "./destination.js";
import type { Problem } from "./errors.js";
import { JOB_BODY_FIELDS, JOB_OPTIONS, type JobOption, type JobOptionValue } from "./job-option-table.js";
import { problem } from "./problems.js";
import { checkRecordTemplate } from "./record-template.js";

/**
 * The job record's fields and the rules the service applies to them, in one place: the client checks
 * a body with them before sending it, and the sandbox checks what it receives with the same rules.
 * Sources: the OpenAPI job schema, the SDK's `OutputOptions`, and the Logpush docs (2026).
 */

export const OUTPUT_TYPES = ["ndjson", "csv"] as const;
export const TIMESTAMP_FORMATS = ["unixnano", "unix", "rfc3339", "rfc3339ms", "rfc3339ns"] as const;
/** The formats a `logpull_options` string's `timestamps=` takes (the older form has no ms/ns variants). */
export const LOGPULL_TIMESTAMP_FORMATS = ["rfc3339", "unix", "unixnano"] as const;
/**
 * The keys of a `logpull_options` string (the query string of the Logpull API, which Logpush jobs
 * took before `output_options`), each with the output option it is. Logpush sets the Logpull
 * API's `start` and `end` itself, and `count` has no meaning for a job.
 */
const LOGPULL_OPTION_KEYS = {
  fields: "field_names",
  timestamps: "timestamp_format",
  sample: "sample_rate",
  "CVE-2021-44228": "CVE-2021-44228",
} as const satisfies Record<string, keyof OutputOptions>;
type LogpullOptionKey = keyof typeof LOGPULL_OPTION_KEYS;
/** The timestamp format filterc gives a new job when none is named. */
export const DEFAULT_TIMESTAMPS = "rfc3339";
export const MAX_DESTINATION_LENGTH = 4096;
/** The OpenAPI schema's `maxLength` of `logpull_options`. */
const MAX_LOGPULL_OPTIONS_LENGTH = 4096;

/** The `output_type` values a job's output options take. */
export type OutputType = (typeof OUTPUT_TYPES)[number];
/** The `timestamp_format` values a job's output options take. */
export type TimestampFormat = (typeof TIMESTAMP_FORMATS)[number];

/** A job's `output_options`, with the service's names. */
export interface OutputOptions {
  field_names?: string[];
  output_type?: OutputType;
  timestamp_format?: TimestampFormat;
  sample_rate?: number | null;
  "CVE-2021-44228"?: boolean | null;
  batch_prefix?: string | null;
  batch_suffix?: string | null;
  record_prefix?: string | null;
  record_suffix?: string | null;
  record_delimiter?: string | null;
  record_template?: string | null;
  field_delimiter?: string | null;
  merge_subrequests?: boolean | null;
}

/**
 * What the service uses for an option a job's `output_options` leaves out (the OpenAPI example's
 * values, which are the documented defaults). A PUT replaces `output_options` whole, so an option left
 * out of it falls back to this.
 */
export const OUTPUT_OPTION_DEFAULTS: Readonly<Required<Omit<OutputOptions, "field_names">>> = {
  output_type: "ndjson",
  timestamp_format: "unixnano",
  sample_rate: 1,
  "CVE-2021-44228": false,
  batch_prefix: "",
  batch_suffix: "",
  record_prefix: "{",
  record_suffix: "}\n",
  record_delimiter: "",
  record_template: null,
  field_delimiter: ",",
  merge_subrequests: false,
};

const STRING_OUTPUT_OPTIONS = [
  "batch_prefix",
  "batch_suffix",
  "record_prefix",
  "record_suffix",
  "record_delimiter",
  "field_delimiter",
] as const;

const OUTPUT_OPTION_NAMES: readonly (keyof OutputOptions)[] = [
  "field_names",
  "output_type",
  "timestamp_format",
  "sample_rate",
  "CVE-2021-44228",
  ...STRING_OUTPUT_OPTIONS,
  "record_template",
  "merge_subrequests",
];

/** The datasets whose jobs may merge subrequests into their parent request's record. */
const MERGE_SUBREQUESTS_DATASETS = ["http_requests"];

/** The JSON type names of a value, for messages. */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return String(value);
}

/** What `checkJobBody` needs to know beside the body: where the job lives, and whether it is created or updated. */
export interface JobBodyContext {
  mode: "create" | "update";
  /** The job's dataset: the body's on create, the job's own on update. */
  dataset: string;
  /** The catalog field names are checked against; none skips those checks. */
  catalog: Catalog | undefined;
  /** Where the job lives, to refuse a dataset of another scope; none skips the check. */
  scope?: ScopeKind;
}

/** What `checkJobBody` finds: every problem of a job body at once. */
export interface JobBodyCheck {
  problems: Problem[];
  notices: string[];
}

/** What `checkJobBody` reads of its context. */
const isBodyContext = (value: unknown): value is JobBodyContext =>
  isObject(value) &&
  (value["mode"] === "create" || value["mode"] === "update") &&
  isString(value["dataset"]) &&
  (value["catalog"] === undefined || isCatalog(value["catalog"])) &&
  isScopeKind(value["scope"]);

/**
 * Checks a job body, field by field, with the service's rules: types, enumerations, ranges, the
 * datasets an option applies to, what only creation sets, and the field names against the catalog.
 * Every problem is listed (nothing stops at the first).
 */
export function checkJobBody(body: Readonly<Record<string, unknown>>, context: JobBodyContext): JobBodyCheck {
  expectArgument(body, isObject, "checkJobBody", "body", "a job body (an object)");
  expectArgument(
    context,
    isBodyContext,
    "checkJobBody",
    "context",
    '{mode: "create" | "update", dataset, catalog?, scope?}',
  );
  const problems: Problem[] = [];
  const notices: string[] = [];
  const invalid = (option: string, value: unknown, accepted: string) =>
    problems.push(problem("InvalidJobOption", option, { option, value: describe(value), accepted }));
  const tooLong = (option: string, length: number, limit: number) =>
    problems.push(
      problem("InvalidJobOption", option, {
        option,
        value: `${length} characters`,
        accepted: `at most ${limit} characters`,
      }),
    );

  for (const [key, value] of Object.entries(body)) {
    const option = JOB_OPTIONS.find((entry) => entry.key === key);
    if (option === undefined) {
      problems.push(unknownOption(key, JOB_BODY_FIELDS));
      continue;
    }
    if (context.mode === "update" && option.createOnly) {
      problems.push(problem("JobOptionCreateOnly", key, { option: key }));
      continue;
    }
    switch (key) {
      case "logpull_options":
        if (value !== null && typeof value !== "string") invalid(key, value, "a string or null");
        else if (typeof value === "string" && value.length > MAX_LOGPULL_OPTIONS_LENGTH)
          tooLong(key, value.length, MAX_LOGPULL_OPTIONS_LENGTH);
        else if (typeof value === "string") problems.push(...checkLogpullOptions(value, context.catalog));
        if (typeof value === "string" && isObject(body["output_options"]))
          notices.push("the service ignores logpull_options when output_options is present");
        break;
      case "dataset":
        checkDataset(value, context, problems);
        break;
      case "destination_conf":
        if (typeof value !== "string" || value === "")
          invalid(key, value, "a destination URL such as s3://bucket/logs?region=us-west-2");
        else if (value.length > MAX_DESTINATION_LENGTH) tooLong(key, value.length, MAX_DESTINATION_LENGTH);
        else {
          const checked = checkDestination(value, key);
          problems.push(...checked.problems);
          notices.push(...checked.notices);
        }
        break;
      case "output_options":
        checkOutputOptions(value, context, problems, notices);
        break;
      default:
        checkOption(option, value, body, context.dataset, problems, notices);
    }
  }
  return { problems, notices };
}

/** Checks a field with the rule of its table entry: its value, the datasets it is for, what it excludes. */
function checkOption(
  option: JobOption,
  value: unknown,
  body: Readonly<Record<string, unknown>>,
  dataset: string,
  problems: Problem[],
  notices: string[],
): void {
  const { key } = option;
  const accepted = refusal(option.value, value);
  // A value refused for its length is named by it, not echoed.
  const { maxLength } = option.value as { maxLength?: number };
  const shown =
    typeof value === "string" && maxLength !== undefined && value.length > maxLength
      ? `${value.length} characters`
      : describe(value);
  if (accepted !== undefined)
    problems.push(problem("InvalidJobOption", key, { option: key, value: shown, accepted }));
  else if (option.datasets && !isOff(value) && !option.datasets.includes(dataset))
    problems.push(notForDataset(key, dataset, option.datasets));
  if (accepted === undefined && value !== null && option.notice) notices.push(option.notice);
  const { conflict } = option;
  if (conflict && body[conflict.option] === conflict.value && value !== null && value !== 0)
    problems.push(
      problem("JobOptionConflict", key, { option: key, other: conflict.option, reason: conflict.reason }),
    );
}

/** What a value breaking `rule` should be, for the message; undefined when it keeps the rule. */
function refusal(rule: JobOptionValue, value: unknown): string | undefined {
  switch (rule.type) {
    case "string":
      if (rule.nullable && value === null) return undefined;
      if (typeof value !== "string") return rule.accepted;
      if (rule.maxLength !== undefined && value.length > rule.maxLength)
        return `at most ${rule.maxLength} characters`;
      return rule.pattern === undefined || rule.pattern.test(value) ? undefined : rule.accepted;
    case "token":
      return typeof value === "string" && value !== "" ? undefined : rule.accepted;
    case "boolean":
      return typeof value === "boolean" ? undefined : "true or false";
    case "enum":
      return (rule.nullable && value === null) || rule.values.includes(value as string)
        ? undefined
        : rule.accepted;
    case "limit": {
      const { min, max, unit } = rule;
      const ok =
        value === null ||
        (typeof value === "number" &&
          Number.isInteger(value) &&
          (value === 0 || (value >= min && value <= max)));
      return ok ? undefined : `0 or ${grouped(min)}–${grouped(max)} (${unit})`;
    }
    case "own":
      return undefined;
  }
}

/** A field's value that turns it off, which every dataset takes. */
const isOff = (value: unknown) => value === false || value === "" || value === 0 || value === null;

/** 5000000 as 5,000,000. */
const grouped = (count: number) => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

function notForDataset(option: string, dataset: string, datasets: readonly string[]): Problem {
  return problem("JobOptionNotForDataset", option, { option, dataset, datasets: datasets.join(", ") });
}

function unknownOption(key: string, known: readonly string[]): Problem {
  const closest = closestMatch(key, known);
  const hint = closest ? ` (did you mean ${closest}?)` : "";
  return problem("UnknownJobOption", key, { option: key, known: `${known.join(", ")}${hint}` });
}

function checkDataset(value: unknown, context: JobBodyContext, problems: Problem[]): void {
  if (typeof value !== "string") {
    problems.push(
      problem("InvalidJobOption", "dataset", {
        option: "dataset",
        value: describe(value),
        accepted: "a dataset name",
      }),
    );
    return;
  }
  const scopes = datasetScopes(value);
  if (!scopes) {
    // A dataset filterc does not ship is still sent when the caller brings its catalog.
    if (!context.catalog)
      problems.push(problem("UnknownJobDataset", "dataset", { dataset: value, known: knownDatasets(value) }));
    return;
  }
  if (context.scope !== undefined && !scopes.includes(context.scope))
    problems.push(wrongScope(value, context.scope));
}

/** The problem of a dataset used in a scope it does not exist in; undefined when it does (or is unknown). */
export function datasetScopeProblem(dataset: string, scope: ScopeKind): Problem | undefined {
  expectArgument(dataset, isString, "datasetScopeProblem", "dataset", "a dataset name (a string)");
  expectArgument(
    scope,
    (value): value is ScopeKind => value !== undefined && isScopeKind(value),
    "datasetScopeProblem",
    "scope",
    '"zone" or "account"',
  );
  const scopes = datasetScopes(dataset);
  return scopes && !scopes.includes(scope) ? wrongScope(dataset, scope) : undefined;
}

function wrongScope(dataset: string, scope: ScopeKind): Problem {
  const scopes = datasetScopes(dataset) ?? [];
  const other = scopes[0] === "zone" ? "--zone ID" : "--account ID";
  return problem("DatasetNotInScope", "dataset", {
    dataset,
    scope,
    scopes: scopes.join(" and "),
    flag: other,
  });
}

function checkOutputOptions(
  value: unknown,
  context: JobBodyContext,
  problems: Problem[],
  notices: string[],
): void {
  if (value === null) return;
  const at = (name: string) => `output_options.${name}`;
  const invalid = (name: string, given: unknown, accepted: string) =>
    problems.push(
      problem("InvalidJobOption", at(name), { option: at(name), value: describe(given), accepted }),
    );
  if (typeof value !== "object" || Array.isArray(value)) {
    invalid("", value, "an object or null");
    return;
  }
  const options = value as Record<string, unknown>;
  for (const [name, given] of Object.entries(options)) {
    if (!(OUTPUT_OPTION_NAMES as readonly string[]).includes(name)) {
      const closest = closestMatch(name, OUTPUT_OPTION_NAMES);
      const hint = closest ? ` (did you mean ${closest}?)` : "";
      problems.push(
        problem("UnknownJobOption", at(name), {
          option: at(name),
          known: `${OUTPUT_OPTION_NAMES.join(", ")}${hint}`,
        }),
      );
      continue;
    }
    switch (name as keyof OutputOptions) {
      case "field_names":
        if (!Array.isArray(given) || !given.every((item) => typeof item === "string"))
          invalid(name, given, "an array of field names");
        else problems.push(...checkFieldNames(given, context.catalog, at(name)));
        break;
      case "output_type":
        if (!(OUTPUT_TYPES as readonly unknown[]).includes(given))
          invalid(name, given, OUTPUT_TYPES.join(" or "));
        break;
      case "timestamp_format":
        if (!(TIMESTAMP_FORMATS as readonly unknown[]).includes(given))
          invalid(name, given, `one of ${TIMESTAMP_FORMATS.join(", ")}`);
        break;
      case "sample_rate":
        if (given !== null && !(typeof given === "number" && given > 0 && given <= 1))
          invalid(name, given, "a number in (0, 1]: the share of records pushed, e.g. 0.1");
        break;
      case "CVE-2021-44228":
        if (given !== null && typeof given !== "boolean") invalid(name, given, "true, false or null");
        break;
      case "merge_subrequests":
        if (given !== null && typeof given !== "boolean") invalid(name, given, "true, false or null");
        else if (given === true && !MERGE_SUBREQUESTS_DATASETS.includes(context.dataset))
          problems.push(notForDataset(at(name), context.dataset, MERGE_SUBREQUESTS_DATASETS));
        break;
      case "record_template":
        if (given !== null && typeof given !== "string") invalid(name, given, "a string or null");
        else if (typeof given === "string") {
          const checked = checkRecordTemplate(given, context.catalog);
          problems.push(
            ...checked.problems.map((reason) => problem("InvalidRecordTemplate", at(name), { reason })),
          );
          const selected = Array.isArray(options["field_names"]) ? (options["field_names"] as unknown[]) : [];
          const unselected = checked.fields.filter((field) => !selected.includes(field));
          if (unselected.length > 0)
            notices.push(
              `${at(name)}: ${unselected.join(", ")} ${unselected.length === 1 ? "is" : "are"} not in field_names and will render as null`,
            );
        }
        break;
      default:
        if (given !== null && typeof given !== "string") invalid(name, given, "a string or null");
    }
  }
}

/** The field names of a job, checked against the catalog: at least one, each known, none twice. */
export function checkFieldNames(
  fields: readonly string[],
  catalog: Catalog | undefined,
  path: string,
): Problem[] {
  if (fields.length === 0) return [problem("NoJobFields", path, {})];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const at = `${path}[${index}]`;
    if (catalog && !catalog.fields.has(field)) {
      const meant = closestMatch(field, catalog.fields.keys());
      problems.push(
        problem("UnknownJobField", at, { field, dataset: catalog.dataset, ...(meant ? { meant } : {}) }),
      );
    } else if (seen.has(field)) {
      problems.push(problem("DuplicateJobField", at, { field }));
    }
    seen.add(field);
  });
  return problems;
}

/** A `logpull_options` string read into its keys, values decoded, with what is wrong with its form. */
interface LogpullOptions {
  /** Each key the string gives, with its decoded value. */
  values: Map<LogpullOptionKey, string>;
  problems: Problem[];
}

/**
 * Reads a `logpull_options` string: `key=value` parts joined by `&`, values percent-encoded, each of
 * the keys of `LOGPULL_OPTION_KEYS` at most once. A whole Logpull URL, an unknown key, a part
 * without `=` or a key given twice is a problem at `logpull_options.KEY`.
 */
function readLogpullOptions(text: string): LogpullOptions {
  const values = new Map<LogpullOptionKey, string>();
  const problems: Problem[] = [];
  const invalid = (reason: string, key?: string) =>
    problems.push(
      problem("InvalidLogpullOptions", key === undefined ? "logpull_options" : `logpull_options.${key}`, {
        reason,
      }),
    );
  if (/^[a-z][a-z0-9+.-]*:\/\/|^[^=&]*\?/i.test(text)) {
    invalid(`${JSON.stringify(text)} is a whole Logpull URL; keep only what follows its "?"`);
    return { values, problems };
  }
  const keys = Object.keys(LOGPULL_OPTION_KEYS);
  for (const part of text.split("&")) {
    if (part === "") continue;
    const at = part.indexOf("=");
    if (at === -1) {
      invalid(`${JSON.stringify(part)} has no "=" (each part is key=value)`);
      continue;
    }
    const key = decoded(part.slice(0, at));
    const value = decoded(part.slice(at + 1));
    if (key === undefined || value === undefined) {
      invalid(`${JSON.stringify(part)} holds a "%" that starts no percent-encoded byte`, key);
      continue;
    }
    if (!keys.includes(key)) {
      const closest = closestMatch(key, keys);
      problems.push(
        problem("UnknownJobOption", `logpull_options.${key}`, {
          option: `logpull_options.${key}`,
          known: `${keys.join(", ")}${closest ? ` (did you mean ${closest}?)` : ""}`,
        }),
      );
      continue;
    }
    if (values.has(key as LogpullOptionKey)) {
      invalid(`the key ${key} is given twice`, key);
      continue;
    }
    values.set(key as LogpullOptionKey, value);
  }
  return { values, problems };
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/** A `fields=` value as its field names. */
function fieldList(value: string | undefined): string[] {
  return value === undefined || value === "" ? [] : value.split(",");
}

/**
 * Checks a `logpull_options` string as the service reads it: its form, the fields against the
 * catalog (at least one; the Logpull API's default set may change at any time), the timestamp
 * format of the older form, the sample in (0, 1] and the CVE-2021-44228 redaction as true or false.
 */
function checkLogpullOptions(text: string, catalog: Catalog | undefined): Problem[] {
  const { values, problems } = readLogpullOptions(text);
  // A string none of which could be read gets its form's problems only, not "no fields" as well.
  if (values.size === 0 && problems.length > 0) return problems;
  const at = (key: LogpullOptionKey) => `logpull_options.${key}`;
  const invalid = (key: LogpullOptionKey, accepted: string) =>
    problems.push(
      problem("InvalidJobOption", at(key), { option: at(key), value: describe(values.get(key)), accepted }),
    );
  problems.push(...checkFieldNames(fieldList(values.get("fields")), catalog, at("fields")));
  const timestamps = values.get("timestamps");
  if (timestamps !== undefined && !(LOGPULL_TIMESTAMP_FORMATS as readonly string[]).includes(timestamps))
    problems.push(
      problem("InvalidTimestamps", at("timestamps"), {
        value: timestamps,
        known: `${LOGPULL_TIMESTAMP_FORMATS.join(", ")} (rfc3339ms and rfc3339ns exist in output_options only)`,
      }),
    );
  const sample = values.get("sample");
  if (sample !== undefined && !(Number(sample) > 0 && Number(sample) <= 1 && /^[\d.]+$/.test(sample)))
    invalid("sample", "a number in (0, 1]: the share of records pushed, e.g. 0.1");
  const redaction = values.get("CVE-2021-44228");
  if (redaction !== undefined && redaction !== "true" && redaction !== "false")
    invalid("CVE-2021-44228", "true or false");
  return problems;
}

/**
 * The output options a `logpull_options` string stands for (its form already checked): what the
 * service writes for such a job, and what converting it to `output_options` sends. A string without
 * `timestamps=` writes unixnano, the Logpull API's default, and says so.
 */
export function logpullAsOutputOptions(text: string): OutputOptions {
  expectArgument(text, isString, "logpullAsOutputOptions", "text", "logpull_options (a string)");
  const { values } = readLogpullOptions(text);
  const options: OutputOptions = {
    field_names: fieldList(values.get("fields")),
    timestamp_format: (values.get("timestamps") ?? "unixnano") as TimestampFormat,
  };
  const sample = values.get("sample");
  if (sample !== undefined) options.sample_rate = Number(sample);
  const redaction = values.get("CVE-2021-44228");
  if (redaction !== undefined) options["CVE-2021-44228"] = redaction === "true";
  return options;
}

/**
 * A `logpull_options` string with the output options given written into it, each at its key: a
 * key it has is replaced where it stands, a new one is added at the end, `null` removes it, and
 * everything else is kept as written. `missing` names the options the older form has no key for.
 */
export function withLogpullOptions(
  text: string,
  options: Readonly<OutputOptions>,
): { text: string; missing: (keyof OutputOptions)[] } {
  const keyOf = new Map(
    Object.entries(LOGPULL_OPTION_KEYS).map(([key, option]) => [option as keyof OutputOptions, key]),
  );
  const parts = text.split("&").filter((part) => part !== "");
  const missing: (keyof OutputOptions)[] = [];
  for (const [option, value] of Object.entries(options) as [keyof OutputOptions, unknown][]) {
    const key = keyOf.get(option);
    if (key === undefined) {
      missing.push(option);
      continue;
    }
    const index = parts.findIndex((part) => decoded(part.split("=")[0]!) === key);
    const written =
      value === null || value === undefined
        ? undefined
        : `${key}=${Array.isArray(value) ? value.join(",") : String(value)}`;
    if (written === undefined) {
      if (index !== -1) parts.splice(index, 1);
    } else if (index === -1) parts.push(written);
    else parts[index] = written;
  }
  return { text: parts.join("&"), missing };
}
