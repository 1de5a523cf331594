import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { LineVerdict } from "../../src/eval/index.js";
import { type Cond, compileLineFilter, type FieldInfo } from "../../src/index.js";
import { toSql } from "../../src/sql/index.js";
import { conditionArbitrary, fieldOfEachType } from "../helpers/conditions.js";
import { closeEngines, type EngineCase, engines } from "./engines.js";

/*
 * The SQL keeps exactly eval's records also on the lines the engines' JSON parsers read otherwise
 * than JSON.parse (trailing commas, NaN and Infinity, half a surrogate pair, a byte order mark, raw
 * controls, escaped backslashes), over fields and columns of hostile names (empty, `*`, quotes,
 * controls, a lambda's variable in any case).
 */

const RUNS = 300;

/** Names a field or a column may have that a JSON path, an identifier or a lambda gets wrong. */
const hostileNames = [
  "",
  "*",
  '""',
  '"',
  "a\u0001b",
  "\u0000",
  "F",
  "L",
  "V",
  "f",
  "a.b",
  "[0]",
  "~1/",
  "$",
  "\\",
  "'",
  "\u202e",
];
const columnNames = ["json", "F", "L", "V", "f", "l", "v", 'a"b', "a`b", "select", "é"];

const base = fieldOfEachType("EdgeResponseBytes");
const typed: FieldInfo[] = [base.int, base.string, base.bool, base.intArray, base.stringArray];

/** Fields of each type, each under a hostile name (distinct within one filter). */
const fieldsArbitrary = fc
  .shuffledSubarray(hostileNames, { minLength: typed.length, maxLength: typed.length })
  .map((names) => typed.map((field, i): FieldInfo => ({ ...field, name: names[i]! })));

const constants = {
  int: ["0", "5", "-1"],
  float: ["0.5"],
  string: ["", "a", "\\", "é", "\\ud800", "x"],
  intElements: ["1", "3"],
  stringElements: ["block", "a"],
};

/** Values of each type as JSON text, and the texts the engines' parsers read otherwise than JSON.parse. */
const values: Record<FieldInfo["type"], string[]> = {
  int: ["5", "0", "-1", '"5"', "NaN", "Infinity", "-Infinity", "nan", "inf", "5.0", "null", '"x"'],
  float: ["0.5"],
  string: [
    '"a"',
    '""',
    '"x"',
    '"\\ud800"',
    '"a\\udc00"',
    '"\\udc00\\ud800"',
    '"\\ud800\\ud83d\\ude00"',
    '"\\ud83d\\ude00"',
    '"\\\\ud800"',
    '"\\\\\\ud800"',
    '"\\\\"',
    '"\ufffd"',
    '"\\ufffd"',
    '"é"',
    '"\\u0000"',
    '"a\u0001"',
    '"\t"',
    "5",
  ],
  bool: ["true", "false", '"true"'],
  array: ["[1]", "[1,]", "[3,NaN]", '["a"]', '["a",]', '["\\ud800","a"]', '["block"]', "[]", "[Infinity]"],
  object: ["{}"],
};

/** Changes of a whole line that JSON.parse or the engines read otherwise. */
const lineChanges: ((line: string) => string)[] = [
  (line) => line,
  (line) => (line === "{}" ? line : `${line.slice(0, -1)},}`),
  (line) => `\ufeff${line}`,
  (line) => `${line}\r`,
  (line) => ` \t${line} `,
  (line) => `${line}\f`,
  (line) => `\u00a0${line}`,
  (line) => `${line.slice(0, -1)}${line === "{}" ? "" : ","}"n":[${"[".repeat(40)}${"]".repeat(40)}]}`,
  (line) => `${line.slice(0, -1)}${line === "{}" ? "" : ","}"n":NaN}`,
  (line) => `${line},`,
  (line) => `[${line}]`,
];

const lineArbitrary = (fields: FieldInfo[]) =>
  fc
    .tuple(
      fc.tuple(
        ...fields.map((field) =>
          fc
            .option(fc.constantFrom(...values[field.type]), { nil: undefined, freq: 3 })
            .map((value) => [field.name, value] as const),
        ),
      ),
      fc.constantFrom(...lineChanges),
    )
    .map(([entries, change]) => {
      const members = entries
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => `${JSON.stringify(name)}:${value}`);
      return change(`{${members.join(",")}}`);
    });

const caseArbitrary = fieldsArbitrary.chain((fields) =>
  fc.record({
    condition: conditionArbitrary(fields, constants, 2),
    lines: fc.array(lineArbitrary(fields), { minLength: 1, maxLength: 10 }),
    column: fc.constantFrom(...columnNames),
  }),
);

function evalKeeps(condition: Cond, lines: string[]): number[] {
  const verdict = compileLineFilter(condition, {});
  return lines.flatMap((line, i) => (verdict(line) === LineVerdict.match ? [i] : []));
}

afterAll(closeEngines);

describe("the SQL keeps what eval keeps on lenient and malformed lines, over hostile names", () => {
  it.each(engines)(
    `in $name (${RUNS} filters)`,
    async ({ dialect, expectKept }) => {
      // Judged by the engine after the runs, all in a few queries.
      const cases: EngineCase[] = [];
      fc.assert(
        fc.property(caseArbitrary, ({ condition, lines, column }) => {
          const sql = toSql(condition, { dialect, column });
          if (!sql.ok) {
            // Only the strings the SQL cannot compare exactly are refused.
            expect(sql.diagnostics.map((diagnostic) => diagnostic.code)).toContain("E0800");
            return;
          }
          cases.push({
            name: fc.stringify({ condition, lines, column }),
            wheres: [sql.sql],
            lines,
            column,
            expected: [evalKeeps(condition, lines)],
          });
        }),
        { numRuns: RUNS },
      );
      // Most filters are written: the engine judges the runs, not a few.
      expect(cases.length).toBeGreaterThan(RUNS / 2);
      await expectKept(cases);
    },
    240_000,
  );
});
