import { readdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { JobScope, LogpushClient, LogpushJob } from "../api/index.js";
import { DEFAULT_DATASET } from "../catalog/index.js";
import { decompile } from "../decompile/index.js";
import { type Diagnostic, hasErrors, terminalText } from "../diagnostics/index.js";
import { diffFilters, loadFilter, type Relation } from "../diff/index.js";
import { makeFolders } from "../files/index.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import { type CliIO, cannotWrite, decodeText, readSourceBytes, UserError } from "./io.js";
import { jobLabel } from "./job-listing.js";
import { CLI_OPTION_LABELS } from "./option-labels.js";

/** The first line of a pulled file: the job it was pulled from, read back by `jobs diff`. */
const headerPattern = /^# Logpush job (\d+)(?: ("(?:[^"\\]|\\.)*"))? \(dataset ([^\s)]+)\)$/;

const headerNote =
  "# pulled by filterc jobs pull; filterc jobs diff compares it with the live job by meaning";

const datasetOf = (job: LogpushJob) => (typeof job.dataset === "string" ? job.dataset : DEFAULT_DATASET);

/** `job-1-errors.lpf`: the id, then the name in lower-case letters, digits and dashes (at most 40). */
function fileNameOf(job: LogpushJob): string {
  const slug = (typeof job.name === "string" ? job.name : "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return `job-${job.id}${slug ? `-${slug}` : ""}.lpf`;
}

function header(job: LogpushJob): string {
  // JSON.stringify keeps the name on the header's one line (newlines and quotes escaped).
  const name = typeof job.name === "string" && job.name !== "" ? ` ${JSON.stringify(job.name)}` : "";
  return `# Logpush job ${job.id}${name} (dataset ${datasetOf(job)})\n${headerNote}\n`;
}

/**
 * Writes each job's filter into `dir` as formatted source under a header naming the job. A job whose
 * stored filter does not read back (an error against the catalog) is reported and not written.
 * Returns the exit status: 0, or 1 when a job could not be written. The others are written anyway.
 */
export async function pullJobs(
  io: CliIO,
  client: LogpushClient,
  scope: JobScope,
  dir: string,
  json: boolean,
): Promise<number> {
  const jobs = await client.listJobs(scope);
  const target = resolve(io.cwd, dir);
  await makeFolders(target).catch((error: unknown) => {
    throw cannotWrite(dir, error);
  });
  const written: string[] = [];
  const failed: (string | number)[] = [];
  for (const job of jobs) {
    // The id becomes part of a file name: only digits, whatever a server sends.
    if (!/^\d+$/.test(String(job.id))) {
      io.stderr(
        `filterc jobs pull: a job's id is not a number (${terminalText(JSON.stringify(job.id))}); not written\n`,
      );
      failed.push(job.id);
      continue;
    }
    const read = decompile(job.filter ?? null, { dataset: datasetOf(job), optionLabels: CLI_OPTION_LABELS });
    if (read.source === null) {
      reportDiagnostics(io, read.diagnostics, job.filter ?? "", `job ${job.id} (live filter)`);
      io.stderr(`filterc jobs pull: job ${jobLabel(job)} was not written: its filter has errors\n`);
      failed.push(job.id);
      continue;
    }
    const body = read.source === "" ? "# no filter: the job pushes every record\n" : `${read.source}\n`;
    const name = fileNameOf(job);
    await writeFile(join(target, name), header(job) + body).catch((error: unknown) => {
      throw cannotWrite(join(dir, name), error);
    });
    written.push(name);
  }
  if (json) io.stdout(`${JSON.stringify({ written, failed })}\n`);
  else io.stdout(jobs.length === 0 ? "no jobs\n" : written.map((name) => `wrote ${name}\n`).join(""));
  return failed.length > 0 ? 1 : 0;
}

/** A pulled file, read back: the job named in its header and its text. */
interface PulledFile {
  file: string;
  id: string;
  dataset: string;
  text: string;
}

async function readPulled(io: CliIO, dir: string): Promise<PulledFile[]> {
  const target = resolve(io.cwd, dir);
  let names: string[];
  try {
    names = (await readdir(target)).filter((name) => name.endsWith(".lpf")).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(
      `cannot read the directory ${JSON.stringify(dir)}: ${code === "ENOENT" ? "it does not exist (write it with jobs pull)" : code}`,
    );
  }
  const files: PulledFile[] = [];
  for (const file of names) {
    const text = decodeText(await readSourceBytes(join(target, file)), file);
    const match = headerPattern.exec(text.split("\n", 1)[0]!.replace(/\r$/, ""));
    if (!match) {
      io.stderr(`note: ${terminalText(file)} has no "# Logpush job" header line; not compared\n`);
      continue;
    }
    files.push({ file, id: match[1]!, dataset: match[3]!, text });
  }
  return files;
}

type DriftStatus = "changed" | "no file" | "job gone";

interface Drift {
  id: string | number;
  name: string | null;
  file: string | null;
  status: DriftStatus;
  relation: Relation | null;
  onlyFile: string | null;
  onlyLive: string | null;
  /** Set when the dataset itself changed: the filters were not compared. */
  datasets?: { file: string; live: string };
}

/** How the live job's filter relates to the file's, in words. */
const relationWords: Record<Exclude<Relation, "equivalent">, string> = {
  subset: "the live job lets more through",
  superset: "the live job lets less through",
  overlap: "the live job keeps other records",
  disjoint: "the live job and the file keep no record in common",
};

/**
 * Compares the pulled files in `dir` with the live jobs by meaning. Exits like
 * `terraform plan -detailed-exitcode`: 0 nothing changed, 2 changes, 1 errors.
 */
export async function diffJobs(
  io: CliIO,
  client: LogpushClient,
  scope: JobScope,
  dir: string,
  json: boolean,
  maxSearchSteps: number,
): Promise<number> {
  const files = await readPulled(io, dir);
  const jobs = await client.listJobs(scope);
  const live = new Map(jobs.map((job) => [String(job.id), job]));
  const pulled = new Set(files.map((file) => file.id));
  const changes: Drift[] = [];
  const same: (string | number)[] = [];
  const errors: { file: string; message: string }[] = [];
  const error = (file: string, message: string, diagnostics: Diagnostic[] = [], text = "") => {
    if (!json) reportDiagnostics(io, diagnostics, text, file);
    errors.push({ file, message });
  };
  for (const file of files) {
    const job = live.get(file.id);
    if (!job) {
      changes.push(drift(file.id, null, file.file, "job gone"));
      continue;
    }
    const dataset = datasetOf(job);
    if (dataset !== file.dataset) {
      changes.push({
        ...drift(job.id, job, file.file, "changed"),
        datasets: { file: file.dataset, live: dataset },
      });
      continue;
    }
    const mine = loadFilter(file.text, { dataset, optionLabels: CLI_OPTION_LABELS });
    if (hasErrors(mine.diagnostics)) {
      error(file.file, "the file's filter has errors", mine.diagnostics, file.text);
      continue;
    }
    const theirs = loadFilter(job.filter ?? "", { dataset, optionLabels: CLI_OPTION_LABELS });
    if (hasErrors(theirs.diagnostics)) {
      error(
        `job ${job.id} (live filter)`,
        "the live filter has errors",
        theirs.diagnostics,
        job.filter ?? "",
      );
      continue;
    }
    const compared = diffFilters(mine.condition, theirs.condition, { maxSearchSteps });
    if (!compared.decided) {
      error(
        file.file,
        `comparing with the live job takes more than ${maxSearchSteps} search steps (--max-steps)`,
      );
      continue;
    }
    if (compared.relation === "equivalent") {
      same.push(job.id);
      continue;
    }
    changes.push({
      ...drift(job.id, job, file.file, "changed"),
      relation: compared.relation,
      onlyFile: compared.onlyA,
      onlyLive: compared.onlyB,
    });
  }
  for (const job of jobs) if (!pulled.has(String(job.id))) changes.push(drift(job.id, job, null, "no file"));
  if (json)
    io.stdout(
      `{"changes":[${changes.map(driftJson).join(",")}],"same":${JSON.stringify(same)},"errors":${JSON.stringify(errors)}}\n`,
    );
  else {
    for (const change of changes) io.stdout(describeDrift(change, dir));
    for (const failed of errors)
      io.stderr(`filterc jobs diff: ${terminalText(failed.file)}: ${failed.message}\n`);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
    io.stdout(`${count(changes.length, "job")} changed, ${same.length} the same\n`);
  }
  return errors.length > 0 ? 1 : changes.length > 0 ? 2 : 0;
}

function drift(id: string | number, job: LogpushJob | null, file: string | null, status: DriftStatus): Drift {
  const name = job && typeof job.name === "string" ? job.name : null;
  return { id, name, file, status, relation: null, onlyFile: null, onlyLive: null };
}

/** A change as JSON, its records written as they are (JSON.parse would round 64-bit integers). */
function driftJson({ onlyFile, onlyLive, ...rest }: Drift): string {
  const fields = JSON.stringify(rest).slice(0, -1);
  return `${fields},"onlyFile":${onlyFile ?? "null"},"onlyLive":${onlyLive ?? "null"}}`;
}

function describeDrift(change: Drift, dir: string): string {
  const job = `job ${jobLabel({ id: change.id, name: change.name })}`;
  const file = change.file === null ? "" : ` (${terminalText(change.file)})`;
  if (change.status === "no file")
    return `no file  ${job}: a live job with no file in ${terminalText(dir)} (pull it to compare it)\n`;
  if (change.status === "job gone") return `gone     job ${change.id}${file}: no live job has this id\n`;
  if (change.datasets)
    return `changed  ${job}${file}: the dataset is ${terminalText(change.datasets.live)} now, not ${terminalText(change.datasets.file)}\n`;
  let text = `changed  ${job}${file}: ${relationWords[change.relation as Exclude<Relation, "equivalent">]}\n`;
  if (change.onlyLive) text += `  only the live job keeps: ${terminalText(change.onlyLive)}\n`;
  if (change.onlyFile) text += `  only the file keeps: ${terminalText(change.onlyFile)}\n`;
  return text;
}
