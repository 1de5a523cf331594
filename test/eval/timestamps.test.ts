import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { daysFromCivil } from "../../src/catalog/timestamps.js";
import { check } from "../../src/check/index.js";
import {
  compileLineFilter,
  compilePredicate,
  ExactNumber,
  instantOf,
  jsonNumber,
  LineVerdict,
  parseRecord,
  type TimestampReading,
} from "../../src/eval/index.js";
import { compareDecimals, parseDecimal, recordDecimal } from "../../src/eval/numbers.js";
import {
  autoInstantArbitrary,
  cutTo,
  instantArbitrary,
  keptInstant,
  LOGPUSH_TIMESTAMP_FORMATS,
  type LogpushTimestampFormat,
  rfc3339Text,
  writtenTimestamp,
} from "../helpers/timestamps.js";
import { runLines } from "../logs/run-lines.js";

/** The instant as exact decimal text, or undefined when the value is no time. */
function instantText(value: unknown, reading: TimestampReading = "auto"): string | undefined {
  const instant = instantOf(value, reading);
  if (instant === undefined) return undefined;
  const decimal = recordDecimal(instant)!;
  // The exact value, written plainly: digits, a point only for a fraction.
  const digits = decimal.digits.padEnd(Math.max(decimal.exponent, decimal.digits.length), "0");
  const whole = decimal.exponent <= 0 ? "0" : digits.slice(0, decimal.exponent);
  const fraction =
    decimal.exponent <= 0 ? "0".repeat(-decimal.exponent) + digits : digits.slice(decimal.exponent);
  return `${decimal.negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/** Whether the instant of `value` is exactly `expected` (decimal text). */
const isInstant = (value: unknown, expected: bigint | string, reading: TimestampReading = "auto") => {
  const instant = instantOf(value, reading);
  return (
    instant !== undefined && compareDecimals(recordDecimal(instant)!, parseDecimal(String(expected))!) === 0
  );
};

describe("RFC 3339 text is read as the exact instant it names, in unix nanoseconds", () => {
  it.each([
    ["2023-11-14T22:13:20Z", "1700000000000000000"],
    ["2023-11-14T22:13:20.1Z", "1700000000100000000"],
    ["2023-11-14T22:13:20.123Z", "1700000000123000000"],
    ["2023-11-14T22:13:20.123456Z", "1700000000123456000"],
    ["2023-11-14T22:13:20.123456789Z", "1700000000123456789"],
    ["2023-11-14T22:13:20.123456789000Z", "1700000000123456789"],
    ["2023-11-14t22:13:20z", "1700000000000000000"],
    ["2023-11-15T00:13:20+02:00", "1700000000000000000"],
    ["2023-11-14T16:43:20.5-05:30", "1700000000500000000"],
    ["2023-11-14T22:13:20-00:00", "1700000000000000000"],
    ["2023-11-15T22:12:20+23:59", "1700000000000000000"],
    ["2024-02-29T00:00:00Z", "1709164800000000000"],
    ["2000-02-29T12:00:00Z", "951825600000000000"],
    ["1970-01-01T00:00:00Z", "0"],
    ["1969-12-31T23:59:59.999999999Z", "-1"],
    ["1969-12-31T23:59:59.5Z", "-500000000"],
    ["1900-01-01T00:00:00Z", "-2208988800000000000"],
    ["0000-01-01T00:00:00Z", "-62167219200000000000"],
    ["9999-12-31T23:59:59.999999999Z", "253402300799999999999"],
    ["2262-04-11T23:47:16.854775807Z", "9223372036854775807"],
  ])("%s is %s", (text, expected) => {
    expect(instantText(text)).toBe(expected);
    // The reading names how numbers are read: text is read the same under each.
    expect(instantText(text, "unix")).toBe(expected);
    expect(instantText(text, "unixnano")).toBe(expected);
  });

  it("puts a time past the ninth fraction digit strictly between two nanoseconds", () => {
    for (const [text, below] of [
      ["2023-11-14T22:13:20.1234567891Z", 1700000000123456789n],
      ["2023-11-14T22:13:20.000000000000000000000001Z", 1700000000000000000n],
      ["1969-12-31T23:59:59.0000000001Z", -1000000000n],
      [`2023-11-14T22:13:20.123456789${"0".repeat(100_000)}1Z`, 1700000000123456789n],
    ] as const) {
      const instant = recordDecimal(instantOf(text, "auto"))!;
      expect(compareDecimals(instant, parseDecimal(String(below))!)).toBe(1);
      expect(compareDecimals(instant, parseDecimal(String(below + 1n))!)).toBe(-1);
    }
  });

  it("is the instant JavaScript's Date gives, for any fraction length, offset and letter case", () => {
    fc.assert(
      fc.property(
        instantArbitrary,
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        fc.boolean(),
        fc.boolean(),
        (ns, digits, offset, numericZero, lowerCase) => {
          const text = rfc3339Text(ns, digits, offset, { numericZero, lowerCase });
          expect([text, isInstant(text, cutTo(ns, digits))]).toEqual([text, true]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("counts days as the proleptic Gregorian calendar does, from year 0 to 9999", () => {
    for (let day = -719_528; day <= 2_932_896; day += 97) {
      const date = new Date(day * 86_400_000);
      expect(daysFromCivil(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())).toBe(day);
    }
  });

  it.each([
    ["yesterday"],
    [""],
    ["2023-11-14 22:13:20Z"],
    ["2023-11-14T22:13:20"],
    ["2023-11-14T22:13Z"],
    ["2023-11-14"],
    ["2023-11-14T22:13:20.Z"],
    ["2023-11-14T22:13:20,5Z"],
    ["2023-11-14T22:13:20+0200"],
    ["2023-11-14T22:13:20+24:00"],
    ["2023-11-14T22:13:20+02:60"],
    ["2023-11-14T24:00:00Z"],
    ["2023-11-14T22:60:00Z"],
    ["2016-12-31T23:59:60Z"],
    ["2023-02-29T00:00:00Z"],
    ["1900-02-29T00:00:00Z"],
    ["2100-02-29T00:00:00Z"],
    ["2023-04-31T00:00:00Z"],
    ["2023-13-01T00:00:00Z"],
    ["2023-00-01T00:00:00Z"],
    ["2023-11-00T00:00:00Z"],
    ["12023-11-14T22:13:20Z"],
    ["+2023-11-14T22:13:20Z"],
    ["２０２３-11-14T22:13:20Z"],
    [" 2023-11-14T22:13:20Z"],
    ["2023-11-14T22:13:20Z "],
    ["2023-11-14T22:13:20Z\n"],
    ["1e3"],
    [" 5"],
    [true],
    [[1700000000]],
    [{ seconds: 1700000000 }],
  ])("%j is no time", (value) => {
    expect(instantOf(value, "auto")).toBeUndefined();
  });
});

describe("a number is read as unix seconds or nanoseconds", () => {
  it.each([
    [1700000000, "auto", "1700000000000000000"],
    ["1700000000", "auto", "1700000000000000000"],
    [1700000000.5, "auto", "1700000000500000000"],
    ["1700000000.123456789123", "auto", "1700000000123456789.123"],
    [-1, "auto", "-1000000000"],
    [0, "auto", "0"],
    ["-0", "auto", "0"],
    ["0000", "auto", "0"],
    [99999999999, "auto", "99999999999000000000"],
    ["-99999999999", "auto", "-99999999999000000000"],
    [1e17, "auto", "100000000000000000"],
    [1700000000000000000, "auto", "1700000000000000000"],
    [jsonNumber("1700000000123456789"), "auto", "1700000000123456789"],
    ["01700000000123456789", "auto", "1700000000123456789"],
    ["1700000000123456789.5", "auto", "1700000000123456789.5"],
    [jsonNumber("18446744073709551615"), "auto", "18446744073709551615"],
    [jsonNumber("-9223372036854775808"), "auto", "-9223372036854775808"],
    [5, "unixnano", "5"],
    ["1700000000123", "unixnano", "1700000000123"],
    [1700000000, "unixnano", "1700000000"],
    [jsonNumber("1700000000123456789"), "unixnano", "1700000000123456789"],
    [1700000000123, "unix", "1700000000123000000000"],
    [jsonNumber("1700000000123456789"), "unix", "1700000000123456789000000000"],
    [jsonNumber("1e3"), "unix", "1000000000000"],
  ] as const)("%j read %s is %s", (value, reading, expected) => {
    expect(instantText(value, reading)).toBe(expected);
  });

  it("by its size: a number from 10^11 up to 10^17 is neither (a millisecond or microsecond time)", () => {
    for (const value of [
      100000000000,
      -100000000000,
      1700000000123,
      1700000000123456,
      jsonNumber("99999999999999999"),
      "99999999999999999.9",
      jsonNumber("1.7e12"),
    ])
      expect([value, instantOf(value, "auto")]).toEqual([value, undefined]);
    expect(instantOf(new ExactNumber("1", parseDecimal("1")!), "auto")).toBe(1e9);
  });
});

describe("comparisons read a timestamp field as its instant", () => {
  const predicate = (source: string, reading?: TimestampReading) =>
    compilePredicate(check(source).condition!, { timestamps: reading });

  it("eq, in and the order operators compare the instant exactly with the filter's integer", () => {
    const keep = predicate(
      "EdgeStartTimestamp in [1700000000000000000, 1700000000123456789] or EdgeEndTimestamp geq 1800000000000000000",
    );
    const records = [
      { EdgeStartTimestamp: "2023-11-14T22:13:20Z" },
      { EdgeStartTimestamp: "2023-11-14T22:13:20.123456789Z" },
      { EdgeStartTimestamp: "2023-11-14T22:13:20.1234567891Z" },
      { EdgeStartTimestamp: 1700000000 },
      { EdgeStartTimestamp: "2023-11-14T22:13:20.000000001Z" },
      { EdgeEndTimestamp: "2027-01-15T08:00:00Z" },
      { EdgeEndTimestamp: "2027-01-15T07:59:59.999999999Z" },
      { EdgeEndTimestamp: 1800000000 },
      { EdgeEndTimestamp: "1800000000000000000" },
    ];
    expect(records.map(keep)).toEqual([true, true, false, true, false, true, false, true, true]);
    const between = predicate(
      "EdgeStartTimestamp gt 1700000000123456789 and EdgeStartTimestamp lt 1700000000123456790",
    );
    expect(between({ EdgeStartTimestamp: "2023-11-14T22:13:20.1234567891Z" })).toBe(true);
    expect(between({ EdgeStartTimestamp: "2023-11-14T22:13:20.123456789Z" })).toBe(false);
  });

  it("a value that is no time compares as a missing field: every ! operator holds", () => {
    for (const value of ["yesterday", 1700000000123, true, undefined, null])
      expect(predicate("EdgeStartTimestamp !eq 1700000000000000000")({ EdgeStartTimestamp: value })).toBe(
        true,
      );
    expect(
      predicate("EdgeStartTimestamp leq 0 or EdgeStartTimestamp gt 0")({ EdgeStartTimestamp: "x" }),
    ).toBe(false);
  });

  it("reads numbers as the reading says", () => {
    const record = { EdgeStartTimestamp: 1700000000123 };
    expect(predicate("EdgeStartTimestamp eq 1700000000123", "unixnano")(record)).toBe(true);
    expect(predicate("EdgeStartTimestamp eq 1700000000123", "unix")(record)).toBe(false);
    expect(predicate("EdgeStartTimestamp gt 18446744073709551614", "unix")(record)).toBe(true);
    expect(predicate("EdgeStartTimestamp gt 0")(record)).toBe(false);
  });

  it("other int fields are not timestamps: their strings are numbers only", () => {
    expect(predicate("EdgeResponseBytes gt 0")({ EdgeResponseBytes: "2023-11-14T22:13:20Z" })).toBe(false);
    expect(predicate("EdgeResponseBytes eq 1700000000")({ EdgeResponseBytes: 1700000000 })).toBe(true);
  });
});

/** A record's line: two instants in a format. */
const line = (start: bigint, end: bigint, format: LogpushTimestampFormat, i: number) =>
  `{"EdgeStartTimestamp":${writtenTimestamp(start, format)},"ClientRequestPath":"/p/${i % 3}","EdgeEndTimestamp":${writtenTimestamp(end, format)}}`;

/**
 * A log's format, a reading that reads its numbers (auto, for instants it tells by size; the
 * format's unit), and pairs of instants at the format's precision.
 */
const formatted = fc.constantFrom(...LOGPUSH_TIMESTAMP_FORMATS).chain((format) => {
  const numeric = format === "unix" || format === "unixnano";
  const readings: TimestampReading[] = numeric ? ["auto", format] : ["auto", "unix", "unixnano"];
  return fc.constantFrom(...readings).chain((reading) => {
    const instant = (numeric && reading === "auto" ? autoInstantArbitrary : instantArbitrary).map((ns) =>
      keptInstant(ns, format),
    );
    return fc.tuple(
      fc.constant(format),
      fc.constant(reading),
      fc.array(fc.tuple(instant, instant), { minLength: 1, maxLength: 8 }),
    );
  });
});

/** Comparisons of both timestamp fields with constants at, and a nanosecond and a second around, the instants. */
function filterOf(near: bigint[]): fc.Arbitrary<string> {
  const constant = fc
    .tuple(fc.constantFrom(...near), fc.constantFrom(0n, 1n, -1n, 1_000_000_000n, -1_000_000_000n))
    .map(([ns, delta]) => {
      const value = ns + delta;
      return value >= -(2n ** 63n) && value < 2n ** 64n ? String(value) : "0";
    });
  const comparison = fc.oneof(
    fc
      .tuple(
        fc.constantFrom("EdgeStartTimestamp", "EdgeEndTimestamp"),
        fc.constantFrom("eq", "!eq", "lt", "leq", "gt", "geq"),
        constant,
      )
      .map((parts) => parts.join(" ")),
    fc
      .tuple(fc.constantFrom("in", "!in"), fc.uniqueArray(constant, { minLength: 1, maxLength: 3 }))
      .map(([operator, values]) => `EdgeStartTimestamp ${operator} [${values.join(", ")}]`),
    fc.constantFrom('ClientRequestPath eq "/p/1"', 'ClientRequestPath !eq "/p/2"'),
  );
  return fc
    .array(fc.tuple(comparison, fc.constantFrom("and", "or", "and not")), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.map(([part, join], i) => (i === 0 ? part : `${join} ${part}`)).join(" "));
}

describe("eval keeps the same records of a log in every timestamp format", () => {
  it("as of the log in unixnano: the field reader, the block filter and JSON.parse of every line, with and without the prefilter", async () => {
    await fc.assert(
      fc.asyncProperty(
        formatted.chain((log) => fc.tuple(fc.constant(log), filterOf(log[2].flat()))),
        async ([[format, reading, instants], source]) => {
          const lines = instants.map(([start, end], i) => line(start, end, format, i));
          const condition = check(source).condition!;
          const keep = compilePredicate(condition, { timestamps: "unixnano" });
          const expected = instants.map(([start, end], i) =>
            keep(parseRecord(line(start, end, "unixnano", i))!),
          );
          for (const options of [{}, { prefilter: false }, { fieldReader: false }]) {
            const filter = compileLineFilter(condition, { ...options, timestamps: reading });
            expect(lines.map((text) => filter(text) === LineVerdict.match)).toEqual(expected);
          }
          for (const block of [true, false]) {
            const input = lines.map((text) => `${text}\n`).join("");
            const run = await runLines(() => [Buffer.from(input)], source, { block, timestamps: reading });
            expect(run.out).toBe(
              lines
                .filter((_, i) => expected[i])
                .map((text) => `${text}\n`)
                .join(""),
            );
            expect(run.times.count).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("values that cannot be read as a time are counted once per record", () => {
  const source = 'ClientRequestPath eq "/a" and EdgeStartTimestamp gt 0 and not EdgeEndTimestamp eq 0';
  const log = [
    '{"ClientRequestPath":"/a","EdgeStartTimestamp":"yesterday","EdgeEndTimestamp":1700000000}',
    '{"ClientRequestPath":"/b","EdgeStartTimestamp":"2023-11-14 22:13:20Z","EdgeEndTimestamp":true}',
    '{"ClientRequestPath":"/a","EdgeStartTimestamp":"2023-11-14T22:13:20Z","EdgeEndTimestamp":null}',
    '{"ClientRequestPath":"/\\u0062","EdgeStartTimestamp":1700000000123}',
    '{"ClientRequestPath":"/a","EdgeStartTimestamp":1700000000}',
    "not json",
    '{"ClientRequestPath":"/é","EdgeEndTimestamp":"later"}',
  ];

  it("whether or not a comparison needed the value, by every way of reading lines", async () => {
    const runs = [];
    for (const block of [true, false])
      for (const prefilter of [true, false]) {
        // Each line twice: the prefilter is timed on whole windows of lines, and tries both ways.
        const input = `${[...log, ...log].join("\n")}\n`;
        runs.push(await runLines(() => [Buffer.from(input)], source, { block, prefilter }));
      }
    for (const run of runs) {
      expect(run.out).toBe(`${log[2]}\n${log[4]}\n${log[2]}\n${log[4]}\n`);
      expect(run.times).toEqual({
        count: 10,
        first: [1, 2, 2, 4, 7].map((number) => ({ input: "<stdin>", line: number })),
        example: { field: "EdgeStartTimestamp", value: '"yesterday"', number: false },
      });
    }
  });

  it("tells each value once to a filter's onUnreadableTime, with its field", () => {
    const told: [string, unknown][] = [];
    const filter = compileLineFilter(check(source).condition, {
      onUnreadableTime: (field, value) => told.push([field, value]),
    });
    for (const text of log) filter(text);
    expect(told).toEqual([
      ["EdgeStartTimestamp", "yesterday"],
      ["EdgeStartTimestamp", "2023-11-14 22:13:20Z"],
      ["EdgeEndTimestamp", true],
      ["EdgeStartTimestamp", 1700000000123],
      ["EdgeEndTimestamp", "later"],
    ]);
  });
});
