import { readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { type CaseFailure, loadTestSuite, MAX_TEST_FILE_BYTES, runCases } from "../../diff/index.js";
import { readTextUpTo } from "../../files/index.js";
import { parseCommandArgs } from "../args.js";
import { compilerOptionsFrom } from "../compiler-options.js";
import { reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, cannotRead } from "../io.js";

export const usage = `filterc test [FILE|DIR…] [options]

Runs filter tests kept as data. A test file (JSON, named *.test.json when found in a directory):
  {"filter": "<source>" | {"file": "<path>"}, "dataset"?: name,
   "cases": [{"name"?: text, "record": {…}, "match": true|false}],
   "log"?: {"file": "<NDJSON path>", "matches": [line numbers that must match]}}
Paths are relative to the test file. Records are judged as \`filterc eval\` judges log lines; a
record field the dataset does not have, or a value of another type than the field's, is an error.
A failure prints the record, the verdict expected and found, and the filter's tree with each part
marked ✓ (held) or ✗ (did not). Without arguments, the *.test.json files of the current directory.

Options:
  --dataset NAME        the dataset of test files that do not name one (default http_requests)
  --json                print {passed, failed, files: [{file, passed, failures, errors}]} on stdout
  --require-tests       no test files found is an error (exit 2); without it, a note and exit 0
Exit status: 0 every case passed (or there was none), 1 a case failed, 2 usage or errors in a test
file or its filter.`;

interface FileResult {
  file: string;
  passed: number;
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
  const results: FileResult[] = [];
  for (const file of files) results.push(await runFile(file, io, options.dataset, !values.json));
  const passed = results.reduce((sum, result) => sum + result.passed, 0);
  const failed = results.reduce((sum, result) => sum + result.failures.length, 0);
  const errors = results.some((result) => result.errors.length > 0);
  if (values.json) {
    const files = results.map((result) => ({
      file: result.file,
      passed: result.passed,
      failures: result.failures.map(({ testCase, actual }) => ({
        name: testCase.name,
        place: testCase.place,
        record: testCase.record,
        expected: testCase.match,
        actual,
      })),
      errors: result.errors,
    }));
    io.stdout(`${JSON.stringify({ passed, failed, files })}\n`);
  } else {
    for (const result of results) {
      for (const error of result.errors) io.stderr(`error: ${error}\n`);
      if (result.errors.length === 0 && result.failures.length === 0)
        io.stdout(`ok   ${result.file}: ${result.passed} case${result.passed === 1 ? "" : "s"}\n`);
      for (const failure of result.failures) io.stdout(describeFailure(result.file, failure));
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

function describeFailure(file: string, { testCase, actual, tree }: CaseFailure): string {
  return [
    `FAIL ${file}: ${testCase.name} (${testCase.place})`,
    `  record:   ${JSON.stringify(testCase.record)}`,
    `  expected: ${verdict(testCase.match)}, got: ${verdict(actual)}`,
    ...tree
      .trimEnd()
      .split("\n")
      .map((line) => `  ${line}`),
    "",
    "",
  ].join("\n");
}

/** The test files named, and those of the directories named (`*.test.json`, not recursive). */
async function testFiles(paths: string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    const info = await stat(full).catch(() => undefined);
    if (info?.isDirectory()) {
      const all = await readdir(full).catch((error: unknown) => {
        throw cannotRead(path, error);
      });
      const names = all.filter((name) => name.endsWith(".test.json")).sort();
      for (const name of names) files.push(path === "." ? name : join(path, name));
    } else files.push(path);
  }
  return files;
}

async function runFile(
  file: string,
  io: CliIO,
  dataset: string | undefined,
  showDiagnostics: boolean,
): Promise<FileResult> {
  const result: FileResult = { file, passed: 0, failures: [], errors: [] };
  const full = resolve(io.cwd, file);
  const text = await readTextUpTo(full, MAX_TEST_FILE_BYTES).catch((error: Error) => error);
  if (text instanceof Error) return { ...result, errors: [`cannot read ${file}: ${text.message}`] };
  const files = {
    read: (path: string) => readTextUpTo(resolve(dirname(full), path), MAX_TEST_FILE_BYTES),
    name: (path: string) => join(dirname(file), path),
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
  result.failures = runCases(suite.filter.condition, suite.cases);
  result.passed = suite.cases.length - result.failures.length;
  return result;
}
