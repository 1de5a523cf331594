import type { BigIntStats } from "node:fs";
import { lstat, open, realpath } from "node:fs/promises";
import { kindOf, NotRegularFile } from "./open.js";
import { WriteRefused } from "./write-refused.js";

/**
 * A file as a writer read it: which file it is (the path with its symbolic links resolved, its
 * device, inode, size and modification time), its mode and owner, and the bytes read. A writer
 * replaces it only while it is still this (`createAtomicFile`'s `expected`).
 */
export interface FileSnapshot {
  /** The file that holds the bytes: the path with every symbolic link resolved. */
  target: string;
  stats: BigIntStats;
  /** What the file held when read; absent where only its identity is kept (the sandbox's own state). */
  bytes?: Buffer;
}

/** A file larger than a snapshot reads: the writer words why that size is not taken. */
export class FileTooLarge extends Error {
  override readonly name = "FileTooLarge";
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes`);
  }
}

/**
 * Reads a regular file for a writer that will replace it: its bytes (to at most `limit`) and what
 * it was, read from the one open file so the two agree. Undefined when nothing is at the path;
 * NotRegularFile for a fifo or device (never opened: it could wait for a writer), FileTooLarge past
 * the limit, the file system's error otherwise.
 */
export async function readSnapshot(path: string, limit: number): Promise<FileSnapshot | undefined> {
  const target = await resolvedTarget(path);
  if (target === undefined) return undefined;
  const named = await lstat(target);
  if (named.isDirectory())
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${path}'`), {
      code: "EISDIR",
    });
  if (!named.isFile()) throw new NotRegularFile(kindOf(named));
  const handle = await open(target, "r");
  try {
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile()) throw new NotRegularFile(kindOf(stats));
    if (stats.size > BigInt(limit)) throw new FileTooLarge(limit);
    const bytes = Buffer.alloc(Number(stats.size));
    let length = 0;
    while (length < bytes.length) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { target, stats, bytes: bytes.subarray(0, length) };
  } finally {
    await handle.close();
  }
}

/**
 * The file a path names, every symbolic link on the way followed (the file's own and its
 * folders'); undefined when nothing is there. A link to nothing is refused, not taken for nothing
 * there: writing through it would make a file wherever it points.
 */
export async function resolvedTarget(path: string): Promise<string | undefined> {
  const named = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (named === undefined) return undefined;
  return realpath(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" && named.isSymbolicLink())
      throw new WriteRefused("unsafe", "it is a symbolic link to a file that does not exist");
    throw error;
  });
}

/** Whether a file is still the one snapshotted: same device, inode, size and modification time. */
export const sameFile = (a: BigIntStats, b: BigIntStats) =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
