import type { ExplorerDataset, ExplorerDatasetRef, JobFilter, LogpushClient } from "../../api/index.js";
import { explorerFilterOf } from "../../api/index.js";
import { getCatalog, knownDatasets } from "../../catalog/index.js";
import { DEFAULT_MAX_SEARCH_STEPS } from "../../check/index.js";
import type { CompileOptions } from "../../compile.js";
import { decompile } from "../../decompile/index.js";
import { hasErrors, terminalJson, terminalJsonText, terminalText } from "../../diagnostics/index.js";
import { diffFilters, type Relation } from "../../diff/index.js";
import { formOf, loadFilter } from "../../load/index.js";
import {
  apiFlags,
  apiFlagsUsage,
  clientFrom,
  printFilterDiagnostics,
  printNotices,
  printPlan,
  runApiAction,
  scopeFrom,
} from "../api-common.js";
import { parseCommandArgs, parseCount } from "../args.js";
import { compilerOptionsFrom, folderDefaults } from "../compiler-options.js";
import { reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, readSource, UsageError } from "../io.js";
import { readLiveFilter } from "../live-jobs.js";
import { CLI_OPTION_LABELS } from "../option-labels.js";
import { oneLine } from "../served-text.js";
import { warnForSentFilter } from "../service-limits.js";

export const usage = `filterc explorer list [--zone ID | --account ID] [options]
filterc explorer get --dataset NAME|--id ID [--zone ID | --account ID] [options]
filterc explorer set --dataset NAME|--id ID --filter FILE|--expr SRC [--zone ID | --account ID] [options]
filterc explorer clear --dataset NAME|--id ID [--zone ID | --account ID] [options]
filterc explorer diff --dataset NAME|--id ID --filter FILE|--expr SRC [--max-steps N] [--zone ID | --account ID]

Reads and sets the ingestion filter of Log Explorer datasets: the Logpush filter (the JSON a job
takes) that restricts which events a zone's or an account's dataset ingests. A dataset is named by
its type with --dataset (a zone or account has one of each) or by its dataset_id with --id.

set compiles the filter with the catalog of the dataset's type and the Logpush limits (the
endpoint documents none of its own) before anything is sent, then PUTs it with the dataset's own
enabled and fields (the service requires enabled, and a PUT without fields would enable every
field): nothing else changes, and nothing is sent when the dataset already has this filter. clear
removes the filter (the service's ""). get prints the filter as source. diff compares a local
filter with the dataset's by meaning, as filterc diff does, and exits like terraform plan
-detailed-exitcode: 0 the same records, 2 a change (with a record only one side keeps), 1 errors.

Options:
  --dataset NAME        the dataset's type (see filterc datasets); the filter is checked against it
  --id ID               the dataset's dataset_id (from explorer list)
  --filter FILE         the filter from a file (- for standard input): source, or Logpush filter
                        JSON (checked by decompiling it)
  --expr SRC            the filter source given inline
  --catalog FILE, --no-optimize, --max-operators N, --max-bytes N   as for compile
  --max-steps N         diff: the most search steps the comparison takes (default ${DEFAULT_MAX_SEARCH_STEPS})

${apiFlagsUsage}
Exit status: 0 success, 1 API or validation error, 2 usage (explorer diff: 2 changes).`;

const subcommands = ["list", "get", "set", "clear", "diff"] as const;
type Subcommand = (typeof subcommands)[number];

const flags = {
  ...apiFlags,
  dataset: { type: "string" },
  id: { type: "string" },
  filter: { type: "string" },
  expr: { type: "string" },
  catalog: { type: "string" },
  "no-optimize": { type: "boolean" },
  "max-operators": { type: "string" },
  "max-bytes": { type: "string" },
  "max-steps": { type: "string" },
} as const;

/** The flags each subcommand takes besides the API's: anything else given is a usage error. */
const takes: Record<Subcommand, readonly string[]> = {
  list: [],
  get: ["dataset", "id"],
  clear: ["dataset", "id"],
  set: ["dataset", "id", "filter", "expr", "catalog", "no-optimize", "max-operators", "max-bytes"],
  diff: ["dataset", "id", "filter", "expr", "catalog", "max-operators", "max-bytes", "max-steps"],
};

const reads: ReadonlySet<Subcommand> = new Set(["list", "get", "diff"]);

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (!subcommands.includes(subcommand as Subcommand))
    throw new UsageError(
      subcommand === undefined
        ? `say ${subcommands.join(", ")}`
        : `unknown subcommand ${JSON.stringify(subcommand)}; use ${subcommands.join(", ")}`,
    );
  const sub = subcommand as Subcommand;
  const { values } = parseCommandArgs(rest, flags, false);
  const given = values as Record<string, string | boolean | undefined>;
  for (const name of Object.keys(flags))
    if (!(name in apiFlags) && given[name] !== undefined && !takes[sub].includes(name))
      throw new UsageError(`explorer ${sub} takes no --${name}`);
  const scope = scopeFrom(values, io);
  const json = values.json === true;
  const dryRun = values["dry-run"] === true;
  if (dryRun && reads.has(sub)) throw new UsageError(`explorer ${sub} only reads; it takes no --dry-run`);
  const ref = sub === "list" ? undefined : datasetRef(values.dataset, values.id, sub);
  if ((sub === "set" || sub === "diff") && (values.filter === undefined) === (values.expr === undefined))
    throw new UsageError(`explorer ${sub} needs --filter FILE or --expr SRC (one of them)`);
  const input =
    sub === "set" || sub === "diff" ? await filterInput(io, values.filter, values.expr) : undefined;
  const { dataset: _dataset, ...compileOptions } = await compilerOptionsFrom({
    catalog: values.catalog,
    "no-optimize": values["no-optimize"],
    "max-operators": values["max-operators"],
    "max-bytes": values["max-bytes"],
  });
  // A filter file's folder sets the limits the flags leave (as for jobs).
  const defaults = await folderDefaults(io, values.filter);
  for (const limit of ["maxOperators", "maxBytes"] as const)
    if (compileOptions[limit] === undefined && defaults[limit] !== undefined)
      compileOptions[limit] = defaults[limit];
  if (sub === "set") warnForSentFilter(io, compileOptions, values);
  const maxSearchSteps = parseCount(values["max-steps"], "--max-steps", 1) ?? DEFAULT_MAX_SEARCH_STEPS;
  return runApiAction(
    io,
    `explorer ${sub}`,
    json,
    async () => {
      const client = clientFrom(values, io);
      const shown = <T>(answer: T): T => client.masked(answer);
      switch (sub) {
        case "list": {
          const listed = shown(await client.listExplorerDatasets(scope));
          io.stdout(json ? `${terminalJson(listed)}\n` : describeList(listed));
          return 0;
        }
        case "get": {
          const dataset = shown(await client.getExplorerDataset(scope, ref!));
          io.stdout(json ? `${terminalJson(dataset)}\n` : describeDataset(dataset));
          return 0;
        }
        case "diff":
          return diffExplorer(io, client, scope, ref!, input!, compileOptions, json, maxSearchSteps);
        case "set":
        case "clear": {
          const filter: JobFilter = sub === "clear" ? null : input!.filter;
          const call = (c: LogpushClient) => c.setExplorerFilter(scope, ref!, { filter, compileOptions });
          if (dryRun) {
            const plan = await client.dryRun(call);
            if (!json)
              printFilterDiagnostics(
                io,
                plan.result.diagnostics,
                plan.result.filterSource,
                input?.name ?? "",
              );
            printPlan(io, plan, plan.result.notices, json);
            return 0;
          }
          const answer = await call(client);
          const result = shown(answer);
          if (json) {
            io.stdout(`${terminalJson(result)}\n`);
            return 0;
          }
          printFilterDiagnostics(io, answer.diagnostics, answer.filterSource, input?.name ?? "");
          printNotices(io, result.notices);
          const label = datasetLabel(result.dataset);
          io.stdout(
            result.changed
              ? `updated the ingestion filter of ${label}\n  before: ${filterWords(result.dataset.dataset, result.before)}\n  after:  ${filterWords(result.dataset.dataset, result.after)}\n`
              : `${label} unchanged: it already has this filter\n`,
          );
          return 0;
        }
      }
    },
    input?.name,
  );
}

function datasetRef(
  dataset: string | undefined,
  id: string | undefined,
  sub: Subcommand,
): ExplorerDatasetRef {
  if ((dataset === undefined) === (id === undefined))
    throw new UsageError(`explorer ${sub} needs --dataset NAME or --id ID (one of them)`);
  if (id !== undefined) return { datasetId: id };
  if (!getCatalog(dataset!))
    throw new UsageError(
      `unknown dataset ${JSON.stringify(dataset)}; known datasets: ${knownDatasets(dataset!)} (or name the dataset by --id)`,
    );
  return { dataset: dataset! };
}

interface FilterInput {
  filter: JobFilter;
  text: string;
  name: string;
}

/** The filter as `--filter FILE` or `--expr SRC` gives it: JSON where it starts with `{` or `"`, else source. */
async function filterInput(
  io: CliIO,
  file: string | undefined,
  expr: string | undefined,
): Promise<FilterInput> {
  if (expr !== undefined) return { filter: { source: expr }, text: expr, name: "<--expr>" };
  const read = await readSource(io, file!);
  const filter = formOf(read.text) === "json" ? { json: read.text } : { source: read.text };
  return { filter, text: read.text, name: read.name };
}

/** `http_requests (id 3f…, zone 023e…)`: a dataset as a person reads it, every served value on one line. */
function datasetLabel(dataset: ExplorerDataset): string {
  const owner =
    typeof dataset.object_type === "string" && typeof dataset.object_id === "string"
      ? `, ${oneLine(dataset.object_type)} ${oneLine(dataset.object_id)}`
      : "";
  return `${oneLine(String(dataset.dataset))} (id ${oneLine(String(dataset.dataset_id))}${owner})`;
}

/** A stored filter as source (or, when filterc cannot read it, its JSON and why). */
function filterWords(type: string, filter: string): string {
  if (filter === "") return "none (every event is ingested)";
  const read = decompile(filter, { dataset: type, optionLabels: CLI_OPTION_LABELS });
  if (read.source !== null && !hasErrors(read.diagnostics))
    return terminalText(read.source.replaceAll("\n", " "));
  return `${terminalJsonText(JSON.stringify(filter))} (filterc cannot read it: ${terminalText(read.diagnostics[0]?.message ?? "not a filter")})`;
}

function describeList(listed: readonly ExplorerDataset[]): string {
  if (listed.length === 0) return "no Log Explorer datasets\n";
  return listed
    .map(
      (dataset) => `${datasetLabel(dataset)}: ingest ${dataset.enabled === true ? "enabled" : "disabled"}\n`,
    )
    .join("");
}

function describeDataset(dataset: ExplorerDataset): string {
  const fields = Array.isArray(dataset.fields)
    ? `, ${dataset.fields.filter((field) => field?.enabled === true).length} of ${dataset.fields.length} fields`
    : "";
  return `${datasetLabel(dataset)}: ingest ${dataset.enabled === true ? "enabled" : "disabled"}${fields}\nfilter: ${filterWords(dataset.dataset, explorerFilterOf(dataset))}\n`;
}

/** How the dataset's live filter relates to the file's, in words. */
const relationWords: Record<Exclude<Relation, "equivalent">, string> = {
  subset: "the live filter lets more through",
  superset: "the live filter lets less through",
  overlap: "the live filter keeps other records",
  disjoint: "the live filter and the file keep no record in common",
};

async function diffExplorer(
  io: CliIO,
  client: LogpushClient,
  scope: ReturnType<typeof scopeFrom>,
  ref: ExplorerDatasetRef,
  input: FilterInput,
  compileOptions: Pick<CompileOptions, "maxOperators" | "maxBytes" | "catalog">,
  json: boolean,
  maxSearchSteps: number,
): Promise<number> {
  const dataset = await client.getExplorerDataset(scope, ref);
  const limits = {
    ...(compileOptions.maxOperators !== undefined ? { maxOperators: compileOptions.maxOperators } : {}),
    ...(compileOptions.maxBytes !== undefined ? { maxBytes: compileOptions.maxBytes } : {}),
  };
  const fail = (message: string) => {
    if (json) io.stdout(`${terminalJson({ ok: false, message })}\n`);
    else io.stderr(`filterc explorer diff: ${terminalText(message)}\n`);
    return 1;
  };
  const mine = loadFilter(input.text, {
    ...limits,
    recordDatasetFirst: true,
    dataset: dataset.dataset,
    ...(compileOptions.catalog ? { catalog: compileOptions.catalog } : {}),
    optionLabels: CLI_OPTION_LABELS,
  });
  if (hasErrors(mine.diagnostics)) {
    if (!json) reportDiagnostics(io, mine.diagnostics, input.text, input.name);
    return fail(`${input.name}: the filter has errors`);
  }
  const live = explorerFilterOf(dataset);
  const theirs = readLiveFilter(
    { id: "0", name: null, dataset: dataset.dataset, filter: live, settings: {} },
    limits,
  );
  if (hasErrors(theirs.diagnostics)) {
    if (!json) reportDiagnostics(io, theirs.diagnostics, live, `${datasetLabel(dataset)} (live filter)`);
    return fail("the live filter has errors");
  }
  const compared = diffFilters(mine.meaning, theirs.meaning, { maxSearchSteps });
  if (!compared.decided)
    return fail(
      `comparing with the live filter takes more than ${maxSearchSteps} search steps (--max-steps)`,
    );
  if (json) {
    const records = `"onlyFile":${terminalJsonText(compared.onlyA ?? "null")},"onlyLive":${terminalJsonText(compared.onlyB ?? "null")}`;
    io.stdout(
      `{"dataset_id":${terminalJson(dataset.dataset_id)},"relation":${terminalJson(compared.relation)},${records}}\n`,
    );
  } else if (compared.relation === "equivalent") {
    io.stdout(
      `same     ${datasetLabel(dataset)}: the live filter keeps the records ${terminalText(input.name)} keeps\n`,
    );
  } else {
    let text = `changed  ${datasetLabel(dataset)}: ${relationWords[compared.relation]}\n`;
    if (compared.onlyB) text += `  only the live filter keeps: ${terminalText(compared.onlyB)}\n`;
    if (compared.onlyA) text += `  only the file keeps: ${terminalText(compared.onlyA)}\n`;
    io.stdout(text);
  }
  return compared.relation === "equivalent" ? 0 : 2;
}
