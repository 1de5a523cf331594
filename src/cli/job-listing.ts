import { type LogpushJob, maskDestination } from "../api/index.js";
import { terminalText } from "../diagnostics/index.js";

/** One line of text from a value a server sent: hidden characters, newlines and tabs shown as code points. */
function oneLine(text: string): string {
  return terminalText(text).replace(/[\n\t]/g, (c) => (c === "\n" ? "<U+000A>" : "<U+0009>"));
}

/** A job's id and name: `1 "errors"`. */
export function jobLabel(job: Pick<LogpushJob, "id" | "name">): string {
  const name = typeof job.name === "string" && job.name !== "" ? ` ${oneLine(JSON.stringify(job.name))}` : "";
  return `${oneLine(String(job.id))}${name}`;
}

/** A job on one line: id, name, dataset → destination (secrets masked), and whether it is disabled. */
export function describeJob(job: LogpushJob): string {
  const dataset = typeof job.dataset === "string" ? oneLine(job.dataset) : "?";
  const destination =
    typeof job.destination_conf === "string" ? oneLine(maskDestination(job.destination_conf)) : "?";
  return `${jobLabel(job)}: ${dataset} → ${destination}${job.enabled === false ? " (disabled)" : ""}`;
}

/** Jobs one a line, as `jobs list` prints them. */
export function describeJobs(jobs: readonly LogpushJob[]): string {
  if (jobs.length === 0) return "no jobs\n";
  return `${jobs.map(describeJob).join("\n")}\n`;
}
