import { open } from "node:fs/promises";

/** Bytes asked of a file at a time when its size does not say how many it holds (a device, a pipe). */
const CHUNK_BYTES = 64 * 1024;

/**
 * A file's bytes, read to at most `limit` (also a device or a pipe that never ends: `/dev/zero`
 * once took 3 GB); undefined when it holds more, whose rest is not read. Memory follows what the
 * file holds, not the limit. Failing to open or read throws the file system's error.
 */
export async function readUpTo(file: string, limit: number): Promise<Buffer | undefined> {
  const handle = await open(file, "r");
  try {
    // A regular file's size sizes the first read (one more byte tells whether it grew past it).
    const { size } = await handle.stat();
    const chunks: Buffer[] = [];
    let length = 0;
    for (let ask = Math.max(size + 1, CHUNK_BYTES); length <= limit; ask = CHUNK_BYTES) {
      const chunk = Buffer.allocUnsafe(Math.min(ask, limit + 1 - length));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return Buffer.concat(chunks, length);
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** A file's text (UTF-8), read to at most `limit` bytes: a larger file is an error saying so. */
export async function readTextUpTo(file: string, limit: number): Promise<string> {
  const bytes = await readUpTo(file, limit);
  if (bytes === undefined) throw new Error(`larger than ${limit} bytes; not read`);
  return bytes.toString("utf8");
}
