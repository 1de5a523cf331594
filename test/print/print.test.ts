import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/index.js";
import { format, print } from "../../src/print/index.js";
import { parse } from "../../src/syntax/index.js";

const cases: { source: string; formatted: string }[] = JSON.parse(
  readFileSync(new URL("../fixtures/print/format-cases.json", import.meta.url), "utf8"),
);

describe("format", () => {
  it.each(cases.map((c) => [c.source, c] as const))("formats %j", (_source, c) => {
    const result = format(c.source);
    expect(result).toEqual({ text: c.formatted, diagnostics: [] });
    expect(format(c.formatted).text).toBe(c.formatted);
  });

  it("returns null text and the syntax errors for a broken source", () => {
    const result = format("a eq (");
    expect(result.text).toBeNull();
    expect(result.diagnostics).toEqual(parse("a eq (").diagnostics);
    expect(result.diagnostics[0]!.code).toBe("E0104");
  });

  it("keeps every line within the width when the parts fit", () => {
    const source = Array.from({ length: 12 }, (_, i) => `Field${i} eq "value number ${i}"`).join(" or ");
    const text = format(`a eq 1 and (${source})`, { lineWidth: 40 }).text!;
    expect(text.split("\n").every((line) => line.length <= 40)).toBe(true);
    expect(text.split("\n").slice(0, 4)).toEqual([
      "a eq 1",
      "  and (",
      '    Field0 eq "value number 0"',
      '    or Field1 eq "value number 1"',
    ]);
  });
});

describe("print", () => {
  it("prints an expression node as well as a whole source", () => {
    const filter = parse("a eq 1 and (b eq 2 or not c eq 3)").filter;
    expect(print(filter)).toBe("a eq 1 and (b eq 2 or not c eq 3)");
    expect(print(filter.expr!, { lineWidth: 20 })).toBe(
      "a eq 1\n  and (\n    b eq 2\n    or not c eq 3\n  )",
    );
  });

  it("escapes strings as JSON so that they read back exactly", () => {
    const value = 'tab\t"quote"\\\n\u0001é😀';
    const filter = parse(`ClientRequestPath eq ${JSON.stringify(value)}`).filter;
    const printed = print(filter);
    expect(printed).toBe('ClientRequestPath eq "tab\\t\\"quote\\"\\\\\\n\\u0001é😀"');
    expect(check(printed).condition).toMatchObject({ value: { kind: "string", value } });
  });
});
