/**
 * The Log Explorer datasets API (`/{zones|accounts}/{id}/logs/explorer/datasets[/{dataset_id}]`), as
 * the official SDKs' generated code describes it: list (without fields or filter), create, get,
 * update (PUT: `enabled` required; `fields` left out means every field; `filter` left out keeps
 * it, `""` clears it), delete (refused while `deletion_protection`). A filter is checked as a job's
 * is (checkJobFilter) against the catalog of the dataset's type; the ingest applies it (push.ts).
 */
import { DEFAULT_DATASET } from "../catalog/index.js";
import type { Reply, RequestContext } from "./context.js";
import { datasetCatalog } from "./datasets.js";
import { ErrorCode, SandboxError } from "./errors.js";
import { checkJobFilter } from "./filter.js";
import { type ExplorerDataset, editable, newId, timestamp, type ZoneState } from "./model.js";

/** The datasets whose records Log Explorer can leave attack traffic out of (as jobs' `filter_attack_traffic`). */
const ATTACK_TRAFFIC_DATASETS = ["http_requests", "firewall_events", "network_analytics_logs"];

const invalid = (message: string, pointer?: string) =>
  new SandboxError(400, ErrorCode.invalidExplorerDataset, message, pointer);

function findDataset(zone: ZoneState, id: string): ExplorerDataset {
  const dataset = zone.explorer.find((entry) => entry.dataset_id === id);
  if (!dataset) throw new SandboxError(404, ErrorCode.explorerDatasetNotFound, `dataset ${id} not found`);
  return dataset;
}

/** Every field of the type's catalog, each named in lower case, as the service names them, enabled. */
function allFields(type: string): ExplorerDataset["fields"] {
  return [...datasetCatalog(type).fields.values()].map((field) => ({
    name: field.name.toLowerCase(),
    enabled: true,
  }));
}

/** A body's `fields`: objects {name, enabled}, each a field of the type (any letter case), none twice. */
function checkFields(value: unknown, type: string): ExplorerDataset["fields"] {
  if (value === undefined) return allFields(type);
  if (!Array.isArray(value)) throw invalid("fields must be an array of {name, enabled}", "/fields");
  const known = new Set(allFields(type).map((field) => field.name));
  const seen = new Set<string>();
  return value.map((entry, index) => {
    const at = `/fields/${index}`;
    const { name, enabled } = (entry ?? {}) as Record<string, unknown>;
    if (typeof name !== "string" || typeof enabled !== "boolean")
      throw invalid("each field is {name: string, enabled: boolean}", at);
    const lower = name.toLowerCase();
    if (!known.has(lower)) throw invalid(`${JSON.stringify(name)} is not a field of ${type}`, `${at}/name`);
    if (seen.has(lower)) throw invalid(`${JSON.stringify(name)} is listed twice`, `${at}/name`);
    seen.add(lower);
    return { name: lower, enabled };
  });
}

/** Applies `filter` and `filter_attack_traffic` of a body to a dataset (`""` or null clears the filter). */
function applyFilterMembers(dataset: ExplorerDataset, body: Record<string, unknown>): void {
  const filter = body["filter"];
  if (filter !== undefined) {
    if (filter !== null && typeof filter !== "string")
      throw invalid("filter must be a string holding the filter's JSON", "/filter");
    checkJobFilter(filter, dataset.dataset);
    if (filter === null || filter === "") delete dataset.filter;
    else dataset.filter = filter;
  }
  const attack = body["filter_attack_traffic"];
  if (attack !== undefined) {
    if (typeof attack !== "boolean")
      throw invalid("filter_attack_traffic must be a boolean", "/filter_attack_traffic");
    if (!ATTACK_TRAFFIC_DATASETS.includes(dataset.dataset))
      throw invalid(
        `filter_attack_traffic applies to ${ATTACK_TRAFFIC_DATASETS.join(", ")} only`,
        "/filter_attack_traffic",
      );
    dataset.filter_attack_traffic = attack;
  }
}

/** A dataset as the list gives it: without its fields and filter. */
function summary({
  fields: _fields,
  filter: _filter,
  filter_attack_traffic: _attack,
  ...rest
}: ExplorerDataset) {
  return rest;
}

export async function listExplorerDatasets(context: RequestContext): Promise<Reply> {
  return { status: 200, result: context.store.zone(context.stateKey).explorer.map(summary) };
}

export async function createExplorerDataset(context: RequestContext): Promise<Reply> {
  const type = context.body["dataset"] ?? DEFAULT_DATASET;
  if (typeof type !== "string") throw invalid("dataset must be a dataset's name", "/dataset");
  datasetCatalog(type, context.scope);
  const dataset = await context.store.update(context.stateKey, (zone) => {
    if (zone.explorer.some((entry) => entry.dataset === type))
      throw new SandboxError(
        409,
        ErrorCode.explorerDatasetExists,
        `a Log Explorer dataset of type ${type} already exists here`,
        "/dataset",
      );
    const now = timestamp();
    const created: ExplorerDataset = {
      dataset_id: newId(),
      dataset: type,
      enabled: true,
      object_id: context.scope.id,
      object_type: context.scope.kind,
      created_at: now,
      updated_at: now,
      deletion_protection: true,
      fields: checkFields(context.body["fields"], type),
    };
    applyFilterMembers(created, context.body);
    zone.explorer.push(created);
    return created;
  });
  return { status: 200, result: dataset };
}

export async function getExplorerDataset(context: RequestContext): Promise<Reply> {
  return {
    status: 200,
    result: findDataset(context.store.zone(context.stateKey), context.params["datasetId"]!),
  };
}

export async function updateExplorerDataset(context: RequestContext): Promise<Reply> {
  const { body } = context;
  if (typeof body["enabled"] !== "boolean") throw invalid("enabled is required (a boolean)", "/enabled");
  const protection = body["deletion_protection"];
  if (protection !== undefined && typeof protection !== "boolean")
    throw invalid("deletion_protection must be a boolean", "/deletion_protection");
  const dataset = await context.store.update(context.stateKey, (zone) => {
    const edited = editable(zone.explorer, findDataset(zone, context.params["datasetId"]!));
    edited.enabled = body["enabled"] as boolean;
    if (protection !== undefined) edited.deletion_protection = protection as boolean;
    // As the service documents it: an update without fields ingests every available field.
    edited.fields = checkFields(body["fields"], edited.dataset);
    applyFilterMembers(edited, body);
    edited.updated_at = timestamp();
    return edited;
  });
  return { status: 200, result: dataset };
}

export async function deleteExplorerDataset(context: RequestContext): Promise<Reply> {
  const dataset = await context.store.update(context.stateKey, (zone) => {
    const found = findDataset(zone, context.params["datasetId"]!);
    if (found.deletion_protection)
      throw new SandboxError(
        400,
        ErrorCode.deletionProtected,
        "the dataset's deletion is protected; set deletion_protection to false first",
      );
    zone.explorer = zone.explorer.filter((entry) => entry !== found);
    return found;
  });
  return { status: 200, result: dataset };
}
