export { datasetMismatch } from "./dataset-mismatch.js";
export { type DiffOptions, diffFilters, type FilterDiff, type Relation } from "./diff.js";
export { type CaseFailure, recordText } from "./filter-test.js";
export { recordJson } from "./record.js";
export { MAX_TEST_CASES, parseTestFile } from "./test-file.js";
export {
  type FilterDefaults,
  loadTestSuite,
  MAX_TEST_FILE_BYTES,
  runTestSuite,
  type SuiteFiles,
  type SuiteRun,
} from "./test-suite.js";
