import { describe, expect, it } from "vitest";
import type { Leaf } from "../../src/check/index.js";
import { solveField } from "../../src/check/meaning/field.js";
import { fieldOfEachType, leaf } from "../helpers/conditions.js";

const { int, float } = fieldOfEachType("BotScore");
const number = (text: string) => ({ kind: "number" as const, text });
const list = (...texts: string[]) => texts.map(number);

/** `X op value` with X the int field, as a literal of a present field. */
function literal(field: typeof int, operator: Leaf["operator"], value: string | string[]) {
  return {
    present: leaf(field, operator, Array.isArray(value) ? list(...value) : number(value)),
    holdsWhenMissing: operator.startsWith("!"),
  };
}

describe("the value a number field takes for its comparisons", () => {
  it.each([
    ["gt 5", [["gt", "5"]], 6n],
    ["lt -3", [["lt", "-3"]], -4n],
    [
      "leq 0, !eq 0 (0 excluded, no positive value)",
      [
        ["leq", "0"],
        ["!eq", "0"],
      ],
      -1n,
    ],
    [
      "geq -3, !eq 0 (0 excluded: the least positive value)",
      [
        ["geq", "-3"],
        ["!eq", "0"],
      ],
      1n,
    ],
    [
      "in [7, -2, 3], !eq 3",
      [
        ["in", ["7", "-2", "3"]],
        ["!eq", "3"],
      ],
      7n,
    ],
    ["in [-5, -2]", [["in", ["-5", "-2"]]], -2n],
    [
      "in [1, 2], in [2, 3]",
      [
        ["in", ["1", "2"]],
        ["in", ["2", "3"]],
      ],
      2n,
    ],
    [
      "in [1], in [2]",
      [
        ["in", ["1"]],
        ["in", ["2"]],
      ],
      undefined,
    ],
    ["gt 18446744073709551614", [["gt", "18446744073709551614"]], 18446744073709551615n],
    ["gt 18446744073709551615", [["gt", "18446744073709551615"]], undefined],
    ["lt -9223372036854775808", [["lt", "-9223372036854775808"]], undefined],
    [
      "geq 3, leq 2",
      [
        ["geq", "3"],
        ["leq", "2"],
      ],
      undefined,
    ],
  ] as [string, [Leaf["operator"], string | string[]][], bigint | undefined][])(
    "%s",
    (_, comparisons, expected) => {
      const choice = solveField(
        int,
        comparisons.map(([operator, value]) => literal(int, operator, value)),
      );
      expect(
        choice === undefined ? undefined : choice !== "missing" && choice.type === "int" && choice.value,
      ).toBe(expected);
    },
  );

  it("steps past long lists of excluded values in linear time", () => {
    // Every even value, then every odd one: as lists of intervals, each exclusion split one of
    // thousands of intervals (30,000 spaced values took 32 s); as a set, one lookup each.
    const evens = Array.from({ length: 50_000 }, (_, i) => String(2 * i));
    const odds = Array.from({ length: 50_000 }, (_, i) => String(2 * i + 1));
    const choice = solveField(int, [
      literal(int, "geq", "0"),
      literal(int, "!in", evens),
      literal(int, "!in", odds),
    ]);
    expect(choice).toEqual({ type: "int", value: 100_000n });
  }, 5_000);

  it("gives a float field a decimal between its constants", () => {
    expect(solveField(float, [literal(float, "gt", "0.5"), literal(float, "lt", "0.52")])).toEqual({
      type: "float",
      value: "0.501",
    });
    expect(solveField(float, [literal(float, "gt", "0.5"), literal(float, "leq", "0.5")])).toBeUndefined();
  });
});
