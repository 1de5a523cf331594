import { getCatalog } from "../catalog/index.js";
import { hasErrors } from "../diagnostics/index.js";
import {
  type FilterTestSpec,
  logCases,
  parseTestFile,
  recordProblems,
  type TestCase,
  TestFileError,
} from "./filter-test.js";
import { type LoadedFilter, type LoadOptions, loadFilter } from "./load.js";

/**
 * The largest test file, or file one names (its filter, its log), that is read: a log as long as
 * eval's longest line. `filterc test` and the language server's test lenses read to it.
 */
export const MAX_TEST_FILE_BYTES = 64 * 1024 * 1024;

/** The files a test file names (its filter, its log), read relative to the test file by the caller. */
export interface SuiteFiles {
  /** The text of the file at `path` (relative to the test file); rejects when it cannot be read. */
  read(path: string): Promise<string>;
  /** How messages name the file at `path`. */
  name(path: string): string;
  /**
   * The defaults of a filter (a folder's `filterc.json`): those of the filter file at `path`, or of
   * the test file for a filter written in it (undefined). Rejects with a message that starts with
   * the place of what is wrong.
   */
  defaults?(path: string | undefined): Promise<FilterDefaults>;
}

/** What a folder sets for the filters beneath it: the dataset of those that name none, and the limits. */
export type FilterDefaults = Pick<LoadOptions, "maxOperators" | "maxBytes"> & { dataset?: string };

/** A test file ready to run: its filter loaded, its cases (the log's included) checked against the catalog. */
export interface TestSuite {
  spec: FilterTestSpec;
  filter: LoadedFilter;
  source: string;
  sourceName: string;
  cases: TestCase[];
}

/** What stops a test file from running: its problems, and the filter's diagnostics when those are why. */
export interface SuiteErrors {
  errors: string[];
  filter?: { loaded: LoadedFilter; source: string; sourceName: string };
}

/**
 * Reads a test file and what it names, as `filterc test` and the language server's code lens both
 * do. `dataset` applies when the test file names none; a filter's own `# dataset:` must agree with
 * either, and `files.defaults` applies below it.
 */
export async function loadTestSuite(
  text: string,
  file: string,
  files: SuiteFiles,
  dataset?: string,
): Promise<TestSuite | SuiteErrors> {
  const fail = (errors: (TestFileError | string)[]): SuiteErrors => ({ errors: errors.map(String) });
  const spec = parseTestFile(text, file);
  if (Array.isArray(spec)) return fail(spec);
  const specDataset = spec.dataset ?? dataset;
  if (specDataset !== undefined && !getCatalog(specDataset))
    return fail([`${file}: unknown dataset ${JSON.stringify(specDataset)}`]);
  let source = "";
  let sourceName = `${file} (filter)`;
  const filterFile = "file" in spec.filter ? spec.filter.file : undefined;
  if ("source" in spec.filter) source = spec.filter.source;
  else {
    sourceName = files.name(spec.filter.file);
    const read = await files.read(spec.filter.file).catch((error: Error) => error);
    if (read instanceof Error)
      return fail([`${file}: cannot read the filter ${sourceName}: ${read.message}`]);
    source = read;
  }
  const defaults = files.defaults ? await files.defaults(filterFile).catch((error: Error) => error) : {};
  if (defaults instanceof Error) return fail([defaults.message]);
  const { dataset: defaultDataset, ...limits } = defaults;
  const filter = loadFilter(source, {
    ...limits,
    ...(specDataset === undefined ? {} : { dataset: specDataset }),
    ...(defaultDataset === undefined ? {} : { defaultDataset }),
  });
  if (hasErrors(filter.diagnostics))
    return {
      errors: [`${file}: the filter ${sourceName} has errors`],
      filter: { loaded: filter, source, sourceName },
    };
  const cases: TestCase[] = [...spec.cases];
  if (spec.log) {
    const logName = files.name(spec.log.file);
    const read = await files.read(spec.log.file).catch((error: Error) => error);
    if (read instanceof Error)
      return fail([`${spec.log.place}: cannot read the log ${logName}: ${read.message}`]);
    const fromLog = logCases(read, logName, spec.log.matches);
    if (fromLog.some((item) => item instanceof TestFileError)) return fail(fromLog as TestFileError[]);
    // One at a time: spread as arguments, a log of some 150,000 lines overflowed the stack.
    for (const testCase of fromLog as TestCase[]) cases.push(testCase);
  }
  const catalog = getCatalog(filter.dataset)!;
  const problems = cases.flatMap((testCase) => recordProblems(testCase, catalog));
  if (problems.length > 0) return fail(problems);
  return { spec, filter, source, sourceName, cases };
}
