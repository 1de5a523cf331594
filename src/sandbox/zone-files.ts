import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { nestsDeeperThan } from "./http.js";
import type { ExplorerDataset, Job, Ruleset, ZoneState } from "./model.js";
import {
  challengesProblem,
  explorerProblem,
  jobProblem,
  rulesetProblem,
  StateFileError,
  zoneFileProblem,
  zoneStateProblem,
} from "./state-file.js";

/**
 * A zone's state on disk: a folder `zones/<zone id>/` (an account's: `zones/account-<account id>/`)
 * with one file per object, so that a write costs what it changes, not the whole zone:
 * `zone.json` (the highest job id given), `challenges.json` (destination → token), one file per
 * ruleset, `rulesets/<n>.json` (n: the order of creation, the order they are listed in), one
 * per job, `jobs/<id>.json`, and `explorer.json`, the Log Explorer datasets (once there is one). Before this layout a zone was one file, `zones/<zone id>.json`.
 */
export const ZONE_FILE = "zone.json";
export const CHALLENGES_FILE = "challenges.json";
export const EXPLORER_FILE = "explorer.json";
export const RULESETS_FOLDER = "rulesets";
export const JOBS_FOLDER = "jobs";

/** A zone's folder (or, in the earlier layout, its file without `.json`). Other names are not the sandbox's. */
export const ZONE_KEY = /^(?:account-)?[0-9a-f]{32}$/;
const RULESET_FILE = /^([1-9][0-9]{0,15})\.json$/;
const JOB_FILE = /^([1-9][0-9]{0,15})\.json$/;

/** A zone as loaded: its state, and where each ruleset is kept. */
interface LoadedZone {
  state: ZoneState;
  /** Each ruleset's number (its file `rulesets/<n>.json`), by ruleset id. */
  rulesetNumbers: Map<string, number>;
}

/** A state file's JSON, checked for its nesting before it is parsed, with `problem`'s checks. */
async function readStateFile(
  path: string,
  maxDepth: number,
  problem: (value: unknown) => string | undefined,
): Promise<unknown> {
  const entry = await stat(path);
  if (!entry.isFile()) throw new StateFileError(path, "it is not a regular file");
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new StateFileError(path, `it cannot be read (${error.code ?? error.message})`);
  });
  if (nestsDeeperThan(text, maxDepth))
    throw new StateFileError(path, `it nests arrays and objects deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(path, `it is not JSON (${(error as Error).message})`);
  }
  const found = problem(value);
  if (found !== undefined) throw new StateFileError(path, found);
  return value;
}

/** The names of a folder's entries, none when it is not there (a zone that has no job yet). */
async function namesIn(folder: string): Promise<string[]> {
  return readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw new StateFileError(folder, `it cannot be read (${error.code})`);
  });
}

/** Loads a zone's folder; every file is checked, and the first that fails stops the start. */
export async function loadZoneFolder(folder: string, maxDepth: number): Promise<LoadedZone> {
  const zoneFile = join(folder, ZONE_FILE);
  const { lastJobId } = (await namesIn(folder)).includes(ZONE_FILE)
    ? ((await readStateFile(zoneFile, maxDepth, zoneFileProblem)) as { lastJobId: number })
    : { lastJobId: 0 };
  const challengesFile = join(folder, CHALLENGES_FILE);
  const challenges = (await namesIn(folder)).includes(CHALLENGES_FILE)
    ? ((await readStateFile(challengesFile, maxDepth, challengesProblem)) as Record<string, string>)
    : {};
  const explorerFile = join(folder, EXPLORER_FILE);
  const explorer = (await namesIn(folder)).includes(EXPLORER_FILE)
    ? ((await readStateFile(explorerFile, maxDepth, explorerProblem)) as ExplorerDataset[])
    : [];
  const numbered: [number, Ruleset][] = [];
  const rulesetNumbers = new Map<string, number>();
  for (const name of await namesIn(join(folder, RULESETS_FOLDER))) {
    const number = RULESET_FILE.exec(name)?.[1];
    if (number === undefined) continue;
    const path = join(folder, RULESETS_FOLDER, name);
    const ruleset = (await readStateFile(path, maxDepth, (value) => rulesetProblem(value, ""))) as Ruleset;
    if (rulesetNumbers.has(ruleset.id)) throw new StateFileError(path, `ruleset ${ruleset.id} is kept twice`);
    rulesetNumbers.set(ruleset.id, Number(number));
    numbered.push([Number(number), ruleset]);
  }
  const jobs: Job[] = [];
  for (const name of await namesIn(join(folder, JOBS_FOLDER))) {
    const id = JOB_FILE.exec(name)?.[1];
    if (id === undefined) continue;
    const path = join(folder, JOBS_FOLDER, name);
    const job = (await readStateFile(path, maxDepth, (value) => jobProblem(value, ""))) as Job;
    if (job.id !== Number(id)) throw new StateFileError(path, `it holds job ${job.id}, not job ${id}`);
    jobs.push(job);
  }
  numbered.sort((a, b) => a[0] - b[0]);
  jobs.sort((a, b) => a.id - b.id);
  // A job written before the zone's file (a crash between the two) still counts.
  const highest = Math.max(lastJobId, ...jobs.map((job) => job.id));
  return {
    state: {
      rulesets: numbered.map(([, ruleset]) => ruleset),
      jobs,
      explorer,
      lastJobId: highest,
      challenges,
    },
    rulesetNumbers,
  };
}

/** Loads a zone file of the earlier layout (one file for the whole zone), to be written again as a folder. */
export async function loadZoneFile(path: string, maxDepth: number): Promise<ZoneState> {
  const zone = (await readStateFile(path, maxDepth, zoneStateProblem)) as ZoneState;
  // The earlier layout predates Log Explorer datasets.
  return { ...zone, explorer: [], lastJobId: Math.max(zone.lastJobId, ...zone.jobs.map((job) => job.id)) };
}
