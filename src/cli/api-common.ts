import {
  ApiError,
  ClientConfigError,
  type ClientOptions,
  createClient,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type JobChange,
  type JobScope,
  type LogpushClient,
  MAX_RESPONSE_BYTES,
  MAX_TIMEOUT_MS,
  type Plan,
  ValidationError,
} from "../api/index.js";
import { type Diagnostic, terminalJson, terminalText } from "../diagnostics/index.js";
import { parseCount } from "./args.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import { type CliIO, UsageError } from "./io.js";
import { CLI_OPTION_LABELS } from "./option-labels.js";
import { usageRows } from "./usage-rows.js";

/**
 * The flags every API command takes, each with its help: what `apiFlags` gives parseArgs, the
 * values it reads and `apiFlagsUsage` are all made from it. A flag with `row` is shown in that
 * flag's row.
 */
const API_FLAGS = {
  zone: { type: "string", value: "ID", help: "the zone's ID (32 hex digits; default CLOUDFLARE_ZONE_ID)" },
  account: {
    type: "string",
    value: "ID",
    help: "the account's ID, for account-level jobs (default CLOUDFLARE_ACCOUNT_ID)",
  },
  "dry-run": {
    type: "boolean",
    help: "send only the reads a call needs; print the writes it would send (credentials masked as ****)",
  },
  json: { type: "boolean", help: "machine-readable output on stdout" },
  "timeout-ms": {
    type: "string",
    value: "N",
    help: `per-request timeout in ms (default ${DEFAULT_TIMEOUT_MS}; at most ${MAX_TIMEOUT_MS})`,
  },
  "max-retries": {
    type: "string",
    value: "N",
    help: `retries of a GET, PUT or DELETE on 429, 5xx, timeouts and network failures (default ${DEFAULT_MAX_RETRIES})`,
  },
  "max-response-bytes": {
    type: "string",
    value: "N",
    help: `the most bytes read of one response, after decompression\n(default ${DEFAULT_MAX_RESPONSE_BYTES}; at most ${MAX_RESPONSE_BYTES})`,
  },
  "max-pages": {
    type: "string",
    value: "N",
    help: `the most pages of a list read by one call (default ${DEFAULT_MAX_PAGES})`,
  },
  "base-url": { type: "string", value: "URL", help: `default CLOUDFLARE_BASE_URL, else ${DEFAULT_BASE_URL}` },
  "api-token": {
    type: "string",
    value: "T",
    help: "override CLOUDFLARE_API_TOKEN / CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY (flags are visible in process lists: prefer the environment)",
  },
  email: { type: "string", value: "E", row: "api-token" },
  "api-key": { type: "string", value: "K", row: "api-token" },
} as const;

type ApiFlagName = keyof typeof API_FLAGS;

/** The flags every API command takes, as parseArgs takes them. */
export const apiFlags = Object.fromEntries(
  Object.entries(API_FLAGS).map(([name, { type }]) => [name, { type }]),
) as { [Name in ApiFlagName]: { type: (typeof API_FLAGS)[Name]["type"] } };

type ApiFlagValues = {
  [Name in ApiFlagName]?: ((typeof API_FLAGS)[Name]["type"] extends "string" ? string : boolean) | undefined;
};

/** Where the help of an API flag starts. */
const API_FLAG_COLUMN = 24;

/** The flag of each client option a call's failure may name as the bound it reached. */
const limitFlags = {
  maxResponseBytes: "--max-response-bytes",
  maxPages: "--max-pages",
  maxConflictRetries: "--max-conflict-retries",
} as const;

const flagText = (name: string, value: string | undefined) => `--${name}${value ? ` ${value}` : ""}`;

/** The rows of the API flags' help, but those a command leaves out (tail's own --zone, its lack of --json). */
export function apiFlagsUsageFor(heading: string, leftOut: readonly ApiFlagName[] = []): string {
  return `${heading}
${usageRows(
  Object.entries(API_FLAGS).flatMap(([name, flag]) => {
    if (!("help" in flag) || leftOut.includes(name as ApiFlagName)) return [];
    const shown = Object.entries(API_FLAGS).filter(
      ([other, o]) => other === name || ("row" in o && o.row === name),
    );
    return [
      [shown.map(([other, o]) => flagText(other, "value" in o ? o.value : undefined)).join(", "), flag.help],
    ];
  }),
  API_FLAG_COLUMN,
)}`;
}

export const apiFlagsUsage = apiFlagsUsageFor("API options (every subcommand):");

/**
 * The scope of a call: `--zone` or `--account`, else CLOUDFLARE_ZONE_ID or CLOUDFLARE_ACCOUNT_ID.
 * Both, or neither, is a usage error; the ID itself is checked by the client, once, before sending.
 */
export function scopeFrom(values: ApiFlagValues, io: CliIO, zoneOnly = false): JobScope {
  const given = (flag: string | undefined) => (flag === undefined || flag === "" ? undefined : flag);
  const flagZone = given(values.zone);
  const flagAccount = given(values.account);
  if (flagZone !== undefined && flagAccount !== undefined)
    throw new UsageError("give --zone or --account, not both");
  let zone = flagZone;
  let account = flagAccount;
  if (zone === undefined && account === undefined) {
    zone = given(io.env["CLOUDFLARE_ZONE_ID"]);
    account = given(io.env["CLOUDFLARE_ACCOUNT_ID"]);
    if (zone !== undefined && account !== undefined)
      throw new UsageError(
        "both CLOUDFLARE_ZONE_ID and CLOUDFLARE_ACCOUNT_ID are set: say which with --zone or --account",
      );
  }
  if (zoneOnly && account !== undefined)
    throw new UsageError("custom fields are zone-level: give --zone ID (not --account)");
  if (zone !== undefined) return { zoneId: zone };
  if (account !== undefined) return { accountId: account };
  throw new UsageError(
    zoneOnly
      ? "--zone ID is required (or CLOUDFLARE_ZONE_ID)"
      : "--zone ID or --account ID is required (or CLOUDFLARE_ZONE_ID / CLOUDFLARE_ACCOUNT_ID)",
  );
}

/**
 * The client from the environment, with flags overriding it and a command's own `settings`; a
 * note when a secret came from a flag.
 */
export function clientFrom(values: ApiFlagValues, io: CliIO, settings: ClientOptions = {}): LogpushClient {
  const options: ClientOptions = { env: io.env, optionLabels: CLI_OPTION_LABELS, ...settings };
  if (values["api-token"] !== undefined) options.apiToken = values["api-token"];
  if (values.email !== undefined) options.email = values.email;
  if (values["api-key"] !== undefined) options.apiKey = values["api-key"];
  if (values["base-url"] !== undefined) options.baseUrl = values["base-url"];
  const timeout = parseCount(values["timeout-ms"], "--timeout-ms", 1, MAX_TIMEOUT_MS);
  if (timeout !== undefined) options.timeoutMs = timeout;
  const retries = parseCount(values["max-retries"], "--max-retries");
  if (retries !== undefined) options.maxRetries = retries;
  const bytes = parseCount(values["max-response-bytes"], "--max-response-bytes", 1, MAX_RESPONSE_BYTES);
  if (bytes !== undefined) options.maxResponseBytes = bytes;
  const pages = parseCount(values["max-pages"], "--max-pages", 1);
  if (pages !== undefined) options.maxPages = pages;
  if (values["api-token"] !== undefined || values["api-key"] !== undefined)
    io.stderr("note: credentials given as flags are visible in process lists; prefer the environment\n");
  return createClient(options);
}

export function printNotices(io: CliIO, notices: readonly string[]): void {
  for (const notice of notices) io.stderr(`note: ${terminalText(notice)}\n`);
}

/** A dry run: the requests on stdout (or as JSON), notices on stderr. */
export function printPlan(io: CliIO, plan: Plan<unknown>, notices: readonly string[], json: boolean): void {
  if (json) {
    io.stdout(`${terminalJson({ dryRun: true, requests: plan.requests, notices })}\n`);
    return;
  }
  const blocks = plan.requests.map((request) => {
    const lines = [request.sent ? "# read (sent: a dry run reads what it needs)" : "# not sent"];
    if (request.note) lines.push(`# ${request.note}`);
    lines.push(`${request.method} ${request.url}`);
    for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
    if (request.body !== null) lines.push("", request.body);
    return lines.join("\n");
  });
  const writes = plan.requests.filter((request) => !request.sent).length;
  const summary = writes === 0 ? "# dry run: nothing would be written" : "# dry run: nothing was written";
  io.stdout(`${summary}\n\n${blocks.join("\n\n")}\n`);
  printNotices(io, notices);
}

/** What an update changes, one line per value: `output_options.sample_rate: 1 → 0.5`. */
export function describeChanges(changes: readonly JobChange[]): string {
  if (changes.length === 0) return "no changes\n";
  const shown = (value: unknown) => (value === undefined ? "(unset)" : terminalJson(value));
  return changes
    .map((change) => `  ${change.path}: ${shown(change.before)} → ${shown(change.after)}\n`)
    .join("");
}

/** Filter warnings (or errors) rendered like the compiler's, against the filter's source. */
export function printFilterDiagnostics(
  io: CliIO,
  diagnostics: readonly Diagnostic[],
  source: string | undefined,
  name: string,
): void {
  if (source !== undefined) reportDiagnostics(io, diagnostics, source, name);
}

/**
 * Runs an API action and turns the API's failures into exit code 1 with what the service said:
 * the operation, HTTP status and the envelope's codes and messages; the local problems one a line.
 */
export async function runApiAction(
  io: CliIO,
  command: string,
  json: boolean,
  action: () => Promise<number>,
  filterName = "<filter>",
): Promise<number> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ValidationError) {
      if (json) {
        io.stdout(
          `${terminalJson({ ok: false, operation: error.operation, problems: error.problems, diagnostics: error.diagnostics })}\n`,
        );
      } else {
        printFilterDiagnostics(io, error.diagnostics, error.filterSource, filterName);
        for (const p of error.problems)
          io.stderr(terminalText(`error[${p.code}]: ${p.path}: ${p.message}\n`));
        io.stderr(`filterc ${command}: ${error.operation}: nothing was sent\n`);
      }
      return 1;
    }
    if (error instanceof ApiError) {
      if (json) {
        io.stdout(
          `${terminalJson({ ok: false, operation: error.operation, failure: error.failure, status: error.status, errors: error.errors, message: error.message })}\n`,
        );
      } else {
        io.stderr(`filterc ${command}: ${terminalText(error.message)}\n`);
        if (error.limit) io.stderr(`note: ${limitFlags[error.limit]} N raises the bound\n`);
      }
      return 1;
    }
    if (error instanceof ClientConfigError) {
      io.stderr(`filterc ${command}: ${terminalText(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}
