import { InputDamage, logContent, type TextLine, textLines } from "../logs/index.js";
import { ErrorCode, SandboxError } from "./errors.js";

/**
 * The body's content, read as eval reads a log (see logContent): gunzipped when
 * `Content-Encoding: gzip` says so or when it starts with the gzip magic bytes (Logpush files are
 * gzip; several members in a row are read in turn), a leading byte order mark dropped. Refused
 * with a 413 past `maxBytes` (a gzip bomb inflates a few kilobytes sent to gigabytes); bad gzip is
 * a 400. The errors of the source (its limit, a client gone) pass through as they are.
 */
export async function* decoded(
  source: AsyncIterable<Buffer>,
  declaredGzip: boolean,
  maxBytes: number,
): AsyncGenerator<Buffer> {
  let size = 0;
  try {
    for await (const chunk of logContent(source, declaredGzip)) {
      size += chunk.length;
      if (size > maxBytes)
        throw new SandboxError(
          413,
          ErrorCode.bodyTooLarge,
          `the body holds more than ${maxBytes} bytes once inflated, the most one ingest reads; send it in parts`,
        );
      yield chunk;
    }
  } catch (error) {
    if (error instanceof InputDamage)
      throw new SandboxError(400, ErrorCode.malformedBody, `the body is not valid gzip: ${error.message}`);
    throw error;
  }
}

/**
 * The lines of the content, holding at most `maxLineBytes` of one line in memory (see textLines).
 * More than `maxLines` lines (blank ones too: each costs a turn) is a 413.
 */
export async function* linesOf(
  source: AsyncIterable<Buffer>,
  maxLineBytes: number,
  maxLines: number,
): AsyncGenerator<TextLine> {
  for await (const line of textLines(source, maxLineBytes)) {
    if (line.number > maxLines)
      throw new SandboxError(
        413,
        ErrorCode.bodyTooLarge,
        `the body holds more than ${maxLines} lines, the most one ingest reads; send it in parts`,
      );
    yield line;
  }
}
