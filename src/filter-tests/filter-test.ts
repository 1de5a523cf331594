import { type Catalog, type FieldInfo, isTimestampField } from "../catalog/index.js";
import type { Meaning } from "../check/index.js";
import { compilePredicate, ExactNumber, instantOf, NUMERIC_TEXT } from "../eval/index.js";
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
  /** The record's JSON as written (numbers of any length and form as the log writes them). */
  text: string;
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

/** Problems of one test file shown, at most: a log of millions of bad lines is told in a few. */
const MAX_PROBLEMS_SHOWN = 20;

/** The problems of one test file: the first MAX_PROBLEMS_SHOWN, and how many more there were. */
export class Problems {
  private readonly shown: TestFileError[] = [];
  private more = 0;

  constructor(private readonly file: string) {}

  add(problem: TestFileError): void {
    if (this.shown.length < MAX_PROBLEMS_SHOWN) this.shown.push(problem);
    else this.more++;
  }

  get count(): number {
    return this.shown.length + this.more;
  }

  /** The problems shown, the last saying how many more there were. */
  list(): TestFileError[] {
    if (this.more === 0) return [...this.shown];
    const more = `${this.more} more problem${this.more === 1 ? "" : "s"}, not shown (the first ${MAX_PROBLEMS_SHOWN} are)`;
    return [...this.shown, new TestFileError(this.file, more)];
  }
}

/** Adds the problems of a test record: fields the catalog does not have, values of another type than the field's. */
export function recordProblems(testCase: TestCase, catalog: Catalog, problems: Problems): void {
  for (const name in testCase.record) {
    const value = testCase.record[name];
    const field = catalog.fields.get(name);
    if (!field) {
      problems.add(
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
      problems.add(
        new TestFileError(
          testCase.place,
          `${testCase.name}: ${name} is ${timestamp ? "a time (RFC 3339 text, or unix seconds or nanoseconds)" : field.docType} in ${catalog.dataset}, but the record holds ${valueText(value)}`,
        ),
      );
  }
}

const INTEGER_TEXT = /^-?\d+$/;

/** A JSON number as eval reads it (a double, or an ExactNumber past what a double holds): any decimal. */
const isNumber = (value: unknown) =>
  typeof value === "number" ? Number.isFinite(value) : value instanceof ExactNumber;

/** A JSON number whose value is whole, however it is written (`18446744073709551616`, `1e400`, `5.0`). */
const isInteger = (value: unknown) =>
  typeof value === "number"
    ? Number.isInteger(value)
    : value instanceof ExactNumber && value.decimal.digits.length <= value.decimal.exponent;

const isIntegerValue = (value: unknown) =>
  isInteger(value) || (typeof value === "string" && INTEGER_TEXT.test(value));

function fitsField(field: FieldInfo, value: unknown): boolean {
  switch (field.type) {
    case "string":
      return typeof value === "string";
    case "int":
      return isIntegerValue(value);
    case "float":
      return isNumber(value) || (typeof value === "string" && NUMERIC_TEXT.test(value));
    case "bool":
      return typeof value === "boolean";
    case "array":
      return (
        Array.isArray(value) &&
        value.every((element) =>
          field.elementType === "int"
            ? isIntegerValue(element)
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

/**
 * Runs every case through the evaluator, by the filter's meaning: how many fail, and the first `shown` failures with their
 * marked trees (a tree is worked out only for a failure that is shown).
 */
export function runCases(
  meaning: Meaning | null,
  cases: readonly TestCase[],
  shown: number,
): { failed: number; failures: CaseFailure[] } {
  const keeps = meaning ? compilePredicate(meaning) : () => true;
  const failures: CaseFailure[] = [];
  let failed = 0;
  for (const testCase of cases) {
    const actual = keeps(testCase.record);
    if (actual === testCase.match) continue;
    failed++;
    if (failures.length >= shown) continue;
    const tree = explainHeld(meaning, (part) => compilePredicate(part)(testCase.record));
    failures.push({ testCase, actual, tree });
  }
  return { failed, failures };
}

/** Characters of a value a message shows, at most: a record may hold megabytes. */
const SHOWN_VALUE_CHARACTERS = 200;

/**
 * A record value as JSON for a message: numbers as the log writes them (an ExactNumber's text, not
 * the object that holds it), cut after SHOWN_VALUE_CHARACTERS. Writing stops there, so a value
 * nested thousands of levels (JSON.parse reads any depth) is not walked to its bottom.
 */
function valueText(value: unknown): string {
  let text = "";
  const write = (part: unknown): void => {
    if (part instanceof ExactNumber) text += part.text;
    else if (part === null || typeof part !== "object") text += JSON.stringify(part);
    else {
      const array = Array.isArray(part);
      text += array ? "[" : "{";
      let first = true;
      for (const key in part) {
        if (text.length > SHOWN_VALUE_CHARACTERS) return;
        text += first ? "" : ",";
        first = false;
        if (!array) text += `${JSON.stringify(key)}:`;
        write((part as Record<string, unknown>)[key]);
      }
      text += array ? "]" : "}";
    }
  };
  write(value);
  return text.length > SHOWN_VALUE_CHARACTERS ? `${text.slice(0, SHOWN_VALUE_CHARACTERS)}…` : text;
}

/**
 * A record's JSON as written, on one line: the blanks between tokens dropped, everything else as
 * written (numbers keep their digits and exponents; JSON strings hold no raw line breaks).
 */
export function recordText(testCase: TestCase): string {
  const { text } = testCase;
  let compact = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      compact += text.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? text : compact + text.slice(from);
}
