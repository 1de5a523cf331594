import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, ErrorCode, type ErrorEntry } from "./errors.js";

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

/** Reads the whole body, refusing more than `limit` bytes (by Content-Length up front, or while reading). */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError(413, ErrorCode.bodyTooLarge, `request body is larger than the limit of ${limit} bytes`);
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON body that must be an object; an empty body is an empty object. */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    throw new ApiError(400, ErrorCode.malformedJson, "Malformed JSON in request body");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ApiError(400, ErrorCode.malformedJson, "Malformed JSON in request body: expected an object");
  return value as Record<string, unknown>;
}
