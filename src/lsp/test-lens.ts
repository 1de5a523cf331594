import { readdir } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CodeLens } from "vscode-languageserver/node";
import { loadTestSuite, MAX_TEST_FILE_BYTES, parseTestFile, runCases } from "../diff/index.js";
import { readTextUpTo } from "../files/index.js";

/** Test files read per document: a directory of many test files costs at most this many reads. */
const MAX_TEST_FILES = 50;

/**
 * The code lenses of a filter file: one per test file beside it (`*.test.json` in its directory
 * whose filter is `{"file": …}` naming it), with how its cases fare against the text being edited,
 * unsaved changes included. Test files that name other filters are left alone; a test file that
 * cannot run says why in its lens.
 */
export async function testLenses(
  uri: string,
  text: string,
  dataset: string | undefined,
): Promise<CodeLens[]> {
  if (!uri.startsWith("file:")) return [];
  const path = fileURLToPath(uri);
  const dir = dirname(path);
  const names = await readdir(dir).catch(() => [] as string[]);
  const lenses: CodeLens[] = [];
  for (const name of names
    .filter((entry) => entry.endsWith(".test.json"))
    .sort()
    .slice(0, MAX_TEST_FILES)) {
    // Regular files only: opening a fifo waits for a writer, and holds a thread of Node's file system calls.
    const testText = await readTextUpTo(resolve(dir, name), MAX_TEST_FILE_BYTES, "regular").catch(
      () => undefined,
    );
    if (testText === undefined) continue;
    const spec = parseTestFile(testText, name);
    if (Array.isArray(spec) || !("file" in spec.filter) || resolve(dir, spec.filter.file) !== path) continue;
    const files = {
      read: (file: string) =>
        resolve(dir, file) === path
          ? Promise.resolve(text)
          : readTextUpTo(resolve(dir, file), MAX_TEST_FILE_BYTES, "regular"),
      name: (file: string) => file,
    };
    const suite = await loadTestSuite(testText, name, files, dataset);
    lenses.push(lens(summary(name, suite)));
  }
  return lenses;
}

function summary(name: string, suite: Awaited<ReturnType<typeof loadTestSuite>>): string {
  // Each problem starts with its place (the test file, or a line of its log).
  if ("errors" in suite) return `⚠ ${suite.errors[0]}`;
  const failures = runCases(suite.filter.condition, suite.cases);
  const total = suite.cases.length;
  const cases = `${total} case${total === 1 ? "" : "s"}`;
  if (failures.length === 0) return `✓ ${name}: ${cases} pass`;
  const first = failures[0]!.testCase;
  return `✗ ${name}: ${failures.length} of ${cases} fail, first ${JSON.stringify(first.name)} (${basename(first.place)})`;
}

/** A lens on the first line; an empty command, as the lens only informs (`filterc test` runs them). */
function lens(title: string): CodeLens {
  const start = { line: 0, character: 0 };
  return { range: { start, end: start }, command: { title, command: "" } };
}
