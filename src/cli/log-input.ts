import { open, stat } from "node:fs/promises";
import { gunzipMembers } from "./gzip-members.js";
import { cannotRead } from "./io.js";

/** One log input: a file or standard input, read as a stream of decompressed byte chunks. */
export interface LogInput {
  name: string;
  /** The size on disk, for the progress bar (undefined for standard input). */
  size: number | undefined;
  /** Byte chunks as stored; `onRead` counts the stored (possibly compressed) bytes. */
  open(onRead: (bytes: number) => void): AsyncIterable<Buffer>;
}

const CHUNK_BYTES = 1 << 20;

export async function fileInput(path: string): Promise<LogInput> {
  const info = await stat(path).catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  if (info.isDirectory()) throw cannotRead(path, { code: "EISDIR" });
  const size = info.size;
  return {
    name: path,
    size,
    open: (onRead) => withoutBom(decompressed(counted(fileChunks(path), onRead))),
  };
}

/**
 * The bytes start…end of a file, a chunk at a time, read into two buffers used in turn: a chunk
 * stays valid until the one after it has been taken, so whatever is kept longer is copied (eval
 * copies what it writes and the piece of a line a chunk cuts). A read stream's fresh buffer per
 * chunk is memory the allocator hands back and takes again, a page fault per 4 KiB each time:
 * measured on a 194 MB file, 12,000 faults and 0.21 s of system time read so, 3,300 and 0.07 s
 * read into two buffers. The buffers outlive the file, for the next file or range the thread reads
 * (a worker reads some 25 ranges of an 800 MB file). The next chunk is read while the consumer
 * works on this one, into the other buffer, whose chunk it is done with once it asked for this
 * one (measured: eval of the 194 MB file on one thread had waited for reads 6% of its time).
 */
export async function* fileChunks(
  path: string,
  start = 0,
  end = Number.POSITIVE_INFINITY,
): AsyncGenerator<Buffer> {
  const handle = await open(path, "r").catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  const buffers = [spareBuffer(), spareBuffer()];
  const readAt = (buffer: Buffer, position: number) => {
    if (position >= end) return Promise.resolve({ bytesRead: 0 });
    const read = handle.read(buffer, 0, Math.min(buffer.length, end - position), position);
    // A read ahead may fail while no one awaits it yet: marked handled, so that Node does not end
    // the process for an unhandled rejection; awaiting it later still throws its error.
    read.catch(() => undefined);
    return read;
  };
  let pending = readAt(buffers[0]!, start);
  try {
    for (let position = start, turn = 0; ; turn ^= 1) {
      const { bytesRead } = await pending.catch((error: unknown) => {
        throw cannotRead(path, error);
      });
      if (bytesRead === 0) return;
      position += bytesRead;
      pending = readAt(buffers[turn ^ 1]!, position);
      yield buffers[turn]!.subarray(0, bytesRead);
    }
  } finally {
    // A read still running writes into a buffer and needs the file: it ends first.
    await pending.catch(() => undefined);
    spareBuffers.push(...buffers);
    await handle.close();
  }
}

/** Chunk buffers of files read before, free for the next (several files may be read at once). */
const spareBuffers: Buffer[] = [];
const spareBuffer = () => spareBuffers.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);

export function streamInput(name: string, source: () => AsyncIterable<Uint8Array>): LogInput {
  return {
    name,
    size: undefined,
    open: (onRead) => withoutBom(decompressed(counted(source(), onRead))),
  };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Drops a UTF-8 byte order mark at the start of the (decompressed) content: editors on Windows
 * write one, and it belongs to no line. Only the first bytes of an input are a mark; elsewhere
 * the bytes are part of the line that holds them.
 */
export async function* withoutBom(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of source) {
    if (head === undefined) {
      yield chunk;
      continue;
    }
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    if (head.length < BOM.length && BOM.subarray(0, head.length).equals(head)) continue;
    const rest = head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
    head = undefined;
    if (rest.length > 0) yield rest;
  }
  // Fewer bytes than a mark in the whole input: they are content.
  if (head !== undefined && head.length > 0) yield head;
}

async function* counted(source: AsyncIterable<Uint8Array>, onRead: (bytes: number) => void) {
  for await (const chunk of source) {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    onRead(bytes.length);
    yield bytes;
  }
}

/**
 * Gunzips the stream when it starts with the gzip magic bytes (1f 8b), whatever the input is called;
 * damage in it is thrown as InputDamage after the content before it.
 */
/** Whether bytes begin with the gzip magic bytes (1f 8b): how every input is told to be gzip. */
export function startsGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

async function* decompressed(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  // Iterated by hand, so closed by hand: a run that stops early (--strict, damage) would otherwise
  // leave the file open until it is collected, which Node does with a warning on stderr.
  try {
    let head: Buffer = Buffer.alloc(0);
    while (head.length < 2) {
      const next = await iterator.next();
      if (next.done) break;
      head = head.length === 0 ? next.value : (Buffer.concat([head, next.value]) as Buffer);
    }
    if (head.length === 0) return;
    if (!startsGzip(head)) {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      return;
    }
    yield* gunzipMembers(iterator, head);
  } finally {
    await iterator.return?.();
  }
}
