import type { LogpushJob } from "../api/index.js";
import { oneLine, shortened } from "./served-text.js";

/** The most characters of a job's name shown in a line about it (`--json` gives it whole). */
const MAX_SHOWN_NAME_LENGTH = 200;

/** A job's id and name: `1 "errors"`. */
export function jobLabel(job: Pick<LogpushJob, "id" | "name">): string {
  const name =
    typeof job.name === "string" && job.name !== ""
      ? ` ${oneLine(JSON.stringify(shortened(job.name, MAX_SHOWN_NAME_LENGTH)))}`
      : "";
  return `${oneLine(String(job.id))}${name}`;
}

/**
 * A job on one line: id, name, dataset → destination, and whether it is disabled. The job comes
 * masked (LogpushClient.masked) unless its secrets are to be shown.
 */
export function describeJob(job: LogpushJob): string {
  const dataset = typeof job.dataset === "string" ? oneLine(job.dataset) : "?";
  const destination = typeof job.destination_conf === "string" ? oneLine(job.destination_conf) : "?";
  return `${jobLabel(job)}: ${dataset} → ${destination}${job.enabled === false ? " (disabled)" : ""}`;
}

/** Jobs one a line, as `jobs list` prints them. */
export function describeJobs(jobs: readonly LogpushJob[]): string {
  if (jobs.length === 0) return "no jobs\n";
  return `${jobs.map(describeJob).join("\n")}\n`;
}
