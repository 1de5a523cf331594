import { getCatalog } from "../catalog/index.js";
import { hasErrors } from "../diagnostics/index.js";
import { parseRecord } from "../eval/index.js";
import { type LoadedFilter, type LoadOptions, loadFilter } from "../load/index.js";
import {
  type CaseFailure,
  type FilterTestSpec,
  Problems,
  recordProblems,
  runCases,
  type TestCase,
  TestFileError,
} from "./filter-test.js";
import { logLines } from "./log-lines.js";
import { parseTestFile } from "./test-file.js";

/**
 * The largest test file, or filter file one names, that is read: both are read whole. Records past
 * what this holds belong in the test's log, which is read a line at a time at any length.
 * `filterc test` and the language server's test lenses read to it.
 */
export const MAX_TEST_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The longest line of a test's log that is read (without its LF): a record is held whole while it
 * is judged, and a failure shown keeps it. Logpush lines are a few kB; a longer line is an error.
 */
const MAX_LOG_LINE_BYTES = 1024 * 1024;

/** Log lines judged at once: a batch of a chunk's 350,000 short lines lived long enough to be promoted, and GC took half the time. */
const CASES_PER_RUN = 1024;

/** Failures of one test file shown with their records and trees, at most; the rest are counted. */
const MAX_FAILURES_SHOWN = 20;

/**
 * Which files a test file may name, as the reader's refusal says it: a test file comes with a
 * change under review, and must not make a run print the files of the machine it runs on.
 */
export const TEST_FILE_NAMES =
  "a test file names only files inside its folder or the repository that holds it";

/** The files a test file names (its filter, its log), read relative to the test file by the caller. */
export interface SuiteFiles {
  /** The text of the file at `path` (relative to the test file); rejects, saying why, when it cannot be read. */
  read(path: string): Promise<string>;
  /**
   * The bytes of the file at `path`, a chunk at a time (a chunk may be reused once the next one is
   * asked for); throws, saying why, when it cannot be read.
   */
  chunks(path: string): AsyncIterable<Uint8Array>;
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

/** A test file ready to run: its filter loaded, its cases checked against the catalog (its log is read as it runs). */
interface TestSuite {
  spec: FilterTestSpec;
  filter: LoadedFilter;
  source: string;
  sourceName: string;
  cases: TestCase[];
}

/** What stops a test file from running: its problems, and the filter's diagnostics when those are why. */
interface SuiteErrors {
  errors: string[];
  filter?: { loaded: LoadedFilter; source: string; sourceName: string };
}

/** How a test file's cases fared: all counted, the first MAX_FAILURES_SHOWN failures shown. */
export interface SuiteRun {
  passed: number;
  failed: number;
  failures: CaseFailure[];
}

/**
 * Reads a test file and its filter, as `filterc test` and the language server's code lens both
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
    recordDatasetFirst: true,
    ...limits,
    ...(specDataset === undefined ? {} : { dataset: specDataset }),
    ...(defaultDataset === undefined ? {} : { defaultDataset }),
  });
  if (hasErrors(filter.diagnostics))
    return {
      errors: [`${file}: the filter ${sourceName} has errors`],
      filter: { loaded: filter, source, sourceName },
    };
  const catalog = getCatalog(filter.dataset)!;
  const problems = new Problems(file);
  for (const testCase of spec.cases) recordProblems(testCase, catalog, problems);
  if (problems.count > 0) return fail(problems.list());
  return { spec, filter, source, sourceName, cases: spec.cases };
}

/**
 * Runs a test file's cases, then its log's lines as they are read: the log is never held whole,
 * so memory stays flat on a log of any length. A line of the log that is not a JSON object, is
 * longer than MAX_LOG_LINE_BYTES, or holds a record the catalog refuses makes the file an error, as
 * a case's record does; the errors shown are bounded (MAX_PROBLEMS_SHOWN), the rest counted.
 */
export async function runTestSuite(suite: TestSuite, files: SuiteFiles): Promise<SuiteRun | SuiteErrors> {
  const meaning = suite.filter.meaning;
  const ran = runCases(meaning, suite.cases, MAX_FAILURES_SHOWN);
  const run: SuiteRun = {
    passed: suite.cases.length - ran.failed,
    failed: ran.failed,
    failures: ran.failures,
  };
  const log = suite.spec.log;
  if (!log) return run;
  const logName = files.name(log.file);
  const expected = new Set(log.matches);
  /** The lines listed in `matches` that hold something (a record, or a line in error). */
  const listedHeld = new Set<number>();
  const catalog = getCatalog(suite.filter.dataset)!;
  const problems = new Problems(logName);
  /** Runs the cases judged since the last run (a few at a time: they die young, and cheaply). */
  let cases: TestCase[] = [];
  const runBatch = () => {
    // Once the file is in error its cases no longer count: the rest of the log is only checked.
    if (problems.count === 0) {
      const batch = runCases(meaning, cases, MAX_FAILURES_SHOWN - run.failures.length);
      run.passed += cases.length - batch.failed;
      run.failed += batch.failed;
      for (const failure of batch.failures) run.failures.push(failure);
    }
    cases = [];
  };
  try {
    for await (const { first, texts } of logLines(files.chunks(log.file), MAX_LOG_LINE_BYTES)) {
      for (let i = 0; i < texts.length; i++) {
        const line = first + i;
        const text = texts[i];
        if (text !== undefined && text.trim() === "") continue;
        if (expected.has(line)) listedHeld.add(line);
        const record = text === undefined ? undefined : parseRecord(text);
        if (!record) {
          const why =
            text === undefined
              ? `longer than ${MAX_LOG_LINE_BYTES} bytes, the longest log line a test reads (MAX_LOG_LINE_BYTES)`
              : "not a JSON object";
          problems.add(new TestFileError(`${logName}:${line}`, why));
          continue;
        }
        const testCase = new LogCase(record, expected.has(line), text!, logName, line);
        recordProblems(testCase, catalog, problems);
        cases.push(testCase);
        if (cases.length === CASES_PER_RUN) runBatch();
      }
    }
    runBatch();
  } catch (error) {
    return { errors: [`${log.place}: cannot read the log ${logName}: ${(error as Error).message}`] };
  }
  for (const line of log.matches)
    if (!listedHeld.has(line))
      problems.add(
        new TestFileError(`${logName}:${line}`, `line ${line} is listed in matches but holds no record`),
      );
  return problems.count > 0 ? { errors: problems.list().map(String) } : run;
}

/** A line of a test's log as a case: its name and place are written out only when shown. */
class LogCase implements TestCase {
  constructor(
    readonly record: Record<string, unknown>,
    readonly match: boolean,
    readonly text: string,
    private readonly logName: string,
    private readonly line: number,
  ) {}

  get name(): string {
    return `line ${this.line}`;
  }

  get place(): string {
    return `${this.logName}:${this.line}`;
  }
}
