import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { compilePredicate, type Predicate } from "../eval/index.js";
import type { Reply, RequestContext } from "./context.js";
import { type CustomFields, customFieldsOf } from "./custom-fields.js";
import { datasetCatalog } from "./datasets.js";
import { destinationFolder, parseDestination } from "./destination.js";
import { checkJobFilter } from "./filter.js";
import { nestsDeeperThan } from "./http.js";
import type { Job } from "./model.js";
import { utcDate } from "./ownership.js";
import { writeFileAtomically } from "./store.js";

const gzipAsync = promisify(gzip);

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

interface ParsedBody {
  records: Record<string, unknown>[];
  malformedLines: number[];
}

/** A line nested deeper than `maxDepth` is malformed: written out again, it would exhaust the stack. */
function parseNdjson(text: string, maxDepth: number): ParsedBody {
  const parsed: ParsedBody = { records: [], malformedLines: [] };
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    if (nestsDeeperThan(line, maxDepth)) {
      parsed.malformedLines.push(index + 1);
      return;
    }
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        parsed.records.push(value as Record<string, unknown>);
      else parsed.malformedLines.push(index + 1);
    } catch {
      parsed.malformedLines.push(index + 1);
    }
  });
  return parsed;
}

/** `20240131T101500Z`: the form of the time range in Logpush file names. */
const compactTime = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

/**
 * Plays the push for one batch of log records of a zone: for every enabled job of the dataset,
 * the custom fields (http_requests), the filter and the field selection, written as gzip NDJSON
 * to the job's destination folder. A job that keeps no record gets no file.
 */
export async function ingest(context: RequestContext): Promise<Reply> {
  const dataset = context.query.get("dataset") ?? "http_requests";
  datasetCatalog(dataset);
  const { records, malformedLines } = parseNdjson(context.rawBody.toString("utf8"), context.maxJsonDepth);
  const zone = context.store.zone(context.zoneId);
  const customFields = dataset === "http_requests" ? customFieldsOf(zone.rulesets) : null;
  const logged = customFields ? records.map((record) => withCustomFields(record, customFields)) : records;
  const now = new Date();
  const deliveries: { job_id: number; records: number; file: string }[] = [];
  for (const job of zone.jobs.filter((j) => j.enabled && j.dataset === dataset)) {
    const predicate = predicateOf(job);
    const names = fieldNamesOf(job);
    const lines = logged
      .filter((record) => predicate(record))
      .map((record) => JSON.stringify(select(record, names)));
    if (lines.length === 0) continue;
    const folder = destinationFolder(context.dataDir, parseDestination(job.destination_conf), utcDate(now));
    const file = join(
      folder,
      `${compactTime(now)}_${compactTime(now)}_${randomBytes(4).toString("hex")}.log.gz`,
    );
    await mkdir(folder, { recursive: true });
    await writeFileAtomically(file, await gzipAsync(`${lines.join("\n")}\n`), context.store.temporaryFolder);
    deliveries.push({
      job_id: job.id,
      records: lines.length,
      file: relative(context.dataDir, file).split("\\").join("/"),
    });
  }
  if (deliveries.length > 0) {
    const completed = now.toISOString();
    await context.store.update(context.zoneId, (draft) => {
      for (const delivery of deliveries) {
        const job = draft.jobs.find((j) => j.id === delivery.job_id);
        if (job) {
          job.last_complete = completed;
          job.error_message = null;
        }
      }
    });
  }
  return { status: 200, result: { records: records.length, malformed_lines: malformedLines, deliveries } };
}
