import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { dirname, join, relative } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip, type Gzip } from "node:zlib";
import { CUSTOM_FIELD_COLUMNS } from "../api/index.js";
import { compilePredicate, type Predicate, parseRecord } from "../eval/index.js";
import { type AtomicFile, createAtomicFile, makeFolders } from "../files/index.js";
import type { TextLine } from "../logs/index.js";
import type { Reply, RequestContext } from "./context.js";
import { type CustomFields, customFieldsOf } from "./custom-fields.js";
import { datasetCatalog } from "./datasets.js";
import { destinationFolder, parseDestination } from "./destination.js";
import { invalidJob, SandboxError } from "./errors.js";
import { checkJobFilter } from "./filter.js";
import { nestsDeeperThan } from "./http.js";
import { decoded, linesOf } from "./ingest-body.js";
import { type ExplorerDataset, editable, type Job } from "./model.js";
import { type OutputFormat, outputFormatOf } from "./output.js";
import { utcDate } from "./ownership.js";
import { jobSettingsProblem } from "./state-file.js";

/** Where the records Log Explorer keeps go, in the data directory (`_` starts no bucket's name). */
const EXPLORER_FOLDER = "_explorer";

/** Custom field values are cut to this many UTF-8 bytes, as Logpush does. */
const MAX_CUSTOM_FIELD_BYTES = 8192;

/** Compiled filters by dataset and filter text; emptied when it grows past this many (filters of deleted jobs). */
const MAX_CACHED_PREDICATES = 1000;
const predicates = new Map<string, Predicate>();

/** A filter as a predicate, compiled once per dataset and filter text (the filter was checked when it was saved). */
function predicateOf(dataset: string, filter: string): Predicate {
  const key = `${dataset}\u0000${filter}`;
  let predicate = predicates.get(key);
  if (!predicate) {
    const condition = checkJobFilter(filter, dataset);
    // An ingested timestamp is nanoseconds (a number) or RFC 3339 text, as output.ts reads it.
    predicate = condition ? compilePredicate(condition, { timestamps: "unixnano" }) : () => true;
    if (predicates.size >= MAX_CACHED_PREDICATES) predicates.clear();
    predicates.set(key, predicate);
  }
  return predicate;
}

/** Cuts a value to at most `MAX_CUSTOM_FIELD_BYTES` UTF-8 bytes, never inside a character. */
function cutValue(value: string): string {
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

/**
 * The record with its custom fields applied. Copied key by key: in V8 a spread copy that then gains
 * members is several times slower (a JSON "__proto__" key stays a plain member).
 */
function withCustomFields(record: Record<string, unknown>, fields: CustomFields): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (key === "__proto__")
      Object.defineProperty(result, key, {
        value: record[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else result[key] = record[key];
  }
  for (const column of CUSTOM_FIELD_COLUMNS)
    result[column] = pickFields(record[column], fields[column], column !== "Cookies");
  return result;
}

/** A record of one line, or undefined when the line is malformed (not a JSON object, too long or too deep). Numbers stay exact. */
function recordOf(line: TextLine, maxDepth: number): Record<string, unknown> | undefined {
  if (line.text === undefined || nestsDeeperThan(line.text, maxDepth)) return undefined;
  return parseRecord(line.text);
}

/**
 * Whether the sample keeps the `index`-th record a job's filter kept in one push: a hash of the
 * sandbox's seed, the job and the index against the rate, so a seed gives the same records every
 * time (and each job its own sample).
 */
function sampled(seed: number, jobId: number, index: number, rate: number): boolean {
  if (rate >= 1) return true;
  let h = (seed ^ Math.imul(jobId, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296 < rate;
}

/**
 * What a delivery keeps of the records it is offered: those its filter keeps, then its sample of
 * them. Every delivery the sandbox plays goes through one: a job's push, Log Explorer's ingest, an
 * Instant Logs session; so a filter and a sample mean the same thing in each.
 */
export class RecordGate {
  /** The records the filter kept, sampled out or not: the sample's index. */
  private kept = 0;
  private readonly predicate: Predicate;

  constructor(
    dataset: string,
    filter: string,
    /** The sandbox's seed and the delivery's number: together they make its sample. */
    private readonly seed: number,
    private readonly key: number,
    /** The share of the filter's records kept, in (0, 1]. */
    private readonly rate: number,
  ) {
    this.predicate = predicateOf(dataset, filter);
  }

  passes(record: Record<string, unknown>): boolean {
    return this.predicate(record) && sampled(this.seed, this.key, this.kept++, this.rate);
  }
}

/** `20240131T101500Z`: the form of the time range in Logpush file names. */
const compactTime = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/** Line numbers of malformed lines reported in the answer; `malformed` counts them all. */
const MAX_REPORTED_MALFORMED_LINES = 100;

/** One file of a job's push, open while records go in. */
interface Batch {
  path: string;
  file: AtomicFile;
  gzip: Gzip;
  piped: Promise<void>;
  records: number;
  bytes: number;
  /** Text not yet handed to gzip: each write to it is a round trip to zlib's thread, so records go in pieces. */
  pending: string;
}

/**
 * Text gathered before a write to a batch's gzip stream. One write per record cost a zlib round
 * trip each; pieces of 64 KiB make that cost vanish.
 */
const GZIP_PIECE_CHARS = 64 * 1024;

/**
 * One enabled job's share of an ingest: its filter, sample and output format applied to the
 * records, written as gzip files of at most `max_upload_records` records and `max_upload_bytes`
 * bytes (uncompressed) each, a file begun at its first record.
 */
class JobDelivery {
  private batch: Batch | undefined;
  readonly files: { path: string; records: number }[] = [];
  private readonly gate: RecordGate;
  private readonly format: OutputFormat;

  /** Bytes written for this job in this push, before compression. */
  private written = 0;

  constructor(
    readonly job: Job,
    private readonly nextPath: () => string,
    private readonly temporaryFolder: string,
    sampleSeed: number,
    /** Most bytes one push writes for the job: prefixes and templates can make more of a record than came in. */
    private readonly maxBytes: number,
  ) {
    this.format = outputFormatOf(job);
    this.gate = new RecordGate(job.dataset, job.filter, sampleSeed, job.id, this.format.sampleRate);
  }

  get records(): number {
    return this.files.reduce((sum, file) => sum + file.records, 0) + (this.batch?.records ?? 0);
  }

  /** Writes the record when the filter and the sample keep it, waiting while the gzip stream is full. */
  async offer(record: Record<string, unknown>): Promise<void> {
    if (!this.gate.passes(record)) return;
    const text = this.format.render(record);
    const bytes = Buffer.byteLength(text);
    const { max_upload_records: maxRecords, max_upload_bytes: maxBytes } = this.job;
    const full =
      this.batch !== undefined &&
      ((maxRecords ? this.batch.records >= maxRecords : false) ||
        (maxBytes ? this.batch.bytes + this.format.recordDelimiter.length + bytes > maxBytes : false));
    if (full) await this.commit();
    // A file's first record follows the batch prefix, the others a record delimiter.
    const written = (this.batch ? this.format.recordDelimiter : this.format.batchPrefix) + text;
    const writtenBytes = Buffer.byteLength(written);
    this.written += writtenBytes;
    if (this.written > this.maxBytes)
      throw invalidJob(
        `the job's records came to more than ${this.maxBytes} bytes in one push (its prefixes and template make more of a record than came in); the push stopped there`,
      );
    const batch = this.batch ?? (await this.open());
    batch.records++;
    batch.bytes += writtenBytes;
    batch.pending += written;
    if (batch.pending.length >= GZIP_PIECE_CHARS) {
      const piece = batch.pending;
      batch.pending = "";
      if (!batch.gzip.write(piece)) await once(batch.gzip, "drain");
    }
  }

  private async open(): Promise<Batch> {
    const path = this.nextPath();
    await makeFolders(dirname(path));
    const file = await createAtomicFile(path, { expected: "absent", temporaryFolder: this.temporaryFolder });
    const gzip = createGzip();
    const piped = pipeline(gzip, file.stream, { end: false });
    piped.catch(() => undefined); // awaited in commit; a failure also fails the writes
    this.batch = { path, file, gzip, piped, records: 0, bytes: 0, pending: "" };
    return this.batch;
  }

  /** Ends the open file (if any: a job that kept no record has none) with the batch suffix and puts it in place. */
  async commit(): Promise<void> {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    batch.gzip.end(batch.pending + this.format.batchSuffix);
    // A write that failed here (a full disk) drops the temporary file: it was left until the next start.
    await batch.piped.catch(async (error: unknown) => {
      await batch.file.abort();
      throw error;
    });
    await batch.file.commit();
    this.files.push({ path: batch.path, records: batch.records });
  }

  async abort(): Promise<void> {
    const batch = this.batch;
    this.batch = undefined;
    batch?.gzip.destroy();
    await batch?.file.abort();
  }
}

/** A job of the push that failed alone: saved as its `error_message`, answered in `failures`. */
interface JobFailure {
  job_id: number;
  message: string;
}

/**
 * Why a job's share of the push failed, in words for its `error_message`: the sandbox's own refusal
 * of a stored value (a filter, a destination, a template), or the file system's code. Anything else
 * is a fault of the sandbox, logged whole and named as internal.
 */
function failureMessage(error: unknown, log: (line: string) => void): string {
  if (error instanceof SandboxError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code))
    return `the push could not write to the destination folder (${code})`;
  log(`filterc sandbox: a push failed: ${(error as Error).stack ?? String(error)}`);
  return "the push failed with an internal error of the sandbox";
}

/**
 * Plays the push for one batch of log records of a zone, read as the body streams in (NDJSON,
 * gzip or not): for every enabled job of the dataset, the custom fields (http_requests), the
 * filter and the field selection, written as gzip NDJSON to the job's destination folder. A job
 * that keeps no record gets no file; a body that fails midway delivers nothing. A job whose stored
 * settings cannot be applied, or whose files cannot be written, fails alone: the others deliver,
 * and its `error_message` and `last_error` say what happened (each push tries it again).
 */
export async function ingest(context: RequestContext): Promise<Reply> {
  const dataset = context.query.get("dataset") ?? "http_requests";
  datasetCatalog(dataset, context.scope);
  const zone = context.store.zone(context.stateKey);
  const customFields = dataset === "http_requests" ? customFieldsOf(zone.rulesets) : null;
  const start = new Date();
  const name = () => `${compactTime(start)}_${compactTime(start)}_${randomBytes(4).toString("hex")}.log.gz`;
  const failures: JobFailure[] = [];
  let active: JobDelivery[] = [];
  const failed = async (job: Job, error: unknown, delivery?: JobDelivery) => {
    failures.push({ job_id: job.id, message: failureMessage(error, context.log) });
    if (delivery) {
      active = active.filter((other) => other !== delivery);
      await delivery.abort().catch(() => undefined);
    }
  };
  for (const job of zone.jobs.filter((job) => job.enabled && job.dataset === dataset)) {
    try {
      // What a write would refuse in a saved job (by hand, or an older sandbox's) fails it here.
      const problem = jobSettingsProblem(job);
      if (problem !== undefined) throw invalidJob(problem);
      const folder = destinationFolder(
        context.dataDir,
        parseDestination(job.destination_conf),
        utcDate(start),
      );
      active.push(
        new JobDelivery(
          job,
          () => join(folder, name()),
          context.store.temporaryFolder,
          context.sampleSeed,
          context.upload.maxInflatedBytes,
        ),
      );
    } catch (error) {
      await failed(job, error);
    }
  }
  const jobs = [...active];
  const explorer = explorerDeliveryOf(context, dataset, zone.explorer, name, start);
  let explorerError: string | undefined;
  // The zone's Instant Logs sessions see its http_requests records as they come (a session's own
  // filter, sample and fields), whether the ingest then delivers or not.
  const live =
    dataset === "http_requests" &&
    context.scope.kind === "zone" &&
    context.instantLogs.listening(context.scope.id);
  let records = 0;
  let malformed = 0;
  const malformedLines: number[] = [];
  try {
    const { upload } = context;
    for await (const line of linesOf(
      decoded(upload.chunks, upload.gzip, upload.maxInflatedBytes),
      upload.maxLineBytes,
      upload.maxLines,
    )) {
      upload.signal.throwIfAborted();
      if (line.text !== undefined && line.text.trim() === "") continue;
      const record = recordOf(line, context.maxJsonDepth);
      if (!record) {
        malformed++;
        if (malformedLines.length < MAX_REPORTED_MALFORMED_LINES) malformedLines.push(line.number);
        continue;
      }
      records++;
      const logged = customFields ? withCustomFields(record, customFields) : record;
      if (live) context.instantLogs.offer(context.scope.id, logged);
      for (const delivery of active)
        await delivery.offer(logged).catch((error: unknown) => failed(delivery.job, error, delivery));
      if (explorer && explorerError === undefined)
        await explorer.delivery.offer(logged).catch(async (error: unknown) => {
          explorerError = failureMessage(error, context.log);
          await explorer.delivery.abort().catch(() => undefined);
        });
    }
    for (const delivery of active)
      await delivery.commit().catch((error: unknown) => failed(delivery.job, error, delivery));
    if (explorer && explorerError === undefined)
      await explorer.delivery.commit().catch((error: unknown) => {
        explorerError = failureMessage(error, context.log);
      });
  } catch (error) {
    await Promise.all([...jobs, ...(explorer ? [explorer.delivery] : [])].map((job) => job.abort()));
    throw error;
  }
  const delivered = active.filter((job) => job.records > 0);
  if (delivered.length > 0 || failures.length > 0) {
    const now = new Date().toISOString();
    await context.store.update(context.stateKey, (draft) => {
      const saved = (id: number) => {
        const job = draft.jobs.find((j) => j.id === id);
        return job && editable(draft.jobs, job);
      };
      for (const { job } of delivered) {
        const edited = saved(job.id);
        if (edited) {
          edited.last_complete = now;
          edited.error_message = null;
        }
      }
      for (const failure of failures) {
        const edited = saved(failure.job_id);
        if (edited) {
          edited.last_error = now;
          edited.error_message = failure.message;
        }
      }
    });
  }
  const deliveries = jobs.flatMap((job) =>
    job.files.map((file) => ({
      job_id: job.job.id,
      records: file.records,
      file: relative(context.dataDir, file.path).split("\\").join("/"),
    })),
  );
  const kept = explorer && {
    dataset_id: explorer.dataset.dataset_id,
    ...(explorerError === undefined
      ? {
          records: explorer.delivery.records,
          files: explorer.delivery.files.map((file) =>
            relative(context.dataDir, file.path).split("\\").join("/"),
          ),
        }
      : { error: explorerError }),
  };
  return {
    status: 200,
    result: {
      records,
      malformed,
      malformed_lines: malformedLines,
      deliveries,
      failures,
      // Only where Log Explorer keeps this dataset's records: the answers of scopes without one are as they were.
      ...(kept ? { explorer: kept } : {}),
    },
  };
}

/**
 * What Log Explorer keeps of an ingest: the records of the scope's enabled dataset of this type
 * that pass its ingestion filter, with its enabled fields (timestamps as RFC 3339, the form Log
 * Explorer queries them in), written as gzip NDJSON under `_explorer/<zone>/<dataset_id>/<date>/`
 * of the data directory, so a test or a person can see what it would hold. Played as a job's push
 * is (one JobDelivery): the same filter semantics, the same writing.
 */
function explorerDeliveryOf(
  context: RequestContext,
  type: string,
  datasets: readonly ExplorerDataset[],
  name: () => string,
  start: Date,
): { dataset: ExplorerDataset; delivery: JobDelivery } | undefined {
  const dataset = datasets.find((entry) => entry.dataset === type && entry.enabled);
  if (!dataset) return undefined;
  const byLowerCase = new Map(
    [...datasetCatalog(type).fields.keys()].map((field) => [field.toLowerCase(), field]),
  );
  const fields = dataset.fields.flatMap((field) => {
    const known = field.enabled ? byLowerCase.get(field.name.toLowerCase()) : undefined;
    return known === undefined ? [] : [known];
  });
  const job: Job = {
    id: 0,
    dataset: type,
    enabled: true,
    name: null,
    kind: "",
    destination_conf: "",
    filter: dataset.filter ?? "",
    logpull_options: null,
    output_options: { field_names: fields, timestamp_format: "rfc3339" },
    frequency: null,
    max_upload_bytes: null,
    max_upload_interval_seconds: null,
    max_upload_records: null,
    error_message: null,
    last_complete: null,
    last_error: null,
  };
  const folder = join(context.dataDir, EXPLORER_FOLDER, context.stateKey, dataset.dataset_id, utcDate(start));
  const delivery = new JobDelivery(
    job,
    () => join(folder, name()),
    context.store.temporaryFolder,
    context.sampleSeed,
    context.upload.maxInflatedBytes,
  );
  return { dataset, delivery };
}
