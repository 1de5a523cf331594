import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/index.js";
import { compileLineFilter, LineVerdict } from "../../src/eval/index.js";
import { runCli } from "../helpers/cli.js";

/** The exact value of a JSON number or numeric string as a fraction m × 10^e (BigInt m). */
function exact(text: string): { m: bigint; e: bigint } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const fraction = match[3] ?? "";
  return {
    m: BigInt(`${match[1]}${match[2]}${fraction}`),
    e: BigInt(match[4] ?? 0) - BigInt(fraction.length),
  };
}

/** The reference order: a − b compared with 0 in exact arithmetic. */
function order(a: string, b: string): number {
  const x = exact(a);
  const y = exact(b);
  // Both over the smaller power of ten.
  const shift = x.e - y.e;
  const left = shift > 0n ? x.m * 10n ** shift : x.m;
  const right = shift < 0n ? y.m * 10n ** -shift : y.m;
  return left < right ? -1 : left > right ? 1 : 0;
}

const holds: Record<string, (o: number) => boolean> = {
  eq: (o) => o === 0,
  "!eq": (o) => o !== 0,
  lt: (o) => o < 0,
  leq: (o) => o <= 0,
  gt: (o) => o > 0,
  geq: (o) => o >= 0,
};

const digits = (max: number) => fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`));
/** Constants as the language writes them: integers and decimals, short and long. */
const constant = fc
  .tuple(fc.constantFrom("", "-"), digits(22), fc.option(digits(22), { nil: undefined }))
  .map(
    ([sign, whole, fraction]) => `${sign}${whole.replace(/^0+(?=\d)/, "")}${fraction ? `.${fraction}` : ""}`,
  );
/** A JSON number near a constant: the same value written otherwise, or a digit away. */
function near(text: string): fc.Arbitrary<string> {
  const { m, e } = exact(text);
  return fc.oneof(
    fc.constant(text),
    fc.constant(`${text.includes(".") ? text : `${text}.0`}00`),
    fc.constant(`${m}e${e}`),
    fc.constant(`${m * 10n}E${e - 1n}`),
    fc.constant(`${m + 1n}e${e}`),
    fc.constant(`${m - 1n}e${e - 20n}`),
    fc.constant(`${m}e${e + 400n}`),
    fc.constant(`${m}e${e - 400n}`),
    fc.constant(Number(text).toString()),
  );
}

describe("numbers compare by their exact decimal value", () => {
  it("a long float constant matches the same JSON number (regression: only integers were read exactly)", () => {
    const filter = compileLineFilter(check("EdgeResponseCompressionRatio eq 0.12345678901234567").condition);
    expect(filter('{"EdgeResponseCompressionRatio":0.12345678901234567}')).toBe(LineVerdict.match);
    expect(filter('{"EdgeResponseCompressionRatio":0.12345678901234566}')).toBe(LineVerdict.miss);
    expect(filter('{"EdgeResponseCompressionRatio":"0.123456789012345670"}')).toBe(LineVerdict.match);
  });

  it("18446744073709551615.0 equals 18446744073709551615 (regression: eq failed while geq passed)", async () => {
    const log =
      '{"EdgeStartTimestamp":18446744073709551615.0}\n{"EdgeStartTimestamp":18446744073709551616}\n';
    for (const [expr, count] of [
      ["EdgeStartTimestamp eq 18446744073709551615", "1"],
      ["EdgeStartTimestamp geq 18446744073709551615", "2"],
      ["EdgeStartTimestamp gt 18446744073709551615", "1"],
      ["EdgeStartTimestamp in [1, 18446744073709551615]", "1"],
    ]) {
      const run = await runCli(["eval", "--expr", expr!, "--count"], log);
      expect([expr, run.stdout]).toEqual([expr, `${count}\n`]);
    }
  });

  it("a value a double would round never equals a short constant it rounds to", () => {
    for (const source of [
      "BotScore eq 0.1",
      "BotScore in [0.1, 2, 3]",
      "BotScore eq 0.1 or BotScore eq 2 or BotScore eq 3",
    ]) {
      const filter = compileLineFilter(
        check(source.replaceAll("BotScore", "EdgeResponseCompressionRatio")).condition,
      );
      expect(filter('{"EdgeResponseCompressionRatio":0.10000000000000000001}')).toBe(LineVerdict.miss);
      expect(filter('{"EdgeResponseCompressionRatio":"0.10000000000000000001"}')).toBe(LineVerdict.miss);
      expect(filter('{"EdgeResponseCompressionRatio":1e-1}')).toBe(LineVerdict.match);
    }
    const zero = compileLineFilter(check("EdgeResponseCompressionRatio leq 0").condition);
    expect(zero('{"EdgeResponseCompressionRatio":1e-400}')).toBe(LineVerdict.miss);
    expect(zero('{"EdgeResponseCompressionRatio":-1e-400}')).toBe(LineVerdict.match);
    const huge = compileLineFilter(check("EdgeResponseCompressionRatio lt 1000000").condition);
    expect(huge('{"EdgeResponseCompressionRatio":1e400}')).toBe(LineVerdict.miss);
  });

  it("a long JSON number is no string, and a numeric string compares as a number (class: values of another type)", () => {
    const path = compileLineFilter(check('ClientRequestPath eq "12345678901234567890"').condition);
    expect(path('{"ClientRequestPath":12345678901234567890}')).toBe(LineVerdict.miss);
    expect(path('{"ClientRequestPath":"12345678901234567890"}')).toBe(LineVerdict.match);
    const ids = compileLineFilter(check("BotDetectionIDs contains 12345678901234567890").condition);
    expect(ids('{"BotDetectionIDs":[1,12345678901234567890.00]}')).toBe(LineVerdict.match);
    expect(ids('{"BotDetectionIDs":["x",12345678901234567891]}')).toBe(LineVerdict.miss);
  });

  it("agree with exact arithmetic for every operator, written as numbers or numeric strings, with and without the field reader", () => {
    fc.assert(
      fc.property(
        constant.chain((c) => fc.tuple(fc.constant(c), near(c), fc.constantFrom(...Object.keys(holds)))),
        fc.boolean(),
        ([c, value, operator], asString) => {
          const source = `EdgeResponseCompressionRatio ${operator} ${c}`;
          const condition = check(source).condition!;
          const numeric = /^-?\d+(\.\d+)?$/.test(value);
          const line = asString
            ? `{"EdgeResponseCompressionRatio":${JSON.stringify(value)}}`
            : `{"EdgeResponseCompressionRatio":${value}}`;
          // A string is a number only in the plain form; a non-number makes every positive operator false.
          const expected =
            asString && !numeric ? operator.startsWith("!") : holds[operator]!(order(value, c));
          const verdict = expected ? LineVerdict.match : LineVerdict.miss;
          for (const fieldReader of [true, false])
            expect([source, line, compileLineFilter(condition, { fieldReader })(line)]).toEqual([
              source,
              line,
              verdict,
            ]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
