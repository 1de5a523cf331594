import { constants, type Stats } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";

/**
 * What a reader takes: only a regular file, or also a stream (a fifo, `<(…)`, a device), read in
 * order from its start. A path the user types may name a stream; a path found by listing a folder or
 * named inside a file (a test file's log) must be a regular file, so that no reader ever waits on a
 * writer that may never come.
 */
export type Accept = "regular" | "stream";

/** A file that is not a regular file where one is required: a fifo, a device or a socket. */
export class NotRegularFile extends Error {
  override readonly name = "NotRegularFile";
  constructor(readonly kind: string) {
    super(`a ${kind}, not a regular file`);
  }
}

interface OpenFile {
  handle: FileHandle;
  /** A regular file's size; undefined for a stream, which is read in order and has no size. */
  size: number | undefined;
}

/**
 * Opens a file for reading, having looked at what it is. A path that names a fifo or a device is
 * refused where a regular file is required, without opening it: opening a fifo waits for a writer,
 * and holds one of the four threads Node's file system calls share while it waits (four such waits
 * in the language server stopped every other file read). Where a stream is accepted it is opened
 * as `cat` opens it. A regular file is opened without waiting (O_NONBLOCK) and looked at again, in
 * case the path was changed to a fifo in between. A directory is EISDIR.
 */
export async function openFile(path: string, accept: Accept): Promise<OpenFile> {
  const named = await stat(path);
  if (named.isDirectory()) throw isDirectory(path);
  if (named.isFile()) {
    const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const opened = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (opened.isFile()) return { handle, size: opened.size };
    await handle.close();
    if (opened.isDirectory()) throw isDirectory(path);
    if (accept === "regular") throw new NotRegularFile(kindOf(opened));
  } else if (accept === "regular") throw new NotRegularFile(kindOf(named));
  return { handle: await open(path, "r"), size: undefined };
}

const isDirectory = (path: string) =>
  Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${path}'`), { code: "EISDIR" });

/** What a file that is not a regular file or a folder is, in words. */
export function kindOf(
  info: Pick<Stats, "isFIFO" | "isCharacterDevice" | "isBlockDevice" | "isSocket">,
): string {
  if (info.isFIFO()) return "fifo (named pipe)";
  if (info.isCharacterDevice()) return "character device";
  if (info.isBlockDevice()) return "block device";
  if (info.isSocket()) return "socket";
  return "special file";
}
