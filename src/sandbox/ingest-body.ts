import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { ApiError, ErrorCode } from "./errors.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NEWLINE = 0x0a;

/** Splits off the first `count` bytes (or all there are) of a stream, and the stream after them. */
async function peek(source: AsyncIterable<Buffer>, count: number) {
  const iterator = source[Symbol.asyncIterator]();
  let head: Buffer = Buffer.alloc(0);
  let done = false;
  while (head.length < count) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
  }
  async function* whole(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      if (done) return;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  return { head, whole: whole() };
}

/**
 * The body's content, refused with a 413 past `maxBytes` (a gzip bomb inflates a few kilobytes
 * sent to gigabytes): see `inflated`.
 */
export async function* decoded(
  source: AsyncIterable<Buffer>,
  declaredGzip: boolean,
  maxBytes: number,
): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of inflated(source, declaredGzip)) {
    size += chunk.length;
    if (size > maxBytes)
      throw new ApiError(
        413,
        ErrorCode.bodyTooLarge,
        `the body holds more than ${maxBytes} bytes once inflated, the most one ingest reads; send it in parts`,
      );
    yield chunk;
  }
}

/**
 * The body's content: gunzipped when `Content-Encoding: gzip` says so or when it starts with the
 * gzip magic bytes 1f 8b (Logpush files are gzip; several members in a row are read in turn).
 * Bad gzip is a 400; the errors of the source (its limit, a client gone) pass through as they are.
 */
async function* inflated(source: AsyncIterable<Buffer>, declaredGzip: boolean): AsyncGenerator<Buffer> {
  const { head, whole } = await peek(source, 2);
  if (!declaredGzip && !(head[0] === 0x1f && head[1] === 0x8b)) {
    yield* whole;
    return;
  }
  const input = Readable.from(whole);
  const gunzip = createGunzip();
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code.startsWith("Z_"))
      throw new ApiError(
        400,
        ErrorCode.malformedBody,
        `the body is not valid gzip: ${(error as Error).message}`,
      );
    throw error;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

/** One line of the body: its 1-based number and its text, or no text when it is longer than the limit. */
export interface BodyLine {
  number: number;
  text: string | undefined;
}

/**
 * The lines of the content, holding at most `maxLineBytes` of one line in memory: a longer line is
 * reported without its text and skipped to its end. More than `maxLines` lines (blank ones too: each
 * costs a turn) is a 413. A UTF-8 byte order mark before the first line is dropped (editors on
 * Windows write one); anywhere else its bytes belong to the line.
 */
export async function* linesOf(
  source: AsyncIterable<Buffer>,
  maxLineBytes: number,
  maxLines: number,
): AsyncGenerator<BodyLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let number = 1;
  const finish = (): BodyLine => {
    if (number > maxLines)
      throw new ApiError(
        413,
        ErrorCode.bodyTooLarge,
        `the body holds more than ${maxLines} lines, the most one ingest reads; send it in parts`,
      );
    let text: string | undefined;
    if (!tooLong) {
      let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      if (number === 1 && bytes.subarray(0, BOM.length).equals(BOM)) bytes = bytes.subarray(BOM.length);
      text = bytes.toString("utf8");
    }
    const line = { number, text };
    parts = [];
    size = 0;
    tooLong = false;
    number++;
    return line;
  };
  const add = (bytes: Buffer) => {
    if (tooLong || bytes.length === 0) return;
    size += bytes.length;
    if (size > maxLineBytes) {
      tooLong = true;
      parts = [];
    } else parts.push(bytes);
  };
  for await (const chunk of source) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      add(chunk.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    add(chunk.subarray(start));
  }
  if (size > 0 || tooLong) yield finish();
}
