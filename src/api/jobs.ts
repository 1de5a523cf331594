import { type Catalog, DEFAULT_DATASET, getCatalog, knownDatasets } from "../catalog/index.js";
import { type CompileOptions, type CompileResult, compile } from "../compile.js";
import { decompile } from "../decompile/index.js";
import { closestMatch, type Diagnostic } from "../diagnostics/index.js";
import { checkDestination } from "./destination.js";
import { type Problem, ValidationError } from "./errors.js";
import { problem } from "./problems.js";

/**
 * A job's filter: source in the filterc language, or Logpush filter JSON (an object, the string a job
 * stores, or a job record) read back with the decompiler; `null` is no filter (removes it on update).
 */
export type JobFilter = { source: string } | { json: unknown } | null;

/** What a job is built from. For create, `destination` and `fields` are required; for update, every setting is optional. */
export interface JobSettings {
  name?: string;
  /** `destination_conf`, e.g. `s3://bucket/logs?region=us-west-2`. */
  destination?: string;
  /** Default `http_requests`. Sent on create only (the service does not change a job's dataset). */
  dataset?: string;
  /** Field names of the dataset, checked against its catalog. */
  fields?: string[];
  /** Timestamp format for `logpull_options` (default `rfc3339`). */
  timestamps?: string;
  /** The token from the destination's ownership challenge file. */
  ownershipChallenge?: string;
  /** Default true on create; on update sent only when given. */
  enabled?: boolean;
  /** Compiled with the dataset's catalog before anything is sent. Undefined leaves an updated job's filter as it is. */
  filter?: JobFilter;
  /** Limits and optimizer for compiling the filter, and a catalog for a dataset filterc does not ship. */
  compileOptions?: Omit<CompileOptions, "dataset">;
}

export const TIMESTAMP_FORMATS = ["rfc3339", "unix", "unixnano"] as const;
export const DEFAULT_TIMESTAMPS = "rfc3339";
/** The job fields that carry a zone's custom log fields. */
export const CUSTOM_FIELD_COLUMNS = ["RequestHeaders", "ResponseHeaders", "Cookies"] as const;

/** A Logpush job as the API returns it (the fields filterc reads; the rest is kept as given). */
export interface LogpushJob {
  id: number;
  name?: string | null;
  dataset?: string | null;
  destination_conf?: string;
  enabled?: boolean;
  logpull_options?: string | null;
  filter?: string | null;
  [key: string]: unknown;
}

export interface JobBody {
  body: Record<string, unknown>;
  notices: string[];
  /** The filter's diagnostics (warnings only: errors throw), with ranges in `filterSource`. */
  diagnostics: Diagnostic[];
  filterSource: string | undefined;
}

/**
 * Builds the body of a create or update call, checking every setting first. Throws a ValidationError
 * listing all problems (and the filter's diagnostics) when anything would be refused.
 */
export function buildJobBody(
  settings: JobSettings,
  mode: "create" | "update",
  operation: string,
  dataset: string = settings.dataset ?? DEFAULT_DATASET,
): JobBody {
  const problems: Problem[] = [];
  const notices: string[] = [];
  const body: Record<string, unknown> = {};
  const catalog = settings.compileOptions?.catalog ?? getCatalog(dataset);
  if (!catalog)
    problems.push(problem("UnknownJobDataset", "dataset", { dataset, known: knownDatasets(dataset) }));

  if (settings.name !== undefined) body["name"] = settings.name;
  if (mode === "create") body["dataset"] = dataset;
  if (settings.destination !== undefined || mode === "create") {
    const destination = settings.destination ?? "";
    const checked = checkDestination(destination);
    problems.push(...checked.problems);
    notices.push(...checked.notices);
    body["destination_conf"] = destination;
  }
  const enabled = settings.enabled ?? (mode === "create" ? true : undefined);
  if (enabled !== undefined) body["enabled"] = enabled;

  if (settings.fields !== undefined || settings.timestamps !== undefined || mode === "create") {
    const fields = settings.fields ?? [];
    problems.push(...checkFields(fields, catalog));
    const timestamps = settings.timestamps ?? DEFAULT_TIMESTAMPS;
    if (!(TIMESTAMP_FORMATS as readonly string[]).includes(timestamps)) {
      problems.push(
        problem("InvalidTimestamps", "timestamps", {
          value: timestamps,
          known: TIMESTAMP_FORMATS.join(", "),
        }),
      );
    }
    body["logpull_options"] = `fields=${fields.join(",")}&timestamps=${timestamps}`;
  }

  let diagnostics: Diagnostic[] = [];
  let filterSource: string | undefined;
  if (settings.filter !== undefined && catalog) {
    if (settings.filter !== null && "json" in settings.filter) {
      const read = decompile(settings.filter.json, { catalog });
      if (!read.ok || read.source === null) {
        const errors = read.diagnostics.filter((d) => d.severity === "error");
        problems.push(problem("InvalidFilter", "filter", { errors: errors.length }));
        throw new ValidationError(operation, problems, read.diagnostics, jsonText(settings.filter.json));
      }
      filterSource = read.source;
    } else if (settings.filter !== null) {
      filterSource = settings.filter.source;
    }
    const compiled = filterSource === undefined ? null : compileFilter(filterSource, catalog, settings);
    if (compiled && !compiled.ok) {
      const errors = compiled.diagnostics.filter((d) => d.severity === "error");
      problems.push(problem("InvalidFilter", "filter", { errors: errors.length }));
      throw new ValidationError(operation, problems, compiled.diagnostics, filterSource);
    }
    diagnostics = compiled?.diagnostics ?? [];
    const filter = compiled?.filter ?? null;
    // Removing a filter is said explicitly: an update without `filter` would keep the old one.
    if (filter !== null) body["filter"] = filter;
    else if (mode === "update") body["filter"] = "";
  }
  if (settings.ownershipChallenge !== undefined) body["ownership_challenge"] = settings.ownershipChallenge;
  if (problems.length > 0) throw new ValidationError(operation, problems);
  return { body, notices, diagnostics, filterSource };
}

/** The text decompiler ranges refer to: a string as given, an object as two-space-indented JSON. */
function jsonText(json: unknown): string {
  return typeof json === "string" ? json : JSON.stringify(json, null, 2);
}

function compileFilter(source: string, catalog: Catalog, settings: JobSettings): CompileResult {
  return compile(source, { ...settings.compileOptions, catalog, dataset: catalog.dataset });
}

function checkFields(fields: readonly string[], catalog: Catalog | undefined): Problem[] {
  if (fields.length === 0) return [problem("NoJobFields", "fields", {})];
  if (!catalog) return [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    const path = `fields[${index}]`;
    if (!catalog.fields.has(field)) {
      const meant = closestMatch(field, catalog.fields.keys());
      problems.push(problem("UnknownJobField", path, { field, dataset: catalog.dataset, meant }));
    } else if (seen.has(field)) {
      problems.push(problem("DuplicateJobField", path, { field }));
    }
    seen.add(field);
  });
  return problems;
}

/** Whether a field selection includes any column that carries custom fields. */
export function selectsCustomFields(fields: readonly string[]): boolean {
  return CUSTOM_FIELD_COLUMNS.some((column) => fields.includes(column));
}

/** The fields a job selects, read back from its `logpull_options` or `output_options`. */
export function jobFields(job: LogpushJob): string[] {
  const names = (job["output_options"] as { field_names?: unknown } | null | undefined)?.field_names;
  if (Array.isArray(names)) return names.filter((n): n is string => typeof n === "string");
  const fields = new URLSearchParams(job.logpull_options ?? "").get("fields");
  return fields ? fields.split(",") : [];
}
