import fc from "fast-check";
import type { Cond } from "../../src/index.js";
import { conditionArbitrary, fieldOfEachType } from "../helpers/conditions.js";

/** Filters over one field of each type, with few constants, so that comparisons of one field meet often. */
export const fields = fieldOfEachType("BotScore");

const intConstants = [
  "-1",
  "0",
  "1",
  "2",
  "5",
  "9007199254740991",
  "-9007199254740991",
  "9223372036854775807",
  "18446744073709551615",
  "-9223372036854775808",
];
const floatConstants = ["0", "0.1", "0.5", "1", "-2.25", "0.10000000000000000001", "12345678901234567.5"];
const stringConstants = ["", "a", "ab", "b", "ba", "/a", "/a/", "aba"];
const elementConstants = ["block", "allow", "log"];

export const condArbitrary: fc.Arbitrary<Cond> = conditionArbitrary(
  Object.values(fields),
  {
    int: intConstants,
    float: floatConstants,
    string: stringConstants,
    intElements: ["1", "2", "9007199254740993"],
    stringElements: elementConstants,
  },
  4,
);

/** Values a record may hold for each test field: every constant, its neighbours, and other values. */
const recordValues: Record<keyof typeof fields, unknown[]> = {
  int: [
    -2,
    -1,
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    "5",
    "9007199254740990",
    "9007199254740991",
    "9007199254740992",
    "-9007199254740992",
    "9223372036854775806",
    "9223372036854775807",
    "18446744073709551615",
    "-9223372036854775808",
  ],
  float: [0, 0.1, 0.10000000000000002, 0.5, 1, -2.25, 0.3, 12345678901234568, -1],
  string: ["", "a", "ab", "b", "ba", "/a", "/a/", "aba", "c", "abab", "/a/b"],
  bool: [true, false],
  intArray: [[], [1], [2], [1, 2], ["9007199254740993"], [3]],
  stringArray: [[], ["block"], ["allow"], ["block", "log"], ["other"]],
};

export const recordArbitrary: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    ...Object.entries(recordValues).map(([key, values]) =>
      fc
        .option(fc.constantFrom(...values), { nil: undefined })
        .map((value) => [fields[key as keyof typeof fields].name, value] as const),
    ),
  )
  .map((entries) => Object.fromEntries(entries.filter(([, value]) => value !== undefined)));
