import { logpullAsOutputOptions, OUTPUT_OPTION_DEFAULTS, type OutputOptions } from "../api/index.js";
import { parseRecordTemplate, type TemplatePart } from "../api/record-template.js";
import { getCatalog, isTimestampField, rfc3339Nanoseconds } from "../catalog/index.js";
import { ExactNumber, jsonNumber } from "../eval/index.js";
import { invalidJob } from "./errors.js";
import type { Job } from "./model.js";

/**
 * How a job writes its records, from its `output_options` (the older `logpull_options` only when
 * there are none, as the service does, read as the output options it stands for): the fields and
 * their order, the timestamp format, the sample rate, the record's text (NDJSON, CSV or a template)
 * and the batch's prefix and suffix.
 */
export interface OutputFormat {
  /** The fields written, in this order; null: every field of the record. */
  names: string[] | null;
  sampleRate: number;
  batchPrefix: string;
  batchSuffix: string;
  recordDelimiter: string;
  /** One record's text, prefix and suffix included. */
  render(record: Record<string, unknown>): string;
}

type Timestamps = OutputOptions["timestamp_format"] & string;

/** The dataset's fields that hold a time (its catalog's timestamp fields): converted to the job's timestamp format. */
function timestampFields(dataset: string): ReadonlySet<string> {
  const fields = getCatalog(dataset)?.fields.values() ?? [];
  return new Set([...fields].filter(isTimestampField).map((field) => field.name));
}

export function outputFormatOf(job: Job): OutputFormat {
  const given =
    (job.output_options as OutputOptions | null) ??
    (job.logpull_options ? logpullAsOutputOptions(job.logpull_options) : {});
  const times = timestampFields(job.dataset);
  const csv = given.output_type === "csv";
  const option = <K extends keyof typeof OUTPUT_OPTION_DEFAULTS>(name: K) =>
    given[name] ?? OUTPUT_OPTION_DEFAULTS[name];
  const names = given.field_names ?? null;
  const timestamps = option("timestamp_format") as Timestamps;
  const redact = option("CVE-2021-44228") === true;
  const delimiter = option("field_delimiter") ?? ",";
  const template = given.record_template ? templateParts(given.record_template) : null;
  const prefix = given.record_prefix ?? (csv ? "" : OUTPUT_OPTION_DEFAULTS.record_prefix);
  const suffix = given.record_suffix ?? (csv ? "\n" : OUTPUT_OPTION_DEFAULTS.record_suffix);
  const body = (record: Record<string, unknown>) => {
    const values = outputValues(record, names, times, timestamps, redact);
    if (template !== null) return renderTemplate(template, values);
    if (csv) return [...values.values()].map((value) => csvValue(value, delimiter)).join(delimiter);
    return jsonMembers(values, delimiter);
  };
  return {
    names,
    sampleRate: option("sample_rate") ?? 1,
    batchPrefix: option("batch_prefix") ?? "",
    batchSuffix: option("batch_suffix") ?? "",
    recordDelimiter: option("record_delimiter") ?? "",
    render: (record) => `${prefix}${body(record)}${suffix}`,
  };
}

/** The members of an NDJSON record, `"name":value`, those the record has, between delimiters. */
function jsonMembers(values: Map<string, unknown>, delimiter: string): string {
  return [...values.entries()]
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${JSON.stringify(name)}:${jsonText(value)}`)
    .join(delimiter);
}

/** The values written, by field in output order (undefined where the record lacks one), timestamps converted, `${` defused. */
function outputValues(
  record: Record<string, unknown>,
  names: string[] | null,
  times: ReadonlySet<string>,
  timestamps: Timestamps,
  redact: boolean,
): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const name of names ?? Object.keys(record)) {
    let value = record[name];
    if (value !== undefined && value !== null && times.has(name)) value = timestamp(value, timestamps);
    if (redact) value = defused(value);
    values.set(name, value);
  }
  return values;
}

/** CVE-2021-44228: `${` becomes `x{` in every string, so no log4j lookup can start. */
function defused(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("${", "x{");
  if (Array.isArray(value)) return value.map(defused);
  if (value && typeof value === "object" && !(value instanceof ExactNumber))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, defused(inner)]));
  return value;
}

/**
 * A time (nanoseconds since the epoch as a number or a string of digits, or RFC 3339 text) in the
 * job's format: unixnano and unix as numbers, the rfc3339 forms as text. Anything else is left as it is.
 */
const NANOSECONDS_PER_SECOND = 1_000_000_000n;

function timestamp(value: unknown, format: Timestamps): unknown {
  const nanos = nanoseconds(value);
  if (nanos === undefined) return value;
  // Nanoseconds pass 2^53: an ExactNumber keeps the digits.
  if (format === "unixnano") return jsonNumber(String(nanos));
  // Whole seconds toward the past, so that a time before 1970 keeps a fraction of 0 to 999999999 ns.
  const whole = nanos / NANOSECONDS_PER_SECOND - (nanos % NANOSECONDS_PER_SECOND < 0n ? 1n : 0n);
  if (format === "unix") return Number(whole);
  const seconds = new Date(Number(whole) * 1000).toISOString().slice(0, 19);
  const fraction = String(nanos - whole * NANOSECONDS_PER_SECOND).padStart(9, "0");
  if (format === "rfc3339ms") return `${seconds}.${fraction.slice(0, 3)}Z`;
  if (format === "rfc3339ns") return `${seconds}.${fraction}Z`;
  return `${seconds}Z`;
}

function nanoseconds(value: unknown): bigint | undefined {
  const text = value instanceof ExactNumber ? value.text : typeof value === "number" ? String(value) : value;
  if (typeof text !== "string") return undefined;
  if (/^\d{1,20}$/.test(text)) return BigInt(text);
  // The instant the filter compared (any offset and fraction), cut to whole nanoseconds.
  return rfc3339Nanoseconds(text)?.nanoseconds;
}

/** A value as JSON text, numbers as the log wrote them (64-bit integers stay exact). */
export function jsonText(value: unknown): string {
  if (value instanceof ExactNumber) return value.text;
  if (value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}:${jsonText(inner)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** A CSV cell: quoted (quotes doubled) when it holds the delimiter, a quote or a line break; empty when missing. */
function csvValue(value: unknown, delimiter: string): string {
  if (value === undefined || value === null) return "";
  const text = typeof value === "string" ? value : jsonText(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A `record_template`'s pieces, read as Go reads it (the reader the client checks templates with).
 * A template the job was saved with always reads; one that does not (a state file written by hand
 * or by an older sandbox) fails its job, not the push.
 */
function templateParts(template: string): TemplatePart[] {
  const { parts, problems } = parseRecordTemplate(template);
  if (problems[0]) throw invalidJob(`invalid record_template: ${problems[0].message}`);
  return parts;
}

/** A record through its template: `{{ .Field }}` is the value as JSON (`null` when the record or `field_names` lacks it). */
function renderTemplate(parts: readonly TemplatePart[], values: Map<string, unknown>): string {
  let out = "";
  for (const part of parts) out += "text" in part ? part.text : jsonText(values.get(part.field) ?? null);
  return out;
}
