import { type ParseErrorCode, printParseErrorCode, visit } from "jsonc-parser";
import { findDepthOverflow } from "../decompile/index.js";
import { LineIndex } from "../diagnostics/index.js";
import { parseRecord } from "../eval/index.js";
import { type FilterTestSpec, Problems, type TestCase, TestFileError } from "./filter-test.js";

/**
 * The most cases a test file lists, and the most lines its log's `matches` lists. Each is held
 * while the file runs; more records belong
 * in the log, which is read a line at a time.
 */
export const MAX_TEST_CASES = 100_000;

/**
 * The deepest a test file nests arrays and objects (its cases' records included): the reader
 * recurses, and 10,000 levels exhausted its stack. Logpush records nest three levels.
 */
const MAX_TEST_FILE_DEPTH = 64;

/** What the test file format reads of a value: the members or items it names, no more. */
interface Shape {
  members?: Record<string, Shape>;
  items?: Shape;
  /** Why a list of more than MAX_TEST_CASES items is not read. */
  tooLong?: string;
}

const TEST_FILE: Shape = {
  members: {
    filter: { members: { file: {} } },
    dataset: {},
    cases: {
      items: { members: { record: {}, match: {}, name: {} } },
      tooLong: `more than ${MAX_TEST_CASES} cases, the most a test file may list (MAX_TEST_CASES); put more records in its log`,
    },
    log: {
      members: {
        file: {},
        matches: {
          items: {},
          tooLong: `matches lists more than ${MAX_TEST_CASES} lines, the most a test file may (MAX_TEST_CASES)`,
        },
      },
    },
  },
};

/** The shape of member `key` in `shape`, if the format reads one. */
const memberShape = (shape: Shape, key: string) =>
  shape.members && Object.hasOwn(shape.members, key) ? shape.members[key] : undefined;

/** A value of the test file, as far as its Shape reads it; the first of members of one name. */
interface Value {
  type: "object" | "array" | "string" | "number" | "boolean" | "null";
  offset: number;
  /** The offset just after the value (objects and arrays: after their closing bracket). */
  end: number;
  literal?: unknown;
  /** The members the format reads (an object without prototype: any name is a plain key). */
  members?: Record<string, Value>;
  items?: Value[];
}

/** Where reading stops early: the first syntax error, or a list longer than MAX_TEST_CASES. */
class Stop {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

/**
 * Reads a test file; its problems are reported with their places (a bounded number: see Problems),
 * never thrown. Only what the format names is kept (a record as its text, parsed as `filterc eval`
 * parses a line), so memory follows the cases, which are bounded (MAX_TEST_CASES), not the rest.
 */
export function parseTestFile(text: string, fileName: string): FilterTestSpec | TestFileError[] {
  const lines = new LineIndex(text);
  const placeAt = (offset: number) => {
    const { line, column } = lines.rangeOf(offset, offset).start;
    return `${fileName}:${line}:${column}`;
  };
  const problems = new Problems(fileName);
  const deep = findDepthOverflow(text, MAX_TEST_FILE_DEPTH);
  if (deep !== undefined)
    return [
      new TestFileError(
        placeAt(deep),
        `nests arrays and objects deeper than ${MAX_TEST_FILE_DEPTH} levels, the most a test file may (MAX_TEST_FILE_DEPTH)`,
      ),
    ];
  const root = readValues(text, (key, offset) =>
    problems.add(
      new TestFileError(
        placeAt(offset),
        `unknown member ${JSON.stringify(key)}; a test file has filter, dataset, cases and log`,
      ),
    ),
  );
  if (root instanceof Stop) return [new TestFileError(placeAt(root.offset), root.message)];
  if (root.type !== "object")
    return [new TestFileError(placeAt(root.offset), "a test file is a JSON object")];
  const member = (value: Value | undefined, key: string) => value?.members?.[key];
  const filterValue = member(root, "filter");
  const filterFile = member(filterValue, "file");
  let filter: FilterTestSpec["filter"] | undefined;
  if (filterValue?.type === "string") filter = { source: filterValue.literal as string };
  else if (filterValue?.type === "object" && filterFile?.type === "string")
    filter = { file: filterFile.literal as string };
  else
    problems.add(
      new TestFileError(
        placeAt((filterValue ?? root).offset),
        'filter must be filter source (a string) or {"file": path}',
      ),
    );
  const dataset = member(root, "dataset");
  if (dataset && dataset.type !== "string")
    problems.add(new TestFileError(placeAt(dataset.offset), "dataset must be a dataset name"));
  const cases: TestCase[] = [];
  const casesValue = member(root, "cases");
  if (casesValue && casesValue.type !== "array")
    problems.add(new TestFileError(placeAt(casesValue.offset), "cases must be a list"));
  for (const [index, caseValue] of (casesValue?.items ?? []).entries()) {
    const record = member(caseValue, "record");
    const match = member(caseValue, "match");
    const name = member(caseValue, "name");
    if (record?.type !== "object" || match?.type !== "boolean" || (name && name.type !== "string")) {
      problems.add(
        new TestFileError(
          placeAt(caseValue.offset),
          `case ${index + 1} must be {"name"?: text, "record": {…}, "match": true|false}`,
        ),
      );
      continue;
    }
    const recordText = text.slice(record.offset, record.end);
    cases.push({
      name: (name?.literal as string | undefined) ?? `case ${index + 1}`,
      record: parseRecord(recordText)!,
      match: match.literal as boolean,
      place: placeAt(caseValue.offset),
      text: recordText,
    });
  }
  const logValue = member(root, "log");
  let log: FilterTestSpec["log"];
  if (logValue) {
    const file = member(logValue, "file");
    const matches = member(logValue, "matches");
    const lineNumbers = (matches?.items ?? []).map((item) => item.literal);
    if (
      file?.type !== "string" ||
      (matches && matches.type !== "array") ||
      !lineNumbers.every((n) => Number.isInteger(n) && (n as number) > 0)
    ) {
      problems.add(
        new TestFileError(
          placeAt(logValue.offset),
          'log must be {"file": path, "matches": [line numbers, from 1]}',
        ),
      );
    } else
      log = {
        file: file.literal as string,
        matches: lineNumbers as number[],
        place: placeAt(logValue.offset),
      };
  }
  if (!casesValue && !logValue)
    problems.add(new TestFileError(placeAt(root.offset), "a test file needs cases, a log, or both"));
  if (problems.count > 0 || !filter) return problems.list();
  return { filter, dataset: dataset?.literal as string | undefined, cases, log };
}

/**
 * The test file's values as far as TEST_FILE reads them (see Value), or where reading stopped.
 * Unknown members of the top object are told to `unknown` as they come.
 */
function readValues(text: string, unknown: (key: string, offset: number) => void): Value | Stop {
  let root: Value | undefined;
  /** The containers open around the reader, each with its shape and the member name last read. */
  const open: { value: Value; shape: Shape; key?: string }[] = [];
  /** Places a value in its container; the shape it is read with, or undefined to skip its insides. */
  const place = (value: Value): Shape | undefined => {
    const parent = open[open.length - 1];
    if (!parent) {
      root = value;
      return TEST_FILE;
    }
    const { members, items } = parent.value;
    if (members) {
      const key = parent.key!;
      const shape = memberShape(parent.shape, key);
      if (!shape || Object.hasOwn(members, key)) return undefined;
      members[key] = value;
      return shape;
    }
    if (items!.length === MAX_TEST_CASES) throw new Stop(value.offset, parent.shape.tooLong!);
    items!.push(value);
    return parent.shape.items;
  };
  /** Opens an object or array: false tells the reader to skip its insides, which the format does not read. */
  const begin = (type: "object" | "array", offset: number): boolean => {
    const value: Value = { type, offset, end: offset };
    const shape = place(value);
    const reads = type === "object" ? shape?.members : shape?.items;
    if (!shape || !reads) {
      open.push({ value, shape: {} });
      return false;
    }
    if (type === "object") value.members = Object.create(null) as Record<string, Value>;
    else value.items = [];
    open.push({ value, shape });
    return true;
  };
  const end = (offset: number, length: number) => {
    open.pop()!.value.end = offset + length;
  };
  try {
    visit(
      text,
      {
        onObjectBegin: (offset) => begin("object", offset),
        onArrayBegin: (offset) => begin("array", offset),
        onObjectEnd: end,
        onArrayEnd: end,
        onObjectProperty: (key, offset) => {
          const container = open[open.length - 1]!;
          container.key = key;
          if (open.length === 1 && !memberShape(TEST_FILE, key)) unknown(key, offset);
        },
        onLiteralValue: (literal: unknown, offset, length) => {
          const type = literal === null ? "null" : (typeof literal as "string" | "number" | "boolean");
          place({ type, offset, end: offset + length, literal });
        },
        onError: (error: ParseErrorCode, offset) => {
          throw new Stop(offset, `not JSON: ${printParseErrorCode(error)}`);
        },
      },
      { allowTrailingComma: false, disallowComments: true },
    );
  } catch (error) {
    if (error instanceof Stop) return error;
    throw error;
  }
  return root!;
}
