import { readdir } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { setImmediate as eventLoopTurn } from "node:timers/promises";
import type { CancellationToken, CodeLens } from "vscode-languageserver/node";
import { chunksInside, confinedPath, confinementRoot, readTextUpTo } from "../files/index.js";
import {
  type FilterDefaults,
  loadTestSuite,
  MAX_TEST_FILE_BYTES,
  parseTestFile,
  runTestSuite,
  type SuiteFiles,
  type SuiteRun,
  TEST_FILE_NAMES,
} from "../filter-tests/index.js";
import { decompressed } from "../logs/index.js";
import { localPath } from "./document-path.js";

/** Test files read per document: a directory of many test files costs at most this many reads. */
const MAX_TEST_FILES = 50;

/**
 * Bytes of a test's log judged between two turns of the event loop: a log of millions of short
 * lines (1 MiB holds 350,000 `{}`) is judged in slices, and the server answers other requests, and
 * hears that this one was cancelled, in between.
 */
const LOG_SLICE_BYTES = 64 * 1024;

/**
 * The code lenses of a filter file: one per test file beside it (`*.test.json` in its directory
 * whose filter is `{"file": …}` naming it), with how its cases fare against the text being edited,
 * unsaved changes included. Test files that name other filters are left alone; a test file that
 * cannot run says why in its lens. `defaults` gives the dataset and limits of a filter file (or of
 * the test file, for a filter written in it): the nearest filterc.json's over the editor's settings.
 * Only regular files are read (a fifo never makes a read wait for a writer), and no link out of
 * the folder or its repository is followed; a request cancelled while a log is read gets no lenses.
 */
export async function testLenses(
  uri: string,
  text: string,
  defaults: (file: string) => Promise<FilterDefaults>,
  token?: CancellationToken,
): Promise<CodeLens[]> {
  const path = localPath(uri);
  if (path === undefined) return [];
  const dir = dirname(path);
  const root = await confinementRoot(dir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const lenses: CodeLens[] = [];
  for (const name of names
    .filter((entry) => entry.endsWith(".test.json"))
    .sort()
    .slice(0, MAX_TEST_FILES)) {
    // A link out of the folder or its repository is not followed, as by `filterc test DIR`.
    const confined = await confinedPath(root, dir, name);
    if ("outside" in confined) {
      lenses.push(lens(`⚠ ${name}: not read: ${confined.outside}`));
      continue;
    }
    const testText = await readTextUpTo(confined.path, MAX_TEST_FILE_BYTES, "regular").catch(() => undefined);
    if (testText === undefined) continue;
    const spec = parseTestFile(testText, name);
    if (Array.isArray(spec) || !("file" in spec.filter) || resolve(dir, spec.filter.file) !== path) continue;
    const files: SuiteFiles = {
      read: (file) =>
        resolve(dir, file) === path
          ? Promise.resolve(text)
          : readTextUpTo(resolve(dir, file), MAX_TEST_FILE_BYTES, "regular"),
      chunks: (file) => inSlices(decompressed(chunksInside(root, dir, file, TEST_FILE_NAMES)), token),
      name: (file) => file,
      defaults: (file) => defaults(file === undefined ? resolve(dir, name) : resolve(dir, file)),
    };
    const suite = await loadTestSuite(testText, name, files);
    const run = "errors" in suite ? suite : await runTestSuite(suite, files);
    if (token?.isCancellationRequested) return [];
    lenses.push(lens(summary(name, run)));
  }
  return lenses;
}

/** A file's chunks in slices of LOG_SLICE_BYTES, an event loop turn after each; stops once the request is cancelled. */
async function* inSlices(chunks: AsyncIterable<Buffer>, token: CancellationToken | undefined) {
  for await (const chunk of chunks)
    for (let at = 0; at < chunk.length; at += LOG_SLICE_BYTES) {
      if (token?.isCancellationRequested) throw new Error("the request was cancelled");
      yield chunk.subarray(at, at + LOG_SLICE_BYTES);
      await eventLoopTurn();
    }
}

function summary(name: string, run: SuiteRun | { errors: string[] }): string {
  // Each problem starts with its place (the test file, or a line of its log).
  if ("errors" in run) return `⚠ ${run.errors[0]}`;
  const total = run.passed + run.failed;
  const cases = `${total} case${total === 1 ? "" : "s"}`;
  if (run.failed === 0) return `✓ ${name}: ${cases} pass`;
  const first = run.failures[0]!.testCase;
  return `✗ ${name}: ${run.failed} of ${cases} fail, first ${JSON.stringify(first.name)} (${basename(first.place)})`;
}

/** A lens on the first line; an empty command, as the lens only informs (`filterc test` runs them). */
function lens(title: string): CodeLens {
  const start = { line: 0, character: 0 };
  return { range: { start, end: start }, command: { title, command: "" } };
}
