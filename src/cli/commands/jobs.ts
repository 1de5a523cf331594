import type { JobFilter, JobSettings, LogpushJob } from "../../api/index.js";
import { terminalJson, terminalText } from "../../diagnostics/terminal-text.js";
import {
  apiFlags,
  apiFlagsUsage,
  clientFrom,
  printFilterDiagnostics,
  printNotices,
  printPlan,
  requireZone,
  runApiAction,
} from "../api-common.js";
import { parseCommandArgs } from "../args.js";
import { compilerFlags, compilerOptionsFrom } from "../compiler-options.js";
import { type CliIO, readSource, UsageError } from "../io.js";

export const usage = `filterc jobs list --zone ID [options]
filterc jobs get|delete --zone ID --id N [options]
filterc jobs create --zone ID --name NAME --destination D --fields A,B,C [job options]
filterc jobs update --zone ID --id N [job options]

Manages the zone's Logpush jobs. create and update check every setting before anything is sent:
the destination (s3://bucket/path?region=… in full; other schemes are passed through with a note),
the fields against the dataset's catalog, and the filter, compiled with the dataset's catalog (a
filter over the limits or with type errors is refused with the compiler's diagnostics).

Job options:
  --name NAME                  the job's name
  --destination D              destination_conf, e.g. s3://bucket/logs?region=us-west-2
  --dataset NAME               default http_requests (create only; update reads the job's dataset)
  --fields A,B,C               the fields each log line carries
  --timestamps F               rfc3339 (default), unix or unixnano
  --ownership-challenge T      the token from the destination's challenge file
  --enabled, --disabled        whether the job pushes (create: enabled by default)
  --filter FILE                the filter from a file (- for standard input): source, or
                               Logpush filter JSON (checked by decompiling it)
  --expr SRC                   the filter source given inline
  --no-filter                  no filter (update: removes the job's filter)
  --catalog FILE, --no-optimize, --max-operators N, --max-bytes N   as for compile

${apiFlagsUsage}
Exit status: 0 success, 1 API or validation error, 2 usage.`;

const jobFlags = {
  ...compilerFlags,
  id: { type: "string" },
  name: { type: "string" },
  destination: { type: "string" },
  fields: { type: "string" },
  timestamps: { type: "string" },
  "ownership-challenge": { type: "string" },
  enabled: { type: "boolean" },
  disabled: { type: "boolean" },
  filter: { type: "string" },
  expr: { type: "string" },
  "no-filter": { type: "boolean" },
} as const;

const subcommands = ["list", "get", "create", "update", "delete"] as const;
type Subcommand = (typeof subcommands)[number];

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (!subcommands.includes(subcommand as Subcommand))
    throw new UsageError(
      subcommand === undefined
        ? `say ${subcommands.join(", ")}`
        : `unknown subcommand ${JSON.stringify(subcommand)}; use ${subcommands.join(", ")}`,
    );
  const sub = subcommand as Subcommand;
  const writes = sub === "create" || sub === "update";
  const { values } = parseCommandArgs(
    rest,
    writes ? { ...apiFlags, ...jobFlags } : { ...apiFlags, id: { type: "string" } },
    false,
  );
  const zone = requireZone(values);
  const id = values.id;
  if (sub !== "list" && sub !== "create" && id === undefined)
    throw new UsageError(`jobs ${sub} needs --id N`);
  if (sub === "create" && id !== undefined)
    throw new UsageError("jobs create takes no --id (the service assigns it)");
  const json = values.json === true;
  const dryRun = values["dry-run"] === true;
  const job = writes ? await jobSettingsFrom(values as JobFlagValues, io, sub) : undefined;
  return runApiAction(
    io,
    `jobs ${sub}`,
    json,
    async () => {
      const client = clientFrom(values, io);
      switch (sub) {
        case "list": {
          if (dryRun) return plan(io, client.plan.listJobs(zone), json);
          const jobs = await client.listJobs(zone);
          io.stdout(json ? `${JSON.stringify(jobs)}\n` : describeJobs(jobs));
          return 0;
        }
        case "get": {
          if (dryRun) return plan(io, client.plan.getJob(zone, id!), json);
          const job = await client.getJob(zone, id!);
          io.stdout(`${json ? JSON.stringify(job) : terminalJson(job, 2)}\n`);
          return 0;
        }
        case "delete": {
          if (dryRun) return plan(io, client.plan.deleteJob(zone, id!), json);
          const result = await client.deleteJob(zone, id!);
          io.stdout(json ? `${JSON.stringify(result)}\n` : `deleted job ${result.id}\n`);
          return 0;
        }
        case "create":
        case "update": {
          const { settings, filterName } = job!;
          if (dryRun) {
            const planned =
              sub === "create"
                ? client.plan.createJob(zone, settings)
                : client.plan.updateJob(zone, id!, settings);
            if (!json) printFilterDiagnostics(io, planned.diagnostics, planned.filterSource, filterName);
            return plan(io, planned, json);
          }
          const result =
            sub === "create"
              ? await client.createJob(zone, settings)
              : await client.updateJob(zone, id!, settings);
          if (json) {
            io.stdout(`${JSON.stringify(result)}\n`);
            return 0;
          }
          printFilterDiagnostics(io, result.diagnostics, result.filterSource, filterName);
          printNotices(io, result.notices);
          io.stdout(`${sub === "create" ? "created" : "updated"} job ${describeJob(result.job)}\n`);
          return 0;
        }
      }
    },
    job?.filterName,
  );
}

function plan(io: CliIO, planned: Parameters<typeof printPlan>[1], json: boolean): number {
  printPlan(io, planned, json);
  return 0;
}

interface JobFlagValues {
  name?: string | undefined;
  destination?: string | undefined;
  dataset?: string | undefined;
  catalog?: string | undefined;
  "no-optimize"?: boolean | undefined;
  "max-operators"?: string | undefined;
  "max-bytes"?: string | undefined;
  fields?: string | undefined;
  timestamps?: string | undefined;
  "ownership-challenge"?: string | undefined;
  enabled?: boolean | undefined;
  disabled?: boolean | undefined;
  filter?: string | undefined;
  expr?: string | undefined;
  "no-filter"?: boolean | undefined;
}

async function jobSettingsFrom(
  values: JobFlagValues,
  io: CliIO,
  sub: "create" | "update",
): Promise<{ settings: JobSettings; filterName: string }> {
  const filterFlags = [values.filter !== undefined, values.expr !== undefined, values["no-filter"] === true];
  if (filterFlags.filter(Boolean).length > 1)
    throw new UsageError("give one of --filter, --expr and --no-filter");
  if (values.enabled && values.disabled) throw new UsageError("give --enabled or --disabled, not both");
  if (sub === "create") {
    for (const flag of ["destination", "fields"] as const)
      if (values[flag] === undefined) throw new UsageError(`jobs create needs --${flag}`);
  }
  const { dataset: _dataset, ...compileOptions } = await compilerOptionsFrom(values);
  const settings: JobSettings = { compileOptions };
  if (values.dataset !== undefined) settings.dataset = values.dataset;
  if (values.name !== undefined) settings.name = values.name;
  if (values.destination !== undefined) settings.destination = values.destination;
  if (values.fields !== undefined)
    settings.fields = values.fields === "" ? [] : values.fields.split(",").map((f) => f.trim());
  if (values.timestamps !== undefined) settings.timestamps = values.timestamps;
  if (values["ownership-challenge"] !== undefined)
    settings.ownershipChallenge = values["ownership-challenge"];
  if (values.enabled || values.disabled) settings.enabled = values.enabled === true;
  let filterName = "<filter>";
  let filter: JobFilter | undefined;
  if (values.expr !== undefined) {
    filter = { source: values.expr };
    filterName = "<--expr>";
  } else if (values.filter !== undefined) {
    const input = await readSource(io, values.filter);
    // Filter JSON (an object, or the string a job stores) starts with { or "; the language never does.
    const isJson = /^\s*[{"]/.test(input.text);
    filter = isJson ? { json: input.text } : { source: input.text };
    filterName = input.name;
  } else if (values["no-filter"]) {
    filter = null;
  }
  if (filter !== undefined) settings.filter = filter;
  if (sub === "update" && Object.keys(settings).length === 1)
    throw new UsageError(
      "jobs update needs something to change (--name, --destination, --fields, --filter…)",
    );
  return { settings, filterName };
}

/** One line per job; what the service sent is shown with its control characters as code points. */
function describeJob(job: LogpushJob): string {
  const name = job.name ? ` ${JSON.stringify(job.name)}` : "";
  return terminalText(
    `${job.id}${name}: ${job.dataset ?? "?"} → ${job.destination_conf ?? "?"}${job.enabled === false ? " (disabled)" : ""}`,
  );
}

function describeJobs(jobs: readonly LogpushJob[]): string {
  if (jobs.length === 0) return "no jobs\n";
  return `${jobs.map(describeJob).join("\n")}\n`;
}
