import { describe, expect, it } from "vitest";
import { type ParseResult, parse, scan } from "../../src/syntax/index.js";
import { expectationOf } from "../../src/syntax/messages.js";
import { filterParser } from "../../src/syntax/parser.js";

// Broken sources of every kind the recovering parser reports: a rejected character, a missing
// value, values in the wrong brackets, an unquoted run, leftover input, a missing `)`.
const broken = [
  "BotScore eq 1 & ClientCountry eq",
  'ClientRequestHost in ("a", "b")',
  "ClientRequestPath eq foo bar or BotScore eq )",
  "EdgeResponseStatus eq 200 200 BotScore",
  "(BotScore lt 30 and not",
  "BotScore in [1, )",
];

describe("parse state", () => {
  it("gives each source the same result whatever was parsed before it", () => {
    const alone = broken.map((source) => parse(source));
    const alternating: ParseResult[] = [];
    for (let i = broken.length - 1; i >= 0; i--) {
      parse(broken[(i + 1) % broken.length]!);
      alternating[i] = parse(broken[i]!);
    }
    expect(alternating).toEqual(alone);
  });

  it("gives a parse started from inside another's option getter the result it has alone", () => {
    const [outer, inner] = [broken[2]!, broken[4]!];
    const innerAlone = parse(inner);
    const outerAlone = parse(outer);
    let innerNested: ParseResult | undefined;
    const options = {
      // Read before the parse and again when the diagnostics are capped: the inner parse runs
      // while the outer one has scanned and is about to parse, then again after it parsed.
      get maxDiagnostics() {
        innerNested = parse(inner);
        return 100;
      },
    };
    expect(parse(outer, options)).toEqual(outerAlone);
    expect(innerNested).toEqual(innerAlone);
  });

  it("keeps what a parse of tokens found when the parser reads other tokens", () => {
    const read = (source: string) => {
      const lexed = scan(source);
      const context = { source, endOfInput: lexed.end, lexingErrorOffsets: [] };
      return filterParser().parseTokens(lexed.tokens, context);
    };
    const first = read("BotScore eq )");
    const problems = [...first.problems];
    read("ClientCountry in [1, 2");
    parse("ClientCountry eq 1 2");
    expect(first.problems).toEqual(problems);
    // The message of an error found before holds its own expectation, not one of a later parse.
    expect(first.errors.map((error) => expectationOf(error.message))).toEqual([
      { expected: "the end of the filter", found: "`)`" },
    ]);
  });
});
