import { resolve } from "node:path";
import { MAX_TIMEOUT_MS } from "../../api/index.js";
import { terminalText } from "../../diagnostics/index.js";
import {
  API_PREFIX,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_DATA_DIR,
  DEFAULT_INSTANT_LOGS_OPTIONS,
  DEFAULT_MAX_INGEST_INFLATED_BYTES,
  DEFAULT_MAX_INGEST_LINES,
  DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  DEFAULT_PORT,
  DEFAULT_SHUTDOWN_GRACE_MS,
  startSandbox,
} from "../../sandbox/index.js";
import { parseCommandArgs, parseCount } from "../args.js";
import {
  CUSTOM_FIELDS_LIMIT_USAGE,
  customFieldsLimitFlag,
  customFieldsLimitFrom,
} from "../custom-fields-limit.js";
import { type CliIO, UsageError, UserError } from "../io.js";

const MIB = 1024 * 1024;
/** An ingest's inflated bytes are counted in a JavaScript number: far below 2^53. */
const MAX_INGEST_MIB = 1024 * 1024;

export const usage = `filterc sandbox [options]

Serves a local Logpush and rulesets API on 127.0.0.1 under ${API_PREFIX}, with its state in a data
directory, and plays the push: POST NDJSON log records to
${API_PREFIX}/zones/ZONE_ID/sandbox/ingest (or /accounts/ACCOUNT_ID/…?dataset=NAME) and every
enabled job of that dataset writes its records, filtered, sampled and formatted by its
output_options, in gzip files batched by its upload limits, to its s3://bucket/path destination,
mapped to DATA_DIR/bucket/path. It plays Log Explorer's ingestion filters (what a dataset would keep
goes to DATA_DIR/_explorer/) and Instant Logs: a session's records stream over a WebSocket on
127.0.0.1 from each ingest of the zone's http_requests.

Options:
  --port N              port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --data-dir DIR        state and pushed files (default ${DEFAULT_DATA_DIR})
  --api-token T         accept Authorization: Bearer T (or CLOUDFLARE_API_TOKEN)
  --email E --api-key K accept X-Auth-Email E with X-Auth-Key K (or CLOUDFLARE_EMAIL, CLOUDFLARE_API_KEY)
  --shutdown-grace S    on SIGINT or SIGTERM, seconds requests under way get to finish (default ${DEFAULT_SHUTDOWN_GRACE_MS / 1000})
  --sample-seed N       the seed of output_options.sample_rate's sample, for the same records
                        every run (default: a random one)
  --max-ingest-lines N  lines one ingest may hold, blank ones included (default ${DEFAULT_MAX_INGEST_LINES})
  --max-ingest-mib N    MiB of NDJSON one ingest may hold once inflated (default ${DEFAULT_MAX_INGEST_INFLATED_BYTES / MIB})
  --max-instant-logs-sessions N  Instant Logs sessions open at once, across zones (default ${DEFAULT_INSTANT_LOGS_OPTIONS.maxSessions})
  --instant-logs-minutes N       how long an Instant Logs session lasts (default ${DEFAULT_INSTANT_LOGS_OPTIONS.maxSessionMs / 60_000}, the service's)
  --body-timeout S      seconds a request body may keep the sandbox waiting, plus one for every
                        ${DEFAULT_MIN_BODY_BYTES_PER_SECOND / 1024} KiB that came (default ${DEFAULT_BODY_TIMEOUT_MS / 1000})
${CUSTOM_FIELDS_LIMIT_USAGE}
With no credentials, a random API token is made and printed. On SIGINT or SIGTERM it stops accepting
connections, lets requests under way finish within the grace period, closes the rest and exits 0.
Exit status: 0 stopped, 1 could not start, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs(
    argv,
    {
      port: { type: "string" },
      "data-dir": { type: "string" },
      "api-token": { type: "string" },
      email: { type: "string" },
      "api-key": { type: "string" },
      "shutdown-grace": { type: "string" },
      "sample-seed": { type: "string" },
      "max-ingest-lines": { type: "string" },
      "max-ingest-mib": { type: "string" },
      "body-timeout": { type: "string" },
      "max-instant-logs-sessions": { type: "string" },
      "instant-logs-minutes": { type: "string" },
      ...customFieldsLimitFlag,
    },
    false,
  );
  for (const flag of ["api-token", "email", "api-key", "data-dir"] as const)
    if (values[flag] === "") throw new UsageError(`--${flag} is empty; give a value`);
  const graceSeconds =
    parseCount(values["shutdown-grace"], "--shutdown-grace", 0, Math.floor(MAX_TIMEOUT_MS / 1000)) ??
    DEFAULT_SHUTDOWN_GRACE_MS / 1000;
  const port = parseCount(values.port, "--port") ?? DEFAULT_PORT;
  const sampleSeed = parseCount(values["sample-seed"], "--sample-seed");
  const maxIngestLines = parseCount(values["max-ingest-lines"], "--max-ingest-lines", 1);
  const maxIngestMib = parseCount(values["max-ingest-mib"], "--max-ingest-mib", 1, MAX_INGEST_MIB);
  const bodyTimeoutSeconds = parseCount(
    values["body-timeout"],
    "--body-timeout",
    1,
    Math.floor(MAX_TIMEOUT_MS / 1000),
  );
  const maxInstantLogsSessions = parseCount(
    values["max-instant-logs-sessions"],
    "--max-instant-logs-sessions",
    1,
    10_000,
  );
  const instantLogsMinutes = parseCount(
    values["instant-logs-minutes"],
    "--instant-logs-minutes",
    1,
    Math.floor(MAX_TIMEOUT_MS / 60_000),
  );
  if (port > 65535) throw new UsageError(`--port takes a port number up to 65535, not ${port}`);
  const apiToken = values["api-token"] ?? io.env["CLOUDFLARE_API_TOKEN"];
  const apiEmail = values.email ?? io.env["CLOUDFLARE_EMAIL"];
  const apiKey = values["api-key"] ?? io.env["CLOUDFLARE_API_KEY"];
  if ((values.email === undefined) !== (values["api-key"] === undefined))
    throw new UsageError("--email and --api-key go together");
  const dataDir = values["data-dir"] ?? DEFAULT_DATA_DIR;
  const customFieldsLimit = customFieldsLimitFrom(values);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      port,
      dataDir: resolve(io.cwd, dataDir),
      ...(apiToken ? { apiToken } : {}),
      ...(apiEmail && apiKey ? { apiEmail, apiKey } : {}),
      shutdownGraceMs: graceSeconds * 1000,
      customFieldsLimit,
      ...(sampleSeed !== undefined ? { sampleSeed } : {}),
      ...(maxIngestLines !== undefined ? { maxIngestLines } : {}),
      ...(maxIngestMib !== undefined ? { maxIngestInflatedBytes: maxIngestMib * MIB } : {}),
      ...(bodyTimeoutSeconds !== undefined ? { bodyTimeoutMs: bodyTimeoutSeconds * 1000 } : {}),
      ...(maxInstantLogsSessions !== undefined ? { maxInstantLogsSessions } : {}),
      ...(instantLogsMinutes !== undefined ? { instantLogsSessionMs: instantLogsMinutes * 60_000 } : {}),
      log: (line) => io.stderr(`${line}\n`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(
      code === "EADDRINUSE" ? `port ${port} is in use; choose another with --port` : (error as Error).message,
    );
  }
  io.stdout(`filterc sandbox listening on ${sandbox.url}${API_PREFIX}\n`);
  io.stdout(`data directory: ${terminalText(dataDir)}\n`);
  if (sandbox.token !== undefined) io.stdout(`API token (generated): ${sandbox.token}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await sandbox.close();
  io.stdout("filterc sandbox stopped\n");
  return 0;
}
