import { describe, expect, it } from "vitest";
import { readPattern } from "../../src/check/patterns.js";
import { isSafeFix } from "../../src/check/safe-fixes.js";
import { compile } from "../../src/index.js";

describe("patterns at the ends of a value", () => {
  it.each([
    ["*.example.com", "eq", "endsWith", ".example.com"],
    ["example.*", "eq", "startsWith", "example."],
    ["*example*", "eq", "contains", "example"],
    ["%example%", "contains", "contains", "example"],
    ["%example", "!eq", "!endsWith", "example"],
    ["^/api", "startsWith", "startsWith", "/api"],
    ["^/api", "contains", "startsWith", "/api"],
    ["^/api$", "contains", "eq", "/api"],
    ["/api$", "eq", "eq", "/api"],
    [".com$", "endsWith", "endsWith", ".com"],
    [".*admin.*", "eq", "contains", "admin"],
    ["*.b.com", "in", "endsWith", ".b.com"],
    ["*.b.com", "!in", "!endsWith", ".b.com"],
  ])("%s with %s means %s %s", (text, operator, meant, literal) => {
    expect(readPattern(text, operator as never)?.meant).toEqual({ operator: meant, text: literal });
  });

  it.each([
    ["a literal value", "example.com", "eq"],
    ["percent-encoding", "%20", "contains"],
    ["percent-encoding at the start of a longer text", "%2Fapi", "startsWith"],
    ["a lone percent sign", "%", "contains"],
    ["a lone star", "*", "eq"],
    ["a dollar sign in contains' text", "price$", "contains"],
    ["a star inside the text", "a*b", "eq"],
  ])("reads %s as literal text", (_what, text, operator) => {
    expect(readPattern(text, operator as never)).toBeUndefined();
  });

  it("names a pattern with more inside, but gives it no meaning", () => {
    expect(readPattern("*.example.*.com", "eq")).toEqual({ character: "*", meaning: "a wildcard in globs" });
    expect(readPattern("^/api/(v1|v2)", "eq")).toEqual({
      character: "^",
      meaning: "a regular expression's start",
    });
  });
});

describe("safe fixes (check --fix)", () => {
  const safety = (source: string, dataset = "http_requests") =>
    compile(source, { dataset })
      .diagnostics.filter((d) => d.suggestion)
      .map((d) => [d.code, isSafeFix(d, source)]);

  it("takes the fixes with one reading of what was written", () => {
    expect(safety('ClientRequestPath startswith "/a" and ClientIp eq 1.2.3.4')).toEqual([
      ["E0205", true],
      ["E0202", true],
      ["E0303", true],
    ]);
    expect(safety("EdgeResponseStatus ≥ 500 and EdgeResponseStatus eq 007 and BotScore ne 1")).toEqual([
      ["E0205", true],
      ["E0106", true],
    ]);
    expect(safety("EdgeResponseStatus eq 5xx")).toEqual([["E0311", true]]);
    expect(safety('SecurityActions in ["block", "log"]')).toEqual([["W0123", true]]);
    expect(safety('QueryType eq "AAAA"', "dns_logs")).toEqual([["E0309", true]]);
    expect(safety("BotScore lt 3 & BotScore gt 1")).toEqual([["E0101", true]]);
  });

  it("leaves guesses, and changes of what a filter that compiles selects, to the editor", () => {
    expect(safety('ClientRequestHst eq "a"')).toEqual([["E0201", false]]);
    expect(safety("BotScore eqq 1")).toEqual([["E0205", false]]);
    expect(safety('ClientRequestHost like "%a%"')).toEqual([["E0205", false]]);
    expect(safety('ClientCountry eq "us')).toEqual([["E0102", false]]);
    expect(safety("EdgeStartTimestamp geq 1700000000")).toEqual([["W0120", false]]);
    expect(safety('ClientIP eq "10.0.0.0/8"')).toEqual([["W0124", false]]);
    expect(safety('ClientRequestHost eq "*.a.com"')).toEqual([["W0125", false]]);
    expect(safety('ClientCountry eq "US"')).toEqual([["W0126", false]]);
    expect(safety('ClientCountry in ["us,ca"]')).toEqual([["W0127", false]]);
  });
});
