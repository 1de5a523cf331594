import { DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS } from "../emit/index.js";
import type { CliIO } from "./io.js";

/** The limits a filter was checked against, as a command took them (flags, then filterc.json). */
export interface LimitsUsed {
  maxOperators?: number | undefined;
  maxBytes?: number | undefined;
}

/** The service's own limits, which it holds a filter it is sent to: Logpush's unless a caller's service has others. */
export const LOGPUSH_LIMITS = { maxOperators: DEFAULT_MAX_OPERATORS, maxBytes: DEFAULT_MAX_BYTES } as const;

/** Where each limit was set, as the warning names it. */
export const FLAG_LABELS = { maxOperators: "--max-operators", maxBytes: "--max-bytes" } as const;

/**
 * A warning for each limit above the service's own, for a command that sends the filter (jobs
 * create and update, the Terraform check, explorer set, tail): the options stay, for experiments,
 * but a filter checked against a greater limit is refused by the service (Logpush: error 1004).
 */
export function serviceLimitWarnings(
  used: LimitsUsed,
  service: { maxOperators: number; maxBytes: number } = LOGPUSH_LIMITS,
  labels: { maxOperators: string; maxBytes: string } = FLAG_LABELS,
): string[] {
  const warnings: string[] = [];
  if (used.maxOperators !== undefined && used.maxOperators > service.maxOperators)
    warnings.push(
      `warning: the comparison limit is ${used.maxOperators} (${labels.maxOperators}), above the service's ${service.maxOperators}: it refuses a filter with more than ${service.maxOperators} comparisons`,
    );
  if (used.maxBytes !== undefined && used.maxBytes > service.maxBytes)
    warnings.push(
      `warning: the byte limit is ${used.maxBytes} (${labels.maxBytes}), above the service's ${service.maxBytes}: it refuses a filter longer than ${service.maxBytes} bytes`,
    );
  return warnings;
}

/** serviceLimitWarnings, each on a line of stderr. */
export function warnAboveServiceLimits(io: CliIO, ...args: Parameters<typeof serviceLimitWarnings>): void {
  for (const warning of serviceLimitWarnings(...args)) io.stderr(`${warning}\n`);
}

/**
 * The warnings for a filter a command sends, each limit named where it was set: its flag, or else
 * the filterc.json of the filter's folder.
 */
export function warnForSentFilter(
  io: CliIO,
  used: LimitsUsed,
  flags: { "max-operators"?: string | undefined; "max-bytes"?: string | undefined },
): void {
  warnAboveServiceLimits(io, used, LOGPUSH_LIMITS, {
    maxOperators:
      flags["max-operators"] === undefined ? "filterc.json's maxOperators" : FLAG_LABELS.maxOperators,
    maxBytes: flags["max-bytes"] === undefined ? "filterc.json's maxBytes" : FLAG_LABELS.maxBytes,
  });
}
