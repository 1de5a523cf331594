import { randomBytes } from "node:crypto";
import { join, relative } from "node:path";
import { makeFolders, writeFileAtomically } from "../files/index.js";
import type { Reply, RequestContext } from "./context.js";
import { destinationFolder, parseDestination } from "./destination.js";
import { invalidJob, SandboxError } from "./errors.js";

/** YYYYMMDD in UTC: what `{DATE}` in a destination path stands for. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10).replaceAll("-", "");
}

function destinationOf(body: Record<string, unknown>) {
  const destination = body["destination_conf"];
  if (typeof destination !== "string" || destination === "") throw invalidJob("destination_conf is required");
  return parseDestination(destination);
}

/**
 * Like the service, writes a file holding a challenge token to the destination; the token must
 * come back as the job's `ownership_challenge`. The file's path is relative to the data directory.
 */
export async function createChallenge(context: RequestContext): Promise<Reply> {
  const destination = destinationOf(context.body);
  const token = randomBytes(32).toString("hex");
  const folder = destinationFolder(context.dataDir, destination, utcDate(new Date()));
  const file = join(folder, `ownership-challenge-${randomBytes(4).toString("hex")}.txt`);
  await makeFolders(folder);
  await writeFileAtomically(file, token, {
    expected: "absent",
    temporaryFolder: context.store.temporaryFolder,
  });
  await context.store.update(context.stateKey, (zone) => {
    // The newest last: the oldest are dropped first past the zone's limit.
    delete zone.challenges[destination.key];
    zone.challenges[destination.key] = token;
  });
  return {
    status: 200,
    result: { filename: relative(context.dataDir, file).split("\\").join("/"), message: "", valid: true },
  };
}

export async function validateChallenge(context: RequestContext): Promise<Reply> {
  const destination = destinationOf(context.body);
  const token = context.body["ownership_challenge"];
  const valid =
    typeof token === "string" && context.store.zone(context.stateKey).challenges[destination.key] === token;
  return { status: 200, result: { valid } };
}

/** The service's destination check: `{valid, message}`; the sandbox delivers to s3:// folders only. */
export async function validateDestination(context: RequestContext): Promise<Reply> {
  try {
    destinationOf(context.body);
    return { status: 200, result: { valid: true, message: "" } };
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return { status: 200, result: { valid: false, message: error.message } };
  }
}

/** The bucket and path a saved job pushes to; none when its stored destination no longer reads (that job fails alone). */
function pushedTo(destination: string): string | undefined {
  try {
    return parseDestination(destination).key;
  } catch {
    return undefined;
  }
}

/** Whether a job of the scope already pushes to the destination (its bucket and path, whatever the query). */
export async function destinationExists(context: RequestContext): Promise<Reply> {
  const { key } = destinationOf(context.body);
  const jobs = context.store.zone(context.stateKey).jobs;
  const exists = jobs.some((job) => pushedTo(job.destination_conf) === key);
  return { status: 200, result: { exists } };
}
