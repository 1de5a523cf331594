import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { makeFolders } from "../files/index.js";
import { writeFileAtomically } from "./atomic-file.js";
import { lockDataDirectory } from "./data-dir-lock.js";
import { nestsDeeperThan } from "./http.js";
import { emptyZone, type ZoneState } from "./model.js";
import { jobSettingsProblem, StateFileError, zoneStateProblem } from "./state-file.js";

interface PendingChange {
  change: (zone: ZoneState) => unknown;
  persist: boolean;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** The state folder inside the data directory; `_` cannot start an S3 bucket name, so no destination folder collides. */
export const STATE_FOLDER = "_sandbox";

/**
 * A zone's file: `<zone id>.json`; an account's (its Logpush jobs): `account-<account id>.json`.
 * Other names in the folder are not the sandbox's and are left alone.
 */
const zoneFileName = /^((?:account-)?[0-9a-f]{32})\.json$/;
/** The temporary files `writeFileAtomically` makes (in the temporary folder, and beside zone files before it existed). */
const temporaryFileName = /\.tmp-[0-9a-f]{12}$/;

/**
 * The sandbox's state: one JSON file per zone. Every change is written to a temporary file,
 * fsynced, renamed over the zone's file and the folder fsynced before it is acknowledged, so a
 * crash at any moment leaves either the old or the new file, never a torn one. Changes to one zone
 * are applied one at a time: a change sees every change before it (two concurrent creates of a
 * phase ruleset cannot both pass the "one per phase" check).
 */
export class Store {
  private readonly zones = new Map<string, ZoneState>();
  private readonly pending = new Map<string, PendingChange[]>();
  private readonly flushing = new Set<string>();
  private lastJobId = 0;

  private constructor(
    private readonly folder: string,
    /** Where files are written before they are renamed into place, so a write killed midway leaves its debris only here. */
    readonly temporaryFolder: string,
    /** Lets go of the data directory (see `lockDataDirectory`). */
    readonly close: () => Promise<void>,
  ) {}

  /**
   * Takes the data directory's lock (one sandbox a directory), then loads every zone file, checked
   * for its shape and for a nesting of at most `maxDepth` levels; the first file that fails stops
   * the start with its name and its problem. Only the sandbox's own leftovers (temporary files of
   * writes never acknowledged) are removed. `close()` lets go of the directory.
   */
  static async open(dataDir: string, maxDepth: number, warn: (line: string) => void): Promise<Store> {
    const folder = join(dataDir, STATE_FOLDER, "zones");
    const temporaryFolder = join(dataDir, STATE_FOLDER, "tmp");
    await makeFolder(folder);
    await makeFolder(temporaryFolder);
    const release = await lockDataDirectory(join(dataDir, STATE_FOLDER), temporaryFolder, dataDir, warn);
    try {
      const store = new Store(folder, temporaryFolder, release);
      for (const name of await readdir(temporaryFolder))
        if (temporaryFileName.test(name)) await rm(join(temporaryFolder, name), { force: true });
      for (const name of await readdir(folder)) {
        const path = join(folder, name);
        if (zoneFileName.test(name.replace(temporaryFileName, ""))) {
          if (name !== name.replace(temporaryFileName, "")) await rm(path, { force: true });
          else await store.load(path, name.slice(0, -".json".length), maxDepth, warn);
        }
      }
      return store;
    } catch (error) {
      await release();
      throw error;
    }
  }

  private async load(
    path: string,
    zoneId: string,
    maxDepth: number,
    warn: (line: string) => void,
  ): Promise<void> {
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
    const problem = zoneStateProblem(value);
    if (problem !== undefined) throw new StateFileError(path, problem);
    const zone = value as ZoneState;
    for (const job of zone.jobs) {
      const problem = jobSettingsProblem(job);
      if (problem !== undefined)
        warn(
          `filterc sandbox: warning: job ${job.id} in ${path} cannot be pushed: ${problem}; it fails alone at each push until it is changed`,
        );
    }
    this.zones.set(zoneId, zone);
    this.lastJobId = Math.max(this.lastJobId, zone.lastJobId);
  }

  /** The zone's acknowledged state (read-only: change it with `update`). */
  zone(zoneId: string): ZoneState {
    return this.zones.get(zoneId) ?? emptyZone();
  }

  allZones(): IterableIterator<[string, ZoneState]> {
    return this.zones.entries();
  }

  /** A job id unique across zones and restarts. */
  nextJobId(zone: ZoneState): number {
    this.lastJobId += 1;
    zone.lastJobId = this.lastJobId;
    return this.lastJobId;
  }

  /**
   * Applies `change` to a copy of the zone and, unless it throws, persists the result and makes it
   * the zone's state. Resolves only once the change is on disk.
   */
  update<T>(zoneId: string, change: (zone: ZoneState) => T): Promise<T> {
    return this.enqueue(zoneId, change, true);
  }

  /** Runs `change` on a copy that is then thrown away: the `dry_run` of the rulesets API. */
  preview<T>(zoneId: string, change: (zone: ZoneState) => T): Promise<T> {
    return this.enqueue(zoneId, change, false);
  }

  private enqueue<T>(zoneId: string, change: (zone: ZoneState) => T, persist: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queue = this.pending.get(zoneId) ?? [];
      this.pending.set(zoneId, queue);
      queue.push({ change, persist, resolve: resolve as (result: unknown) => void, reject });
      if (!this.flushing.has(zoneId)) void this.flush(zoneId);
    });
  }

  /**
   * Group commit: the changes that arrive while a write is under way are applied one after the
   * other (each to a copy, so a change that throws leaves no trace) and written together; each is
   * acknowledged once that one write is on disk. Never rejects: whatever fails (a change, the copy,
   * the write) rejects the changes it concerns, so no error escapes as an unhandled rejection.
   */
  private async flush(zoneId: string): Promise<void> {
    this.flushing.add(zoneId);
    try {
      for (let batch = this.pending.get(zoneId); batch; batch = this.pending.get(zoneId)) {
        this.pending.delete(zoneId);
        const settled = batch;
        await this.commit(zoneId, settled).catch((error: unknown) => {
          for (const item of settled) item.reject(error); // a promise already settled ignores this
        });
      }
    } finally {
      this.flushing.delete(zoneId);
    }
  }

  private async commit(zoneId: string, batch: PendingChange[]): Promise<void> {
    let state = this.zone(zoneId);
    let changed = false;
    const applied: [PendingChange, unknown][] = [];
    for (const item of batch) {
      try {
        const attempt = structuredClone(state);
        const result = item.change(attempt);
        if (item.persist) {
          state = attempt;
          changed = true;
        }
        applied.push([item, result]);
      } catch (error) {
        item.reject(error);
      }
    }
    if (changed) await this.write(zoneId, state);
    this.zones.set(zoneId, state);
    for (const [item, result] of applied) item.resolve(result);
  }

  private async write(zoneId: string, zone: ZoneState): Promise<void> {
    const path = join(this.folder, `${zoneId}.json`);
    await writeFileAtomically(path, JSON.stringify(zone), this.temporaryFolder);
  }
}

/** A folder the sandbox can write in: a file or anything else in its place is named. */
async function makeFolder(path: string): Promise<void> {
  try {
    await makeFolders(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StateFileError(
      path,
      code === "EEXIST" || code === "ENOTDIR" ? "it is not a folder" : `it cannot be made (${code})`,
    );
  }
}
