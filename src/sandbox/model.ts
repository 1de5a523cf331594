import { randomBytes } from "node:crypto";

/** A ruleset rule as the rulesets API returns it. */
export interface Rule {
  id: string;
  version: string;
  action: string;
  expression: string;
  action_parameters?: Record<string, unknown>;
  description?: string;
  last_updated: string;
  ref: string;
  enabled: boolean;
}

export interface Ruleset {
  id: string;
  name: string;
  description: string;
  kind: string;
  phase: string;
  version: string;
  last_updated: string;
  rules: Rule[];
}

/**
 * A Logpush job as the jobs API returns it: the members the sandbox reads. What it keeps of a job
 * is the table of job options' (api/job-option-table.ts): jobs.ts creates and writes a job, and
 * state-file.ts checks a saved one, from it.
 */
export interface Job {
  id: number;
  dataset: string;
  enabled: boolean;
  name: string | null;
  kind: string;
  destination_conf: string;
  filter: string;
  logpull_options: string | null;
  output_options: Record<string, unknown> | null;
  frequency: string | null;
  /** Only once a body set it. */
  filter_attack_traffic?: boolean;
  max_upload_bytes: number | null;
  max_upload_interval_seconds: number | null;
  max_upload_records: number | null;
  error_message: string | null;
  last_complete: string | null;
  last_error: string | null;
}

/** A Log Explorer dataset as the datasets API returns it (`filter` only while it has one). */
export interface ExplorerDataset {
  dataset_id: string;
  dataset: string;
  enabled: boolean;
  object_id: string;
  object_type: "zone" | "account";
  created_at: string;
  updated_at: string;
  deletion_protection: boolean;
  fields: { name: string; enabled: boolean }[];
  filter?: string;
  filter_attack_traffic?: boolean;
}

/** Everything the sandbox keeps for one zone: one file in the data directory. */
export interface ZoneState {
  rulesets: Ruleset[];
  jobs: Job[];
  /** The zone's (or account's) Log Explorer datasets, at most one of each type. */
  explorer: ExplorerDataset[];
  /** The highest job id this zone was ever given, so ids are not reused after deletes and restarts. */
  lastJobId: number;
  /** Ownership challenge tokens issued, by destination (without its query). */
  challenges: Record<string, string>;
}

export function emptyZone(): ZoneState {
  return { rulesets: [], jobs: [], explorer: [], lastJobId: 0, challenges: {} };
}

/**
 * The saved objects of a zone are frozen: a change edits a copy, put in the draft's list in place
 * of `item` (and returned). Only what a change edits is copied, saved and written again.
 */
export function editable<T extends object>(list: T[], item: T): T {
  const copy = { ...item };
  list[list.indexOf(item)] = copy;
  return copy;
}

/** A 32-hex identifier, the form of Cloudflare's ruleset and rule ids. */
export function newId(): string {
  return randomBytes(16).toString("hex");
}

/** Now, in Cloudflare's `last_updated` form: ISO 8601 UTC with microseconds ("2023-10-21T21:25:21.883756Z"). */
export function timestamp(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const seconds = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  return `${seconds}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
}
