import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";

/** A file being written: it appears at its path, complete and on disk, only once committed. */
export interface AtomicFile {
  stream: Writable;
  /** Waits for the stream to finish, fsyncs the file, renames it into place and (unless told not to) fsyncs the folder. */
  commit(): Promise<void>;
  /** Drops what was written: nothing appears at the path. */
  abort(): Promise<void>;
}

/**
 * Opens a temporary file in `temporaryFolder` (on the data directory's file system, so the rename
 * is atomic) for `path`. A process killed midway leaves its debris only in that folder, which the
 * sandbox sweeps at start-up.
 */
export async function createAtomicFile(
  path: string,
  temporaryFolder: string,
  syncTheFolder = true,
): Promise<AtomicFile> {
  const temporary = join(temporaryFolder, `${basename(path)}.tmp-${randomBytes(6).toString("hex")}`);
  // `flush`: the file is fsynced before it is closed.
  const stream = createWriteStream(temporary, { flush: true });
  await once(stream, "open");
  return {
    stream,
    async commit() {
      try {
        if (!stream.writableEnded) stream.end();
        await finished(stream);
        await rename(temporary, path);
      } catch (error) {
        stream.destroy();
        await rm(temporary, { force: true });
        throw error;
      }
      if (syncTheFolder) await syncFolder(join(path, ".."));
    },
    async abort() {
      stream.destroy();
      await finished(stream).catch(() => undefined);
      await rm(temporary, { force: true });
    },
  };
}

/** Makes a folder's entries (files renamed into it, files removed) durable. */
export async function syncFolder(path: string): Promise<void> {
  const folder = await open(path, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * Writes `data` to `path` through `createAtomicFile`; without `syncTheFolder`, the caller syncs
 * the folder (once for several files).
 */
export async function writeFileAtomically(
  path: string,
  data: string | Uint8Array,
  temporaryFolder: string,
  syncTheFolder = true,
): Promise<void> {
  const file = await createAtomicFile(path, temporaryFolder, syncTheFolder);
  file.stream.write(data);
  await file.commit();
}
