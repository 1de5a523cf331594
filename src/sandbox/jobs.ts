import { checkJobBody, JOB_OPTIONS, needsOwnershipChallenge, type ResolvedScope } from "../api/index.js";
import { DEFAULT_DATASET } from "../catalog/index.js";
import type { Reply, RequestContext } from "./context.js";
import { datasetCatalog } from "./datasets.js";
import { parseDestination } from "./destination.js";
import { ErrorCode, invalidJob, SandboxError } from "./errors.js";
import { checkJobFilter } from "./filter.js";
import { editable, type Job, type ZoneState } from "./model.js";

function findJob(zone: ZoneState, idText: string): Job {
  const id = Number(idText);
  const job = zone.jobs.find((j) => j.id === id);
  if (!job) throw new SandboxError(404, ErrorCode.jobNotFound, `job ${idText} not found`);
  return job;
}

function expect(ok: boolean, message: string): void {
  if (!ok) throw invalidJob(message);
}

/**
 * Checks a body with the same model the client checks it with before sending (types, ranges,
 * enumerations, the datasets an option applies to, the scope a dataset lives in, field names
 * against the catalog): the first problem is the answer, with the member it is about.
 */
function checkBody(
  body: Record<string, unknown>,
  dataset: string,
  scope: ResolvedScope,
  creating: boolean,
): void {
  const { problems } = checkJobBody(body, {
    mode: creating ? "create" : "update",
    dataset,
    catalog: datasetCatalog(dataset),
    scope: scope.kind,
  });
  const first = problems[0];
  if (first)
    throw new SandboxError(
      400,
      ErrorCode.invalidJob,
      first.message,
      `/${first.path.replace(/\[(\d+)\]/g, ".$1").replaceAll(".", "/")}`,
    );
}

/**
 * Applies a create or update body to `job` (a fresh default job on create), checking each member
 * the body carries. A new or changed destination of a kind that needs an ownership challenge (the
 * client's rule: S3 without keys in the URL) needs the token issued for it.
 */
function applyBody(
  context: RequestContext,
  zone: ZoneState,
  job: Job,
  given: Record<string, unknown>,
  creating: boolean,
): void {
  const body = { ...given };
  // The job's own dataset sent back on an update changes nothing (clients send the job they read).
  if (!creating && body["dataset"] === job.dataset) delete body["dataset"];
  if (creating) {
    const dataset = body["dataset"] ?? DEFAULT_DATASET;
    datasetCatalog(dataset, context.scope);
    job.dataset = dataset as string;
  }
  checkBody(body, job.dataset, context.scope, creating);

  const destination = body["destination_conf"];
  if (creating) expect(destination !== undefined, "destination_conf is required");
  if (destination !== undefined && destination !== job.destination_conf) {
    const parsed = parseDestination(destination as string);
    const challenge = body["ownership_challenge"];
    if (needsOwnershipChallenge(destination as string)) {
      if (typeof challenge !== "string")
        throw new SandboxError(
          400,
          ErrorCode.ownershipChallenge,
          `ownership_challenge is required for this destination; request one with POST /${context.scope.kind}s/{${context.scope.kind}_id}/logpush/ownership`,
        );
      if (zone.challenges[parsed.key] !== challenge)
        throw new SandboxError(
          400,
          ErrorCode.ownershipChallenge,
          "ownership_challenge is not valid for this destination",
        );
    }
    job.destination_conf = destination as string;
  }
  if (body["filter"] !== undefined) {
    checkJobFilter(body["filter"], job.dataset);
    job.filter = (body["filter"] as string | null) ?? "";
  }
  // Every other member is stored as given: the checks passed, and a PUT replaces output_options whole.
  for (const key of storedAsGiven)
    if (body[key] !== undefined) (job as unknown as Record<string, unknown>)[key] = body[key];
}

/** The body members kept as they come once checked: the table's stored fields but those handled above. */
const storedAsGiven = JOB_OPTIONS.filter(
  ({ key, stored }) => stored !== undefined && !["dataset", "destination_conf", "filter"].includes(key),
).map(({ key }) => key);

/** A job before its first body: each stored field of the table at its initial value. */
function newJob(id: number, dataset: string): Job {
  const initial = JOB_OPTIONS.flatMap(({ key, stored }) =>
    stored?.initial === undefined ? [] : [[key, stored.initial] as const],
  );
  return {
    id,
    dataset,
    ...Object.fromEntries(initial),
    error_message: null,
    last_complete: null,
    last_error: null,
  } as Job;
}

export async function listJobs(context: RequestContext): Promise<Reply> {
  return { status: 200, result: context.store.zone(context.stateKey).jobs };
}

export async function listDatasetJobs(context: RequestContext): Promise<Reply> {
  const dataset = context.params["dataset"]!;
  datasetCatalog(dataset, context.scope);
  return {
    status: 200,
    result: context.store.zone(context.stateKey).jobs.filter((j) => j.dataset === dataset),
  };
}

export async function createJob(context: RequestContext): Promise<Reply> {
  const job = await context.store.update(context.stateKey, (zone) => {
    const job = newJob(0, DEFAULT_DATASET);
    applyBody(context, zone, job, context.body, true);
    job.id = context.store.nextJobId(zone);
    zone.jobs.push(job);
    return job;
  });
  return { status: 200, result: job };
}

export async function getJob(context: RequestContext): Promise<Reply> {
  return { status: 200, result: findJob(context.store.zone(context.stateKey), context.params["job"]!) };
}

export async function updateJob(context: RequestContext): Promise<Reply> {
  const job = await context.store.update(context.stateKey, (zone) => {
    const job = editable(zone.jobs, findJob(zone, context.params["job"]!));
    applyBody(context, zone, job, context.body, false);
    return job;
  });
  return { status: 200, result: job };
}

export async function deleteJob(context: RequestContext): Promise<Reply> {
  const id = await context.store.update(context.stateKey, (zone) => {
    const job = findJob(zone, context.params["job"]!);
    zone.jobs = zone.jobs.filter((j) => j !== job);
    return job.id;
  });
  return { status: 200, result: { id } };
}

export async function datasetFields(context: RequestContext): Promise<Reply> {
  const catalog = datasetCatalog(context.params["dataset"], context.scope);
  const fields: Record<string, string> = {};
  for (const field of catalog.fields.values()) fields[field.name] = field.description;
  return { status: 200, result: fields };
}
