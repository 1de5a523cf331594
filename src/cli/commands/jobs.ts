import {
  DEFAULT_TIMESTAMPS,
  type DestinationAnswer,
  JOB_OPTIONS,
  type JobFilter,
  type JobOption,
  type JobOptionFlag,
  type JobResult,
  type JobScope,
  type JobSettings,
  LOGPULL_TIMESTAMP_FORMATS,
  type LogpushClient,
  OUTPUT_TYPES,
  type OutputOptions,
  TIMESTAMP_FORMATS,
} from "../../api/index.js";
import { DEFAULT_DATASET, getCatalog, knownDatasets } from "../../catalog/index.js";
import { DEFAULT_MAX_SEARCH_STEPS } from "../../check/index.js";
import { excerpt } from "../../decompile/index.js";
import { terminalJson } from "../../diagnostics/index.js";
import { formOf } from "../../load/index.js";
import { readDirective, scan } from "../../syntax/index.js";
import {
  apiFlags,
  apiFlagsUsage,
  clientFrom,
  describeChanges,
  printFilterDiagnostics,
  printNotices,
  printPlan,
  runApiAction,
  scopeFrom,
} from "../api-common.js";
import { parseCommandArgs, parseCount, subcommandOf } from "../args.js";
import { compilerFlags, compilerOptionsFrom, folderDefaults } from "../compiler-options.js";
import { type CliIO, readSource, UsageError, UserError } from "../io.js";
import { diffJobs, pullJobs } from "../job-drift.js";
import { describeJob, describeJobs } from "../job-listing.js";
import { oneLine } from "../served-text.js";
import { warnForSentFilter } from "../service-limits.js";
import { usageRows } from "../usage-rows.js";

/** Where the help of a job option starts. */
const JOB_FLAG_COLUMN = 31;

/** The job options set one to one from a flag, from the table of job options. */
const tableOptions = JOB_OPTIONS.filter(
  (option): option is JobOption & { setting: string; flag: JobOptionFlag } =>
    option.setting !== undefined && option.flag !== undefined,
);

function tableFlagRows(): [string, string][] {
  return tableOptions.map(({ flag }) => [
    flag.off ? `${flag.name}, ${flag.off}` : `${flag.name}${flag.value ? ` ${flag.value}` : ""}`,
    flag.help,
  ]);
}

/** `a, b or c`. */
const listed = (items: readonly string[]) => `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;

const timestampsHelp = listed(
  TIMESTAMP_FORMATS.map((format) =>
    format === DEFAULT_TIMESTAMPS ? `${format} (create's default)` : format,
  ),
);

export const usage = `filterc jobs list [--zone ID | --account ID] [options]
filterc jobs get|delete|enable|disable --id N [--zone ID | --account ID] [options]
filterc jobs create --destination D --fields A,B,C|--logpull-options S [--zone ID | --account ID] [job options]
filterc jobs update --id N [--zone ID | --account ID] [job options]
filterc jobs ownership --destination D [--zone ID | --account ID]
filterc jobs validate --destination D [--ownership-challenge-file F] [--zone ID | --account ID]
filterc jobs pull [--dir D] [--zone ID | --account ID]
filterc jobs diff [--dir D] [--max-steps N] [--zone ID | --account ID]

Manages Logpush jobs of a zone or an account. create and update check every setting before anything
is sent: the dataset against the scope, the destination, the fields against the dataset's catalog,
every output option and upload limit, and the filter, compiled with the dataset's catalog.
"ls" is list; a deletion is only ever spelt "delete".

A new job takes output_options, or with --logpull-options the older form's string, checked and
sent exactly as given. A destination that needs an ownership challenge (S3 without keys, Cloud
Storage, Azure, Sumo Logic) is refused without its token. A job that selects RequestHeaders,
ResponseHeaders or Cookies while the zone logs no custom fields into it gets a note.

update reads the job, applies only the named changes and sends the complete output_options (the
service's PUT replaces it whole, so anything left out would reset); it prints what changes, field by
field, and sends nothing when nothing changes. An update keeps the job's form: a logpull_options job
gets its string back with --fields, --timestamps (${LOGPULL_TIMESTAMP_FORMATS.join(", ")}) and --sample-rate
written at their keys, and an option only output_options has is refused until --to-output-options
converts the job. enable and disable are updates of "enabled".

ownership asks the service to write a challenge file into the destination and prints the file's
name; read the token from it and give it with --ownership-challenge-file. validate asks the service
to check the destination (and the challenge, when given) and whether a job already pushes there.

pull writes each job's filter into D (default .) as a formatted job-ID-NAME.lpf file whose first
line names the job, whose "# dataset:" line its dataset, and whose "# setting KEY: JSON" lines
its other settings (name, destination_conf with its credentials masked, enabled, output_options or
logpull_options, the upload limits…); diff compares those files with the live jobs, the filter by
meaning (as filterc diff does) and each setting a file holds exactly, and lists the jobs that
really changed, with a record only one side keeps and each setting that differs, live jobs
without a file and files whose job is gone. A setting line removed from a file is not compared. A job no file
can hold (its id not a job ID or listed twice, its filter not a string, its dataset not a
dataset's name) and a file that cannot be read are reported, and the others still written and
compared. diff exits like terraform plan -detailed-exitcode: 0 nothing changed, 2 changes, 1
errors.

What the service answers is printed with every credential masked as ****: the API's, and those
of destinations (the job's, and the one a call sends), in whatever form the service echoes them.
--show-secrets prints the destinations' as they are (never the API's); a pulled file holds the
destination masked.

Job options:
${usageRows(tableFlagRows(), JOB_FLAG_COLUMN)}
  --dataset NAME               create only (see filterc datasets); default: the filter's
                               # dataset:, else the nearest filterc.json's, else ${DEFAULT_DATASET}
  --fields A,B,C               the fields each record carries (output_options.field_names)
  --timestamps F               ${timestampsHelp}
  --output-type T              ${listed(OUTPUT_TYPES)}
  --sample-rate R              the share of records pushed, in (0, 1]
  --record-template T          a Go template of each record: {{ .Field }} and {{ "text" }}
  --output-options FILE|JSON   the output_options object (update: merged over the job's own)
  --logpull-options S          the older form instead of output_options, sent as given:
                               fields=A,B&timestamps=rfc3339 (keys fields, timestamps, sample,
                               CVE-2021-44228)
  --to-output-options          update: move a logpull_options job to output_options, with its
                               fields, timestamps, sample and redaction
  --ownership-challenge T      the token from the destination's challenge file
  --ownership-challenge-file F that token, read from a file
  --filter FILE                the filter from a file (- for standard input): source, or
                               Logpush filter JSON (checked by decompiling it)
  --expr SRC                   the filter source given inline
  --no-filter                  no filter (update: removes the job's filter)
  --catalog FILE, --no-optimize, --max-operators N, --max-bytes N   as for compile
  --show-secrets               the destinations' credentials in what is printed (all but pull, diff)

${apiFlagsUsage}
Exit status: 0 success, 1 API or validation error, 2 usage (jobs diff: 2 changes).`;

const jobFlags = {
  ...compilerFlags,
  ...Object.fromEntries(
    tableOptions.flatMap(({ flag }) => [
      [flag.name.slice(2), { type: flag.value === undefined ? "boolean" : "string" }] as const,
      ...(flag.off ? [[flag.off.slice(2), { type: "boolean" }] as const] : []),
    ]),
  ),
  fields: { type: "string" },
  timestamps: { type: "string" },
  "output-type": { type: "string" },
  "sample-rate": { type: "string" },
  "record-template": { type: "string" },
  "output-options": { type: "string" },
  "logpull-options": { type: "string" },
  "to-output-options": { type: "boolean" },
  "ownership-challenge": { type: "string" },
  "ownership-challenge-file": { type: "string" },
  filter: { type: "string" },
  expr: { type: "string" },
  "no-filter": { type: "boolean" },
} as const;

const idFlag = { id: { type: "string" } } as const;

/** Every subcommand that prints what the service answers (all but pull and diff, which print no destination). */
const showSecretsFlag = { "show-secrets": { type: "boolean" } } as const;

const driftFlags = { dir: { type: "string" }, "max-steps": { type: "string" } } as const;

const destinationFlags = {
  destination: { type: "string" },
  "ownership-challenge": { type: "string" },
  "ownership-challenge-file": { type: "string" },
} as const;

const subcommands = [
  "list",
  "get",
  "create",
  "update",
  "delete",
  "enable",
  "disable",
  "ownership",
  "validate",
  "pull",
  "diff",
] as const;
type Subcommand = (typeof subcommands)[number];

const needsId: ReadonlySet<Subcommand> = new Set(["get", "update", "delete", "enable", "disable"]);

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [word, ...rest] = argv;
  // ls is list, as people type it for a read; a deletion is only ever spelt out (no rm).
  const sub = subcommandOf(
    word,
    subcommands,
    { ls: "list" },
    { rm: "did you mean delete? (jobs delete --id N)" },
  );
  const writes = sub === "create" || sub === "update";
  const destinationCall = sub === "ownership" || sub === "validate";
  const drift = sub === "pull" || sub === "diff";
  const flags = writes
    ? { ...apiFlags, ...showSecretsFlag, ...jobFlags, ...idFlag }
    : destinationCall
      ? { ...apiFlags, ...showSecretsFlag, ...destinationFlags }
      : drift
        ? { ...apiFlags, ...driftFlags }
        : { ...apiFlags, ...showSecretsFlag, ...idFlag };
  const { values } = parseCommandArgs(rest, flags, false);
  const given = values as Record<string, string | boolean | undefined>;
  const scope = scopeFrom(values, io);
  const id = given["id"] as string | undefined;
  if (needsId.has(sub) && id === undefined) throw new UsageError(`jobs ${sub} needs --id N`);
  if (sub === "create" && id !== undefined)
    throw new UsageError("jobs create takes no --id (the service assigns it)");
  const json = values.json === true;
  const dryRun = values["dry-run"] === true;
  const job = writes ? await jobSettingsFrom(given, io, sub) : undefined;
  const destination = destinationCall ? await destinationFrom(given, io, sub) : undefined;
  const dir = (given["dir"] as string | undefined) ?? ".";
  const maxSearchSteps =
    parseCount(given["max-steps"] as string | undefined, "--max-steps") ?? DEFAULT_MAX_SEARCH_STEPS;
  if (drift && dryRun) throw new UsageError(`jobs ${sub} only reads jobs; it takes no --dry-run`);
  return runApiAction(
    io,
    `jobs ${sub}`,
    json,
    async () => {
      const client = clientFrom(values, io);
      // What the service answers is shown with every credential masked, unless --show-secrets:
      // the job's destination, and the one this call sends, in whatever form the service echoes.
      const sent = destination?.destination ?? job?.settings.destination;
      const shown = <T>(answer: T): T =>
        client.masked(answer, {
          destinations: sent === undefined ? [] : [sent],
          showDestinations: given["show-secrets"] === true,
        });
      const output = { io, client, dryRun, json, shown };
      switch (sub) {
        case "list":
          return read(output, (c) => c.listJobs(scope), describeJobs);
        case "get":
          return read(
            output,
            (c) => c.getJob(scope, id!),
            (got) => `${terminalJson(got, 2)}\n`,
          );
        case "delete":
          return read(
            output,
            (c) => c.deleteJob(scope, id!),
            (result) => `deleted job ${oneLine(String(result.id))}\n`,
          );
        case "pull":
          return pullJobs(io, client, scope, dir, json);
        case "diff":
          return diffJobs(io, client, scope, dir, json, maxSearchSteps);
        case "ownership":
        case "validate":
          return destinationCommand(output, scope, sub, destination!);
        case "create":
        case "update":
        case "enable":
        case "disable": {
          const settings = job?.settings ?? { enabled: sub === "enable" };
          const call = (c: LogpushClient) =>
            sub === "create" ? c.createJob(scope, settings) : c.updateJob(scope, id!, settings);
          const filterName = job?.filterName ?? "<filter>";
          if (dryRun) {
            const plan = await client.dryRun(call);
            if (!json)
              printFilterDiagnostics(io, plan.result.diagnostics, plan.result.filterSource, filterName);
            printPlan(io, plan, plan.result.notices, json);
            if (!json && sub !== "create")
              io.stdout(`\n# changes\n${describeChanges(shown(plan.result.changes))}`);
            return 0;
          }
          const answer = await call(client);
          const result = shown(answer);
          if (json) {
            io.stdout(`${terminalJson(result)}\n`);
            return 0;
          }
          // The filter is the caller's own, and its diagnostics' ranges are in it as given.
          printFilterDiagnostics(io, answer.diagnostics, answer.filterSource, filterName);
          printNotices(io, result.notices);
          io.stdout(written(sub, result));
          return 0;
        }
      }
    },
    job?.filterName,
  );
}

function written(sub: "create" | "update" | "enable" | "disable", result: JobResult): string {
  if (sub === "create") return `created job ${describeJob(result.job)}\n`;
  if (result.changes.length === 0) return `job ${describeJob(result.job)} unchanged\n`;
  return `updated job ${describeJob(result.job)}\n${describeChanges(result.changes)}`;
}

/** Where a subcommand prints, and how: `shown` masks what the service answered. */
interface Output {
  io: CliIO;
  client: LogpushClient;
  dryRun: boolean;
  json: boolean;
  shown: <T>(answer: T) => T;
}

/** A call without settings: its result printed (or, in a dry run, the requests it would send). */
async function read<R>(
  { io, client, dryRun, json, shown }: Output,
  call: (client: LogpushClient) => Promise<R>,
  describe: (result: R) => string,
): Promise<number> {
  if (dryRun) {
    printPlan(io, await client.dryRun(call), [], json);
    return 0;
  }
  const result = shown(await call(client));
  io.stdout(json ? `${terminalJson(result)}\n` : describe(result));
  return 0;
}

interface DestinationRequest {
  destination: string;
  challenge: string | undefined;
}

async function destinationFrom(
  values: Record<string, string | boolean | undefined>,
  io: CliIO,
  sub: "ownership" | "validate",
): Promise<DestinationRequest> {
  const destination = values["destination"] as string | undefined;
  if (destination === undefined) throw new UsageError(`jobs ${sub} needs --destination D`);
  const challenge = await challengeFrom(values, io);
  if (sub === "ownership" && challenge !== undefined)
    throw new UsageError("jobs ownership requests a challenge; check a token with jobs validate");
  return { destination, challenge };
}

async function destinationCommand(
  { io, client, dryRun, json, shown }: Output,
  scope: JobScope,
  sub: "ownership" | "validate",
  { destination, challenge }: DestinationRequest,
): Promise<number> {
  const call = async (c: LogpushClient) => {
    if (sub === "ownership") return { ownership: await c.requestOwnership(scope, destination) };
    const answers: Record<string, DestinationAnswer> = {
      destination: await c.validateDestination(scope, destination),
      exists: await c.destinationExists(scope, destination),
    };
    if (challenge !== undefined)
      answers["challenge"] = await c.validateOwnership(scope, destination, challenge);
    return answers;
  };
  if (dryRun) {
    printPlan(io, await client.dryRun(call), [], json);
    return 0;
  }
  const answers = shown(await call(client));
  if (json) {
    io.stdout(`${terminalJson(answers)}\n`);
    return 0;
  }
  const {
    ownership,
    destination: checked,
    exists,
    challenge: token,
  } = answers as Record<string, DestinationAnswer>;
  const lines: string[] = [];
  // The service's words, one line each: a message or file name may hold any character.
  const said = (text: unknown, none: string) =>
    typeof text === "string" && text !== "" ? oneLine(text) : none;
  if (ownership) {
    if (ownership.valid === false)
      throw new UserError(`the service refused the challenge: ${said(ownership.message, "no reason given")}`);
    lines.push(
      `the service wrote the challenge file ${said(ownership.filename, "(no file name given)")} into the destination`,
      "read the token from that file and give it to jobs create with --ownership-challenge-file FILE",
    );
  }
  if (checked)
    lines.push(
      `destination: ${checked.valid === false ? `not valid (${said(checked.message, "no reason given")})` : "valid"}`,
    );
  if (exists) lines.push(`a job already pushes there: ${exists.exists ? "yes" : "no"}`);
  if (token) lines.push(`ownership challenge: ${token.valid ? "valid" : "not valid"}`);
  io.stdout(`${lines.join("\n")}\n`);
  const refused = checked?.valid === false || token?.valid === false;
  return refused ? 1 : 0;
}

async function challengeFrom(
  values: Record<string, string | boolean | undefined>,
  io: CliIO,
): Promise<string | undefined> {
  const token = values["ownership-challenge"] as string | undefined;
  const file = values["ownership-challenge-file"] as string | undefined;
  if (token !== undefined && file !== undefined)
    throw new UsageError("give --ownership-challenge or --ownership-challenge-file, not both");
  if (file === undefined) return token;
  const text = (await readSource(io, file)).text.trim();
  if (text === "") throw new UserError(`the ownership challenge file ${JSON.stringify(file)} is empty`);
  return text;
}

/** A number where the flag's text is one; otherwise the text, for the job checks to refuse by name. */
function numberOrText(text: string): number | string {
  return /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(text.trim()) ? Number(text) : text;
}

/**
 * The settings the table's flags give, each as its option takes it: a boolean from its on and off
 * flags, an upload limit as a number, the rest as text (the job checks refuse a wrong value by name).
 */
function tableSettings(values: Record<string, string | boolean | undefined>): Partial<JobSettings> {
  const settings: Record<string, unknown> = {};
  for (const { flag, setting, value: rule } of tableOptions) {
    const given = values[flag.name.slice(2)];
    if (flag.off) {
      const off = values[flag.off.slice(2)] === true;
      if (given === true && off) throw new UsageError(`give ${flag.name} or ${flag.off}, not both`);
      if (given === true || off) settings[setting] = given === true;
    } else if (typeof given === "string")
      settings[setting] = rule.type === "limit" ? numberOrText(given) : given;
  }
  return settings as Partial<JobSettings>;
}

async function outputOptionsFrom(text: string, io: CliIO): Promise<OutputOptions> {
  const input = /^\s*\{/.test(text) ? { text, name: "--output-options" } : await readSource(io, text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.text);
  } catch (error) {
    throw new UserError(`--output-options: ${input.name} is not JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new UserError(
      `--output-options takes a JSON object of output options, not ${Array.isArray(parsed) ? "a list" : JSON.stringify(parsed)}`,
    );
  return parsed as OutputOptions;
}

async function jobSettingsFrom(
  values: Record<string, string | boolean | undefined>,
  io: CliIO,
  sub: "create" | "update",
): Promise<{ settings: JobSettings; filterName: string }> {
  const text = (flag: string) => values[flag] as string | undefined;
  const filterFlags = [
    values["filter"] !== undefined,
    values["expr"] !== undefined,
    values["no-filter"] === true,
  ];
  if (filterFlags.filter(Boolean).length > 1)
    throw new UsageError("give one of --filter, --expr and --no-filter");
  if (sub === "create" && text("destination") === undefined)
    throw new UsageError("jobs create needs --destination");
  const outputFlags = [
    "fields",
    "timestamps",
    "output-type",
    "sample-rate",
    "record-template",
    "output-options",
  ];
  if (text("logpull-options") !== undefined && outputFlags.some((flag) => text(flag) !== undefined))
    throw new UsageError(
      "give --logpull-options, or the output flags (--fields, --timestamps, --output-options…), not both: the service ignores logpull_options beside output_options",
    );
  if (
    sub === "create" &&
    text("fields") === undefined &&
    text("output-options") === undefined &&
    text("logpull-options") === undefined
  )
    throw new UsageError(
      "jobs create needs --fields (or field_names in --output-options, or --logpull-options)",
    );
  if (sub === "create" && values["to-output-options"])
    throw new UsageError("--to-output-options converts a job of the older form: give it to jobs update");
  if (sub === "update" && text("dataset") !== undefined)
    throw new UsageError(
      "--dataset is set when a job is created; update checks against the job's own dataset",
    );
  const { dataset: _dataset, ...compileOptions } = await compilerOptionsFrom(values);
  const settings: JobSettings = { compileOptions, ...tableSettings(values) };
  if (text("dataset") !== undefined) settings.dataset = text("dataset")!;
  if (text("fields") !== undefined)
    settings.fields =
      text("fields") === ""
        ? []
        : text("fields")!
            .split(",")
            .map((f) => f.trim());
  if (text("timestamps") !== undefined) settings.timestamps = text("timestamps")!;
  if (text("logpull-options") !== undefined) settings.logpullOptions = text("logpull-options")!;
  if (values["to-output-options"]) settings.toOutputOptions = true;
  const output: Record<string, unknown> =
    text("output-options") !== undefined ? { ...(await outputOptionsFrom(text("output-options")!, io)) } : {};
  const hadOutput = text("output-options") !== undefined;
  if (text("output-type") !== undefined) output["output_type"] = text("output-type");
  if (text("sample-rate") !== undefined) output["sample_rate"] = numberOrText(text("sample-rate")!);
  if (text("record-template") !== undefined) output["record_template"] = text("record-template");
  if (hadOutput || Object.keys(output).length > 0) settings.outputOptions = output as OutputOptions;
  const challenge = await challengeFrom(values, io);
  if (challenge !== undefined) settings.ownershipChallenge = challenge;
  let filterName = "<filter>";
  let filter: JobFilter | undefined;
  if (text("expr") !== undefined) {
    filter = { source: text("expr")! };
    filterName = "<--expr>";
  } else if (text("filter") !== undefined) {
    const input = await readSource(io, text("filter")!);
    filter = formOf(input.text) === "json" ? { json: input.text } : { source: input.text };
    filterName = input.name;
  } else if (values["no-filter"]) {
    filter = null;
  }
  if (filter) {
    // A filter's folder sets the limits the flags leave, and a new job's dataset after the filter's own.
    const defaults = await folderDefaults(io, text("filter"));
    for (const limit of ["maxOperators", "maxBytes"] as const)
      if (compileOptions[limit] === undefined && defaults[limit] !== undefined)
        compileOptions[limit] = defaults[limit];
    if (defaults.diagnostics !== undefined) compileOptions.diagnostics = defaults.diagnostics;
    if (sub === "create" && settings.dataset === undefined) {
      const known = compileOptions.catalog === undefined;
      const named = "source" in filter ? namedDataset(filter.source, filterName, known) : undefined;
      const dataset = named ?? defaults.dataset;
      if (dataset !== undefined) settings.dataset = dataset;
    }
  }
  if (filter !== undefined) settings.filter = filter;
  // The filter goes to the service, which holds it to its own limits whatever ours were.
  if (filter)
    warnForSentFilter(io, compileOptions, {
      "max-operators": text("max-operators"),
      "max-bytes": text("max-bytes"),
    });
  if (sub === "update" && Object.keys(settings).length === 1)
    throw new UsageError(
      "jobs update needs something to change (--name, --destination, --fields, --timestamps, --filter…)",
    );
  return { settings, filterName };
}

/**
 * The dataset a filter source names with `# dataset:`, or undefined. Unless a catalog of one's own
 * holds its fields (`known` false), a name filterc does not ship is an error at its place before
 * anything is sent (the job would otherwise be refused without saying where the name is).
 */
function namedDataset(source: string, name: string, known: boolean): string | undefined {
  const scanned = scan(source);
  const directive = readDirective(scanned.comments, scanned.tokens).directive;
  if (directive === undefined || !known || getCatalog(directive.dataset)) return directive?.dataset;
  const { line, column } = directive.range.start;
  throw new UserError(
    `${name}:${line}:${column}: unknown dataset ${excerpt(directive.dataset)} in # dataset:; known datasets: ${knownDatasets(directive.dataset)}`,
  );
}
