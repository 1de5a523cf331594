export { datasetMismatch } from "./dataset-mismatch.js";
export { type DiffOptions, diffFilters, type FilterDiff, type Relation } from "./diff.js";
