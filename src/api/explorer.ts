/**
 * Log Explorer datasets and their ingestion filter: `filter` on
 * `/{zones|accounts}/{id}/logs/explorer/datasets/{dataset_id}`, a Logpush filter (the same JSON a
 * job takes) that restricts which events Log Explorer ingests; `""` clears it. The requests are
 * declared here, once, for the client (and its dry run), and the body of a PUT is built here: the
 * service requires `enabled` in it, and takes a PUT without `fields` as "every available field", so
 * a filter change sends back the dataset's own `enabled` and `fields` and changes nothing else.
 */
import { type Catalog, getCatalog } from "../catalog/index.js";
import type { Diagnostic } from "../diagnostics/index.js";
import { ValidationError } from "./errors.js";
import { type ResolvedScope, scopePath } from "./ids.js";
import { compileJobFilter, type JobFilter, type JobSettings } from "./jobs.js";
import { problem } from "./problems.js";
import type { ApiRequest } from "./transport.js";

/** A Log Explorer dataset as the API returns it (the members filterc reads; the rest kept as given). */
export interface ExplorerDataset {
  dataset_id: string;
  /** Its type: a Logpush dataset's name (`http_requests`). */
  dataset: string;
  enabled: boolean;
  object_id?: string;
  object_type?: "account" | "zone";
  created_at?: string;
  updated_at?: string;
  deletion_protection?: boolean;
  /** The fields ingested; the list answer leaves them out. */
  fields?: { name: string; enabled: boolean }[];
  /** The ingestion filter (Logpush filter JSON); left out when there is none. */
  filter?: string;
  filter_attack_traffic?: boolean;
  [key: string]: unknown;
}

/** A Log Explorer dataset, named by its ID or by its type (a zone or account has one of each type). */
export type ExplorerDatasetRef = { datasetId: string } | { dataset: string };

/** What `setExplorerFilter` and `clearExplorerFilter` return. */
export interface ExplorerFilterResult {
  /** The dataset as the service returned it after the PUT (in a dry run: as it would be). */
  dataset: ExplorerDataset;
  /** The filter before and after, as the service stores them ("" for none). */
  before: string;
  after: string;
  /** False when the dataset already had this filter: nothing was written. */
  changed: boolean;
  notices: string[];
  /** The filter's warnings, with ranges in `filterSource`. */
  diagnostics: Diagnostic[];
  filterSource: string | undefined;
}

/** What may be changed with the filter; every other setting of the dataset is sent back as it is. */
export interface ExplorerFilterSettings {
  filter: JobFilter;
  compileOptions?: JobSettings["compileOptions"];
}

/** The most characters of a dataset ID filterc puts in a path (the service's are far shorter). */
const MAX_DATASET_ID_LENGTH = 128;
const DATASET_ID = /^[A-Za-z0-9_-]+$/;

/** A dataset ID as a path takes it: letters, digits, `-` and `_`, or a ValidationError. */
export function explorerDatasetId(id: string, operation: string): string {
  if (typeof id !== "string" || id.length > MAX_DATASET_ID_LENGTH || !DATASET_ID.test(id))
    throw new ValidationError(operation, [
      problem("InvalidIdentifier", "datasetId", {
        what: "Log Explorer dataset ID",
        value: String(id).slice(0, MAX_DATASET_ID_LENGTH),
        expected: `the dataset_id the list gives (letters, digits, - and _, at most ${MAX_DATASET_ID_LENGTH})`,
      }),
    ]);
  return id;
}

/** The requests of the Log Explorer datasets API. */
export const explorerRequests = {
  list: (scope: ResolvedScope, operation: string): ApiRequest => ({
    operation,
    method: "GET",
    path: `${scopePath(scope)}/logs/explorer/datasets`,
    expects: "array",
  }),
  get: (scope: ResolvedScope, id: string, operation: string): ApiRequest => ({
    operation,
    method: "GET",
    path: `${scopePath(scope)}/logs/explorer/datasets/${encodeURIComponent(explorerDatasetId(id, operation))}`,
    expects: "object",
  }),
  update: (
    scope: ResolvedScope,
    id: string,
    body: Record<string, unknown>,
    operation: string,
  ): ApiRequest => ({
    operation,
    method: "PUT",
    path: `${scopePath(scope)}/logs/explorer/datasets/${encodeURIComponent(explorerDatasetId(id, operation))}`,
    body,
    expects: "object",
  }),
};

/**
 * The dataset of a listing that `ref` names by type: the one of that type, or a ValidationError
 * naming the types there are (or the IDs, when several are of that type).
 */
export function findExplorerDataset(
  listed: readonly ExplorerDataset[],
  dataset: string,
  scope: ResolvedScope,
  operation: string,
): ExplorerDataset {
  const found = listed.filter((entry) => entry.dataset === dataset);
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    throw new ValidationError(operation, [
      problem("ExplorerDatasetsOfOneType", "dataset", {
        dataset,
        ids: found.map((entry) => JSON.stringify(entry.dataset_id)).join(", "),
      }),
    ]);
  const types = [...new Set(listed.map((entry) => entry.dataset).filter((t) => typeof t === "string"))];
  throw new ValidationError(operation, [
    problem("ExplorerDatasetNotFound", "dataset", {
      scope: `${scope.kind} ${scope.id}`,
      dataset,
      known: types.length === 0 ? "none" : types.map((t) => `\`${t}\``).join(", "),
    }),
  ]);
}

/** The filter a dataset holds, as the service stores it ("" for none). */
export const explorerFilterOf = (dataset: ExplorerDataset): string =>
  typeof dataset.filter === "string" ? dataset.filter : "";

/**
 * The body of the PUT that gives `current` the filter of `settings`: its own `enabled` and
 * `fields` (a PUT without them would reset the fields to all), and the filter compiled with the
 * catalog of the dataset's type (or `compileOptions.catalog`) and the limits (Logpush's by default:
 * the endpoint documents none of its own). Throws a ValidationError, with the filter's
 * diagnostics, when the filter has errors or no catalog reads it.
 */
export function explorerFilterUpdate(
  current: ExplorerDataset,
  settings: ExplorerFilterSettings,
  operation: string,
): {
  body: Record<string, unknown>;
  after: string;
  diagnostics: Diagnostic[];
  filterSource: string | undefined;
} {
  const catalog: Catalog | undefined = settings.compileOptions?.catalog ?? getCatalog(current.dataset);
  if (!catalog)
    throw new ValidationError(operation, [
      problem("UnknownJobDataset", "dataset", {
        dataset: String(current.dataset),
        known: "the Logpush datasets (give a catalog of its fields with --catalog)",
      }),
    ]);
  const compiled = compileJobFilter(settings.filter, catalog, current.dataset, settings);
  if (!compiled.ok) {
    const errors = compiled.diagnostics.filter((d) => d.severity === "error").length;
    throw new ValidationError(
      operation,
      [problem("InvalidFilter", "filter", { errors })],
      compiled.diagnostics,
      compiled.source,
    );
  }
  const after = compiled.json ?? "";
  const body: Record<string, unknown> = { enabled: current.enabled === true };
  if (Array.isArray(current.fields)) body["fields"] = current.fields;
  body["filter"] = after;
  return { body, after, diagnostics: compiled.diagnostics, filterSource: compiled.source };
}
