import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { JobScope, LogpushClient } from "../api/index.js";
import { getCatalog } from "../catalog/index.js";
import {
  closestMatch,
  type Diagnostic,
  hasErrors,
  LineIndex,
  terminalJson,
  terminalJsonText,
  terminalName,
  terminalText,
} from "../diagnostics/index.js";
import { diffFilters, type Relation } from "../diff/index.js";
import {
  confinedPath,
  confinementRoot,
  makeFolders,
  notWrittenDiagnostic,
  readSnapshot,
  writeFileAtomically,
} from "../files/index.js";
import { loadFilter } from "../load/index.js";
import { configLookup, folderDefaults } from "./compiler-options.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import {
  type CliIO,
  cannotWrite,
  decodeText,
  isUserError,
  MAX_SOURCE_FILE_BYTES,
  readSourceBytes,
  UserError,
} from "./io.js";
import { jobLabel } from "./job-listing.js";
import { checkLiveJobs, type LiveJob, PULLED_SETTINGS, readLiveFilter } from "./live-jobs.js";
import { CLI_OPTION_LABELS } from "./option-labels.js";
import { shortened } from "./served-text.js";

/** The first line of a pulled file: the job it was pulled from, read back by `jobs diff`. */
const headerPattern = /^# Logpush job (\d+)(?: ("(?:[^"\\]|\\.)*"))? \(dataset ([^\s)]+)\)$/;

const headerNote =
  "# pulled by filterc jobs pull; filterc jobs diff compares the filter by meaning, each setting exactly";

/** A line of a pulled file's header that holds one setting of the job, as JSON. */
const settingPattern = /^# setting ([^:]*): (.*)$/;

/** The most characters of a job's name a file's header holds (the header only names the job). */
const MAX_HEADER_NAME_LENGTH = 200;

/**
 * The most characters of JSON a setting line holds: a file of a job whose name or output options
 * are longer would be too large for jobs diff to read back (its source limit).
 */
const MAX_SETTING_CHARACTERS = 10_000;

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
 * for a dataset filterc knows, so no other text a server sends becomes a line of the source. Each
 * setting of PULLED_SETTINGS follows on a line of its own, as JSON written with the same escapes.
 */
function header(job: LiveJob, io: CliIO): string {
  const name = job.name === null ? "" : ` ${terminalJson(shortened(job.name, MAX_HEADER_NAME_LENGTH))}`;
  const directive = getCatalog(job.dataset) ? `# dataset: ${job.dataset}\n` : "";
  const settings = PULLED_SETTINGS.map((key) => {
    const json = terminalJson(job.settings[key]);
    if (json.length <= MAX_SETTING_CHARACTERS) return `# setting ${key}: ${json}\n`;
    io.stderr(
      `note: job ${jobLabel(job)}: its ${key} is ${json.length} characters as JSON, more than a pulled file holds (${MAX_SETTING_CHARACTERS}); not written, so not compared\n`,
    );
    return "";
  }).join("");
  return `# Logpush job ${job.id}${name} (dataset ${job.dataset})\n${headerNote}\n${directive}${settings}`;
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
    const problem = await writePulled(join(target, name), header(job, io) + body, target);
    if (problem !== undefined) {
      io.stderr(`filterc jobs pull: job ${jobLabel(job)}: ${name} ${problem.message} (${problem.code})\n`);
      failed.push(jobNumber(job.id));
      continue;
    }
    written.push(name);
  }
  if (json) io.stdout(`${terminalJson({ written, failed })}\n`);
  else io.stdout(jobs.length === 0 ? "no jobs\n" : written.map((name) => `wrote ${name}\n`).join(""));
  return failed.length > 0 ? 1 : 0;
}

/**
 * Writes a pulled file through writeFileAtomically, inside the folder pulled into (a link in it to
 * elsewhere is not followed out): over the file there as it is right now, or where there is none;
 * a file that already holds the text is left untouched. Undefined once written, or the diagnostic
 * that says why the file was left as it was.
 */
async function writePulled(path: string, text: string, folder: string): Promise<Diagnostic | undefined> {
  const bytes = Buffer.from(text, "utf8");
  try {
    const snapshot = await readSnapshot(path, MAX_SOURCE_FILE_BYTES);
    if (snapshot?.bytes?.equals(bytes)) return undefined;
    await writeFileAtomically(path, bytes, { expected: snapshot ?? "absent", within: [folder] });
    return undefined;
  } catch (error) {
    return notWrittenDiagnostic(error, new LineIndex("").rangeOf(0, 0));
  }
}

/** A job ID as `--json` gives it: a number where one holds it exactly, else its digits. */
const jobNumber = (id: string) => (Number.isSafeInteger(Number(id)) ? Number(id) : id);

/** A pulled file, read back: the job named in its header, the settings it holds, and its text. */
interface PulledFile {
  file: string;
  id: string;
  dataset: string;
  settings: Map<string, unknown>;
  text: string;
}

/**
 * The settings a file's header holds, from its `# setting KEY: JSON` lines (the comment lines it
 * starts with), or why they cannot be read. A line removed from the file is a setting not compared.
 */
function settingsOf(text: string): Map<string, unknown> | string {
  const settings = new Map<string, unknown>();
  const lines = text.split("\n");
  for (let index = 0; index < lines.length && lines[index]!.startsWith("#"); index++) {
    const match = settingPattern.exec(lines[index]!.replace(/\r$/, ""));
    if (!match) continue;
    const [, key, json] = match;
    const at = `line ${index + 1}`;
    if (!PULLED_SETTINGS.includes(key!)) {
      const near = closestMatch(key!, PULLED_SETTINGS);
      return `${at}: no job setting is named ${JSON.stringify(key)}${near ? `; did you mean ${near}?` : ""}`;
    }
    if (settings.has(key!)) return `${at}: the setting ${key} is written twice`;
    try {
      settings.set(key!, JSON.parse(json!));
    } catch {
      return `${at}: the value of ${key} is not JSON`;
    }
  }
  return settings;
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
async function readPulled(
  io: CliIO,
  dir: string,
  errors: FileError[],
  unread: Set<string>,
): Promise<PulledFile[]> {
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
  // A link in the folder is followed only inside it or its repository: a pull request's link to
  // the runner's files (/proc/self/environ) is not read, nor its lines shown.
  const root = await confinementRoot(target, io.cwd);
  for (const file of names) {
    const confined = await confinedPath(root, target, file);
    if ("outside" in confined) {
      errors.push({ file, message: `not compared: not read: ${confined.outside}` });
      continue;
    }
    let text: string;
    try {
      // Found by listing the folder: a regular file only (a fifo named *.lpf would wait for a writer).
      text = decodeText(await readSourceBytes(confined.path, "regular"), file);
    } catch (error) {
      if (!isUserError(error)) throw error;
      errors.push({ file, message: `not compared: ${error.message}` });
      continue;
    }
    const match = headerPattern.exec(text.split("\n", 1)[0]!.replace(/\r$/, ""));
    if (!match) {
      io.stderr(`note: ${terminalName(file)} has no "# Logpush job" header line; not compared\n`);
      continue;
    }
    const settings = settingsOf(text);
    if (typeof settings === "string") {
      errors.push({ file, message: `not compared: ${settings}` });
      // The file names its job: the job is not one without a file.
      unread.add(match[1]!);
      continue;
    }
    files.push({ file, id: match[1]!, dataset: match[3]!, settings, text });
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
  /** The settings the file holds that the live job holds otherwise, in the table's order. */
  settings: SettingChange[];
}

/** A setting whose value differs: `setting` is the body's name (`output_options.field_names`). */
interface SettingChange {
  setting: string;
  file: unknown;
  live: unknown;
}

/** Two JSON values alike: objects key by key in any order, arrays element by element in order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every(
      (key) =>
        Object.hasOwn(b, key) &&
        sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The settings `file` holds that `job` holds otherwise, each compared exactly; in two objects
 * (output_options), key by key, so that the change names the key (`output_options.field_names`).
 */
function settingChanges(file: PulledFile, job: LiveJob): SettingChange[] {
  const changes: SettingChange[] = [];
  for (const key of PULLED_SETTINGS) {
    if (!file.settings.has(key)) continue;
    const mine = file.settings.get(key);
    const theirs = job.settings[key];
    if (sameJson(mine, theirs)) continue;
    if (isObject(mine) && isObject(theirs)) {
      for (const inner of new Set([...Object.keys(mine), ...Object.keys(theirs)]))
        if (!sameJson(mine[inner] ?? null, theirs[inner] ?? null))
          changes.push({
            setting: `${key}.${inner}`,
            file: mine[inner] ?? null,
            live: theirs[inner] ?? null,
          });
    } else changes.push({ setting: key, file: mine, live: theirs });
  }
  return changes;
}

/** How the live job's filter relates to the file's, in words. */
const relationWords: Record<Relation, string> = {
  equivalent: "the filter means the same; settings differ",
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
  const unread = new Set<string>();
  const files = await readPulled(io, dir, errors, unread);
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
    const settings = settingChanges(file, job);
    if (job.dataset !== mine.dataset) {
      changes.push({
        ...drift(id, job, file.file, "changed"),
        datasets: { file: mine.dataset, live: job.dataset },
        settings,
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
    if (compared.relation === "equivalent" && settings.length === 0) {
      same.push(jobNumber(id));
      continue;
    }
    changes.push({
      ...drift(id, job, file.file, "changed"),
      relation: compared.relation,
      onlyFile: compared.onlyA,
      onlyLive: compared.onlyB,
      settings,
    });
  }
  for (const job of live.values())
    if (!byId.has(job.id) && !unread.has(job.id)) changes.push(drift(job.id, job, null, "no file"));
  if (json)
    io.stdout(
      `{"changes":[${changes.map(driftJson).join(",")}],"same":${terminalJson(same)},"errors":${terminalJson(errors)}}\n`,
    );
  else {
    for (const change of changes) io.stdout(describeDrift(change, dir));
    for (const failed of errors)
      io.stderr(`filterc jobs diff: ${terminalName(failed.file)}: ${failed.message}\n`);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
    io.stdout(`${count(changes.length, "job")} changed, ${same.length} the same\n`);
  }
  return errors.length > 0 ? 1 : changes.length > 0 ? 2 : 0;
}

function drift(id: string, job: LiveJob | null, file: string | null, status: DriftStatus): Drift {
  const name = job?.name ?? null;
  return {
    id: jobNumber(id),
    name,
    file,
    status,
    relation: null,
    onlyFile: null,
    onlyLive: null,
    settings: [],
  };
}

/** A change as JSON, its records written as they are (JSON.parse would round 64-bit integers). */
function driftJson({ onlyFile, onlyLive, ...rest }: Drift): string {
  const fields = terminalJson(rest).slice(0, -1);
  return `${fields},"onlyFile":${terminalJsonText(onlyFile ?? "null")},"onlyLive":${terminalJsonText(onlyLive ?? "null")}}`;
}

function describeDrift(change: Drift, dir: string): string {
  const job = `job ${jobLabel({ id: change.id, name: change.name })}`;
  const file = change.file === null ? "" : ` (${terminalName(change.file)})`;
  if (change.status === "no file")
    return `no file  ${job}: a live job with no file in ${terminalName(dir)} (pull it to compare it)\n`;
  if (change.status === "job gone") return `gone     job ${change.id}${file}: no live job has this id\n`;
  const settings = change.settings
    .map(
      ({ setting, file: mine, live }) =>
        `  ${terminalText(setting)}: ${terminalJson(live)} live, ${terminalJson(mine)} in the file\n`,
    )
    .join("");
  if (change.datasets)
    return `changed  ${job}${file}: the dataset is ${terminalText(change.datasets.live)} now, not ${terminalText(change.datasets.file)}\n${settings}`;
  let text = `changed  ${job}${file}: ${relationWords[change.relation!]}\n`;
  if (change.onlyLive) text += `  only the live job keeps: ${terminalText(change.onlyLive)}\n`;
  if (change.onlyFile) text += `  only the file keeps: ${terminalText(change.onlyFile)}\n`;
  text += settings;
  return text;
}
