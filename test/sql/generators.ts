import fc from "fast-check";
import { type Cond, getCatalog, type TimestampReading } from "../../src/index.js";
import { conditionArbitrary, fieldOfEachType } from "../helpers/conditions.js";

/**
 * An int field of 64-bit values, and a timestamp field: numbers of nanoseconds are where SQL engines
 * lose exactness, and a timestamp is read from every form a job writes.
 */
const fields = {
  ...fieldOfEachType("EdgeResponseBytes"),
  timestamp: getCatalog("http_requests")!.fields.get("EdgeStartTimestamp")!,
};

/**
 * Nanosecond timestamps (2023-11-14T22:13:20Z and the nanosecond, millisecond and second around
 * it, 1969-12-31T23:59:59Z), 64-bit bounds and small numbers: the constants and their neighbours.
 */
export const intConstants = [
  "-1",
  "0",
  "5",
  "500",
  "1700000000000000000",
  "1700000000000000001",
  "1699999999999999999",
  "1700000000123000000",
  "1700000000123456789",
  "1700000001000000000",
  "-1000000000",
  "9223372036854775807",
  "18446744073709551615",
  "-9223372036854775808",
];
const floatConstants = ["0", "0.1", "0.5", "-2.25", "0.123456789012345678", "12345678901234567.5"];
/** LIKE's metacharacters, quotes and backslashes, escapes, controls, text beyond ASCII. */
const stringConstants = [
  "",
  "a",
  "a%",
  "%",
  "_",
  "a_b",
  "it's",
  "\\",
  "\\n",
  '"q"',
  "é",
  "😀",
  "\n",
  "\u0000",
  "/api",
];
const elementConstants = ["block", "allow", "a%", "it's"];

export const condArbitrary: fc.Arbitrary<Cond> = conditionArbitrary(
  Object.values(fields),
  {
    int: intConstants,
    float: floatConstants,
    string: stringConstants,
    intElements: ["1", "3", "9007199254740993", "18446744073709551615"],
    stringElements: elementConstants,
  },
  3,
);

/**
 * Values a record may hold, as JSON text: the constants and their neighbours written as numbers
 * and as numeric strings (leading zeros, a sign, a point), values of other types, null. JSON
 * numbers stay within 64 bits and 15 significant digits, as the datasets write them (docs/sql.md
 * says what the engines make of others).
 */
const recordValues: Record<keyof typeof fields, string[]> = {
  int: [
    "-2",
    "-1",
    "0",
    "4",
    "5",
    "6",
    "499",
    "500",
    "501",
    "5.5",
    "1.0",
    '"5"',
    '"0500"',
    '"-0"',
    '"500.0"',
    '"1e3"',
    '" 5"',
    '"abc"',
    "1699999999999999999",
    "1700000000000000000",
    "1700000000000000001",
    '"1700000000000000001"',
    "9223372036854775806",
    "9223372036854775807",
    "18446744073709551615",
    '"18446744073709551614"',
    "-9223372036854775808",
    "true",
    "[5]",
    "{}",
  ],
  float: [
    "0",
    "0.1",
    "0.10000000000001",
    "0.5",
    "-2.25",
    "1",
    '"0.5"',
    '"0.123456789012345678"',
    "1e-7",
    "12345678901234",
    "false",
  ],
  string: [
    '""',
    '"a"',
    '"a%"',
    '"ab"',
    '"a_b"',
    '"axb"',
    '"it\'s"',
    '"\\\\"',
    '"\\\\n"',
    '"\\n"',
    '"\\"q\\""',
    '"caf\\u00e9"',
    '"é"',
    '"😀"',
    '"\\ud83d\\ude00x"',
    '"\\u0000"',
    '"/api/v1"',
    '"%"',
    "5",
    "true",
  ],
  bool: ["true", "false", '"true"', "1"],
  intArray: [
    "[]",
    "[1]",
    "[2,3]",
    '["3"]',
    '["9007199254740993"]',
    "[9007199254740993]",
    "[18446744073709551615]",
    '"1"',
    "[[1]]",
    "[null]",
  ],
  stringArray: ["[]", '["block"]', '["a%"]', '["allow","log"]', '["it\'s"]', '"block"', "[1]", '["Block"]'],
  // The constants' instants in every form a job writes, a second or a nanosecond around them, at
  // offsets, with fractions past the nanosecond; numbers of unix seconds, of nanoseconds and of
  // neither's size; text that is no RFC 3339 time.
  timestamp: [
    "1700000000000000000",
    '"1700000000000000001"',
    "1700000000123456789",
    "1700000000",
    '"1700000001"',
    "1699999999",
    "1700000000.123",
    "-1",
    "0",
    "5",
    "1700000000123",
    "-1700000000123456",
    '"99999999999999999"',
    '"100000000000.5"',
    "99999999999",
    "100000000000000000",
    "1.7e18",
    '"2023-11-14T22:13:20Z"',
    '"2023-11-14T22:13:20.123Z"',
    '"2023-11-14T22:13:20.123456789Z"',
    '"2023-11-14T22:13:20.1234567891Z"',
    '"2023-11-14T22:13:20.000000000999Z"',
    '"2023-11-14T22:13:19.999999999Z"',
    '"2023-11-15T00:13:20+02:00"',
    '"2023-11-14T16:43:21-05:30"',
    '"2023-11-14t22:13:20.123z"',
    '"1969-12-31T23:59:59Z"',
    '"1969-12-31T23:59:59.5-00:00"',
    '"2024-02-29T00:00:00Z"',
    '"2023-02-29T00:00:00Z"',
    '"2016-12-31T23:59:60Z"',
    '"9999-12-31T23:59:59.999999999+23:59"',
    '"2023-11-14 22:13:20Z"',
    '"yesterday"',
    "true",
  ],
};

/** A timestamp field's values, as JSON text. */
export const timestampValues = recordValues.timestamp;

/** How the property reads numbers in timestamp fields. */
export const readingArbitrary: fc.Arbitrary<TimestampReading> = fc.constantFrom("auto", "unix", "unixnano");

/** A line of NDJSON: an object with some of the fields (missing, null, or a value), or now and then no object at all. */
const objectLine: fc.Arbitrary<string> = fc
  .tuple(
    ...Object.entries(recordValues).map(([key, values]) =>
      fc
        .option(fc.constantFrom("null", ...values), { nil: undefined, freq: 3 })
        .map((value) => [fields[key as keyof typeof fields].name, value] as const),
    ),
  )
  .chain((entries) => fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }))
  .map(
    (entries) =>
      `{${entries
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => `"${name}":${value}`)
        .join(",")}}`,
  );

const lineArbitrary = fc.oneof(
  { arbitrary: objectLine, weight: 20 },
  { arbitrary: fc.constantFrom("not json", "[1]", "5", '"text"', "{}", '{"ClientRequestPath":'), weight: 1 },
);

export const linesArbitrary = fc.array(lineArbitrary, { minLength: 1, maxLength: 12 });
