import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { type Catalog, type FieldInfo, isTimestampField } from "../catalog/index.js";
import type { Cond } from "../check/index.js";
import { LineIndex } from "../diagnostics/index.js";
import { compilePredicate, instantOf, parseRecord } from "../eval/index.js";
import { explainHeld } from "../print/index.js";

/**
 * A filter test file: `{"filter": source | {"file": path}, "dataset"?: name, "cases"?: [{"name"?,
 * "record": {…}, "match": bool}], "log"?: {"file": path, "matches": [line numbers]}}`. The lines
 * of the log listed in `matches` must pass the filter, every other line must not.
 */
export interface FilterTestSpec {
  filter: { source: string } | { file: string };
  dataset: string | undefined;
  cases: TestCase[];
  log: { file: string; matches: number[]; place: string } | undefined;
}

export interface TestCase {
  name: string;
  record: Record<string, unknown>;
  match: boolean;
  /** Where the case is: `file:line:column` in the test file, or `file:line` in a log. */
  place: string;
}

/** A problem with a test file, at its place (`file:line:column: message`). */
export class TestFileError {
  constructor(
    readonly place: string,
    readonly message: string,
  ) {}

  toString(): string {
    return `${this.place}: ${this.message}`;
  }
}

/** Reads a test file; every problem is reported with its place, never thrown. */
export function parseTestFile(text: string, fileName: string): FilterTestSpec | TestFileError[] {
  const lines = new LineIndex(text);
  const placeOf = (node: Node | undefined) => {
    const { line, column } = lines.rangeOf(node?.offset ?? 0, node?.offset ?? 0).start;
    return `${fileName}:${line}:${column}`;
  };
  const errors: TestFileError[] = [];
  const parseErrors: ParseError[] = [];
  const root = parseTree(text, parseErrors, { allowTrailingComma: false, disallowComments: true });
  if (parseErrors.length > 0 || !root) {
    const first = parseErrors[0];
    const at = placeOf(first ? ({ offset: first.offset } as Node) : undefined);
    return [new TestFileError(at, `not JSON: ${first ? printParseErrorCode(first.error) : "empty file"}`)];
  }
  if (root.type !== "object") return [new TestFileError(placeOf(root), "a test file is a JSON object")];
  const member = (node: Node, key: string) =>
    node.children?.find((property) => property.children?.[0]?.value === key)?.children?.[1];
  for (const property of root.children ?? []) {
    const key = property.children?.[0]?.value;
    if (!["filter", "dataset", "cases", "log"].includes(key))
      errors.push(
        new TestFileError(
          placeOf(property),
          `unknown member ${JSON.stringify(key)}; a test file has filter, dataset, cases and log`,
        ),
      );
  }
  const filterNode = member(root, "filter");
  let filter: FilterTestSpec["filter"] | undefined;
  if (filterNode?.type === "string") filter = { source: filterNode.value };
  else if (filterNode?.type === "object" && member(filterNode, "file")?.type === "string")
    filter = { file: member(filterNode, "file")!.value };
  else
    errors.push(
      new TestFileError(
        placeOf(filterNode ?? root),
        'filter must be filter source (a string) or {"file": path}',
      ),
    );
  const datasetNode = member(root, "dataset");
  if (datasetNode && datasetNode.type !== "string")
    errors.push(new TestFileError(placeOf(datasetNode), "dataset must be a dataset name"));
  const cases: TestCase[] = [];
  const casesNode = member(root, "cases");
  if (casesNode && casesNode.type !== "array")
    errors.push(new TestFileError(placeOf(casesNode), "cases must be a list"));
  for (const [index, caseNode] of (casesNode?.type === "array" ? (casesNode.children ?? []) : []).entries()) {
    const record = caseNode.type === "object" ? member(caseNode, "record") : undefined;
    const match = caseNode.type === "object" ? member(caseNode, "match") : undefined;
    const name = caseNode.type === "object" ? member(caseNode, "name") : undefined;
    if (record?.type !== "object" || match?.type !== "boolean" || (name && name.type !== "string")) {
      errors.push(
        new TestFileError(
          placeOf(caseNode),
          `case ${index + 1} must be {"name"?: text, "record": {…}, "match": true|false}`,
        ),
      );
      continue;
    }
    cases.push({
      name: name?.value ?? `case ${index + 1}`,
      record: parseRecord(text.slice(record.offset, record.offset + record.length))!,
      match: match.value,
      place: placeOf(caseNode),
    });
  }
  const logNode = member(root, "log");
  let log: FilterTestSpec["log"];
  if (logNode) {
    const file = member(logNode, "file");
    const matches = member(logNode, "matches");
    const lineNumbers = matches?.type === "array" ? (matches.children ?? []).map((child) => child.value) : [];
    if (file?.type !== "string" || !lineNumbers.every((n) => Number.isInteger(n) && n > 0)) {
      errors.push(
        new TestFileError(placeOf(logNode), 'log must be {"file": path, "matches": [line numbers, from 1]}'),
      );
    } else log = { file: file.value, matches: lineNumbers, place: placeOf(logNode) };
  }
  if (!casesNode && !logNode)
    errors.push(new TestFileError(placeOf(root), "a test file needs cases, a log, or both"));
  if (errors.length > 0 || !filter) return errors;
  return { filter, dataset: datasetNode?.value, cases, log };
}

/** The cases of an NDJSON log: each non-blank line, expected to match when its number is listed. */
export function logCases(
  text: string,
  fileName: string,
  matches: readonly number[],
): TestCase[] | TestFileError[] {
  const expected = new Set(matches);
  const cases: TestCase[] = [];
  const errors: TestFileError[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const place = `${fileName}:${index + 1}`;
    // Numbers a double would round stay exact, as `filterc eval` reads them.
    const record = parseRecord(line);
    if (!record) {
      errors.push(new TestFileError(place, "not a JSON object"));
      return;
    }
    cases.push({
      name: `line ${index + 1}`,
      record,
      match: expected.has(index + 1),
      place,
    });
  });
  for (const line of matches)
    if (line > lines.length || lines[line - 1]!.trim() === "")
      errors.push(
        new TestFileError(`${fileName}:${line}`, `line ${line} is listed in matches but holds no record`),
      );
  return errors.length > 0 ? errors : cases;
}

/** Problems with a test record: fields the catalog does not have, values of another type than the field's. */
export function recordProblems(testCase: TestCase, catalog: Catalog): TestFileError[] {
  const problems: TestFileError[] = [];
  for (const [name, value] of Object.entries(testCase.record)) {
    const field = catalog.fields.get(name);
    if (!field) {
      problems.push(
        new TestFileError(
          testCase.place,
          `${testCase.name}: the record has ${JSON.stringify(name)}, which is no field of ${catalog.dataset}`,
        ),
      );
      continue;
    }
    // A timestamp is read as eval reads it: RFC 3339 text, or unix seconds or nanoseconds by size.
    const timestamp = isTimestampField(field);
    if (value !== null && !(timestamp ? instantOf(value, "auto") !== undefined : fitsField(field, value)))
      problems.push(
        new TestFileError(
          testCase.place,
          `${testCase.name}: ${name} is ${timestamp ? "a time (RFC 3339 text, or unix seconds or nanoseconds)" : field.docType} in ${catalog.dataset}, but the record holds ${JSON.stringify(value)}`,
        ),
      );
  }
  return problems;
}

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

function fitsField(field: FieldInfo, value: unknown): boolean {
  switch (field.type) {
    case "string":
      return typeof value === "string";
    case "int":
      return (
        (typeof value === "number" && Number.isInteger(value)) ||
        (typeof value === "string" && INTEGER_TEXT.test(value))
      );
    case "float":
      return (
        (typeof value === "number" && Number.isFinite(value)) ||
        (typeof value === "string" && NUMBER_TEXT.test(value))
      );
    case "bool":
      return typeof value === "boolean";
    case "array":
      return (
        Array.isArray(value) &&
        value.every((element) =>
          field.elementType === "int"
            ? (typeof element === "number" && Number.isInteger(element)) ||
              (typeof element === "string" && INTEGER_TEXT.test(element))
            : field.elementType === "string"
              ? typeof element === "string"
              : typeof element === "object",
        )
      );
    case "object":
      return typeof value === "object" && !Array.isArray(value);
  }
}

export interface CaseFailure {
  testCase: TestCase;
  actual: boolean;
  /** The filter's tree for this record, each part marked with whether it held. */
  tree: string;
}

/** Runs every case through the evaluator; the failures, with their marked trees. */
export function runCases(condition: Cond | null, cases: readonly TestCase[]): CaseFailure[] {
  const keeps = condition ? compilePredicate(condition) : () => true;
  const failures: CaseFailure[] = [];
  for (const testCase of cases) {
    const actual = keeps(testCase.record);
    if (actual === testCase.match) continue;
    const tree = explainHeld(condition, (part) => compilePredicate(part)(testCase.record));
    failures.push({ testCase, actual, tree });
  }
  return failures;
}
