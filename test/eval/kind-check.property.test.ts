import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ColumnValueKind, compileKindCheck, LineVerdict } from "../../src/eval/index.js";

/*
 * The check behind query's typed reads, held to JSON.parse: a line is malformed where JSON.parse
 * reads no object; otherwise it matches exactly when a named field's last value is neither null nor
 * of its column's kind. The byte filter tells an int by its spelling (no point, no exponent), the
 * line filter by its value (a whole number a double holds exactly, or a longer integer).
 */

const RUNS = 500;
const fields: { name: string; kind: ColumnValueKind }[] = [
  { name: "Status", kind: "int" },
  { name: "Host", kind: "string" },
  { name: "Verified", kind: "bool" },
];

const values = [
  "503",
  "-0",
  "18446744073709551615",
  "340282366920938463463374607431768211456",
  "503.0",
  "5.03e2",
  "503.5",
  "1E400",
  '"503"',
  '"a.example"',
  '"é"',
  '"\\u00e9\\"\\\\"',
  '"😀"',
  "true",
  "false",
  "null",
  "[1]",
  '{"Status":"x"}',
  "[]",
  "{}",
];
const keys = ["Status", "Host", "Verified", "Other", "Stat\\u0075s", "host"];

const memberArbitrary = fc
  .tuple(fc.constantFrom(...keys), fc.constantFrom(...values), fc.constantFrom("", " ", "\t"))
  .map(([key, value, blank]) => `${blank}"${key}"${blank}:${blank}${value}${blank}`);
const lineArbitrary = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.array(memberArbitrary, { maxLength: 5 }).map((members) => `{${members.join(",")}}`),
  },
  // What JSON.parse refuses or reads as no object: a comma before "}", NaN, an array, a byte order mark, a blank line.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"Status":1,}',
      '{"Status":NaN}',
      "[1]",
      '\ufeff{"Status":1}',
      "  ",
      '{"Host":"a\tb"}',
    ),
  },
);

/** Whether a value is of the kind, by `int`: the test for an int value. */
function fits(value: unknown, kind: ColumnValueKind, int: (value: unknown) => boolean): boolean {
  if (value === null || value === undefined) return true;
  if (kind === "string") return typeof value === "string";
  if (kind === "bool") return typeof value === "boolean";
  return int(value);
}

/** The verdict JSON.parse gives, an int told by `int` (given the field's text in the line). */
function reference(line: string, int: (value: unknown, text: string) => boolean): LineVerdict {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return LineVerdict.malformed;
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) return LineVerdict.malformed;
  const texts = lastTexts(line);
  const misfit = fields.some(
    ({ name, kind }) =>
      !fits((record as Record<string, unknown>)[name], kind, (value) => int(value, texts.get(name)!)),
  );
  return misfit ? LineVerdict.match : LineVerdict.miss;
}

/** The text of each top-level member's value, the last of a key given twice (the generated lines are flat enough for this). */
function lastTexts(line: string): Map<string, string> {
  const texts = new Map<string, string>();
  const record = JSON.parse(line) as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const spelled = [...line.matchAll(/"((?:[^"\\]|\\.)*)"\s*:\s*(-?[0-9][0-9.eE+-]*)/g)].filter(
      (match) => JSON.parse(`"${match[1]}"`) === name,
    );
    if (spelled.length > 0) texts.set(name, spelled.at(-1)![2]!);
  }
  return texts;
}

const check = compileKindCheck(fields);

describe("compileKindCheck", () => {
  it("reads the kinds of the named fields as JSON.parse does, by their bytes and by their values", () => {
    fc.assert(
      fc.property(lineArbitrary, (line) => {
        const bytes = Buffer.from(`${line}\n`);
        expect(check.bytes!.load(bytes)).toBe(true);
        const scanned = check.bytes!.test(0, bytes.length - 1);
        const byValue = check.line(line);
        const spelled = reference(line, (value, text) => typeof value === "number" && !/[.eE]/.test(text));
        const valued = reference(
          line,
          (value, text) => Number.isSafeInteger(value) || (typeof value === "number" && !/[.eE]/.test(text)),
        );
        // The scanner leaves what it is not sure of to the line filter.
        if (scanned !== undefined) expect(scanned).toBe(spelled);
        expect(byValue).toBe(valued);
      }),
      { numRuns: RUNS },
    );
  });

  it("matches a line of each other kind, and leaves none of its kind", () => {
    const verdicts = (line: string) => {
      const bytes = Buffer.from(`${line}\n`);
      check.bytes!.load(bytes);
      return [check.bytes!.test(0, bytes.length - 1), check.line(line)];
    };
    const { match, miss } = LineVerdict;
    expect(verdicts('{"Status":503,"Host":"é","Verified":true}')).toEqual([miss, miss]);
    expect(verdicts('{"Status":null,"Host":null}')).toEqual([miss, miss]);
    expect(verdicts('{"Status":"503"}')).toEqual([match, match]);
    expect(verdicts('{"Status":503.0}')).toEqual([match, miss]);
    expect(verdicts('{"Status":503.5}')).toEqual([match, match]);
    expect(verdicts('{"Host":["a"]}')).toEqual([match, match]);
    expect(verdicts('{"Verified":"true"}')).toEqual([match, match]);
    // A key written with escapes: the scanner is not sure, the line filter reads it.
    expect(verdicts('{"Stat\\u0075s":"503"}')).toEqual([undefined, match]);
  });
});
