import { readdir, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DEFAULT_DATASET } from "../../catalog/index.js";
import { terminalName, terminalText } from "../../diagnostics/index.js";
import {
  type Accept,
  type ConfigLookup,
  chunksInside,
  confinedPath,
  confinementRoot,
  pathInside,
  readTextUpTo,
} from "../../files/index.js";
import {
  type CaseFailure,
  loadTestSuite,
  MAX_TEST_CASES,
  MAX_TEST_FILE_BYTES,
  recordText,
  runTestSuite,
  type SuiteFiles,
  TEST_FILE_NAMES,
} from "../../filter-tests/index.js";
import { decompressed } from "../../logs/index.js";
import { parseCommandArgs } from "../args.js";
import { compilerOptionsFrom, configLookup } from "../compiler-options.js";
import { reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, cannotRead, cannotReadText } from "../io.js";

export const usage = `filterc test [FILE|DIR…] [options]

Runs filter tests kept as data. A test file (JSON, named *.test.json when found in a directory):
  {"filter": "<source>" | {"file": "<path>"}, "dataset"?: name,
   "cases": [{"name"?: text, "record": {…}, "match": true|false}],
   "log"?: {"file": "<NDJSON path>", "matches": [line numbers that must match]}}
Paths are relative to the test file. The filter's dataset: the test file's "dataset", else
--dataset (a filter file's # dataset: must agree with either), else its # dataset:, else the
filterc.json nearest the filter file (or the test file, for a filter written in it). Records are
judged as \`filterc eval\` judges log lines; a record field the dataset does not have, or a value
of another type than the field's, is an error.
A failure prints the record, the verdict expected and found, and the filter's tree with each part
marked ✓ (held) or ✗ (did not); the first 20 of a file are shown, the rest counted. Without
arguments, the *.test.json files of the current directory. A test file holds at most ${MAX_TEST_CASES.toLocaleString("en-US")}
cases; its log is read a line at a time, at any length. Files found in a directory, and the files
a test file names, are read only when they are regular files (never a fifo or a device).

Options:
  --dataset NAME        the dataset of test files that do not name one (default ${DEFAULT_DATASET})
  --json                print {passed, failed, files: [{file, passed, failed, failures, errors}]}
                        on stdout
  --require-tests       no test files found is an error (exit 2); without it, a note and exit 0
Exit status: 0 every case passed (or there was none), 1 a case failed, 2 usage or errors in a test
file or its filter.`;

interface FileResult {
  file: string;
  passed: number;
  failed: number;
  /** The first failures, with their records and trees (MAX_FAILURES_SHOWN of the file). */
  failures: CaseFailure[];
  errors: string[];
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    dataset: { type: "string" },
    json: { type: "boolean" },
    "require-tests": { type: "boolean" },
  });
  const options = await compilerOptionsFrom({ dataset: values.dataset });
  const files = await testFiles(positionals.length > 0 ? positionals : ["."], io.cwd);
  const lookup = configLookup(io);
  const results: FileResult[] = [];
  for (const file of files) results.push(await runFile(file, io, options.dataset, !values.json, lookup));
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failed, 0);
  const errors = results.some((result) => result.errors.length > 0);
  if (values.json) io.stdout(`${jsonReport(passed, failed, results)}\n`);
  else {
    for (const result of results) {
      for (const error of result.errors) io.stderr(`error: ${terminalText(error)}\n`);
      if (result.errors.length === 0 && result.failed === 0)
        io.stdout(
          `ok   ${terminalName(result.file)}: ${result.passed} case${result.passed === 1 ? "" : "s"}\n`,
        );
      for (const failure of result.failures) io.stdout(terminalText(describeFailure(result.file, failure)));
      const unshown = result.failed - result.failures.length;
      if (unshown > 0)
        io.stdout(
          `FAIL ${terminalName(result.file)}: ${unshown} more case${unshown === 1 ? "" : "s"} failed, not shown (the first ${result.failures.length} are)\n\n`,
        );
    }
    io.stdout(`${passed} passed, ${failed} failed${errors ? ", with errors" : ""}\n`);
  }
  // A repository without tests yet passes a CI line that runs `filterc test`; asked to, it fails.
  const required = values["require-tests"] === true;
  if (files.length === 0 && (required || !values.json))
    io.stderr(
      required
        ? "filterc test: no test files (*.test.json) found, and --require-tests asks for some\n"
        : "filterc test: no test files (*.test.json) found; nothing to run (--require-tests makes this an error)\n",
    );
  return errors || (files.length === 0 && required) ? 2 : failed > 0 ? 1 : 0;
}

const verdict = (match: boolean) => (match ? "match" : "no match");

/**
 * The report of --json. A record is its JSON as written, put in as it is: its numbers keep every
 * digit and their exponent (parsed, one past 2^53 or in exponent form is an object of filterc's).
 */
function jsonReport(passed: number, failed: number, results: readonly FileResult[]): string {
  const files = results.map((result) => {
    const failures = result.failures.map(({ testCase, actual }) => {
      const name = JSON.stringify(testCase.name);
      const place = JSON.stringify(testCase.place);
      return `{"name":${name},"place":${place},"record":${recordText(testCase)},"expected":${testCase.match},"actual":${actual}}`;
    });
    const counts = `"passed":${result.passed},"failed":${result.failed}`;
    return `{"file":${JSON.stringify(result.file)},${counts},"failures":[${failures.join(",")}],"errors":${JSON.stringify(result.errors)}}`;
  });
  return `{"passed":${passed},"failed":${failed},"files":[${files.join(",")}]}`;
}

function describeFailure(file: string, { testCase, actual, tree }: CaseFailure): string {
  return [
    `FAIL ${file}: ${testCase.name} (${testCase.place})`,
    `  record:   ${recordText(testCase)}`,
    `  expected: ${verdict(testCase.match)}, got: ${verdict(actual)}`,
    ...tree
      .trimEnd()
      .split("\n")
      .map((line) => `  ${line}`),
    "",
    "",
  ].join("\n");
}

/**
 * The test files named, and those of the directories named (`*.test.json`, not recursive). A file
 * named is read as any command reads its file (`<(…)` too); one found in a directory only when it
 * is a regular file, so that a fifo of that name does not stop the run waiting for a writer.
 */
async function testFiles(paths: string[], cwd: string): Promise<TestFile[]> {
  const files: TestFile[] = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    const info = await stat(full).catch(() => undefined);
    if (info?.isDirectory()) {
      const all = await readdir(full).catch((error: unknown) => {
        throw cannotRead(path, error);
      });
      const names = all.filter((name) => name.endsWith(".test.json")).sort();
      // A link in the folder is followed only inside it or its repository, as what a test file
      // names is: a pull request's link to the runner's files is not read.
      const root = await confinementRoot(full, cwd);
      for (const name of names) {
        const file = path === "." ? name : join(path, name);
        const confined = await confinedPath(root, full, name);
        files.push(
          "outside" in confined
            ? { file, accept: "regular", outside: confined.outside }
            : { file, accept: "regular" },
        );
      }
    } else files.push({ file: path, accept: "stream" });
  }
  return files;
}

/** A test file to run: named (read as any command reads its file), or found in a folder. */
interface TestFile {
  file: string;
  accept: Accept;
  /** Why a file found in a folder is not read: a link out of it. */
  outside?: string;
}

async function runFile(
  { file, accept, outside }: TestFile,
  io: CliIO,
  dataset: string | undefined,
  showDiagnostics: boolean,
  lookup: ConfigLookup,
): Promise<FileResult> {
  const result: FileResult = { file, passed: 0, failed: 0, failures: [], errors: [] };
  if (outside !== undefined) return { ...result, errors: [cannotReadText(file, `not read: ${outside}`)] };
  const full = resolve(io.cwd, file);
  const text = await readTextUpTo(full, MAX_TEST_FILE_BYTES, accept).catch((error: Error) => error);
  if (text instanceof Error) return { ...result, errors: [cannotReadText(file, text.message)] };
  // What a test file names is data, not a path the user typed: regular files only, and only inside
  // its folder or repository, so that a test file in a pull request cannot print the runner's files.
  const base = dirname(full);
  const root = await confinementRoot(base, io.cwd);
  const files: SuiteFiles = {
    read: async (path) =>
      readTextUpTo(await pathInside(root, base, path, TEST_FILE_NAMES), MAX_TEST_FILE_BYTES, "regular"),
    // A log as eval reads one: gzip (as Logpush delivers it) by its magic bytes.
    chunks: (path) => decompressed(chunksInside(root, base, path, TEST_FILE_NAMES)),
    name: (path) => (isAbsolute(path) ? path : join(dirname(file), path)),
    // A filter file's own folder's filterc.json; the test file's for a filter written in it.
    defaults: async (path) =>
      (await lookup.forFile(path === undefined ? full : resolve(dirname(full), path))).defaults,
  };
  const suite = await loadTestSuite(text, file, files, dataset);
  if ("errors" in suite) {
    if (showDiagnostics && suite.filter) {
      const { loaded, source, sourceName } = suite.filter;
      const errors = loaded.diagnostics.filter((d) => d.severity === "error");
      reportDiagnostics(io, errors, source, sourceName);
    }
    return { ...result, errors: suite.errors };
  }
  const run = await runTestSuite(suite, files);
  if ("errors" in run) return { ...result, errors: run.errors };
  return { ...result, ...run };
}
