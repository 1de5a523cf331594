import { describe, expect, it } from "vitest";
import { parse } from "../../src/syntax/index.js";
import { validatedParser } from "../../src/syntax/parser.js";

describe("grammar", () => {
  it("passes chevrotain's validations (no ambiguity, no left recursion) with the lookahead the parser uses", () => {
    expect(() => validatedParser()).not.toThrow();
  });

  // The message of each place a syntax error can be found: the grammar's own checks, chevrotain's
  // mismatched-token and no-viable-alternative errors, inside and outside the rules that recover.
  const messages: [source: string, message: string, range: string][] = [
    [
      "BotScore",
      "expected an operator after `BotScore`, such as `eq`, `in` or `startsWith`, found the end of the filter",
      "1:9-1:9",
    ],
    [
      "BotScore eq )",
      'expected a value after `eq`: a "string", a number, true, false or a [list], found `)`',
      "1:13-1:14",
    ],
    [
      "BotScore in [1, )",
      'expected a value after `,`: a "string", a number, true, false or a [list], found `)`',
      "1:17-1:18",
    ],
    ["BotScore in [1", "expected `]` to close the list, found the end of the filter", "1:15-1:15"],
    [
      "BotScore not 1",
      "expected an operator after `not`, such as `eq`, `in` or `startsWith`, found `1`",
      "1:14-1:15",
    ],
    [
      "and BotScore eq 1",
      "expected a comparison such as `EdgeResponseStatus eq 200`, found `and`",
      "1:1-1:4",
    ],
  ];
  it.each(messages)("%s: %s", (source, message, range) => {
    const [diagnostic, ...rest] = parse(source).diagnostics;
    expect(rest).toEqual([]);
    const { start, end } = diagnostic!.range;
    expect([diagnostic!.message, `${start.line}:${start.column}-${end.line}:${end.column}`]).toEqual([
      message,
      range,
    ]);
  });
});
