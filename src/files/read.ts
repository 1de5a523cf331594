import { type Accept, NotRegularFile, openFile } from "./open.js";

/** Bytes asked of a file at a time when its size does not say how many it holds (a device, a pipe). */
const CHUNK_BYTES = 64 * 1024;

/**
 * A file's bytes, read to at most `limit` (also a device or a pipe that never ends, where `accept`
 * takes streams); undefined when it holds more, whose rest is not read.
 * Memory follows what the file holds, not the limit. Failing to open or read throws the file
 * system's error, or NotRegularFile for a stream where only a regular file is accepted.
 */
export async function readUpTo(file: string, limit: number, accept: Accept): Promise<Buffer | undefined> {
  const { handle, size } = await openFile(file, accept);
  try {
    // A regular file's size sizes the first read (one more byte tells whether it grew past it).
    const chunks: Buffer[] = [];
    let length = 0;
    for (let ask = Math.max((size ?? 0) + 1, CHUNK_BYTES); length <= limit; ask = CHUNK_BYTES) {
      const chunk = Buffer.allocUnsafe(Math.min(ask, limit + 1 - length));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      // A regular file that has given the size it was opened with and reads short is at its end:
      // no read more to be told so. A stream, or a file whose size says nothing (/proc's, size 0),
      // may read short before its end.
      const atEnd = size !== undefined && size > 0 && length >= size && bytesRead < chunk.length;
      if (bytesRead === 0 || atEnd) return Buffer.concat(chunks, length);
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * A file's text (UTF-8), read to at most `limit` bytes. A larger file, or one that cannot be read,
 * is an error whose message says why in words (fileProblem), for "cannot read FILE: …".
 */
export async function readTextUpTo(file: string, limit: number, accept: Accept): Promise<string> {
  const bytes = await readUpTo(file, limit, accept).catch((error: unknown) => {
    throw new Error(fileProblem(error));
  });
  if (bytes === undefined) throw new Error(`larger than ${limit} bytes; not read`);
  return bytes.toString("utf8");
}

/**
 * Why a file or folder could not be read or written, in words. The file system's own message
 * names the code and the absolute path (`ENOENT: no such file or directory, open '/home/…'`);
 * the caller names the file as the user gave it.
 */
export function fileProblem(error: unknown, missing = "no such file"): string {
  if (error instanceof NotRegularFile) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return missing;
  if (code === "EISDIR") return "is a directory";
  if (code === "ENOTDIR" || code === "EEXIST") return "a file is in the way of a folder";
  if (code === "EACCES") return "permission denied";
  // A writer's failures midway: the file is left whole, and the reason should not be a bare code.
  if (code === "EPERM") return "not permitted (the file or its folder may be immutable)";
  if (code === "EROFS") return "the file system is read-only";
  if (code === "ENOSPC") return "no space left on the device";
  if (code === "EDQUOT") return "over the disk quota";
  if (code === "EFBIG") return "larger than the file size limit (ulimit -f) allows";
  // Opening a socket (or a device whose driver is absent).
  if (code === "ENXIO") return "a socket, not a regular file";
  return code ?? String((error as Error).message);
}
