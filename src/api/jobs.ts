import { type Catalog, DEFAULT_DATASET, getCatalog, type Scope } from "../catalog/index.js";
import { type CompileOptions, type CompileResult, compile } from "../compile.js";
import { decompile } from "../decompile/index.js";
import { type Diagnostic, expectArgument, isObject, isString } from "../diagnostics/index.js";
import { emit } from "../emit/index.js";
import { isJob, isJobSettings, isScope, isStrings, JOB_SETTINGS } from "./argument-shapes.js";
import { type Problem, ValidationError } from "./errors.js";
import {
  checkJobBody,
  DEFAULT_TIMESTAMPS,
  LOGPULL_TIMESTAMP_FORMATS,
  type OutputOptions,
  parseLogpullOptions,
} from "./job-options.js";
import { problem } from "./problems.js";

/**
 * A job's filter: source in the filterc language, or Logpush filter JSON (an object, the string a job
 * stores, or a job record) read back with the decompiler; `null` is no filter (removes it on update).
 */
export type JobFilter = { source: string } | { json: unknown } | null;

/**
 * What a job is built from. For create, `destination` and the fields are required; for update, every
 * setting is optional and only the named ones change.
 */
export interface JobSettings {
  name?: string | null;
  /** `destination_conf`, e.g. `s3://bucket/logs?region=us-west-2`. */
  destination?: string;
  /** Default `http_requests`. Set on create only (the service does not change a job's dataset). */
  dataset?: string;
  /** The fields each record carries (`output_options.field_names`), checked against the dataset's catalog. */
  fields?: string[];
  /** `output_options.timestamp_format` (filterc gives a new job rfc3339). */
  timestamps?: string;
  /** Output options by the service's names; on update they are merged over the job's own. */
  outputOptions?: OutputOptions;
  maxUploadBytes?: number | null;
  maxUploadRecords?: number | null;
  maxUploadIntervalSeconds?: number | null;
  /** `"edge"` for Edge Log Delivery (http_requests only, set on create only). */
  kind?: "" | "edge";
  /** Deprecated by the service in favour of the `max_upload_*` settings. */
  frequency?: "high" | "low" | null;
  /** Leave out traffic identified as DDoS attacks (http_requests, firewall_events, network_analytics_logs). */
  filterAttackTraffic?: boolean;
  /** The token from the destination's ownership challenge file. */
  ownershipChallenge?: string;
  /** Default true on create; on update sent only when given. */
  enabled?: boolean;
  /** Compiled with the dataset's catalog before anything is sent. Undefined leaves an updated job's filter as it is. */
  filter?: JobFilter;
  /** Limits and optimizer for compiling the filter, and a catalog for a dataset filterc does not ship. */
  compileOptions?: Omit<CompileOptions, "dataset">;
}

/** The job fields that carry a zone's custom log fields. */
export const CUSTOM_FIELD_COLUMNS = ["RequestHeaders", "ResponseHeaders", "Cookies"] as const;

/** A Logpush job as the API returns it (the fields filterc reads; the rest is kept as given). */
export interface LogpushJob {
  /** A number, or a string of digits when the id is beyond 2^53 (kept exact). */
  id: number | string;
  name?: string | null;
  dataset?: string | null;
  destination_conf?: string;
  enabled?: boolean;
  logpull_options?: string | null;
  output_options?: OutputOptions | null;
  filter?: string | null;
  [key: string]: unknown;
}

/** One value an update changes: `path` is the body's name (`output_options.sample_rate`). */
export interface JobChange {
  path: string;
  /** Undefined when the job did not have it. */
  before: unknown;
  /** Undefined when the update removes it. */
  after: unknown;
}

export interface JobBody {
  body: Record<string, unknown>;
  notices: string[];
  /** The filter's diagnostics (warnings only: errors throw), with ranges in `filterSource`. */
  diagnostics: Diagnostic[];
  filterSource: string | undefined;
}

export interface JobUpdate extends JobBody {
  /** What the update changes, in body order; empty when the job already is as asked. */
  changes: JobChange[];
}

/** The settings that live in `output_options` (or, for a job of the older form, in `logpull_options`). */
function namesOutput(settings: JobSettings): boolean {
  return (
    settings.fields !== undefined || settings.timestamps !== undefined || settings.outputOptions !== undefined
  );
}

/** The top-level fields that map one to one from settings. */
function topLevel(settings: JobSettings): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (settings.name !== undefined) body["name"] = settings.name;
  if (settings.destination !== undefined) body["destination_conf"] = settings.destination;
  if (settings.enabled !== undefined) body["enabled"] = settings.enabled;
  if (settings.frequency !== undefined) body["frequency"] = settings.frequency;
  if (settings.maxUploadBytes !== undefined) body["max_upload_bytes"] = settings.maxUploadBytes;
  if (settings.maxUploadRecords !== undefined) body["max_upload_records"] = settings.maxUploadRecords;
  if (settings.maxUploadIntervalSeconds !== undefined)
    body["max_upload_interval_seconds"] = settings.maxUploadIntervalSeconds;
  if (settings.filterAttackTraffic !== undefined)
    body["filter_attack_traffic"] = settings.filterAttackTraffic;
  return body;
}

/** The output options the settings name, over `base`: the whole object, then fields and timestamps. */
function mergedOutputOptions(base: OutputOptions, settings: JobSettings): OutputOptions {
  const merged: OutputOptions = { ...base, ...settings.outputOptions };
  if (settings.fields !== undefined) merged.field_names = settings.fields;
  if (settings.timestamps !== undefined)
    merged.timestamp_format = settings.timestamps as OutputOptions["timestamp_format"];
  return merged;
}

/**
 * Builds the body of a create call, checking every setting first. A new job takes `output_options`
 * (the service's current form; `logpull_options` is deprecated). Throws a ValidationError listing all
 * problems (and the filter's diagnostics) when anything would be refused.
 */
export function buildCreateBody(settings: JobSettings, operation: string, scope?: Scope): JobBody {
  expectArgument(settings, isJobSettings, "buildCreateBody", "settings", JOB_SETTINGS);
  expectArgument(operation, isString, "buildCreateBody", "operation", "what is being done (a string)");
  expectArgument(scope, isScope, "buildCreateBody", "scope", '"zone" or "account"');
  const dataset = settings.dataset ?? DEFAULT_DATASET;
  const { name, ...rest } = topLevel(settings);
  const body: Record<string, unknown> = name === undefined ? {} : { name };
  Object.assign(body, { dataset, destination_conf: "", enabled: true }, rest);
  if (settings.kind !== undefined) body["kind"] = settings.kind;
  const output = mergedOutputOptions({}, settings);
  body["output_options"] = {
    field_names: output.field_names ?? [],
    timestamp_format: output.timestamp_format ?? DEFAULT_TIMESTAMPS,
    ...output,
  };
  const built = finish(body, settings, { mode: "create", dataset, scope, operation });
  if (settings.ownershipChallenge !== undefined)
    built.body["ownership_challenge"] = settings.ownershipChallenge;
  return built;
}

/**
 * Builds the update of `job`: only what the settings name changes. `output_options` is sent whole
 * (a PUT replaces it), the job's own options with the named ones over them. A job of the older
 * `logpull_options` form keeps it while the change fits it (fields, rfc3339/unix/unixnano timestamps);
 * a setting only `output_options` has moves the job to that form, with its fields and timestamps, and
 * `logpull_options: null`, so the service is never sent both forms (it would ignore `logpull_options`).
 */
export function buildUpdate(
  job: LogpushJob,
  settings: JobSettings,
  operation: string,
  scope?: Scope,
): JobUpdate {
  expectArgument(job, isJob, "buildUpdate", "job", "a job as the API returns it (an object)");
  expectArgument(settings, isJobSettings, "buildUpdate", "settings", JOB_SETTINGS);
  expectArgument(operation, isString, "buildUpdate", "operation", "what is being done (a string)");
  expectArgument(scope, isScope, "buildUpdate", "scope", '"zone" or "account"');
  const dataset = job.dataset ?? DEFAULT_DATASET;
  const problems: Problem[] = [];
  if (settings.dataset !== undefined && settings.dataset !== dataset)
    problems.push(problem("JobOptionCreateOnly", "dataset", { option: "dataset" }));
  if (settings.kind !== undefined && settings.kind !== (job["kind"] ?? ""))
    problems.push(problem("JobOptionCreateOnly", "kind", { option: "kind" }));
  if (problems.length > 0) throw new ValidationError(operation, problems);

  const body = topLevel(settings);
  const notices: string[] = [];
  if (namesOutput(settings)) {
    const current = job.output_options;
    const logpull =
      typeof job.logpull_options === "string" && job.logpull_options !== "" ? job.logpull_options : null;
    if (current || logpull === null) {
      body["output_options"] = mergedOutputOptions(current ?? {}, settings);
      if (logpull !== null)
        notices.push(
          "the job has both output_options and logpull_options; the service applies output_options",
        );
    } else {
      const fitsLogpull =
        settings.outputOptions === undefined &&
        (settings.timestamps === undefined ||
          (LOGPULL_TIMESTAMP_FORMATS as readonly string[]).includes(settings.timestamps));
      if (fitsLogpull) body["logpull_options"] = updatedLogpullOptions(logpull, settings);
      else {
        const { fields, timestamps } = parseLogpullOptions(logpull);
        const base: OutputOptions = { field_names: fields };
        if (timestamps !== undefined) base.timestamp_format = timestamps as OutputOptions["timestamp_format"];
        body["output_options"] = mergedOutputOptions(base, settings);
        body["logpull_options"] = null;
        notices.push(
          "the job used logpull_options (deprecated); the change needs output_options, so the job moves to output_options with its fields and timestamps",
        );
      }
    }
  }
  const built = finish(body, settings, { mode: "update", dataset, scope, operation });
  const changes = diffJob(job, built.body);
  return { ...built, notices: [...notices, ...built.notices], changes };
}

/** The `logpull_options` string with the named fields and timestamps replaced, other parameters kept. */
function updatedLogpullOptions(current: string, settings: JobSettings): string {
  const parts = current.split("&").filter((part) => part !== "");
  const set = (name: string, value: string) => {
    const index = parts.findIndex((part) => part.startsWith(`${name}=`));
    if (index === -1) parts.push(`${name}=${value}`);
    else parts[index] = `${name}=${value}`;
  };
  if (settings.fields !== undefined) set("fields", settings.fields.join(","));
  if (settings.timestamps !== undefined) set("timestamps", settings.timestamps);
  return parts.join("&");
}

/** What `body` changes on `job`, field by field (inside `output_options` too). */
export function diffJob(job: LogpushJob, body: Record<string, unknown>): JobChange[] {
  expectArgument(job, isJob, "diffJob", "job", "a job as the API returns it (an object)");
  expectArgument(body, isObject, "diffJob", "body", "a job body (an object)");
  const changes: JobChange[] = [];
  for (const [key, after] of Object.entries(body)) {
    if (key === "ownership_challenge") continue;
    const before = key === "filter" ? (job.filter ?? "") : job[key];
    if (key === "output_options" && after !== null && typeof after === "object") {
      const old = (before ?? {}) as Record<string, unknown>;
      const next = after as Record<string, unknown>;
      for (const name of new Set([...Object.keys(old), ...Object.keys(next)]))
        if (!sameValue(old[name], next[name]))
          changes.push({ path: `${key}.${name}`, before: old[name], after: next[name] });
      continue;
    }
    if (!sameValue(before, after)) changes.push({ path: key, before, after });
  }
  return changes;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface FinishContext {
  mode: "create" | "update";
  dataset: string;
  scope: Scope | undefined;
  operation: string;
}

/** Compiles the filter into the body and checks the whole body with the service's rules. */
function finish(body: Record<string, unknown>, settings: JobSettings, context: FinishContext): JobBody {
  const catalog = settings.compileOptions?.catalog ?? getCatalog(context.dataset);
  const checked = checkJobBody(body, {
    mode: context.mode,
    dataset: context.dataset,
    catalog,
    ...(context.scope ? { scope: context.scope } : {}),
  });
  const problems = [...checked.problems];
  let diagnostics: Diagnostic[] = [];
  let filterSource: string | undefined;
  if (settings.filter !== undefined && catalog) {
    const filter = compileJobFilter(settings.filter, catalog, settings, problems, context.operation);
    diagnostics = filter.diagnostics;
    filterSource = filter.source;
    // Removing a filter is said explicitly: an update without `filter` would keep the old one.
    if (filter.json !== null) body["filter"] = filter.json;
    else if (context.mode === "update") body["filter"] = "";
  }
  if (problems.length > 0) throw new ValidationError(context.operation, problems);
  return { body, notices: checked.notices, diagnostics, filterSource };
}

function compileJobFilter(
  filter: JobFilter,
  catalog: Catalog,
  settings: JobSettings,
  problems: Problem[],
  operation: string,
): { json: string | null; source: string | undefined; diagnostics: Diagnostic[] } {
  if (filter === null) return { json: null, source: undefined, diagnostics: [] };
  const refuse = (diagnostics: Diagnostic[], source: string): never => {
    const errors = diagnostics.filter((d) => d.severity === "error");
    problems.push(problem("InvalidFilter", "filter", { errors: errors.length }));
    throw new ValidationError(operation, problems, diagnostics, source);
  };
  if ("json" in filter) {
    // The decompiler's condition is what the JSON means: emitted as it is, never printed and read again.
    const text = jsonText(filter.json);
    const read = decompile(filter.json, { catalog });
    if (!read.ok) return refuse(read.diagnostics, text);
    if (read.condition === null) return { json: null, source: text, diagnostics: read.diagnostics };
    const { optimize, maxOperators, maxBytes } = settings.compileOptions ?? {};
    const emitted = emit(read.condition, {
      ...(optimize !== undefined ? { optimize } : {}),
      ...(maxOperators !== undefined ? { maxOperators } : {}),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
    });
    const diagnostics = [...read.diagnostics, ...emitted.diagnostics];
    if (emitted.filter === null) return refuse(diagnostics, text);
    return { json: emitted.filter, source: text, diagnostics };
  }
  const compiled = compileFilter(filter.source, catalog, settings);
  if (!compiled.ok) return refuse(compiled.diagnostics, filter.source);
  return { json: compiled.filter, source: filter.source, diagnostics: compiled.diagnostics };
}

/** The text decompiler ranges refer to: a string as given, an object as two-space-indented JSON. */
function jsonText(json: unknown): string {
  return typeof json === "string" ? json : JSON.stringify(json, null, 2);
}

function compileFilter(source: string, catalog: Catalog, settings: JobSettings): CompileResult {
  return compile(source, { ...settings.compileOptions, catalog, dataset: catalog.dataset });
}

/** Whether a field selection includes any column that carries custom fields. */
export function selectsCustomFields(fields: readonly string[]): boolean {
  expectArgument(fields, isStrings, "selectsCustomFields", "fields", "field names (an array of strings)");
  return CUSTOM_FIELD_COLUMNS.some((column) => fields.includes(column));
}

/** The fields a job selects, read back from its `output_options` or `logpull_options`. */
export function jobFields(job: LogpushJob): string[] {
  expectArgument(job, isJob, "jobFields", "job", "a job as the API returns it (an object)");
  const names = job.output_options?.field_names;
  if (Array.isArray(names)) return names.filter((n): n is string => typeof n === "string");
  return parseLogpullOptions(job.logpull_options ?? "").fields;
}
