import {
  DEFAULT_INSTANT_LOGS_FIELDS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type InstantLogsSettings,
  type JobFilter,
  MAX_INSTANT_LOGS_SAMPLE,
  maskedSessionAddress,
} from "../../api/index.js";
import { terminalJson } from "../../diagnostics/index.js";
import { formOf } from "../../load/index.js";
import {
  apiFlags,
  apiFlagsUsageFor,
  clientFrom,
  printFilterDiagnostics,
  printPlan,
  runApiAction,
} from "../api-common.js";
import { parseCommandArgs, parseCount, singleInput } from "../args.js";
import { compilerOptionsFrom, folderDefaults } from "../compiler-options.js";
import { type CliIO, readSource, UsageError } from "../io.js";
import { warnForSentFilter } from "../service-limits.js";
import { tailSession } from "../tail-stream.js";

/** Records waiting for a slow output, at most (then dropped and counted). */
const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export const usage = `filterc tail --zone ID [FILE|-|--expr SRC] [--fields A,B,…] [--sample N] [--max-lines N]
            [--format ndjson|table] [options]

Streams a zone's http_requests records live through Instant Logs, with a filter checked before
it is sent: the filter (source or Logpush filter JSON, from FILE, standard input with -, or
--expr) is compiled with http_requests' catalog and the Logpush limits, the fields are checked,
and only then is the session created (nothing is sent when any has an error). The records are
printed as they come: NDJSON as the service sends them (numbers exact), or a table for a person.

It ends, with a message on stderr and its exit status, when:
  0  --max-lines records were printed, or Ctrl-C (SIGINT, SIGTERM) stopped it, or the reader of
     the output went away (filterc tail | head)
  1  the session was refused: the filter or a setting has an error (nothing sent), the service
     refused the session (a zone has one at a time) or its connection, or its address is not
     wss:// (nor ws:// on this machine)
  3  the session was dropped: the connection was lost, or the service closed it otherwise
  4  the session expired: the service ended it (a session lasts at most an hour)
A record that the output cannot take in time waits, up to --max-buffered-bytes; past that it is
dropped and counted, never held. The session's address is printed masked: it is all it takes to
read the zone's records.

Options:
  --zone ID             the zone (default CLOUDFLARE_ZONE_ID); Instant Logs is zone-level
  --expr SRC            the filter source given inline (or FILE, or - for standard input)
  --fields A,B,…        the fields each record carries (default, the Instant Logs docs' own:
                        ${DEFAULT_INSTANT_LOGS_FIELDS.slice(0, 4).join(",")},
                        ${DEFAULT_INSTANT_LOGS_FIELDS.slice(4).join(",")})
  --sample N            one record in N (1, the default, is every record; at most ${MAX_INSTANT_LOGS_SAMPLE})
  --max-lines N         stop after N records
  --format F            ndjson (the default) or table (a column per field)
  --max-buffered-bytes N  bytes of records waiting for the output, at most (default ${DEFAULT_MAX_BUFFERED_BYTES})
  --max-message-bytes N   the largest message taken from the service (default ${DEFAULT_MAX_RESPONSE_BYTES});
                        a larger one drops the session
  --no-optimize, --max-operators N, --max-bytes N   as for compile
  --dry-run             print the request that would create the session; connect to nothing

${apiFlagsUsageFor("API options:", ["zone", "account", "dry-run", "json"])}Exit status: 0 stopped, 1 refused or errors, 2 usage, 3 dropped, 4 expired.`;

const flags = {
  ...apiFlags,
  expr: { type: "string" },
  fields: { type: "string" },
  sample: { type: "string" },
  "max-lines": { type: "string" },
  format: { type: "string" },
  "max-buffered-bytes": { type: "string" },
  "max-message-bytes": { type: "string" },
  "no-optimize": { type: "boolean" },
  "max-operators": { type: "string" },
  "max-bytes": { type: "string" },
} as const;

/** Resolves with the first SIGINT or SIGTERM; `release` takes the handlers away. */
function stopSignal(): { stopped: Promise<string>; release: () => void } {
  let release: () => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      release();
      resolve(signal === "SIGINT" ? "Ctrl-C" : signal);
    };
    release = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  return { stopped, release };
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, flags);
  if (values.account !== undefined)
    throw new UsageError("Instant Logs streams a zone's records: give --zone ID (not --account)");
  if (values.json) throw new UsageError("tail prints records as NDJSON already; it takes no --json");
  const zone = values.zone ?? io.env["CLOUDFLARE_ZONE_ID"];
  if (zone === undefined || zone === "")
    throw new UsageError("--zone ID is required (or CLOUDFLARE_ZONE_ID)");
  const file = singleInput(positionals, "tail");
  if (file !== undefined && values.expr !== undefined)
    throw new UsageError("give a filter FILE or --expr, not both");
  const format = values.format ?? "ndjson";
  if (format !== "ndjson" && format !== "table")
    throw new UsageError(`--format takes ndjson or table, not ${JSON.stringify(format)}`);
  const fields =
    values.fields === undefined
      ? [...DEFAULT_INSTANT_LOGS_FIELDS]
      : values.fields.split(",").map((field) => field.trim());
  const sample = parseCount(values.sample, "--sample", 1, MAX_INSTANT_LOGS_SAMPLE);
  const maxLines = parseCount(values["max-lines"], "--max-lines", 1);
  const maxBufferedBytes =
    parseCount(values["max-buffered-bytes"], "--max-buffered-bytes", 1) ?? DEFAULT_MAX_BUFFERED_BYTES;
  const maxMessageBytes =
    parseCount(values["max-message-bytes"], "--max-message-bytes", 1) ?? DEFAULT_MAX_RESPONSE_BYTES;
  const handshakeTimeoutMs = parseCount(values["timeout-ms"], "--timeout-ms", 1) ?? DEFAULT_TIMEOUT_MS;
  const { dataset: _dataset, ...compileOptions } = await compilerOptionsFrom({
    "no-optimize": values["no-optimize"],
    "max-operators": values["max-operators"],
    "max-bytes": values["max-bytes"],
  });
  let filter: JobFilter = null;
  let filterName = "<filter>";
  if (values.expr !== undefined) {
    filter = { source: values.expr };
    filterName = "<--expr>";
  } else if (file !== undefined) {
    const input = await readSource(io, file);
    filter = formOf(input.text) === "json" ? { json: input.text } : { source: input.text };
    filterName = input.name;
  }
  const defaults = await folderDefaults(io, file);
  for (const limit of ["maxOperators", "maxBytes"] as const)
    if (compileOptions[limit] === undefined && defaults[limit] !== undefined)
      compileOptions[limit] = defaults[limit];
  if (filter) warnForSentFilter(io, compileOptions, values);
  const settings: InstantLogsSettings = { fields, filter, compileOptions };
  if (sample !== undefined) settings.sample = sample;
  return runApiAction(
    io,
    "tail",
    false,
    async () => {
      const client = clientFrom(values, io);
      const where = { zoneId: zone };
      if (values["dry-run"]) {
        const plan = await client.dryRun((c) => c.createInstantLogsSession(where, settings));
        printFilterDiagnostics(io, plan.result.diagnostics, plan.result.filterSource, filterName);
        printPlan(io, plan, [], false);
        return 0;
      }
      const signal = stopSignal();
      try {
        const created = await client.createInstantLogsSession(where, settings);
        printFilterDiagnostics(io, created.diagnostics, created.filterSource, filterName);
        const { destination_conf: _address, ...session } = client.masked(created.session);
        io.stderr(
          `created the Instant Logs session ${terminalJson({ ...session, destination_conf: maskedSessionAddress(created.address) })}\n`,
        );
        return await tailSession(io, created.address, {
          format,
          fields,
          maxLines,
          maxBufferedBytes,
          maxMessageBytes,
          handshakeTimeoutMs,
          stopped: signal.stopped,
        });
      } finally {
        signal.release();
      }
    },
    filterName,
  );
}
