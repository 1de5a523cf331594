export { type DiffOptions, diffFilters, type FilterDiff, type Relation } from "./diff.js";
export { type CaseFailure, parseTestFile, runCases } from "./filter-test.js";
export { datasetMismatch, type LoadedFilter, type LoadOptions, loadFilter } from "./load.js";
export { recordJson } from "./record.js";
export { type FilterDefaults, loadTestSuite, MAX_TEST_FILE_BYTES } from "./test-suite.js";
