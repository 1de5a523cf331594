import { type Catalog, DEFAULT_DATASET, getCatalog, type ScopeKind } from "../catalog/index.js";
import { type CompileOptions, type CompileResult, compile } from "../compile.js";
import { type Diagnostic, expectArgument, isString } from "../diagnostics/index.js";
import { loadFilter } from "../load/index.js";
import { A_RESOLVED_SCOPE, isJob, isJobSettings, isResolvedScope, JOB_SETTINGS } from "./argument-shapes.js";
import { checkDestination, maskDestination, needsOwnershipChallenge } from "./destination.js";
import { type Problem, ValidationError } from "./errors.js";
import type { ResolvedScope } from "./ids.js";
import { JOB_OPTIONS } from "./job-option-table.js";
import {
  checkJobBody,
  DEFAULT_TIMESTAMPS,
  logpullAsOutputOptions,
  MAX_DESTINATION_LENGTH,
  type OutputOptions,
  withLogpullOptions,
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
  /**
   * The older form of the output options, sent exactly as given instead of `output_options`:
   * `fields=ClientIP,RayID&timestamps=rfc3339` (keys fields, timestamps, sample, CVE-2021-44228).
   * On update it replaces the string of a job of that form.
   */
  logpullOptions?: string;
  /**
   * Update only: moves a `logpull_options` job to `output_options` (its fields, timestamps, sample
   * and redaction, with the output settings named here over them). Without it an update keeps the
   * job's form.
   */
  toOutputOptions?: boolean;
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
  /**
   * Limits and optimizer for compiling the filter, a catalog for a dataset filterc does not ship,
   * and the levels of its warnings (`diagnostics`: one made an error refuses the job).
   */
  compileOptions?: Omit<CompileOptions, "dataset">;
}

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

interface JobBody {
  body: Record<string, unknown>;
  notices: string[];
  /** The filter's diagnostics (warnings only: errors throw), with ranges in `filterSource`. */
  diagnostics: Diagnostic[];
  filterSource: string | undefined;
}

interface JobUpdate extends JobBody {
  /** What the update changes, in body order; empty when the job already is as asked. */
  changes: JobChange[];
}

/** The settings that live in `output_options` (or, for a job of the older form, in `logpull_options`). */
function namesOutput(settings: JobSettings): boolean {
  return (
    settings.fields !== undefined || settings.timestamps !== undefined || settings.outputOptions !== undefined
  );
}

/** The table's fields that map one to one from a setting: those any write sets, or the create-only ones. */
function mapped(settings: JobSettings, createOnly: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const given = settings as Readonly<Record<string, unknown>>;
  for (const option of JOB_OPTIONS)
    if (
      option.setting !== undefined &&
      given[option.setting] !== undefined &&
      !option.createOnly === !createOnly
    )
      body[option.key] = given[option.setting];
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
 * (the service's current form), or `logpull_options` exactly as given (the older form, which the
 * service ignores beside `output_options`, so the two are not mixed). A destination that needs an
 * ownership challenge is refused without one. Throws a ValidationError listing all problems (and
 * the filter's diagnostics) when anything would be refused.
 */
export function buildCreateBody(settings: JobSettings, operation: string, where?: ResolvedScope): JobBody {
  expectArgument(settings, isJobSettings, "buildCreateBody", "settings", JOB_SETTINGS);
  expectArgument(operation, isString, "buildCreateBody", "operation", "what is being done (a string)");
  expectArgument(where, isResolvedScope, "buildCreateBody", "where", A_RESOLVED_SCOPE);
  const dataset = settings.dataset ?? DEFAULT_DATASET;
  const { name, ...rest } = mapped(settings, false);
  const body: Record<string, unknown> = name === undefined ? {} : { name };
  Object.assign(body, { dataset, destination_conf: "", enabled: true }, rest, mapped(settings, true));
  const problems: Problem[] = [];
  if (settings.logpullOptions !== undefined) {
    body["logpull_options"] = settings.logpullOptions;
    if (namesOutput(settings)) problems.push(bothForms("give the fields and timestamps in one form"));
  } else {
    const output = mergedOutputOptions({}, settings);
    body["output_options"] = {
      field_names: output.field_names ?? [],
      timestamp_format: output.timestamp_format ?? DEFAULT_TIMESTAMPS,
      ...output,
    };
  }
  problems.push(...ownershipProblems(settings.destination, settings.ownershipChallenge, where));
  return finish(body, settings, { mode: "create", dataset, scope: where?.kind, operation }, problems);
}

/**
 * Builds the update of `job`: only what the settings name changes, and the job keeps its form.
 * `output_options` is sent whole (a PUT replaces it), the job's own options with the named ones over
 * them. A job of the older `logpull_options` form gets its string back with the named fields,
 * timestamps, sample and redaction written at their keys; an option that form lacks is refused
 * until the job is converted (`toOutputOptions`). A new destination that needs an ownership
 * challenge is refused without one.
 */
export function buildUpdate(
  job: LogpushJob,
  settings: JobSettings,
  operation: string,
  where?: ResolvedScope,
): JobUpdate {
  expectArgument(job, isJob, "buildUpdate", "job", "a job as the API returns it (an object)");
  expectArgument(settings, isJobSettings, "buildUpdate", "settings", JOB_SETTINGS);
  expectArgument(operation, isString, "buildUpdate", "operation", "what is being done (a string)");
  expectArgument(where, isResolvedScope, "buildUpdate", "where", A_RESOLVED_SCOPE);
  const dataset = job.dataset ?? DEFAULT_DATASET;
  const problems: Problem[] = [];
  if (settings.dataset !== undefined && settings.dataset !== dataset)
    problems.push(problem("JobOptionCreateOnly", "dataset", { option: "dataset" }));
  if (settings.kind !== undefined && settings.kind !== (job["kind"] ?? ""))
    problems.push(problem("JobOptionCreateOnly", "kind", { option: "kind" }));
  if (problems.length > 0) throw new ValidationError(operation, problems);

  const body = mapped(settings, false);
  const notices: string[] = [];
  problems.push(...updatedForm(job, settings, body, notices));
  if (settings.destination !== undefined && settings.destination !== job.destination_conf)
    problems.push(...ownershipProblems(settings.destination, settings.ownershipChallenge, where));
  const built = finish(body, settings, { mode: "update", dataset, scope: where?.kind, operation }, problems);
  const changes = diffJob(job, built.body);
  return { ...built, notices: [...notices, ...built.notices], changes };
}

/**
 * Puts the output settings of an update into `body` in the job's form: `output_options` merged,
 * the `logpull_options` string rewritten or replaced, or, asked for, the job moved from the one to
 * the other. The problems of settings the job's form cannot take.
 */
function updatedForm(
  job: LogpushJob,
  settings: JobSettings,
  body: Record<string, unknown>,
  notices: string[],
): Problem[] {
  const logpull =
    typeof job.logpull_options === "string" && job.logpull_options !== "" ? job.logpull_options : null;
  const current = job.output_options ?? null;
  const usesLogpull = logpull !== null && current === null;
  if (settings.logpullOptions !== undefined) {
    if (settings.toOutputOptions) return [bothForms("convert the job, or give its new logpull_options")];
    if (namesOutput(settings)) return [bothForms("give the fields and timestamps in one form")];
    if (current !== null) return [bothForms("the job has output_options, so change those instead")];
    body["logpull_options"] = settings.logpullOptions;
    return [];
  }
  if (settings.toOutputOptions && usesLogpull) {
    body["output_options"] = mergedOutputOptions(logpullAsOutputOptions(logpull), settings);
    body["logpull_options"] = null;
    notices.push(
      "the job moves from logpull_options to output_options, with its fields, timestamps, sample and redaction",
    );
    return [];
  }
  if (settings.toOutputOptions) notices.push("the job already uses output_options: nothing to convert");
  if (!namesOutput(settings)) return [];
  if (!usesLogpull) {
    body["output_options"] = mergedOutputOptions(current ?? {}, settings);
    if (logpull !== null)
      notices.push("the job has both output_options and logpull_options; the service applies output_options");
    return [];
  }
  const named: OutputOptions = { ...settings.outputOptions };
  if (settings.fields !== undefined) named.field_names = settings.fields;
  if (settings.timestamps !== undefined)
    named.timestamp_format = settings.timestamps as OutputOptions["timestamp_format"];
  const rewritten = withLogpullOptions(logpull, named);
  if (rewritten.missing.length > 0)
    return rewritten.missing.map((option) =>
      problem("NeedsOutputOptions", `output_options.${option}`, { option: `output_options.${option}` }),
    );
  body["logpull_options"] = rewritten.text;
  return [];
}

/** Settings of both forms at once, which the service would not apply together. */
function bothForms(remedy: string): Problem {
  return problem("JobOptionConflict", "logpull_options", {
    option: "logpull_options",
    other: "output_options",
    reason: `the service ignores logpull_options when output_options is present; ${remedy}`,
  });
}

/**
 * A valid destination that needs an ownership challenge (S3 without keys, Cloud Storage, Azure,
 * Sumo Logic), given without its token: refused before sending, with the command that asks for one.
 */
function ownershipProblems(
  destination: string | undefined,
  challenge: string | undefined,
  where: ResolvedScope | undefined,
): Problem[] {
  if (destination === undefined || (challenge !== undefined && challenge !== "")) return [];
  // A destination refused on its own (E0610, E0618) gets no second problem.
  if (destination.length > MAX_DESTINATION_LENGTH || checkDestination(destination).problems.length > 0)
    return [];
  if (!needsOwnershipChallenge(destination)) return [];
  const shown = maskDestination(destination);
  const scope = where === undefined ? "--zone ID" : `--${where.kind} ${where.id}`;
  return [
    problem("OwnershipChallengeRequired", "ownership_challenge", {
      destination: shown,
      command: `filterc jobs ownership ${scope} --destination '${shown.replaceAll("'", "'\\''")}'`,
    }),
  ];
}

/** What `body` changes on `job`, field by field (inside `output_options` too). */
function diffJob(job: LogpushJob, body: Record<string, unknown>): JobChange[] {
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
  scope: ScopeKind | undefined;
  operation: string;
}

/**
 * Compiles the filter into the body, adds the ownership challenge and checks the whole body with the
 * service's rules; throws with every problem (the body's, then `problems`, then the filter's).
 */
function finish(
  body: Record<string, unknown>,
  settings: JobSettings,
  context: FinishContext,
  problems: readonly Problem[],
): JobBody {
  const catalog = settings.compileOptions?.catalog ?? getCatalog(context.dataset);
  const filter =
    settings.filter !== undefined && catalog
      ? compileJobFilter(settings.filter, catalog, context.dataset, settings)
      : undefined;
  if (filter?.ok) {
    // Removing a filter is said explicitly: an update without `filter` would keep the old one.
    if (filter.json !== null) body["filter"] = filter.json;
    else if (context.mode === "update") body["filter"] = "";
  }
  if (settings.ownershipChallenge !== undefined) body["ownership_challenge"] = settings.ownershipChallenge;
  const checked = checkJobBody(body, {
    mode: context.mode,
    dataset: context.dataset,
    catalog,
    ...(context.scope ? { scope: context.scope } : {}),
  });
  const found = [...checked.problems, ...problems];
  if (filter && !filter.ok) {
    const errors = filter.diagnostics.filter((d) => d.severity === "error").length;
    found.push(problem("InvalidFilter", "filter", { errors }));
    throw new ValidationError(context.operation, found, filter.diagnostics, filter.source);
  }
  if (found.length > 0) throw new ValidationError(context.operation, found);
  return {
    body,
    notices: checked.notices,
    diagnostics: filter?.diagnostics ?? [],
    filterSource: filter?.source,
  };
}

/** A job's filter compiled with the dataset's catalog: its JSON (null: no filter), or the diagnostics that refuse it. */
export type CompiledJobFilter = { source: string | undefined; diagnostics: Diagnostic[] } & (
  | { ok: true; json: string | null }
  | { ok: false }
);

/**
 * A filter given as source or JSON, compiled with a dataset's catalog and the limits of
 * `settings.compileOptions`: the one compile every filter the client sends goes through (a job's,
 * a Log Explorer dataset's, an Instant Logs session's).
 */
export function compileJobFilter(
  filter: JobFilter,
  catalog: Catalog,
  dataset: string,
  settings: Pick<JobSettings, "compileOptions">,
): CompiledJobFilter {
  if (filter === null) return { ok: true, json: null, source: undefined, diagnostics: [] };
  if ("json" in filter) {
    // The JSON's meaning is emitted as it is, never printed and read again.
    const source = jsonText(filter.json);
    const { optimize, maxOperators, maxBytes, diagnostics } = settings.compileOptions ?? {};
    const loaded = loadFilter(filter.json, {
      form: "json",
      catalog,
      ...(diagnostics !== undefined ? { diagnostics } : {}),
      ...(optimize !== undefined ? { optimize } : {}),
      ...(maxOperators !== undefined ? { maxOperators } : {}),
      ...(maxBytes !== undefined ? { maxBytes } : {}),
    });
    if (!loaded.ok) return { ok: false, source, diagnostics: loaded.diagnostics };
    return { ok: true, json: loaded.filter, source, diagnostics: loaded.diagnostics };
  }
  const compiled = compileFilter(filter.source, catalog, dataset, settings);
  if (!compiled.ok) return { ok: false, source: filter.source, diagnostics: compiled.diagnostics };
  return { ok: true, json: compiled.filter, source: filter.source, diagnostics: compiled.diagnostics };
}

/** The text decompiler ranges refer to: a string as given, an object as two-space-indented JSON. */
function jsonText(json: unknown): string {
  return typeof json === "string" ? json : JSON.stringify(json, null, 2);
}

/**
 * A source compiled with the job's catalog; the job's dataset is the one its `# dataset:` must name
 * (a catalog of one's own may carry another name).
 */
function compileFilter(
  source: string,
  catalog: Catalog,
  dataset: string,
  settings: Pick<JobSettings, "compileOptions">,
): CompileResult {
  return compile(source, { ...settings.compileOptions, catalog, dataset });
}

/** The fields a job selects, read back from its `output_options` or `logpull_options`. */
export function jobFields(job: LogpushJob): string[] {
  expectArgument(job, isJob, "jobFields", "job", "a job as the API returns it (an object)");
  const names = job.output_options?.field_names;
  if (Array.isArray(names)) return names.filter((n): n is string => typeof n === "string");
  return logpullAsOutputOptions(job.logpull_options ?? "").field_names ?? [];
}
