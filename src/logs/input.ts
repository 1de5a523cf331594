import { stat } from "node:fs/promises";
// The module, not the stage's index: eval's workers load this file, and the index reads catalogs.
import { fileChunks } from "../files/chunks.js";
import { gunzipMembers } from "./gzip.js";
import { cannotRead } from "./read-error.js";

/** One log input: a file or standard input, read as a stream of decompressed byte chunks. */
export interface LogInput {
  name: string;
  /** The size on disk, for the progress bar (undefined for standard input and other streams). */
  size: number | undefined;
  /** Byte chunks as stored; `onRead` counts the stored (possibly compressed) bytes. */
  open(onRead: (bytes: number) => void): AsyncIterable<Buffer>;
}

export async function fileInput(path: string): Promise<LogInput> {
  const info = await stat(path).catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  if (info.isDirectory()) throw cannotRead(path, { code: "EISDIR" });
  return {
    name: path,
    // A fifo or a device (`<(…)`, /dev/stdin) has no size: it is read in order, on one thread.
    size: info.isFile() ? info.size : undefined,
    open: (onRead) => logContent(counted(fileChunksOf(path), onRead)),
  };
}

/**
 * A file's bytes, a chunk at a time (see fileChunks), its failures told as `cannot read FILE: …`.
 * A stream (a fifo, `<(…)`) is read in order; a plain file's range start…end at its offsets.
 */
export async function* fileChunksOf(path: string, start?: number, end?: number): AsyncGenerator<Buffer> {
  try {
    yield* fileChunks(path, "stream", start, end);
  } catch (error) {
    throw cannotRead(path, error);
  }
}

export function streamInput(name: string, source: () => AsyncIterable<Uint8Array>): LogInput {
  return {
    name,
    size: undefined,
    open: (onRead) => logContent(counted(source(), onRead)),
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

async function* counted(
  source: AsyncIterable<Uint8Array>,
  onRead: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    onRead(bytes.length);
    yield bytes;
  }
}

/**
 * The content of stored log bytes: gunzipped (every member, see gunzipMembers) when they start
 * with the gzip magic bytes 1f 8b, whatever the input is called, or when `gzip` says they are
 * (an HTTP body's Content-Encoding); a leading byte order mark dropped. Damage in the gzip is
 * thrown as InputDamage after the content before it.
 */
export function logContent(source: AsyncIterable<Buffer>, gzip = false): AsyncGenerator<Buffer> {
  return withoutBom(decompressed(source, gzip));
}

/** Whether bytes begin with the gzip magic bytes (1f 8b): how every input is told to be gzip. */
export function startsGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Stored log bytes as content: gunzipped (every member) when they start with the gzip magic bytes,
 * or when `gzip` says they are; damage thrown as InputDamage after the content before it, zeros
 * after the last member told to `onPadding`. For readers that drop a byte order mark themselves
 * (filter tests' logLines, query's check of the lines); others take logContent.
 */
export async function* decompressed(
  source: AsyncIterable<Buffer>,
  gzip = false,
  onPadding?: () => void,
): AsyncGenerator<Buffer> {
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
    if (!gzip && !startsGzip(head)) {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      return;
    }
    yield* gunzipMembers(iterator, head, onPadding);
  } finally {
    await iterator.return?.();
  }
}
