import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import type { LoadedFilter } from "../load/index.js";

/** E0700 on `filter` when the two filters were read with different datasets, else undefined. */
export function datasetMismatch(
  filter: LoadedFilter,
  other: LoadedFilter,
  otherName: string,
): Diagnostic | undefined {
  if (filter.dataset === other.dataset) return undefined;
  return diagnose("DatasetsDiffer", filter.datasetRange, {
    dataset: filter.dataset,
    other: other.dataset,
    otherName,
  });
}
