import { fileProblem } from "../files/index.js";

/** One entry of the envelope's `errors`: Cloudflare's `{code, message}`, with `source.pointer` where a body member is at fault. */
export interface ErrorEntry {
  code: number;
  message: string;
  source?: { pointer: string };
}

/**
 * A failure the sandbox answers in Cloudflare's envelope with an HTTP status; never a crash of the
 * server. (The API client's ApiError is the other side: such an answer, as the client throws it.)
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly pointer?: string,
  ) {
    super(message);
  }

  entry(): ErrorEntry {
    return this.pointer === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, source: { pointer: this.pointer } };
  }
}

/**
 * The codes the sandbox answers with. Where public material shows Cloudflare's own code and
 * wording (7000, 7003, 6007, 10000, 20217, 1004) they are used; the others are the sandbox's choice.
 */
export const ErrorCode = {
  noRoute: 7000,
  methodNotAllowed: 7001,
  invalidIdentifier: 7003,
  malformedJson: 6007,
  bodyTooLarge: 6008,
  bodyTooDeep: 6009,
  malformedBody: 6010,
  busy: 6011,
  malformedRequest: 6012,
  requestTimeout: 6013,
  zoneFull: 6014,
  authentication: 10000,
  invalidJob: 1002,
  ownershipChallenge: 1003,
  badFilter: 1004,
  jobNotFound: 1005,
  explorerDatasetNotFound: 1006,
  explorerDatasetExists: 1007,
  deletionProtected: 1008,
  invalidExplorerDataset: 1009,
  instantLogsSessionActive: 1010,
  instantLogsSessionRefused: 1011,
  rulesetNotFound: 20001,
  invalidRuleset: 20021,
  phaseRulesetExists: 20217,
  internal: 10001,
  stateNotWritten: 10002,
} as const;

/** A ruleset body member with a bad value, in the rulesets API's wording ("'x' is not a valid value for kind because …"). */
export function invalidRulesetValue(pointer: string, reason: string): SandboxError {
  return new SandboxError(400, ErrorCode.invalidRuleset, reason, pointer);
}

export function invalidJob(message: string): SandboxError {
  return new SandboxError(400, ErrorCode.invalidJob, message);
}

/**
 * The file system's refusals of a state write that are the machine's, not the sandbox's: a full
 * disk, a quota, a file size limit, a read-only mount. The change is not made (the state in memory
 * follows only a write that succeeded); answered 507 in words, where a bug is a 500.
 */
const STATE_STORAGE_CODES = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EROFS"]);

export function stateNotWritten(error: unknown): SandboxError | undefined {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (typeof code !== "string" || !STATE_STORAGE_CODES.has(code)) return undefined;
  return new SandboxError(
    507,
    ErrorCode.stateNotWritten,
    `the sandbox could not write its state (${fileProblem(error)}): the change was not made`,
  );
}
