/**
 * The top-level fields of a job body, one entry each: the body key, the service's rule for its
 * value, the datasets it applies to, whether only creation sets it, and, where it maps one to one
 * from a setting, the `JobSettings` property, the `filterc jobs` flag and its help. The checks
 * (`checkJobBody`), the body a client builds, the CLI's flags and usage, and the sandbox's stored
 * job are all made from it: a new option is one entry.
 * Sources: the OpenAPI job schema and the Logpush docs (2026).
 */

/** The least and greatest values of the upload limits (0, also accepted, turns a limit off). */
export const MIN_UPLOAD_BYTES = 5_000_000;
export const MAX_UPLOAD_BYTES = 1_000_000_000;
export const MIN_UPLOAD_RECORDS = 1_000;
export const MAX_UPLOAD_RECORDS = 1_000_000;
export const MIN_UPLOAD_INTERVAL_SECONDS = 30;
export const MAX_UPLOAD_INTERVAL_SECONDS = 300;

/** The longest job name the service's schema allows. */
export const MAX_JOB_NAME_LENGTH = 512;

/** The datasets whose jobs may leave out DDoS attack traffic. */
const ATTACK_TRAFFIC_DATASETS = ["http_requests", "firewall_events", "network_analytics_logs"] as const;

/** The rule a field's value follows; `own` fields are checked by code of their own (job-options.ts). */
export type JobOptionValue =
  /** A string (of at most `maxLength` characters, matching `pattern`, where they are given). */
  | { type: "string"; nullable: boolean; accepted: string; maxLength?: number; pattern?: RegExp }
  /** A string that is not empty. */
  | { type: "token"; accepted: string }
  | { type: "boolean" }
  | { type: "enum"; values: readonly string[]; nullable: boolean; accepted: string }
  /** A whole number, 0 (off) or from `min` to `max`, or null. */
  | { type: "limit"; min: number; max: number; unit: string }
  | { type: "own" };

/** How the sandbox keeps a field of a job, and what a job it creates starts with. */
export interface StoredJobField {
  type: "string" | "string-or-null" | "boolean" | "count-or-null" | "object-or-null";
  /** None: the create sets it (the dataset), or, `optional`, a job has it only once a body set it. */
  initial?: string | boolean | null;
  optional?: boolean;
}

/** The `filterc jobs` flag that sets a field; a boolean field's `off` flag sets it false. */
export interface JobOptionFlag {
  name: string;
  /** What the flag takes, as the help writes it; none for a boolean. */
  value?: string;
  off?: string;
  /** The help, wrapped by the usage text. */
  help: string;
}

export interface JobOption {
  key: string;
  value: JobOptionValue;
  /** The datasets a value other than the field's "off" one (false, "", 0, null) is allowed for. */
  datasets?: readonly string[];
  createOnly?: boolean;
  /** Said whenever the field is given a value (not null). */
  notice?: string;
  /** A value other than 0 or null is refused beside `option`'s value `value`, for `reason`. */
  conflict?: { option: string; value: string; reason: string };
  /** The `JobSettings` property set one to one into the field, and its flag; none: built by code of its own. */
  setting?: string;
  flag?: JobOptionFlag;
  /** How the sandbox keeps it; none: not kept (a token spent by the write). */
  stored?: StoredJobField;
}

const edgeStreams = {
  option: "kind",
  value: "edge",
  reason: "an edge job (Edge Log Delivery) streams logs without upload batches",
};

function uploadLimit(
  key: string,
  setting: string,
  flag: string,
  value: string,
  min: number,
  max: number,
  unit: string,
): JobOption {
  return {
    key,
    value: { type: "limit", min, max, unit },
    conflict: edgeStreams,
    setting,
    flag: { name: flag, value, help: `0 or ${min}-${max} ${unit}` },
    stored: { type: "count-or-null", initial: null },
  };
}

/** In the order the service's schema lists them (the order an unknown field's message names them in). */
export const JOB_OPTIONS: readonly JobOption[] = [
  {
    key: "name",
    // The schema's pattern ^[a-zA-Z0-9\-\.]*$, at most 512 characters.
    value: {
      type: "string",
      nullable: true,
      accepted: "null or letters, digits, - and . only",
      maxLength: MAX_JOB_NAME_LENGTH,
      pattern: /^[a-zA-Z0-9.-]*$/,
    },
    setting: "name",
    flag: { name: "--name", value: "NAME", help: "the job's name" },
    stored: { type: "string-or-null", initial: null },
  },
  { key: "dataset", value: { type: "own" }, createOnly: true, stored: { type: "string" } },
  {
    key: "destination_conf",
    value: { type: "own" },
    setting: "destination",
    flag: {
      name: "--destination",
      value: "D",
      help: "destination_conf, e.g. s3://bucket/logs?region=us-west-2",
    },
    stored: { type: "string", initial: "" },
  },
  {
    key: "enabled",
    value: { type: "boolean" },
    setting: "enabled",
    flag: {
      name: "--enabled",
      off: "--disabled",
      help: "whether the job pushes (create: enabled by default)",
    },
    stored: { type: "boolean", initial: false },
  },
  {
    key: "filter",
    value: { type: "string", nullable: true, accepted: "a JSON string or null" },
    stored: { type: "string", initial: "" },
  },
  {
    key: "frequency",
    value: { type: "enum", values: ["high", "low"], nullable: true, accepted: "high, low or null" },
    notice:
      "frequency is deprecated; the service sets upload batches with max_upload_bytes, max_upload_records and max_upload_interval_seconds",
    setting: "frequency",
    flag: {
      name: "--frequency",
      value: "high|low",
      help: "deprecated by the service (use the --max-upload options)",
    },
    stored: { type: "string-or-null", initial: "high" },
  },
  {
    key: "kind",
    value: { type: "enum", values: ["", "edge"], nullable: false, accepted: '"" or "edge"' },
    datasets: ["http_requests"],
    createOnly: true,
    setting: "kind",
    flag: { name: "--kind", value: "edge", help: "Edge Log Delivery (http_requests; create only)" },
    stored: { type: "string", initial: "" },
  },
  { key: "logpull_options", value: { type: "own" }, stored: { type: "string-or-null", initial: null } },
  { key: "output_options", value: { type: "own" }, stored: { type: "object-or-null", initial: null } },
  uploadLimit(
    "max_upload_bytes",
    "maxUploadBytes",
    "--max-upload-bytes",
    "N",
    MIN_UPLOAD_BYTES,
    MAX_UPLOAD_BYTES,
    "bytes",
  ),
  uploadLimit(
    "max_upload_records",
    "maxUploadRecords",
    "--max-upload-records",
    "N",
    MIN_UPLOAD_RECORDS,
    MAX_UPLOAD_RECORDS,
    "records",
  ),
  uploadLimit(
    "max_upload_interval_seconds",
    "maxUploadIntervalSeconds",
    "--max-upload-interval",
    "S",
    MIN_UPLOAD_INTERVAL_SECONDS,
    MAX_UPLOAD_INTERVAL_SECONDS,
    "seconds",
  ),
  {
    key: "filter_attack_traffic",
    value: { type: "boolean" },
    datasets: ATTACK_TRAFFIC_DATASETS,
    setting: "filterAttackTraffic",
    flag: {
      name: "--filter-attack-traffic",
      off: "--no-filter-attack-traffic",
      help: `leave out DDoS attack traffic (${ATTACK_TRAFFIC_DATASETS.join(", ")}), or stop doing so`,
    },
    stored: { type: "boolean", optional: true },
  },
  {
    key: "ownership_challenge",
    value: { type: "token", accepted: "a string (the token of the challenge file)" },
  },
];

/** The writable fields of a job body (create; update takes the same without the create-only ones). */
export const JOB_BODY_FIELDS: readonly string[] = JOB_OPTIONS.map((option) => option.key);
