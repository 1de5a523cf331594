import { describe, expect, it } from "vitest";
import { check, diffFilters } from "../../src/index.js";

function conditionOf(source: string, dataset = "http_requests") {
  const checked = check(source, { dataset });
  expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return checked.condition;
}

const diff = (a: string, b: string) => diffFilters(conditionOf(a), conditionOf(b));
const same = { decided: true, relation: "equivalent", onlyA: null, onlyB: null };

describe("diffFilters", () => {
  it("finds filters equivalent over the integers the field can hold", () => {
    expect(diff("BotScore gt 10 and BotScore lt 12", "BotScore eq 11")).toEqual(same);
    expect(
      diff("OriginResponseStatus gt 18446744073709551614", "OriginResponseStatus eq 18446744073709551615"),
    ).toEqual(same);
    expect(diff("BotScore lt -9223372036854775807", "BotScore eq -9223372036854775808")).toEqual(same);
    expect(diff("BotScore in [1, 2, 3]", "BotScore geq 1 and BotScore leq 3")).toEqual(same);
  });

  it("gives a timestamp of nanoseconds, the service's integer, and the evaluator reads it so", () => {
    // eval's default reading took `4` for four seconds, and the record did not verify: an internal error.
    expect(diff("EdgeStartTimestamp gt 3", "EdgeStartTimestamp gt 4")).toEqual({
      decided: true,
      relation: "superset",
      onlyA: '{"EdgeStartTimestamp":4}',
      onlyB: null,
    });
  });

  it("finds `not X lt 5` and `X geq 5` equivalent: `not` means its push-down, as in the JSON", () => {
    expect(diff("not BotScore lt 30", "BotScore geq 30")).toEqual(same);
    expect(
      diff('not (BotScore leq 10 or not ClientCountry eq "us")', 'BotScore gt 10 and ClientCountry eq "us"'),
    ).toEqual(same);
    // A record without the field fails both: only `!` comparisons pass it.
    expect(diff("not BotScore lt 5", "not BotScore lt 5 or BotScore !eq 5")).toEqual({
      decided: true,
      relation: "subset",
      onlyA: null,
      onlyB: "{}",
    });
  });

  it("keeps `!` operators and `not` of their positive form equal, missing fields included", () => {
    expect(diff('not ClientRequestPath startsWith "/a"', 'ClientRequestPath !startsWith "/a"')).toEqual(same);
    expect(diff('not SecurityActions contains "x"', 'SecurityActions !contains "x"')).toEqual(same);
    expect(diff("not BotScore in [1, 2]", "BotScore !eq 1 and BotScore !eq 2")).toEqual(same);
  });

  it("gives a string that starts with the shorter prefix only", () => {
    expect(diff('ClientRequestPath startsWith "/api"', 'ClientRequestPath startsWith "/api/"')).toEqual({
      decided: true,
      relation: "superset",
      onlyA: '{"ClientRequestPath":"/api"}',
      onlyB: null,
    });
  });

  it("builds a string from its parts when the short candidates fail", () => {
    const result = diff(
      'ClientRequestPath startsWith "ab" and ClientRequestPath endsWith "ba" and ClientRequestPath contains "bb"',
      'ClientRequestPath contains "aba" or ClientRequestPath contains "bab"',
    );
    expect(result).toEqual({
      decided: true,
      relation: "overlap",
      onlyA: '{"ClientRequestPath":"abba"}',
      onlyB: '{"ClientRequestPath":"xabax"}',
    });
  });

  it("proves string combinations impossible", () => {
    expect(
      diff(
        'ClientRequestPath startsWith "/a" and ClientRequestPath !contains "a"',
        "BotScore eq 1 and BotScore eq 2",
      ),
    ).toEqual(same);
    expect(
      diff(
        'ClientRequestPath endsWith "xy" and not ClientRequestPath endsWith "y"',
        "BotScore eq 1 and BotScore eq 2",
      ),
    ).toEqual(same);
  });

  it("compares floats by their exact decimal value, as the evaluator does", () => {
    expect(
      diff("EdgeResponseCompressionRatio gt 0.1", "EdgeResponseCompressionRatio geq 0.10000000000000000001"),
    ).toEqual({
      decided: true,
      relation: "superset",
      onlyA: '{"EdgeResponseCompressionRatio":0.100000000000000000001}',
      onlyB: null,
    });
    expect(
      diff(
        "EdgeResponseCompressionRatio gt 0.1 and EdgeResponseCompressionRatio lt 0.2",
        "EdgeResponseCompressionRatio eq 0.15",
      ),
    ).toEqual({
      decided: true,
      relation: "superset",
      onlyA: '{"EdgeResponseCompressionRatio":0.101}',
      onlyB: null,
    });
    expect(
      diff(
        "EdgeResponseCompressionRatio in [1, 2.5]",
        "EdgeResponseCompressionRatio eq 1 or EdgeResponseCompressionRatio eq 2.50",
      ),
    ).toEqual(same);
  });

  it("treats an empty array like a missing field, and `in` on an array as any element", () => {
    expect(diff('SecurityActions contains "block"', 'SecurityActions in ["block"]')).toEqual(same);
    expect(diff("BotDetectionIDs contains 5", "BotDetectionIDs in [5, 6]")).toEqual({
      decided: true,
      relation: "subset",
      onlyA: null,
      onlyB: '{"BotDetectionIDs":[6]}',
    });
  });

  it("gives both records of disjoint filters, and of overlapping ones", () => {
    expect(diff("EdgeResponseStatus eq 200", "EdgeResponseStatus eq 404")).toEqual({
      decided: true,
      relation: "disjoint",
      onlyA: '{"EdgeResponseStatus":200}',
      onlyB: '{"EdgeResponseStatus":404}',
    });
    expect(diff("EdgeResponseStatus geq 500", 'ClientCountry eq "us"')).toEqual({
      decided: true,
      relation: "overlap",
      onlyA: '{"EdgeResponseStatus":500}',
      onlyB: '{"ClientCountry":"us"}',
    });
  });

  it("treats the empty filter as keeping every record", () => {
    expect(diffFilters(null, conditionOf("CacheTieredFill eq true or CacheTieredFill !eq true"))).toEqual(
      same,
    );
    expect(diffFilters(null, conditionOf("BotScore !eq 1"))).toEqual({
      decided: true,
      relation: "superset",
      onlyA: '{"BotScore":1}',
      onlyB: null,
    });
  });

  it("writes integers past 2^53 exactly", () => {
    expect(
      diff("OriginResponseStatus eq 9007199254740993", "OriginResponseStatus eq 9007199254740992"),
    ).toEqual({
      decided: true,
      relation: "disjoint",
      onlyA: '{"OriginResponseStatus":9007199254740993}',
      onlyB: '{"OriginResponseStatus":9007199254740992}',
    });
  });

  it("gives up undecided, never wrong, past the search budget", () => {
    const a = conditionOf("(BotScore eq 1 or ClientASN eq 2) and (BotScore eq 3 or ClientASN eq 4)");
    expect(diffFilters(a, null, { maxSearchSteps: 1 })).toEqual({ decided: false, steps: 2 });
  });
});
