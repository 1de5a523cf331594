import { type Diagnostic, expectArgument, isObject, isString } from "../diagnostics/index.js";

/** One entry of a Cloudflare envelope's `errors`. */
export interface EnvelopeMessage {
  code: number | null;
  message: string;
}

/**
 * Why a call failed: the service answered with an error, did not answer in time, could not be
 * reached, gave an answer that cannot be used, or other writes kept changing what this one wrote.
 */
export type ApiFailure = "http" | "timeout" | "network" | "response" | "conflict";

/**
 * A failed API call. The message names the operation, the HTTP status and the envelope's errors;
 * it never holds a credential (messages are redacted before they are stored).
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    /** What was being done, e.g. "create job". */
    readonly operation: string,
    readonly failure: ApiFailure,
    /** The HTTP status, or null when no response arrived. */
    readonly status: number | null,
    /** The envelope's `errors` (empty when the body had none). */
    readonly errors: EnvelopeMessage[],
    detail: string,
    /** The option whose bound the call reached, when that is why it failed: `maxResponseBytes`, `maxPages`, `maxConflictRetries`. */
    readonly limit?: "maxResponseBytes" | "maxPages" | "maxConflictRetries",
  ) {
    super(`${operation}: ${detail}`);
  }
}

/** A setting that fails a rule checked before anything is sent. `path` names the setting, e.g. `requestHeaders[2]`. */
export interface Problem {
  code: string;
  message: string;
  path: string;
}

/** Settings refused locally, with every problem found (nothing was sent). */
export class ValidationError extends Error {
  override readonly name = "ValidationError";
  constructor(
    readonly operation: string,
    readonly problems: Problem[],
    /** The compiler's diagnostics when the job's filter is what failed (ranges in `filterSource`). */
    readonly diagnostics: Diagnostic[] = [],
    readonly filterSource?: string,
  ) {
    const isProblems = (value: unknown): value is Problem[] =>
      Array.isArray(value) &&
      value.every((p) => isObject(p) && isString(p["path"]) && isString(p["message"]));
    expectArgument(problems, isProblems, "ValidationError", "problems", "an array of {code, message, path}");
    super(`${operation}: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`);
  }
}

/** A client that cannot send: no credentials, or a base URL that is not http(s). */
export class ClientConfigError extends Error {
  override readonly name = "ClientConfigError";
}
