import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type Cond, check } from "../../src/check/index.js";
import { compileLineFilter, LineVerdict, type TimestampReading } from "../../src/eval/index.js";
import { toSql } from "../../src/sql/index.js";
import { closeEngines, type EngineCase, engines } from "./engines.js";
import {
  condArbitrary,
  intConstants,
  linesArbitrary,
  readingArbitrary,
  timestampValues,
} from "./generators.js";

const RUNS = 300;

/** Every value in every position: a line each, and lines without the field or with null. */
const everyValue = [
  ...timestampValues.map((value) => `{"EdgeStartTimestamp":${value}}`),
  "{}",
  '{"EdgeStartTimestamp":null}',
  "not json",
];

/** Each operator with each constant (lists of neighbours for in). */
const filters = [
  ...["eq", "!eq", "lt", "leq", "gt", "geq"].flatMap((operator) =>
    intConstants.map((constant) => `EdgeStartTimestamp ${operator} ${constant}`),
  ),
  "EdgeStartTimestamp in [1700000000000000000, 1700000000123000000, -1000000000]",
  "EdgeStartTimestamp !in [1700000000000000001, 1700000001000000000]",
];

afterAll(closeEngines);

/**
 * What the SQL must say of each line, judged by the engine as WHEREs: the lines the filter keeps,
 * and the lines where `count` (the SQL's count of values that are no time) is at least 1 and at
 * least 2, which eval gives by the calls of its onUnreadableTime per line. Per line, not a sum: a
 * line counted twice and another not at all would sum alike.
 */
function timestampCase(
  name: string,
  condition: Cond | null,
  timestamps: TimestampReading,
  sql: { where: string; count: string },
  lines: readonly string[],
): EngineCase {
  let unreadable = 0;
  const filter = compileLineFilter(condition, { timestamps, onUnreadableTime: () => unreadable++ });
  const kept: number[] = [];
  const countedOnce: number[] = [];
  const countedTwice: number[] = [];
  lines.forEach((line, i) => {
    unreadable = 0;
    if (filter(line) === LineVerdict.match) kept.push(i);
    if (unreadable >= 1) countedOnce.push(i);
    if (unreadable >= 2) countedTwice.push(i);
  });
  return {
    name,
    wheres: [sql.where, `(${sql.count}) >= 1`, `(${sql.count}) >= 2`],
    lines,
    expected: [kept, countedOnce, countedTwice],
  };
}

describe("the SQL reads timestamp fields as eval does", () => {
  it.each(engines)(
    "in $name: every value a job may write against every constant, under each reading, and the count of values that are no time",
    async ({ dialect, expectKept }) => {
      const cases: EngineCase[] = [];
      for (const timestamps of ["auto", "unix", "unixnano"] as const)
        for (const source of filters) {
          const { condition } = check(source);
          const sql = toSql(condition, { dialect, timestamps });
          expect(sql.ok && sql.unreadableTimes).toBeTruthy();
          if (!sql.ok) continue;
          const where = { where: sql.sql, count: sql.unreadableTimes! };
          cases.push(timestampCase(`${timestamps}: ${source}`, condition, timestamps, where, everyValue));
        }
      await expectKept(cases);
    },
    240_000,
  );

  it.each(engines)(
    `in $name: generated filters over records in every timestamp form, under each reading (${RUNS} runs)`,
    async ({ dialect, expectKept }) => {
      // Judged by the engine after the runs, all in a few queries.
      const cases: EngineCase[] = [];
      fc.assert(
        fc.property(condArbitrary, linesArbitrary, readingArbitrary, (condition, lines, timestamps) => {
          const sql = toSql(condition, { dialect, timestamps });
          expect(sql.diagnostics).toEqual([]);
          if (!sql.ok) return;
          const where = { where: sql.sql, count: sql.unreadableTimes ?? "0" };
          const name = fc.stringify({ condition, lines, timestamps });
          cases.push(timestampCase(name, condition, timestamps, where, lines));
        }),
        { numRuns: RUNS },
      );
      expect(cases.length).toBe(RUNS);
      await expectKept(cases);
    },
    240_000,
  );

  it("counts no value when the filter names no timestamp field", () => {
    const sql = toSql(check("EdgeResponseBytes gt 0").condition, { dialect: "duckdb" });
    expect(sql.ok && sql.unreadableTimes).toBeUndefined();
  });
});
