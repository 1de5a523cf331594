import { datasetScopeProblem, type ResolvedScope } from "../api/index.js";
import { type Catalog, getCatalog } from "../catalog/index.js";
import { ErrorCode, invalidJob, SandboxError } from "./errors.js";

/**
 * The catalog of a dataset the sandbox serves (every Logpush dataset filterc ships a catalog for);
 * with a scope, a dataset that does not exist there is refused as the service refuses it.
 */
export function datasetCatalog(dataset: unknown, scope?: ResolvedScope): Catalog {
  const catalog = typeof dataset === "string" ? getCatalog(dataset) : undefined;
  if (!catalog) throw invalidJob(`dataset ${JSON.stringify(dataset)} is unknown`);
  const problem = scope && datasetScopeProblem(catalog.dataset, scope.kind);
  if (problem) throw new SandboxError(400, ErrorCode.invalidJob, problem.message, "/dataset");
  return catalog;
}
