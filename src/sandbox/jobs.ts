import type { Catalog } from "../catalog/index.js";
import type { Reply, RequestContext } from "./context.js";
import { datasetCatalog } from "./datasets.js";
import { parseDestination } from "./destination.js";
import { ApiError, ErrorCode, invalidJob } from "./errors.js";
import { checkJobFilter } from "./filter.js";
import type { Job, ZoneState } from "./model.js";

const DEFAULT_DATASET = "http_requests";

/** The upload limits: 0 turns one off, otherwise the value lies in the documented range. */
const uploadLimits = {
  max_upload_bytes: [5_000_000, 1_000_000_000],
  max_upload_interval_seconds: [30, 300],
  max_upload_records: [1_000, 1_000_000],
} as const;

const outputOptionStrings = [
  "batch_prefix",
  "batch_suffix",
  "field_delimiter",
  "record_delimiter",
  "record_prefix",
  "record_suffix",
  "record_template",
];
const timestampFormats = ["unixnano", "unix", "rfc3339", "rfc3339ms", "rfc3339ns"];

function findJob(zone: ZoneState, idText: string): Job {
  const id = Number(idText);
  const job = zone.jobs.find((j) => j.id === id);
  if (!job) throw new ApiError(404, ErrorCode.jobNotFound, `job ${idText} not found`);
  return job;
}

function expect(ok: boolean, message: string): void {
  if (!ok) throw invalidJob(message);
}

const isNullableString = (value: unknown) => value === null || typeof value === "string";

function checkFieldNames(names: readonly string[], catalog: Catalog, where: string): void {
  for (const name of names)
    expect(
      catalog.fields.has(name),
      `${where}: ${JSON.stringify(name)} is not a field of ${catalog.dataset}`,
    );
}

function checkOutputOptions(value: unknown, catalog: Catalog): Record<string, unknown> | null {
  if (value === null) return null;
  expect(typeof value === "object" && !Array.isArray(value), "output_options must be an object or null");
  const options = value as Record<string, unknown>;
  const names = options["field_names"];
  if (names !== undefined) {
    expect(
      Array.isArray(names) && names.every((n) => typeof n === "string"),
      "output_options.field_names must be an array of field names",
    );
    checkFieldNames(names as string[], catalog, "output_options.field_names");
  }
  const outputType = options["output_type"];
  expect(
    outputType === undefined || outputType === "ndjson",
    `output_options.output_type ${JSON.stringify(outputType)} is not supported by the sandbox: it writes ndjson`,
  );
  const format = options["timestamp_format"];
  expect(
    format === undefined || timestampFormats.includes(format as string),
    `output_options.timestamp_format must be one of ${timestampFormats.join(", ")}`,
  );
  const rate = options["sample_rate"];
  expect(
    rate === undefined || rate === null || (typeof rate === "number" && rate > 0 && rate <= 1),
    "output_options.sample_rate must be a number in (0, 1]",
  );
  for (const key of outputOptionStrings)
    expect(
      options[key] === undefined || isNullableString(options[key]),
      `output_options.${key} must be a string or null`,
    );
  for (const key of ["CVE-2021-44228", "merge_subrequests"])
    expect(
      options[key] === undefined || options[key] === null || typeof options[key] === "boolean",
      `output_options.${key} must be a boolean or null`,
    );
  return options;
}

/** The deprecated `logpull_options` ("fields=A,B&timestamps=rfc3339"): its field list is checked too. */
function checkLogpullOptions(value: string | null, catalog: Catalog): void {
  const fields = value === null ? null : new URLSearchParams(value).get("fields");
  if (fields) checkFieldNames(fields.split(","), catalog, "logpull_options fields");
}

/**
 * Applies a create or update body to `job` (a fresh default job on create), checking each member
 * the body carries. A new or changed destination needs the ownership challenge issued for it.
 */
function applyBody(zone: ZoneState, job: Job, body: Record<string, unknown>, creating: boolean): void {
  if (creating) {
    const dataset = body["dataset"] ?? DEFAULT_DATASET;
    datasetCatalog(dataset);
    job.dataset = dataset as string;
  } else
    expect(
      body["dataset"] === undefined || body["dataset"] === job.dataset,
      "dataset cannot be changed; create a new job",
    );
  const catalog = datasetCatalog(job.dataset);

  const destination = body["destination_conf"];
  if (creating) expect(destination !== undefined, "destination_conf is required");
  if (destination !== undefined && destination !== job.destination_conf) {
    expect(
      typeof destination === "string" && destination !== "",
      "destination_conf must be a non-empty string",
    );
    const parsed = parseDestination(destination as string);
    const challenge = body["ownership_challenge"];
    if (typeof challenge !== "string" || challenge === "")
      throw new ApiError(
        400,
        ErrorCode.ownershipChallenge,
        "ownership_challenge is required for this destination; request one with POST /zones/{zone_id}/logpush/ownership",
      );
    if (zone.challenges[parsed.key] !== challenge)
      throw new ApiError(
        400,
        ErrorCode.ownershipChallenge,
        "ownership_challenge is not valid for this destination",
      );
    job.destination_conf = destination as string;
  }

  if (body["kind"] !== undefined) {
    expect(body["kind"] === "" || body["kind"] === "edge", 'kind must be "" or "edge"');
    expect(creating || body["kind"] === job.kind, "kind is set only when the job is created");
    expect(
      body["kind"] !== "edge" || job.dataset === "http_requests",
      'kind "edge" is only for http_requests',
    );
    job.kind = body["kind"] as string;
  }
  if (body["enabled"] !== undefined) {
    expect(typeof body["enabled"] === "boolean", "enabled must be a boolean");
    job.enabled = body["enabled"] as boolean;
  }
  if (body["name"] !== undefined) {
    expect(isNullableString(body["name"]), "name must be a string or null");
    job.name = body["name"] as string | null;
  }
  if (body["frequency"] !== undefined) {
    expect(
      [null, "high", "low"].includes(body["frequency"] as string),
      'frequency must be "high", "low" or null',
    );
    job.frequency = body["frequency"] as string | null;
  }
  if (body["logpull_options"] !== undefined) {
    expect(isNullableString(body["logpull_options"]), "logpull_options must be a string or null");
    job.logpull_options = body["logpull_options"] as string | null;
  }
  checkLogpullOptions(job.logpull_options, catalog);
  if (body["output_options"] !== undefined)
    job.output_options = checkOutputOptions(body["output_options"], catalog);
  for (const [key, [min, max]] of Object.entries(uploadLimits)) {
    const value = body[key];
    if (value === undefined) continue;
    expect(
      value === null ||
        value === 0 ||
        (Number.isInteger(value) && (value as number) >= min && (value as number) <= max),
      `${key} must be 0 or a whole number from ${min} to ${max}`,
    );
    job[key as keyof typeof uploadLimits] = value as number | null;
  }
  if (body["filter"] !== undefined) {
    checkJobFilter(body["filter"], job.dataset);
    job.filter = (body["filter"] as string | null) ?? "";
  }
}

function newJob(id: number): Job {
  return {
    id,
    dataset: DEFAULT_DATASET,
    enabled: false,
    name: null,
    kind: "",
    destination_conf: "",
    filter: "",
    logpull_options: null,
    output_options: null,
    frequency: "high",
    max_upload_bytes: null,
    max_upload_interval_seconds: null,
    max_upload_records: null,
    error_message: null,
    last_complete: null,
    last_error: null,
  };
}

export async function listJobs(context: RequestContext): Promise<Reply> {
  return { status: 200, result: context.store.zone(context.zoneId).jobs };
}

export async function listDatasetJobs(context: RequestContext): Promise<Reply> {
  const dataset = context.params["dataset"]!;
  datasetCatalog(dataset);
  return {
    status: 200,
    result: context.store.zone(context.zoneId).jobs.filter((j) => j.dataset === dataset),
  };
}

export async function createJob(context: RequestContext): Promise<Reply> {
  const job = await context.store.update(context.zoneId, (zone) => {
    const job = newJob(0);
    applyBody(zone, job, context.body, true);
    job.id = context.store.nextJobId(zone);
    zone.jobs.push(job);
    return job;
  });
  return { status: 200, result: job };
}

export async function getJob(context: RequestContext): Promise<Reply> {
  return { status: 200, result: findJob(context.store.zone(context.zoneId), context.params["job"]!) };
}

export async function updateJob(context: RequestContext): Promise<Reply> {
  const job = await context.store.update(context.zoneId, (zone) => {
    const job = findJob(zone, context.params["job"]!);
    applyBody(zone, job, context.body, false);
    return job;
  });
  return { status: 200, result: job };
}

export async function deleteJob(context: RequestContext): Promise<Reply> {
  const id = await context.store.update(context.zoneId, (zone) => {
    const job = findJob(zone, context.params["job"]!);
    zone.jobs = zone.jobs.filter((j) => j !== job);
    return job.id;
  });
  return { status: 200, result: { id } };
}

export async function datasetFields(context: RequestContext): Promise<Reply> {
  const catalog = datasetCatalog(context.params["dataset"]);
  const fields: Record<string, string> = {};
  for (const field of catalog.fields.values()) fields[field.name] = field.description;
  return { status: 200, result: fields };
}
