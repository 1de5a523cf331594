import { closestMatch, editDistance } from "../diagnostics/index.js";
import type { Catalog } from "./catalog.js";
import { createCatalog } from "./catalog.js";
import { shippedDatasets, shippedSpecs } from "./dataset-specs.js";
import scopesByDataset from "./datasets/scopes.json";

/** Where a dataset's jobs live: under `/zones/{zone_id}` or `/accounts/{account_id}`. */
export type ScopeKind = "zone" | "account";

export const SCOPES: readonly ScopeKind[] = ["zone", "account"];

/** The dataset a filter is checked against when neither an option nor the source names one. */
export const DEFAULT_DATASET = "http_requests";

/** The names of every Logpush dataset with a catalog, sorted. */
export const datasetNames: readonly string[] = [...shippedDatasets].sort();

const built = new Map<string, Catalog>();

/** The shipped catalog of `dataset`, or undefined when filterc does not ship it. Built once, on first use. */
export function getCatalog(dataset: string): Catalog | undefined {
  let catalog = built.get(dataset);
  if (!catalog) {
    const specs = shippedSpecs(dataset);
    if (!specs) return undefined;
    catalog = createCatalog(dataset, specs);
    built.set(dataset, catalog);
  }
  return catalog;
}

/** The scopes a shipped dataset exists in (zone, account or both), or undefined for an unknown dataset. */
export function datasetScopes(dataset: string): readonly ScopeKind[] | undefined {
  const scopes = scopesByDataset as Record<string, ScopeKind[]>;
  return Object.hasOwn(scopes, dataset) ? scopes[dataset] : undefined;
}

/** How many dataset names a message about an unknown one lists: the nearest, not all of them. */
const NEAREST_DATASETS = 5;

/**
 * The dataset names nearest `unknown` for a message about it, and how many others there are, with
 * the closest one offered when one is near: the nearest few, since the whole list (37 names) buried
 * the message. A name that starts with the word, then one that holds it (`http` in gateway_http), is
 * nearer than any other.
 */
export function knownDatasets(unknown: string): string {
  const word = unknown.toLowerCase();
  const score = (name: string) =>
    (name.startsWith(word) ? 0 : name.includes(word) ? 500 : 1000) + editDistance(word, name);
  const nearest = [...datasetNames]
    .sort((a, b) => score(a) - score(b) || (a < b ? -1 : 1))
    .slice(0, NEAREST_DATASETS);
  const closest = closestMatch(unknown, datasetNames);
  const listed = closest
    ? [closest, ...nearest.filter((name) => name !== closest)].slice(0, NEAREST_DATASETS)
    : nearest;
  const others = datasetNames.length - listed.length;
  return `${listed.join(", ")}${others > 0 ? ` and ${others} more` : ""}${closest ? ` (did you mean ${closest}?)` : ""}`;
}
