export { type DiffOptions, diffFilters, type FilterDiff, type Relation } from "./diff.js";
export {
  type CaseFailure,
  type FilterTestSpec,
  logCases,
  parseTestFile,
  recordProblems,
  runCases,
  type TestCase,
  TestFileError,
} from "./filter-test.js";
export { datasetMismatch, type LoadedFilter, type LoadOptions, loadFilter } from "./load.js";
export { recordJson } from "./record.js";
