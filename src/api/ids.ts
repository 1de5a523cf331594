import type { ScopeKind } from "../catalog/index.js";
import { isObject } from "../diagnostics/index.js";
import { ValidationError } from "./errors.js";
import { problem } from "./problems.js";

/** Where a job lives: a zone or an account. Custom fields (rulesets) are zone-level only. */
export type JobScope = { zoneId: string } | { accountId: string };
/** A zone, by its ID: where custom fields and zone-level jobs live. */
export type ZoneScope = { zoneId: string };

/** Zone and account IDs are 32 hex digits (not the zone's name, not an account email). */
const CLOUDFLARE_ID = /^[0-9a-f]{32}$/i;

/**
 * Where a job lives once its ID was checked (by the client, or the sandbox's routes): the kind of
 * scope and its ID. `JobScope` is the same place as a caller names it.
 */
export interface ResolvedScope {
  kind: ScopeKind;
  id: string;
}

/** The path prefix of every request in a scope: `/zones/{id}` or `/accounts/{id}`. */
export const scopePath = (scope: ResolvedScope): string =>
  `/${scope.kind === "zone" ? "zones" : "accounts"}/${scope.id}`;

/** Checks the scope's ID once, up front, and gives the path prefix every request of the call uses. */
export function resolveScope(scope: JobScope, operation: string): ResolvedScope {
  // A scope that is no object (a JavaScript caller's `undefined`) names neither ID.
  const given = (isObject(scope) ? scope : {}) as { zoneId?: unknown; accountId?: unknown };
  const zone = given.zoneId !== undefined;
  const account = given.accountId !== undefined;
  if (zone === account)
    throw new ValidationError(operation, [
      problem("InvalidIdentifier", "scope", {
        what: "scope",
        value: zone ? "both zoneId and accountId" : "neither zoneId nor accountId",
        expected: "exactly one of { zoneId } and { accountId }",
      }),
    ]);
  const kind: ScopeKind = zone ? "zone" : "account";
  const id = zone ? given.zoneId : given.accountId;
  if (typeof id !== "string" || !CLOUDFLARE_ID.test(id))
    throw new ValidationError(operation, [
      problem("InvalidIdentifier", kind, {
        what: `${kind} ID`,
        value: String(id),
        expected:
          kind === "zone"
            ? "the zone's ID (32 hex digits, on the dashboard's Overview page), not its name"
            : "the account's ID (32 hex digits, in the dashboard's URL), not its name or email",
      }),
    ]);
  return { kind, id };
}

/** A job ID as paths write it: a positive whole number of at most 20 digits, without leading zeros. */
const JOB_ID = /^[1-9]\d{0,19}$/;

/** Whether `text` is a job ID as paths (and file names) write it. */
export const isJobId = (text: string): boolean => typeof text === "string" && JOB_ID.test(text);

/**
 * A job ID as the path writes it: digits, kept exact beyond 2^53 (a string or a bigint is never
 * rounded; a number must be a safe integer).
 */
export function jobId(id: number | string | bigint, operation: string): string {
  const text = String(id);
  const exact = typeof id !== "number" || Number.isSafeInteger(id);
  if (!exact || !isJobId(text))
    throw new ValidationError(operation, [
      problem("InvalidIdentifier", "id", {
        what: "job ID",
        value: text,
        expected: exact
          ? "a positive whole number"
          : "a positive whole number (give IDs beyond 2^53 as a string, a number cannot hold them exactly)",
      }),
    ]);
  return text;
}
