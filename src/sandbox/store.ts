import { readdir, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { makeFolders, syncFolder, writeFileAtomically } from "../files/index.js";
import { lockDataDirectory } from "./data-dir-lock.js";
import { ErrorCode, SandboxError } from "./errors.js";
import { emptyZone, type ZoneState } from "./model.js";
import { jobSettingsProblem, StateFileError } from "./state-file.js";
import {
  CHALLENGES_FILE,
  EXPLORER_FILE,
  JOBS_FOLDER,
  loadZoneFile,
  loadZoneFolder,
  RULESETS_FOLDER,
  ZONE_FILE,
  ZONE_KEY,
} from "./zone-files.js";

interface PendingChange {
  change: (zone: ZoneState) => unknown;
  persist: boolean;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** The state folder inside the data directory; `_` cannot start an S3 bucket name, so no destination folder collides. */
const STATE_FOLDER = "_sandbox";

/**
 * Challenges a zone keeps, the oldest dropped first (the service's tokens expire after 7 days;
 * the sandbox's never do, so without a bound each new destination would add one for good).
 */
export const MAX_CHALLENGES_PER_ZONE = 100;

/** The temporary files `writeFileAtomically` makes (in the temporary folder, and beside zone files before it existed). */
const temporaryFileName = /\.tmp-[0-9a-f]{12}$/;

/** What the store keeps of a zone besides its state: where its rulesets are, and what it holds. */
interface ZoneBook {
  /** Each ruleset's number (its file `rulesets/<n>.json`), by ruleset id. */
  rulesetNumbers: Map<string, number>;
  nextRulesetNumber: number;
  /** The bytes of each of the zone's files, by path in its folder, and their sum. */
  sizes: Map<string, number>;
  bytes: number;
}

/** Writes and removals of a zone's files (paths in its folder; null removes). */
type FileChanges = Map<string, string | null>;

const rulesetPath = (number: number) => `${RULESETS_FOLDER}/${number}.json`;
const jobPath = (id: number) => `${JOBS_FOLDER}/${id}.json`;

/** Freezes a saved value all the way down: a change that edits it in place fails, rather than edits what was acknowledged. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const FROZEN_EMPTY_ZONE = deepFreeze(emptyZone());

/** A change's copy of a zone: new lists of the same (frozen) objects; see `editable`. */
function draftOf(zone: ZoneState): ZoneState {
  return {
    rulesets: [...zone.rulesets],
    jobs: [...zone.jobs],
    explorer: [...zone.explorer],
    lastJobId: zone.lastJobId,
    challenges: { ...zone.challenges },
  };
}

function sameChallenges(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key, index) => Object.keys(b)[index] === key && a[key] === b[key])
  );
}

/**
 * The sandbox's state: a folder per zone with a file per ruleset and per job (`zone-files.ts`).
 * A change works on a draft of the zone: the objects it adds or edits (`editable`) are the ones
 * written, each to a temporary file, fsynced and renamed into place, the folders fsynced, before
 * it is acknowledged; so a write costs what it changes, whatever else the zone holds, and a crash
 * at any moment leaves each file old or new, never torn. Changes to one zone are applied one at a
 * time: a change sees every change before it (two concurrent creates of a phase ruleset cannot
 * both pass the "one per phase" check).
 */
export class Store {
  private readonly zones = new Map<string, ZoneState>();
  private readonly books = new Map<string, ZoneBook>();
  private readonly pending = new Map<string, PendingChange[]>();
  private readonly flushing = new Set<string>();
  private lastJobId = 0;

  private constructor(
    private readonly folder: string,
    /** Where files are written before they are renamed into place, so a write killed midway leaves its debris only here. */
    readonly temporaryFolder: string,
    /** Most bytes of files a zone holds (rulesets, jobs, challenges); a change past it is refused. */
    private readonly maxZoneBytes: number,
    /** Lets go of the data directory (see `lockDataDirectory`). */
    readonly close: () => Promise<void>,
  ) {}

  /**
   * Takes the data directory's lock (one sandbox a directory), then loads every zone, each file
   * checked for its shape and for a nesting of at most `maxDepth` levels; the first file that fails
   * stops the start with its name and its problem. A zone file of the earlier layout (one file a
   * zone) is written again as a folder, then removed. Only the sandbox's own leftovers (temporary
   * files of writes never acknowledged) are removed. `close()` lets go of the directory.
   */
  static async open(
    dataDir: string,
    maxDepth: number,
    maxZoneBytes: number,
    warn: (line: string) => void,
  ): Promise<Store> {
    const folder = join(dataDir, STATE_FOLDER, "zones");
    const temporaryFolder = join(dataDir, STATE_FOLDER, "tmp");
    await makeFolder(folder);
    await makeFolder(temporaryFolder);
    const release = await lockDataDirectory(join(dataDir, STATE_FOLDER), temporaryFolder, dataDir, warn);
    try {
      const store = new Store(folder, temporaryFolder, maxZoneBytes, release);
      for (const name of await readdir(temporaryFolder))
        if (temporaryFileName.test(name)) await rm(join(temporaryFolder, name), { force: true });
      const earlier: string[] = [];
      for (const name of await readdir(folder)) {
        const path = join(folder, name);
        const key = name.replace(temporaryFileName, "").replace(/\.json$/, "");
        if (!ZONE_KEY.test(key)) continue;
        if (temporaryFileName.test(name)) await rm(path, { force: true });
        else if (name.endsWith(".json")) earlier.push(key);
        else if ((await stat(path)).isDirectory()) {
          const loaded = await loadZoneFolder(path, maxDepth);
          store.adopt(key, loaded.state, loaded.rulesetNumbers);
        }
      }
      // A zone file of the earlier layout wins over a folder beside it: that folder is a migration cut short.
      for (const key of earlier) await store.migrate(key, maxDepth);
      for (const [key, zone] of store.zones)
        for (const job of zone.jobs) {
          const problem = jobSettingsProblem(job);
          if (problem !== undefined)
            warn(
              `filterc sandbox: warning: job ${job.id} in ${join(folder, key, jobPath(job.id))} cannot be pushed: ${problem}; it fails alone at each push until it is changed`,
            );
        }
      return store;
    } catch (error) {
      await release();
      throw error;
    }
  }

  /** Takes a loaded zone as acknowledged state, counting what its files hold. */
  private adopt(zoneId: string, state: ZoneState, rulesetNumbers: Map<string, number>): void {
    const sizes = new Map<string, number>();
    const count = (path: string, value: unknown) => sizes.set(path, Buffer.byteLength(JSON.stringify(value)));
    for (const ruleset of state.rulesets) count(rulesetPath(rulesetNumbers.get(ruleset.id)!), ruleset);
    for (const job of state.jobs) count(jobPath(job.id), job);
    count(CHALLENGES_FILE, state.challenges);
    if (state.explorer.length > 0) count(EXPLORER_FILE, state.explorer);
    this.zones.set(zoneId, deepFreeze(state));
    this.books.set(zoneId, {
      rulesetNumbers,
      nextRulesetNumber: Math.max(0, ...rulesetNumbers.values()) + 1,
      sizes,
      bytes: [...sizes.values()].reduce((sum, size) => sum + size, 0),
    });
    this.lastJobId = Math.max(this.lastJobId, state.lastJobId);
  }

  /** Writes a zone file of the earlier layout as a folder (replacing what a cut-short migration left), then removes it. */
  private async migrate(zoneId: string, maxDepth: number): Promise<void> {
    const file = join(this.folder, `${zoneId}.json`);
    const state = await loadZoneFile(file, maxDepth);
    const zoneFolder = join(this.folder, zoneId);
    for (const name of [ZONE_FILE, CHALLENGES_FILE, EXPLORER_FILE, RULESETS_FOLDER, JOBS_FOLDER])
      await rm(join(zoneFolder, name), { recursive: true, force: true });
    const rulesetNumbers = new Map(state.rulesets.map((ruleset, index) => [ruleset.id, index + 1]));
    const files: FileChanges = new Map([
      [ZONE_FILE, JSON.stringify({ lastJobId: state.lastJobId })],
      [CHALLENGES_FILE, JSON.stringify(state.challenges)],
    ]);
    for (const [index, ruleset] of state.rulesets.entries())
      files.set(rulesetPath(index + 1), JSON.stringify(ruleset));
    for (const job of state.jobs) files.set(jobPath(job.id), JSON.stringify(job));
    await this.writeFiles(zoneId, files);
    await rm(file);
    await syncFolder(this.folder);
    this.adopt(zoneId, state, rulesetNumbers);
  }

  /** The zone's acknowledged state (frozen: change it with `update`). */
  zone(zoneId: string): ZoneState {
    return this.zones.get(zoneId) ?? FROZEN_EMPTY_ZONE;
  }

  /** A job id unique across zones and restarts. */
  nextJobId(zone: ZoneState): number {
    this.lastJobId += 1;
    zone.lastJobId = this.lastJobId;
    return this.lastJobId;
  }

  /**
   * Applies `change` to a draft of the zone (`editable` gives it objects to edit) and, unless it
   * throws, persists what it changed and makes the result the zone's state. Resolves only once the
   * change is on disk.
   */
  update<T>(zoneId: string, change: (zone: ZoneState) => T): Promise<T> {
    return this.enqueue(zoneId, change, true);
  }

  /** Runs `change` on a draft that is then thrown away: the `dry_run` of the rulesets API. */
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
   * other (each to a draft, so a change that throws leaves no trace) and written together; each is
   * acknowledged once those writes are on disk. Never rejects: whatever fails (a change, the
   * write) rejects the changes it concerns, so no error escapes as an unhandled rejection.
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
    const saved = this.books.get(zoneId);
    const book: ZoneBook = {
      rulesetNumbers: new Map(saved?.rulesetNumbers),
      nextRulesetNumber: saved?.nextRulesetNumber ?? 1,
      sizes: new Map(saved?.sizes),
      bytes: saved?.bytes ?? 0,
    };
    let state = this.zone(zoneId);
    const files: FileChanges = new Map();
    const applied: [PendingChange, unknown][] = [];
    for (const item of batch) {
      try {
        const draft = draftOf(state);
        const result = item.change(draft);
        if (item.persist) {
          const changed = this.changes(state, draft, book);
          for (const [path, text] of changed) files.set(path, text);
          state = draft;
        }
        applied.push([item, result]);
      } catch (error) {
        item.reject(error);
      }
    }
    if (files.size > 0) await this.writeFiles(zoneId, files);
    this.zones.set(zoneId, state);
    this.books.set(zoneId, book);
    for (const [item, result] of applied) item.resolve(result);
  }

  /**
   * The files a change made (the objects of `after` that are not those of `before`, and those it
   * dropped), counted into `book`; `after` is frozen as it becomes the state. Refuses a change that
   * would take the zone past `maxZoneBytes` (one that shrinks it always passes). Costs what the
   * change made plus a look at each object's identity, not a copy of the zone.
   */
  private changes(before: ZoneState, after: ZoneState, book: ZoneBook): FileChanges {
    const files: FileChanges = new Map();
    const sizes = new Map<string, number | null>();
    const write = (path: string, value: unknown) => {
      const text = JSON.stringify(value);
      files.set(path, text);
      sizes.set(path, Buffer.byteLength(text));
    };
    const numbers = new Map(book.rulesetNumbers);
    let nextNumber = book.nextRulesetNumber;
    const kept = new Set(before.rulesets);
    const rulesetIds = new Set<string>();
    for (const ruleset of after.rulesets) {
      rulesetIds.add(ruleset.id);
      if (kept.has(ruleset)) continue;
      let number = numbers.get(ruleset.id);
      if (number === undefined) {
        number = nextNumber++;
        numbers.set(ruleset.id, number);
      }
      write(rulesetPath(number), ruleset);
    }
    for (const ruleset of before.rulesets)
      if (!rulesetIds.has(ruleset.id)) {
        const path = rulesetPath(numbers.get(ruleset.id)!);
        files.set(path, null);
        sizes.set(path, null);
        numbers.delete(ruleset.id);
      }
    const keptJobs = new Set(before.jobs);
    const jobIds = new Set<number>();
    for (const job of after.jobs) {
      jobIds.add(job.id);
      if (!keptJobs.has(job)) write(jobPath(job.id), job);
    }
    for (const job of before.jobs)
      if (!jobIds.has(job.id)) {
        files.set(jobPath(job.id), null);
        sizes.set(jobPath(job.id), null);
      }
    // The datasets are few (one of each type): a change to any writes their one file.
    if (
      after.explorer.length !== before.explorer.length ||
      after.explorer.some((dataset, index) => dataset !== before.explorer[index])
    )
      write(EXPLORER_FILE, after.explorer);
    if (after.lastJobId !== before.lastJobId)
      files.set(ZONE_FILE, JSON.stringify({ lastJobId: after.lastJobId }));
    if (!sameChallenges(before.challenges, after.challenges)) {
      const keys = Object.keys(after.challenges);
      for (const key of keys.slice(0, Math.max(0, keys.length - MAX_CHALLENGES_PER_ZONE)))
        delete after.challenges[key];
      write(CHALLENGES_FILE, after.challenges);
    }
    let bytes = book.bytes;
    for (const [path, size] of sizes) bytes += (size ?? 0) - (book.sizes.get(path) ?? 0);
    if (bytes > this.maxZoneBytes && bytes > book.bytes)
      throw new SandboxError(
        400,
        ErrorCode.zoneFull,
        `the zone would hold ${bytes} bytes of rulesets, jobs, challenges and Log Explorer datasets; the sandbox keeps at most ${this.maxZoneBytes} bytes a zone`,
      );
    for (const [path, size] of sizes)
      if (size === null) book.sizes.delete(path);
      else book.sizes.set(path, size);
    book.bytes = bytes;
    book.rulesetNumbers = numbers;
    book.nextRulesetNumber = nextNumber;
    deepFreeze(after);
    return files;
  }

  /**
   * Writes and removes a zone's files, each write atomic (`writeFileAtomically`), then fsyncs each
   * folder touched once. No one edits these files while the sandbox holds the directory's lock, so
   * they are replaced as they are (`expected: "any"`, hard links included), with their mode, owner
   * and symbolic links kept. Every write is waited for, failed or not, before this settles: a write
   * left running could land after a later batch's and undo it.
   */
  private async writeFiles(zoneId: string, files: FileChanges): Promise<void> {
    const zoneFolder = join(this.folder, zoneId);
    const folders = new Set<string>();
    for (const sub of [RULESETS_FOLDER, JOBS_FOLDER]) {
      const path = join(zoneFolder, sub);
      const made = await stat(path).then(
        () => false,
        () => true,
      );
      if (made) {
        await makeFolders(path);
        folders.add(this.folder).add(zoneFolder);
      }
    }
    const written = await Promise.allSettled(
      [...files].map(async ([name, text]) => {
        const path = join(zoneFolder, name);
        if (text === null) {
          await rm(path, { force: true });
          folders.add(dirname(path));
          return;
        }
        // The folder renamed in is the target's: a state file may be a link to one elsewhere.
        const file = await writeFileAtomically(path, text, {
          expected: "any",
          temporaryFolder: this.temporaryFolder,
          syncTheFolder: false,
        });
        folders.add(dirname(file));
      }),
    );
    const failed = written.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    await Promise.all([...folders].map((folder) => syncFolder(folder)));
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
