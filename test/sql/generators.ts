import fc from "fast-check";
import type { Cond } from "../../src/index.js";
import { conditionArbitrary, fieldOfEachType } from "../helpers/conditions.js";

/** Nanosecond timestamps are where SQL engines lose exactness: the int field is one. */
const fields = fieldOfEachType("EdgeStartTimestamp");

/** Nanosecond timestamps, 64-bit bounds and small numbers: the constants and their neighbours. */
const intConstants = [
  "-1",
  "0",
  "5",
  "500",
  "1700000000000000000",
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
};

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
