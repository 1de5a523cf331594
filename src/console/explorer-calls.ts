/**
 * The console's calls for Log Explorer: a scope's datasets with their ingestion filters, and a
 * dataset's filter set or cleared, each made with the API client (which checks the filter against
 * the catalog of the dataset's type and the limits before anything is sent).
 */
import type { ExplorerDataset, JobFilter } from "../api/index.js";
import { BadCall, type Handler, isObject, objectBody, scopeOf } from "./calls.js";

/**
 * The most datasets a listing reads one by one (a zone or account has one of each type, fewer than
 * this); past it the answer says how many more there are.
 */
export const MAX_LISTED_DATASETS = 64;

/** `GET /api/explorer/datasets`: the datasets, each as a read of it answers (the list leaves out fields and filter). */
const listDatasets: Handler = async ({ client }, call) => {
  const scope = scopeOf(call.query, "the query");
  const listed = (await client.listExplorerDatasets(scope)).filter(
    (entry) => typeof entry.dataset_id === "string",
  );
  const datasets: ExplorerDataset[] = await Promise.all(
    listed
      .slice(0, MAX_LISTED_DATASETS)
      .map((entry) => client.getExplorerDataset(scope, { datasetId: entry.dataset_id })),
  );
  return { datasets, more: Math.max(0, listed.length - MAX_LISTED_DATASETS) };
};

/** `PUT /api/explorer/datasets/:id`: `{scope, filter}`, the filter `{source}` to set or null to clear. */
const setFilter: Handler = async (context, call) => {
  const body = objectBody(call);
  const given = body["filter"];
  if (given !== null && !(isObject(given) && typeof given["source"] === "string"))
    throw new BadCall("filter is null (to clear it) or {source}");
  const filter: JobFilter = given === null ? null : { source: given["source"] as string };
  const result = await context.client.setExplorerFilter(
    scopeOf(body["scope"], "scope"),
    { datasetId: call.id! },
    context.diagnostics === undefined
      ? { filter }
      : { filter, compileOptions: { diagnostics: context.diagnostics } },
  );
  return { ...result };
};

export const explorerCalls: ReadonlyArray<{ method: string; path: string; handle: Handler }> = [
  { method: "GET", path: "/api/explorer/datasets", handle: listDatasets },
  { method: "PUT", path: "/api/explorer/datasets/:id", handle: setFilter },
];
