import { type Catalog, getCatalog } from "../catalog/index.js";
import { invalidJob } from "./errors.js";

/** The catalog of a dataset the sandbox serves: every Logpush dataset filterc ships a catalog for. */
export function datasetCatalog(dataset: unknown): Catalog {
  const catalog = typeof dataset === "string" ? getCatalog(dataset) : undefined;
  if (!catalog) throw invalidJob(`dataset ${JSON.stringify(dataset)} is unknown`);
  return catalog;
}
