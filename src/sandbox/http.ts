import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode, type ErrorEntry, SandboxError } from "./errors.js";

/** The request's URL, or undefined when its path does not read as one (`//[`): the client's mistake. */
export function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? "/", "http://127.0.0.1");
  } catch {
    return undefined;
  }
}

/** Writes Cloudflare's success envelope. */
export function sendResult(
  response: ServerResponse,
  status: number,
  result: unknown,
  resultInfo?: Record<string, unknown>,
): void {
  const envelope: Record<string, unknown> = { result, success: true, errors: [], messages: [] };
  if (resultInfo) envelope["result_info"] = resultInfo;
  sendJson(response, status, envelope);
}

/** Writes Cloudflare's failure envelope: `result` null and the errors with their codes. */
export function sendErrors(response: ServerResponse, status: number, errors: ErrorEntry[]): void {
  sendJson(response, status, { result: null, success: false, errors, messages: [] });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

const tooLarge = (limit: number) => () =>
  new SandboxError(413, ErrorCode.bodyTooLarge, `request body is larger than the limit of ${limit} bytes`);

/** The chunks of `source`, refused with `tooLarge` once more than `limit` bytes have come. */
async function* limited(
  source: AsyncIterable<Buffer>,
  limit: number,
  tooLarge: () => Error,
): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    yield chunk;
  }
}

/**
 * How fast a body must arrive: `timeoutMs` of waiting for it, plus one second for every
 * `minBytesPerSecond` bytes received. Only the time spent waiting for the client counts (not the
 * time the sandbox spends on what came), so a slow machine never fails a fast client.
 */
export interface BodyPace {
  timeoutMs: number;
  minBytesPerSecond: number;
}

const tooSlow = (pace: BodyPace, received: number) =>
  new SandboxError(
    408,
    ErrorCode.requestTimeout,
    `request body arrived too slowly: ${received} bytes; the sandbox waits ${pace.timeoutMs / 1000} s for a body, and one more second for every ${pace.minBytesPerSecond} bytes`,
  );

/**
 * The chunks of `source`, refused with a 408 once the client has kept the sandbox waiting longer
 * than `pace` allows. The source is not destroyed then, so the refusal can still be answered on
 * the connection (which the answer closes).
 */
async function* paced(source: AsyncIterable<Buffer>, pace: BodyPace): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]();
  let waited = 0;
  let received = 0;
  for (;;) {
    const asked = performance.now();
    const allowed = pace.timeoutMs + (received * 1000) / pace.minBytesPerSecond - waited;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(tooSlow(pace, received)), Math.max(0, allowed));
    });
    const next = iterator.next();
    next.catch(() => undefined); // a body given up on may still fail later, when its socket closes
    let result: IteratorResult<Buffer>;
    try {
      result = await Promise.race([next, late]);
    } finally {
      clearTimeout(timer);
    }
    waited += performance.now() - asked;
    if (result.done) return;
    received += result.value.length;
    yield result.value;
  }
}

/**
 * The body as it arrives, refusing more than `limit` bytes (by Content-Length up front, or while
 * reading) and a client that sends slower than `pace`.
 */
export function limitedBody(request: IncomingMessage, limit: number, pace: BodyPace): AsyncGenerator<Buffer> {
  if (Number(request.headers["content-length"] ?? 0) > limit) throw tooLarge(limit)();
  return limited(paced(request, pace), limit, tooLarge(limit));
}

/** Reads the whole body, refusing more than `limit` bytes and a client slower than `pace`. */
export async function readBody(request: IncomingMessage, limit: number, pace: BodyPace): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of limitedBody(request, limit, pace)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Whether JSON text nests arrays and objects deeper than `limit` (string contents skipped; text
 * that is not JSON is JSON.parse's to report). Read before parsing: JSON.parse takes any depth,
 * but structuredClone and JSON.stringify recurse, and a value nested a few thousand levels
 * (measured: 4,000 for structuredClone, 10,000 for JSON.stringify) exhausts their stack.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** Parses a JSON body that must be an object nested at most `maxDepth` levels; an empty body is an empty object. */
export function parseJsonObject(body: Buffer, maxDepth: number): Record<string, unknown> {
  if (body.length === 0) return {};
  const text = body.toString("utf8");
  if (nestsDeeperThan(text, maxDepth))
    throw new SandboxError(
      400,
      ErrorCode.bodyTooDeep,
      `request body nests arrays and objects deeper than the limit of ${maxDepth} levels`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SandboxError(400, ErrorCode.malformedJson, "Malformed JSON in request body");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new SandboxError(
      400,
      ErrorCode.malformedJson,
      "Malformed JSON in request body: expected an object",
    );
  return value as Record<string, unknown>;
}
