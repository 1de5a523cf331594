import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip, type Gzip } from "node:zlib";
import { compilePredicate, type Predicate } from "../eval/index.js";
import { type AtomicFile, createAtomicFile } from "./atomic-file.js";
import type { Reply, RequestContext } from "./context.js";
import { type CustomFields, customFieldsOf } from "./custom-fields.js";
import { datasetCatalog } from "./datasets.js";
import { destinationFolder, parseDestination } from "./destination.js";
import { checkJobFilter } from "./filter.js";
import { nestsDeeperThan } from "./http.js";
import { type BodyLine, decoded, linesOf } from "./ingest-body.js";
import type { Job } from "./model.js";
import { utcDate } from "./ownership.js";

/** Custom field values are cut to this many UTF-8 bytes, as Logpush does. */
export const MAX_CUSTOM_FIELD_BYTES = 8192;

/** The custom fields land in these record fields of http_requests. */
const customFieldRecords = [
  ["RequestHeaders", "requestHeaders"],
  ["ResponseHeaders", "responseHeaders"],
  ["Cookies", "cookies"],
] as const;

/** Compiled filters by dataset and filter text; emptied when it grows past this many (filters of deleted jobs). */
const MAX_CACHED_PREDICATES = 1000;
const predicates = new Map<string, Predicate>();

/** The job's filter as a predicate, compiled once per filter text (the filter was checked when the job was saved). */
function predicateOf(job: Job): Predicate {
  const key = `${job.dataset}\u0000${job.filter}`;
  let predicate = predicates.get(key);
  if (!predicate) {
    const condition = checkJobFilter(job.filter, job.dataset);
    predicate = condition ? compilePredicate(condition) : () => true;
    if (predicates.size >= MAX_CACHED_PREDICATES) predicates.clear();
    predicates.set(key, predicate);
  }
  return predicate;
}

/** Cuts a value to at most `MAX_CUSTOM_FIELD_BYTES` UTF-8 bytes, never inside a character. */
export function cutValue(value: string): string {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length <= MAX_CUSTOM_FIELD_BYTES) return value;
  let end = MAX_CUSTOM_FIELD_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

function headerValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String).join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * Keeps, of everything the request carried (`source`), only the configured names: header names
 * are matched without regard to case and logged lower-case; cookie names are matched exactly.
 */
function pickFields(source: unknown, names: readonly string[], ignoreCase: boolean): Record<string, string> {
  const picked: Record<string, string> = {};
  if (typeof source !== "object" || source === null) return picked;
  const available = new Map<string, unknown>();
  for (const [name, value] of Object.entries(source))
    available.set(ignoreCase ? name.toLowerCase() : name, value);
  for (const name of names) {
    const value = headerValue(available.get(name));
    if (value !== undefined) picked[name] = cutValue(value);
  }
  return picked;
}

function withCustomFields(record: Record<string, unknown>, fields: CustomFields): Record<string, unknown> {
  const result = { ...record };
  for (const [recordField, configured] of customFieldRecords)
    result[recordField] = pickFields(record[recordField], fields[configured], recordField !== "Cookies");
  return result;
}

function fieldNamesOf(job: Job): string[] | null {
  const names = job.output_options?.["field_names"];
  if (Array.isArray(names)) return names as string[];
  const fields = job.logpull_options === null ? null : new URLSearchParams(job.logpull_options).get("fields");
  return fields ? fields.split(",") : null;
}

function select(record: Record<string, unknown>, names: readonly string[] | null): Record<string, unknown> {
  if (names === null) return record;
  const selected: Record<string, unknown> = {};
  for (const name of names) if (record[name] !== undefined) selected[name] = record[name];
  return selected;
}

/** A record of one line, or undefined when the line is malformed (not a JSON object, too long or too deep). */
function recordOf(line: BodyLine, maxDepth: number): Record<string, unknown> | undefined {
  if (line.text === undefined || nestsDeeperThan(line.text, maxDepth)) return undefined;
  try {
    const value: unknown = JSON.parse(line.text);
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported as a malformed line
  }
  return undefined;
}

/** `20240131T101500Z`: the form of the time range in Logpush file names. */
const compactTime = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/** Line numbers of malformed lines reported in the answer; `malformed` counts them all. */
export const MAX_REPORTED_MALFORMED_LINES = 100;

/** One enabled job's share of an ingest: its selection of the records and, from its first record on, its file. */
class JobDelivery {
  records = 0;
  private file: AtomicFile | undefined;
  private gzip: Gzip | undefined;
  private piped: Promise<void> | undefined;
  private readonly predicate: Predicate;
  private readonly names: string[] | null;

  constructor(
    readonly job: Job,
    readonly path: string,
    private readonly temporaryFolder: string,
  ) {
    this.predicate = predicateOf(job);
    this.names = fieldNamesOf(job);
  }

  /** Writes the record when the filter keeps it, waiting while the gzip stream is full. */
  async offer(record: Record<string, unknown>): Promise<void> {
    if (!this.predicate(record)) return;
    if (!this.gzip) {
      await mkdir(dirname(this.path), { recursive: true });
      this.file = await createAtomicFile(this.path, this.temporaryFolder);
      this.gzip = createGzip();
      this.piped = pipeline(this.gzip, this.file.stream, { end: false });
      this.piped.catch(() => undefined); // awaited in commit; a failure also fails the writes
    }
    this.records++;
    if (!this.gzip.write(`${JSON.stringify(select(record, this.names))}\n`)) await once(this.gzip, "drain");
  }

  /** Puts the file in place; false when the job kept no record (and so has no file). */
  async commit(): Promise<boolean> {
    if (!this.gzip || !this.file) return false;
    this.gzip.end();
    await this.piped;
    await this.file.commit();
    return true;
  }

  async abort(): Promise<void> {
    this.gzip?.destroy();
    await this.file?.abort();
  }
}

/**
 * Plays the push for one batch of log records of a zone, read as the body streams in (NDJSON,
 * gzip or not): for every enabled job of the dataset, the custom fields (http_requests), the
 * filter and the field selection, written as gzip NDJSON to the job's destination folder. A job
 * that keeps no record gets no file; a body that fails midway delivers nothing.
 */
export async function ingest(context: RequestContext): Promise<Reply> {
  const dataset = context.query.get("dataset") ?? "http_requests";
  datasetCatalog(dataset);
  const zone = context.store.zone(context.zoneId);
  const customFields = dataset === "http_requests" ? customFieldsOf(zone.rulesets) : null;
  const start = new Date();
  const folderOf = (job: Job) =>
    destinationFolder(context.dataDir, parseDestination(job.destination_conf), utcDate(start));
  const name = `${compactTime(start)}_${compactTime(start)}_${randomBytes(4).toString("hex")}.log.gz`;
  const jobs = zone.jobs
    .filter((job) => job.enabled && job.dataset === dataset)
    .map((job) => new JobDelivery(job, join(folderOf(job), name), context.store.temporaryFolder));
  let records = 0;
  let malformed = 0;
  const malformedLines: number[] = [];
  try {
    for await (const line of linesOf(
      decoded(context.upload.chunks, context.upload.gzip),
      context.upload.maxLineBytes,
    )) {
      if (line.text !== undefined && line.text.trim() === "") continue;
      const record = recordOf(line, context.maxJsonDepth);
      if (!record) {
        malformed++;
        if (malformedLines.length < MAX_REPORTED_MALFORMED_LINES) malformedLines.push(line.number);
        continue;
      }
      records++;
      const logged = customFields ? withCustomFields(record, customFields) : record;
      for (const job of jobs) await job.offer(logged);
    }
    for (const job of jobs) await job.commit();
  } catch (error) {
    await Promise.all(jobs.map((job) => job.abort()));
    throw error;
  }
  const delivered = jobs.filter((job) => job.records > 0);
  if (delivered.length > 0) {
    const completed = new Date().toISOString();
    await context.store.update(context.zoneId, (draft) => {
      for (const {
        job: { id },
      } of delivered) {
        const job = draft.jobs.find((j) => j.id === id);
        if (job) {
          job.last_complete = completed;
          job.error_message = null;
        }
      }
    });
  }
  const deliveries = delivered.map((job) => ({
    job_id: job.job.id,
    records: job.records,
    file: relative(context.dataDir, job.path).split("\\").join("/"),
  }));
  return { status: 200, result: { records, malformed, malformed_lines: malformedLines, deliveries } };
}
