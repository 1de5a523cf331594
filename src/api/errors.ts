import type { Diagnostic } from "../diagnostics/index.js";

/** One entry of a Cloudflare envelope's `errors`. */
export interface EnvelopeMessage {
  code: number | null;
  message: string;
}

/** Why a call failed: the service answered with an error, did not answer in time, or could not be reached. */
export type ApiFailure = "http" | "timeout" | "network" | "response";

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
    /** The option whose bound the call reached, when that is why it failed: `maxResponseBytes`, `maxPages`. */
    readonly limit?: "maxResponseBytes" | "maxPages",
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
    super(`${operation}: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`);
  }
}

/** A client that cannot send: no credentials, or a base URL that is not http(s). */
export class ClientConfigError extends Error {
  override readonly name = "ClientConfigError";
}
