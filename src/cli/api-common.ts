import {
  ApiError,
  ClientConfigError,
  type ClientOptions,
  createClient,
  type LogpushClient,
  type Plan,
  ValidationError,
} from "../api/index.js";
import type { Diagnostic } from "../diagnostics/index.js";
import { terminalText } from "../diagnostics/terminal-text.js";
import { parseCount } from "./args.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import { type CliIO, UsageError } from "./io.js";

/** The flags every API command takes. */
export const apiFlags = {
  zone: { type: "string" },
  "dry-run": { type: "boolean" },
  json: { type: "boolean" },
  "api-token": { type: "string" },
  email: { type: "string" },
  "api-key": { type: "string" },
  "base-url": { type: "string" },
  "timeout-ms": { type: "string" },
} as const;

export interface ApiFlagValues {
  zone?: string | undefined;
  "dry-run"?: boolean | undefined;
  json?: boolean | undefined;
  "api-token"?: string | undefined;
  email?: string | undefined;
  "api-key"?: string | undefined;
  "base-url"?: string | undefined;
  "timeout-ms"?: string | undefined;
}

export const apiFlagsUsage = `API options (every subcommand):
  --zone ID             the zone's ID (required)
  --dry-run             print the requests that would be sent (credentials masked as ****); send nothing
  --json                machine-readable output on stdout
  --timeout-ms N        per-request timeout (default 30000)
  --base-url URL        default CLOUDFLARE_BASE_URL, else https://api.cloudflare.com/client/v4
  --api-token T, --email E, --api-key K
                        override CLOUDFLARE_API_TOKEN / CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY
                        (flags are visible in process lists: prefer the environment)`;

export function requireZone(values: ApiFlagValues): string {
  if (values.zone === undefined || values.zone === "") throw new UsageError("--zone ID is required");
  return values.zone;
}

/** The client from the environment, with flags overriding it; a note when a secret came from a flag. */
export function clientFrom(values: ApiFlagValues, io: CliIO): LogpushClient {
  const options: ClientOptions = { env: io.env };
  if (values["api-token"] !== undefined) options.apiToken = values["api-token"];
  if (values.email !== undefined) options.email = values.email;
  if (values["api-key"] !== undefined) options.apiKey = values["api-key"];
  if (values["base-url"] !== undefined) options.baseUrl = values["base-url"];
  const timeout = parseCount(values["timeout-ms"], "--timeout-ms", 1);
  if (timeout !== undefined) options.timeoutMs = timeout;
  if (values["api-token"] !== undefined || values["api-key"] !== undefined)
    io.stderr("note: credentials given as flags are visible in process lists; prefer the environment\n");
  return createClient(options);
}

export function printNotices(io: CliIO, notices: readonly string[]): void {
  for (const notice of notices) io.stderr(`note: ${notice}\n`);
}

/** A dry run: the requests on stdout (or as JSON), notices on stderr. */
export function printPlan(io: CliIO, plan: Plan, json: boolean): void {
  if (json) {
    io.stdout(`${JSON.stringify({ dryRun: true, requests: plan.requests, notices: plan.notices })}\n`);
    return;
  }
  const blocks = plan.requests.map((request) => {
    const lines = request.note ? [`# ${request.note}`] : [];
    lines.push(`${request.method} ${request.url}`);
    for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
    if (request.body !== null) lines.push("", request.body);
    return lines.join("\n");
  });
  io.stdout(`# dry run: nothing was sent\n\n${blocks.join("\n\n")}\n`);
  printNotices(io, plan.notices);
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
          `${JSON.stringify({ ok: false, operation: error.operation, problems: error.problems, diagnostics: error.diagnostics })}\n`,
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
          `${JSON.stringify({ ok: false, operation: error.operation, failure: error.failure, status: error.status, errors: error.errors, message: error.message })}\n`,
        );
      } else {
        // The service's own words: shown with their control characters as code points.
        io.stderr(`filterc ${command}: ${terminalText(error.message)}\n`);
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
