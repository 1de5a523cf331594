import { isJobId, JOB_OPTIONS, type LogpushJob, maskDestination } from "../api/index.js";
import { DEFAULT_DATASET } from "../catalog/index.js";
import type { Meaning } from "../check/index.js";
import type { Diagnostic } from "../diagnostics/index.js";
import type { EmitOptions } from "../emit/index.js";
import { loadFilter } from "../load/index.js";
import { jobLabel } from "./job-listing.js";
import { CLI_OPTION_LABELS } from "./option-labels.js";
import { oneLine, shortened } from "./served-text.js";

/**
 * A live job as `jobs pull` writes it and `jobs diff` compares it, every value it takes from the
 * service checked first: what a server sends becomes a file's name, its content and a comparison.
 */
export interface LiveJob {
  /** Digits, without leading zeros: part of a file name. */
  id: string;
  name: string | null;
  /** A dataset's name (lower-case letters, digits, underscores): written into the file's header. */
  dataset: string;
  /** The filter as the service stores it (Logpush filter JSON); null for none. */
  filter: string | null;
  /** Each of PULLED_SETTINGS as the job holds it (null where it holds none), the destination masked. */
  settings: Readonly<Record<string, unknown>>;
}

/**
 * The settings of a job that a pulled file holds and `jobs diff` compares exactly: every option of
 * the table the service keeps on a job, but the dataset (the header's) and the filter (compared by
 * meaning). A new job option is one of them as soon as the table has it.
 */
export const PULLED_SETTINGS: readonly string[] = JOB_OPTIONS.filter(
  (option) => option.stored !== undefined && option.key !== "dataset" && option.key !== "filter",
).map((option) => option.key);

/**
 * A setting as a file holds it: the job's value, null where the job has none, the destination with
 * its credentials masked (a file kept in a repository holds no secret).
 */
function pulledSetting(job: LogpushJob, key: string): unknown {
  const value = job[key] ?? null;
  return key === "destination_conf" && typeof value === "string" ? maskDestination(value) : value;
}

/** A job of the listing that cannot be written or compared, and why, in words. */
interface RefusedJob {
  /** The job's id and name, fit to show. */
  label: string;
  /** The id as the service gave it (for `--json`). */
  id: unknown;
  reason: string;
}

/** What a dataset's name looks like; anything else would be written raw into a file's header. */
const DATASET_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** A value a server sent, shown short, on one line. */
const shown = (value: unknown) => oneLine(shortened(JSON.stringify(value) ?? String(value), 60));

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `the ${typeof value === "number" ? "number" : "value"} ${shown(value)}`;
}

/**
 * Each job of a listing checked, in the listing's order: the job, or why it is refused. A job is
 * refused when its id is not a job ID or is the id of another job of the listing too (which one is
 * live cannot be told, and one file would overwrite the other), when its filter is not a string, or
 * when its dataset is not a dataset's name.
 */
export function checkLiveJobs(jobs: readonly LogpushJob[]): Array<{ job: LiveJob } | RefusedJob> {
  const ids = jobs.map((job) => (typeof job.id === "number" ? String(job.id) : job.id));
  const times = new Map<unknown, number>();
  for (const id of ids) times.set(id, (times.get(id) ?? 0) + 1);
  return jobs.map((job, index) => {
    const id = ids[index];
    const name = typeof job.name === "string" && job.name !== "" ? job.name : null;
    const refuse = (reason: string): RefusedJob => ({
      label: typeof id === "string" && isJobId(id) ? jobLabel({ id, name }) : `with the id ${shown(job.id)}`,
      id: job.id,
      reason,
    });
    if (typeof id !== "string" || !isJobId(id))
      return refuse("its id is not a job ID (a positive whole number)");
    const count = times.get(id)!;
    if (count > 1)
      return refuse(`the service lists ${count} jobs with this id: which one is live cannot be told`);
    const filter = job.filter ?? null;
    if (filter !== null && typeof filter !== "string")
      return refuse(`its filter is ${kindOf(filter)}, not Logpush filter JSON in a string`);
    const dataset = job.dataset ?? DEFAULT_DATASET;
    if (typeof dataset !== "string" || !DATASET_NAME.test(dataset))
      return refuse(`its dataset ${shown(dataset)} is not the name of a dataset`);
    const settings = Object.fromEntries(PULLED_SETTINGS.map((key) => [key, pulledSetting(job, key)]));
    return { job: { id, name, dataset, filter, settings } };
  });
}

/**
 * A live job's filter, read as the service stores it: Logpush filter JSON in a string, decompiled
 * with the job's own dataset (a dataset the text itself names is not taken), and held to the
 * Logpush limits, which also bound the work of comparing it. Errors are among the diagnostics.
 */
export function readLiveFilter(
  job: LiveJob,
  limits: Pick<EmitOptions, "maxOperators" | "maxBytes"> = {},
): {
  source: string | null;
  meaning: Meaning | null;
  diagnostics: Diagnostic[];
} {
  const { source, meaning, diagnostics } = loadFilter(job.filter, {
    form: "json",
    dataset: job.dataset,
    ...limits,
    optionLabels: CLI_OPTION_LABELS,
  });
  return { source, meaning, diagnostics };
}
