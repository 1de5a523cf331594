import { checkJobBody, JOB_OPTIONS, type StoredJobField } from "../api/index.js";
import { datasetCatalog } from "./datasets.js";
import { parseDestination } from "./destination.js";
import { SandboxError } from "./errors.js";
import { checkJobFilter } from "./filter.js";
import type { ZoneState } from "./model.js";

/** A state file the sandbox cannot use: it stops rather than overwrite or delete what it cannot read. */
export class StateFileError extends Error {
  constructor(path: string, problem: string) {
    super(
      `state file ${path}: ${problem}; the sandbox leaves it untouched and does not start (repair it, or move it out of the data directory)`,
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

type Check = [key: string, test: (value: unknown) => boolean, expected: string];

const string: Check[1] = (value) => typeof value === "string";
const nullableString: Check[1] = (value) => value === null || typeof value === "string";
const nullableCount: Check[1] = (value) =>
  value === null || (Number.isInteger(value) && (value as number) >= 0);

const rulesetChecks: Check[] = [
  ["id", string, "a string"],
  ["name", string, "a string"],
  ["kind", string, "a string"],
  ["phase", string, "a string"],
  ["version", string, "a string"],
  ["rules", Array.isArray, "an array"],
];
const ruleChecks: Check[] = [
  ["id", string, "a string"],
  ["version", string, "a string"],
  ["action", string, "a string"],
  ["expression", string, "a string"],
  ["enabled", (value) => typeof value === "boolean", "a boolean"],
];
const storedTests: Record<StoredJobField["type"], [Check[1], string]> = {
  string: [string, "a string"],
  "string-or-null": [nullableString, "a string or null"],
  boolean: [(value) => typeof value === "boolean", "a boolean"],
  "count-or-null": [nullableCount, "a whole number or null"],
  "object-or-null": [(value) => value === null || isObject(value), "an object or null"],
};
/** A saved job's members: its id, and each field the table of job options has the sandbox keep. */
const jobChecks: Check[] = [
  ["id", (value) => Number.isInteger(value) && (value as number) > 0, "a whole number above 0"],
  ...JOB_OPTIONS.flatMap(({ key, stored }): Check[] => {
    if (!stored) return [];
    const [test, expected] = storedTests[stored.type];
    return [[key, stored.optional ? (value) => value === undefined || test(value) : test, expected]];
  }),
];

/** A found value in a message: primitives as JSON (cut to 40 characters), containers by kind. */
function found(value: unknown): string {
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  if (isObject(value)) return "an object";
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}

function checkMembers(value: unknown, at: string, checks: readonly Check[]): string | undefined {
  if (!isObject(value)) return `${at || "the file"} is ${found(value)}, not an object`;
  for (const [key, test, expected] of checks)
    if (!test(value[key])) return `${at ? `${at}.` : ""}${key} is ${found(value[key])}, not ${expected}`;
  return undefined;
}

/**
 * What the push would refuse in a saved job's settings (its dataset, destination, filter, output
 * options and logpull options, checked as a write checks them), in the sandbox's own wording; undefined
 * when it can be pushed. Such a job is served as it is and fails alone at each push (its
 * error_message says why) until it is changed.
 */
export function jobSettingsProblem(job: ZoneState["jobs"][number]): string | undefined {
  try {
    const catalog = datasetCatalog(job.dataset);
    parseDestination(job.destination_conf);
    checkJobFilter(job.filter, job.dataset);
    const settings = { output_options: job.output_options, logpull_options: job.logpull_options };
    const problem = checkJobBody(settings, { mode: "update", dataset: job.dataset, catalog }).problems[0];
    return problem && `${problem.path}: ${problem.message}`;
  } catch (error) {
    if (error instanceof SandboxError) return error.message;
    throw error;
  }
}

/** The problem with a saved ruleset (a ruleset file, or one of a zone file's), or undefined. */
export function rulesetProblem(ruleset: unknown, at: string): string | undefined {
  const problem = checkMembers(ruleset, at, rulesetChecks);
  if (problem !== undefined) return problem;
  for (const [index, rule] of (ruleset as { rules: unknown[] }).rules.entries()) {
    const ruleProblem = checkMembers(rule, `${at ? `${at}.` : ""}rules[${index}]`, ruleChecks);
    if (ruleProblem !== undefined) return ruleProblem;
  }
  return undefined;
}

/** The problem with a saved job (a job file, or one of a zone file's), or undefined. */
export function jobProblem(job: unknown, at: string): string | undefined {
  return checkMembers(job, at, jobChecks);
}

const lastJobIdCheck: Check = [
  "lastJobId",
  (v) => Number.isInteger(v) && (v as number) >= 0,
  "a whole number",
];
const challengesOf = (v: unknown) =>
  isObject(v) && Object.values(v).every((token) => typeof token === "string");

const explorerChecks: Check[] = [
  ["dataset_id", string, "a string"],
  ["dataset", string, "a string"],
  ["enabled", (value) => typeof value === "boolean", "a boolean"],
  ["deletion_protection", (value) => typeof value === "boolean", "a boolean"],
  ["fields", Array.isArray, "an array"],
  ["filter", (value) => value === undefined || typeof value === "string", "a string"],
];

/**
 * The problem with a zone's Log Explorer datasets (`explorer.json`), or undefined: a list of
 * datasets, each with the members the handlers and the ingest read, its filter one the ingest can
 * apply (as a write checks it).
 */
export function explorerProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `the file is ${found(value)}, not an array`;
  for (const [index, dataset] of value.entries()) {
    const problem = checkMembers(dataset, `[${index}]`, explorerChecks);
    if (problem !== undefined) return problem;
    const { dataset: type, filter } = dataset as { dataset: string; filter?: string };
    try {
      datasetCatalog(type);
      checkJobFilter(filter, type);
    } catch (error) {
      if (error instanceof SandboxError) return `[${index}]: ${error.message}`;
      throw error;
    }
  }
  return undefined;
}

/** The problem with a zone's own file (`zone.json`: the highest job id it gave), or undefined. */
export function zoneFileProblem(value: unknown): string | undefined {
  return checkMembers(value, "", [lastJobIdCheck]);
}

/** The problem with a zone's challenges file (destination → token), or undefined. */
export function challengesProblem(value: unknown): string | undefined {
  return challengesOf(value) ? undefined : `the file is ${found(value)}, not an object of strings`;
}

/**
 * The problem with a zone file of the earlier layout (the whole zone in one file), or undefined
 * when it is a zone state the sandbox can serve: every member a handler or the push relies on,
 * with its type. (What a job's settings mean is `jobSettingsProblem`'s: one job the push cannot
 * apply does not stop the sandbox.)
 */
export function zoneStateProblem(value: unknown): string | undefined {
  const top = checkMembers(value, "", [
    ["rulesets", Array.isArray, "an array"],
    ["jobs", Array.isArray, "an array"],
    lastJobIdCheck,
    ["challenges", challengesOf, "an object of strings"],
  ]);
  if (top !== undefined) return top;
  const zone = value as unknown as ZoneState;
  for (const [index, ruleset] of zone.rulesets.entries()) {
    const problem = rulesetProblem(ruleset, `rulesets[${index}]`);
    if (problem !== undefined) return problem;
  }
  const ids = new Set<number>();
  for (const [index, job] of zone.jobs.entries()) {
    const problem = jobProblem(job, `jobs[${index}]`);
    if (problem !== undefined) return problem;
    if (ids.has(job.id)) return `jobs[${index}].id ${job.id} is used twice`;
    ids.add(job.id);
  }
  return undefined;
}
