import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { emptyZone, type ZoneState } from "./model.js";

interface PendingChange {
  change: (zone: ZoneState) => unknown;
  persist: boolean;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** The state folder inside the data directory; `_` cannot start an S3 bucket name, so no destination folder collides. */
export const STATE_FOLDER = "_sandbox";

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

  private constructor(private readonly folder: string) {}

  static async open(dataDir: string): Promise<Store> {
    const folder = join(dataDir, STATE_FOLDER, "zones");
    await mkdir(folder, { recursive: true });
    const store = new Store(folder);
    for (const name of await readdir(folder)) {
      const path = join(folder, name);
      if (!name.endsWith(".json")) {
        // A temporary file of a write that never finished: it was never acknowledged.
        await rm(path, { force: true });
        continue;
      }
      const zone = JSON.parse(await readFile(path, "utf8")) as ZoneState;
      store.zones.set(name.slice(0, -".json".length), zone);
      store.lastJobId = Math.max(store.lastJobId, zone.lastJobId);
    }
    return store;
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
   * acknowledged once that one write is on disk.
   */
  private async flush(zoneId: string): Promise<void> {
    this.flushing.add(zoneId);
    try {
      for (let batch = this.pending.get(zoneId); batch; batch = this.pending.get(zoneId)) {
        this.pending.delete(zoneId);
        let state = this.zone(zoneId);
        let changed = false;
        const applied: [PendingChange, unknown][] = [];
        for (const item of batch) {
          const attempt = structuredClone(state);
          try {
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
        try {
          if (changed) await this.write(zoneId, state);
        } catch (error) {
          for (const [item] of applied) item.reject(error);
          continue;
        }
        this.zones.set(zoneId, state);
        for (const [item, result] of applied) item.resolve(result);
      }
    } finally {
      this.flushing.delete(zoneId);
    }
  }

  private async write(zoneId: string, zone: ZoneState): Promise<void> {
    const path = join(this.folder, `${zoneId}.json`);
    await writeFileAtomically(path, JSON.stringify(zone));
  }
}

/** Writes a temporary file beside `path`, fsyncs it, renames it over `path` and fsyncs the folder. */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${path}.tmp-${randomBytes(6).toString("hex")}`;
  const file = await open(temporary, "w");
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const folder = await open(join(path, ".."), "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
