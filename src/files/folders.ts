import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * Makes a folder and the missing folders above it, each level once. Node's own recursive mkdir
 * never returns where a folder exists but refuses new entries with ENOENT (tried on /proc/self: it
 * retried for as long as it was let run); this walk fails there with that error. A file in the way
 * fails with ENOTDIR; a folder made meanwhile by another writer is taken as made.
 */
export async function makeFolders(path: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    const entry = await stat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT" || dirname(at) === at) throw error;
      return undefined;
    });
    if (entry?.isDirectory()) break;
    if (entry) throw Object.assign(new Error(`ENOTDIR: not a directory: ${at}`), { code: "ENOTDIR" });
    missing.push(at);
  }
  for (const folder of missing.reverse())
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
}
