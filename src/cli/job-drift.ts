import { readdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { JobScope, LogpushClient } from "../api/index.js";
import { getCatalog } from "../catalog/index.js";
import {
  type Diagnostic,
  hasErrors,
  terminalJson,
  terminalJsonText,
  terminalText,
} from "../diagnostics/index.js";
import { diffFilters, type Relation } from "../diff/index.js";
import { makeFolders } from "../files/index.js";
import { loadFilter } from "../load/index.js";
import { configLookup, folderDefaults } from "./compiler-options.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import { type CliIO, cannotWrite, decodeText, isUserError, readSourceBytes, UserError } from "./io.js";
import { jobLabel } from "./job-listing.js";
import { checkLiveJobs, type LiveJob, readLiveFilter } from "./live-jobs.js";
import { CLI_OPTION_LABELS } from "./option-labels.js";
import { shortened } from "./served-text.js";

/** The first line of a pulled file: the job it was pulled from, read back by `jobs diff`. */
const headerPattern = /^# Logpush job (\d+)(?: ("(?:[^"\\]|\\.)*"))? \(dataset ([^\s)]+)\)$/;

const headerNote =
  "# pulled by filterc jobs pull; filterc jobs diff compares it with the live job by meaning";

/** The most characters of a job's name a file's header holds (the header only names the job). */
const MAX_HEADER_NAME_LENGTH = 200;

/** `job-1-errors.lpf`: the id, then the name in lower-case letters, digits and dashes (at most 40). */
function fileNameOf(job: LiveJob): string {
  const slug = (job.name ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return `job-${job.id}${slug ? `-${slug}` : ""}.lpf`;
}

/**
 * A pulled file's header: every line a comment, whatever the job holds. The id and dataset were
 * checked (checkLiveJobs); the name is written as JSON with every character a terminal or an
 * editor must not take raw escaped (line breaks, controls, bidi overrides), cut to a length. The
 * `# dataset:` directive makes the file check against the job's dataset anywhere; it is written only
 * for a dataset filterc knows, so no other text a server sends becomes a line of the source.
 */
function header(job: LiveJob): string {
  const name = job.name === null ? "" : ` ${terminalJson(shortened(job.name, MAX_HEADER_NAME_LENGTH))}`;
  const directive = getCatalog(job.dataset) ? `# dataset: ${job.dataset}\n` : "";
  return `# Logpush job ${job.id}${name} (dataset ${job.dataset})\n${headerNote}\n${directive}`;
}

/**
 * Writes each job's filter into `dir` as formatted source under a header naming the job. A job the
 * service sent in a form no file can take (checkLiveJobs), or whose stored filter does not read
 * back (an error against the catalog), is reported and not written; the others are written anyway.
 * Returns the exit status: 0, or 1 when a job could not be written.
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
  const failed: unknown[] = [];
  for (const checked of checkLiveJobs(jobs)) {
    if (!("job" in checked)) {
      io.stderr(`filterc jobs pull: job ${checked.label} was not written: ${checked.reason}\n`);
      failed.push(checked.id);
      continue;
    }
    const { job } = checked;
    const read = readLiveFilter(job);
    if (read.source === null || hasErrors(read.diagnostics)) {
      reportDiagnostics(io, read.diagnostics, job.filter ?? "", `job ${job.id} (live filter)`);
      io.stderr(`filterc jobs pull: job ${jobLabel(job)} was not written: its filter has errors\n`);
      failed.push(jobNumber(job.id));
      continue;
    }
    const body = read.source === "" ? "# no filter: the job pushes every record\n" : `${read.source}\n`;
    const name = fileNameOf(job);
    await writeFile(join(target, name), header(job) + body).catch((error: unknown) => {
      throw cannotWrite(join(dir, name), error);
    });
    written.push(name);
  }
  if (json) io.stdout(`${terminalJson({ written, failed })}\n`);
  else io.stdout(jobs.length === 0 ? "no jobs\n" : written.map((name) => `wrote ${name}\n`).join(""));
  return failed.length > 0 ? 1 : 0;
}

/** A job ID as `--json` gives it: a number where one holds it exactly, else its digits. */
const jobNumber = (id: string) => (Number.isSafeInteger(Number(id)) ? Number(id) : id);

/** A pulled file, read back: the job named in its header and its text. */
interface PulledFile {
  file: string;
  id: string;
  dataset: string;
  text: string;
}

/** A file of `dir` that could not be compared, and why. */
interface FileError {
  file: string;
  message: string;
}

/**
 * The pulled files of `dir`, in name order. A file that cannot be read (too large, not UTF-8, not a
 * file) is an error of its own and the others are still read; one without the header is noted.
 */
async function readPulled(io: CliIO, dir: string, errors: FileError[]): Promise<PulledFile[]> {
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
    let text: string;
    try {
      // Found by listing the folder: a regular file only (a fifo named *.lpf would wait for a writer).
      text = decodeText(await readSourceBytes(join(target, file), "regular"), file);
    } catch (error) {
      if (!isUserError(error)) throw error;
      errors.push({ file, message: `not compared: ${error.message}` });
      continue;
    }
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
  const errors: FileError[] = [];
  const lookup = configLookup(io);
  const error = (file: string, message: string, diagnostics: Diagnostic[] = [], text = "") => {
    if (!json) reportDiagnostics(io, diagnostics, text, file);
    errors.push({ file, message });
  };
  const files = await readPulled(io, dir, errors);
  const live = new Map<string, LiveJob>();
  const refused = new Set<string>();
  for (const checked of checkLiveJobs(await client.listJobs(scope))) {
    if ("job" in checked) live.set(checked.job.id, checked.job);
    else {
      error(`job ${checked.label}`, checked.reason);
      if (typeof checked.id === "string" || typeof checked.id === "number") refused.add(String(checked.id));
    }
  }
  const byId = new Map<string, PulledFile[]>();
  for (const file of files) byId.set(file.id, [...(byId.get(file.id) ?? []), file]);
  const changes: Drift[] = [];
  const same: (string | number)[] = [];
  for (const [id, named] of byId) {
    // The job's error was reported: its files are not compared with it.
    if (refused.has(id)) continue;
    if (named.length > 1) {
      for (const file of named)
        error(
          file.file,
          `${named.length} files name job ${id}; which one holds the job cannot be told (remove the stale ones)`,
        );
      continue;
    }
    const file = named[0]!;
    const job = live.get(id);
    if (!job) {
      changes.push(drift(id, null, file.file, "job gone"));
      continue;
    }
    // The file's dataset: its `# dataset:`, else the header's (files pulled before the directive).
    const { dataset: _dataset, ...limits } = await folderDefaults(io, join(dir, file.file), lookup);
    const mine = loadFilter(file.text, {
      ...limits,
      defaultDataset: file.dataset,
      optionLabels: CLI_OPTION_LABELS,
    });
    if (hasErrors(mine.diagnostics)) {
      error(file.file, "the file's filter has errors", mine.diagnostics, file.text);
      continue;
    }
    if (job.dataset !== mine.dataset) {
      changes.push({
        ...drift(id, job, file.file, "changed"),
        datasets: { file: mine.dataset, live: job.dataset },
      });
      continue;
    }
    const theirs = readLiveFilter(job, limits);
    if (hasErrors(theirs.diagnostics)) {
      error(`job ${id} (live filter)`, "the live filter has errors", theirs.diagnostics, job.filter ?? "");
      continue;
    }
    const compared = diffFilters(mine.meaning, theirs.meaning, { maxSearchSteps });
    if (!compared.decided) {
      error(
        file.file,
        `comparing with the live job takes more than ${maxSearchSteps} search steps (--max-steps)`,
      );
      continue;
    }
    if (compared.relation === "equivalent") {
      same.push(jobNumber(id));
      continue;
    }
    changes.push({
      ...drift(id, job, file.file, "changed"),
      relation: compared.relation,
      onlyFile: compared.onlyA,
      onlyLive: compared.onlyB,
    });
  }
  for (const job of live.values()) if (!byId.has(job.id)) changes.push(drift(job.id, job, null, "no file"));
  if (json)
    io.stdout(
      `{"changes":[${changes.map(driftJson).join(",")}],"same":${terminalJson(same)},"errors":${terminalJson(errors)}}\n`,
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

function drift(id: string, job: LiveJob | null, file: string | null, status: DriftStatus): Drift {
  const name = job?.name ?? null;
  return { id: jobNumber(id), name, file, status, relation: null, onlyFile: null, onlyLive: null };
}

/** A change as JSON, its records written as they are (JSON.parse would round 64-bit integers). */
function driftJson({ onlyFile, onlyLive, ...rest }: Drift): string {
  const fields = terminalJson(rest).slice(0, -1);
  return `${fields},"onlyFile":${terminalJsonText(onlyFile ?? "null")},"onlyLive":${terminalJsonText(onlyLive ?? "null")}}`;
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
