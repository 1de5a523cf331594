/**
 * Instant Logs: a zone's http_requests records streamed live. `POST /zones/{zone_id}/logpush/edge/jobs`
 * with `fields` (comma-separated), `sample` (1 is every record, 10 one in ten), `filter` (the JSON a
 * job takes) and `kind: "instant-logs"` answers a session whose `destination_conf` is the WebSocket
 * address its records arrive on, as line-delimited JSON (the official SDKs' `logpush.edge`, the
 * Instant Logs docs). The body is built and checked here, once, for the client and its dry run;
 * how a session's messages read and end is here too, for any WebSocket client (the CLI's, a
 * console's server).
 */
import { getCatalog } from "../catalog/index.js";
import type { Diagnostic } from "../diagnostics/index.js";
import { ExactNumber } from "../eval/index.js";
import { ApiError, ValidationError } from "./errors.js";
import { type ResolvedScope, scopePath } from "./ids.js";
import { checkFieldNames } from "./job-options.js";
import { compileJobFilter, type JobFilter, type JobSettings } from "./jobs.js";
import { problem } from "./problems.js";
import type { ApiRequest } from "./transport.js";

/** The one dataset Instant Logs streams. */
export const INSTANT_LOGS_DATASET = "http_requests";

/** The fields of the docs' own example, which a session gets when it names none. */
export const DEFAULT_INSTANT_LOGS_FIELDS: readonly string[] = [
  "ClientIP",
  "ClientRequestHost",
  "ClientRequestMethod",
  "ClientRequestURI",
  "EdgeEndTimestamp",
  "EdgeResponseBytes",
  "EdgeResponseStatus",
  "EdgeStartTimestamp",
  "RayID",
];

/**
 * The greatest sample filterc sends: one record in a million. The service documents no bound; past
 * this a busy zone's session would show nothing for hours.
 */
export const MAX_INSTANT_LOGS_SAMPLE = 1_000_000;

/** What a session is made from. */
export interface InstantLogsSettings {
  /** The fields each record carries (default: DEFAULT_INSTANT_LOGS_FIELDS). */
  fields?: string[];
  /** 1 (every record, the default) to MAX_INSTANT_LOGS_SAMPLE: one record in `sample`. */
  sample?: number;
  /** Compiled with http_requests' catalog before anything is sent; undefined or null: every record. */
  filter?: JobFilter;
  compileOptions?: JobSettings["compileOptions"];
}

/** A session as the service answers it (the members filterc reads; the rest kept as given). */
export interface InstantLogsSession {
  /** The WebSocket address the records arrive on (`wss://logs.cloudflare.com/instant-logs/ws/sessions/…`). */
  destination_conf?: string;
  session_id?: string;
  fields?: string;
  sample?: number;
  filter?: string;
  [key: string]: unknown;
}

/** What `createInstantLogsSession` returns. */
export interface InstantLogsResult {
  session: InstantLogsSession;
  /** The session's address, checked (see `sessionAddress`); in a dry run, a placeholder. */
  address: string;
  /** The filter's warnings, with ranges in `filterSource`. */
  diagnostics: Diagnostic[];
  filterSource: string | undefined;
}

/** The body of a session's creation, checked: fields against http_requests' catalog, the sample, the filter. */
export function instantLogsBody(
  settings: InstantLogsSettings,
  operation: string,
): { body: Record<string, unknown>; diagnostics: Diagnostic[]; filterSource: string | undefined } {
  const catalog = getCatalog(INSTANT_LOGS_DATASET)!;
  const fields = settings.fields ?? [...DEFAULT_INSTANT_LOGS_FIELDS];
  const sample = settings.sample ?? 1;
  const problems = checkFieldNames(fields, catalog, "fields");
  if (!Number.isSafeInteger(sample) || sample < 1 || sample > MAX_INSTANT_LOGS_SAMPLE)
    problems.push(
      problem("InvalidInstantLogsSample", "sample", { value: String(sample), most: MAX_INSTANT_LOGS_SAMPLE }),
    );
  const compiled = compileJobFilter(settings.filter ?? null, catalog, INSTANT_LOGS_DATASET, settings);
  if (!compiled.ok) {
    const errors = compiled.diagnostics.filter((d) => d.severity === "error").length;
    problems.push(problem("InvalidFilter", "filter", { errors }));
    throw new ValidationError(operation, problems, compiled.diagnostics, compiled.source);
  }
  if (problems.length > 0) throw new ValidationError(operation, problems);
  return {
    body: { fields: fields.join(","), sample, filter: compiled.json ?? "", kind: "instant-logs" },
    diagnostics: compiled.diagnostics,
    filterSource: compiled.source,
  };
}

/** The requests of the Instant Logs jobs API (zone-level only). */
export const instantLogsRequests = {
  create: (scope: ResolvedScope, body: Record<string, unknown>, operation: string): ApiRequest => ({
    operation,
    method: "POST",
    path: `${scopePath(scope)}/logpush/edge/jobs`,
    body,
    expects: "object",
  }),
  list: (scope: ResolvedScope, operation: string): ApiRequest => ({
    operation,
    method: "GET",
    path: `${scopePath(scope)}/logpush/edge/jobs`,
    expects: "array",
  }),
};

/** Hosts whose unencrypted `ws://` address stays on this machine (the sandbox's). */
const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * The session's WebSocket address, checked before anything connects to it: `wss://`, or `ws://` on
 * this machine only (records are a zone's traffic: they never travel unencrypted).
 */
export function sessionAddress(session: InstantLogsSession, operation: string): string {
  const given = session.destination_conf;
  const refuse = (why: string) =>
    new ApiError(operation, "response", 200, [], `the session's address ${why}; not connected`);
  if (typeof given !== "string" || given === "") throw refuse("is missing (destination_conf)");
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw refuse("is not a URL");
  }
  if (url.protocol === "wss:" || (url.protocol === "ws:" && LOOPBACK.has(url.hostname))) return url.href;
  throw refuse(`is ${maskedSessionAddress(given)}, not a wss:// address (nor ws:// on this machine)`);
}

/**
 * A session's address fit to show: the session's own part (its last path segment, and any query)
 * masked, as anyone who has the address can read the zone's records.
 */
export function maskedSessionAddress(address: string): string {
  return address.replace(/\?.*$/s, "?****").replace(/\/[^/?]+(?=\?|$)/, "/****");
}

/** The records of one message: its lines (line-delimited JSON), blank ones left out, `\r` dropped. */
export function sessionRecords(message: string): string[] {
  return message
    .split("\n")
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line.trim() !== "");
}

/**
 * A record's value as a table's cell shows it (`filterc tail --format table`, the console's live
 * table): text as it is, numbers as written (exact, as `parseRecord` reads them), `-` for a value
 * missing or null, anything else as JSON.
 */
export function recordCell(value: unknown): string {
  if (value === undefined || value === null) return "-";
  if (typeof value === "string") return value;
  if (value instanceof ExactNumber) return value.text;
  return JSON.stringify(value, (_key, inner) => (inner instanceof ExactNumber ? Number(inner.text) : inner));
}

/** How a session ended, by who closed its WebSocket and how. */
export type SessionEnding = "stopped" | "expired" | "dropped";

/**
 * How a session ended from the code of its WebSocket's close: closed by this side (`stopped`), or
 * by the service normally (1000, 1001: `expired`, its time is up or it ended the session), or
 * otherwise, the connection lost (1006) among them (`dropped`).
 */
export function sessionEnding(code: number, closedHere: boolean): SessionEnding {
  if (closedHere) return "stopped";
  return code === 1000 || code === 1001 ? "expired" : "dropped";
}
