export { type CaseFailure, recordText } from "./filter-test.js";
export { MAX_TEST_CASES, parseTestFile } from "./test-file.js";
export {
  type FilterDefaults,
  loadTestSuite,
  MAX_TEST_FILE_BYTES,
  runTestSuite,
  type SuiteFiles,
  type SuiteRun,
  TEST_FILE_NAMES,
} from "./test-suite.js";
