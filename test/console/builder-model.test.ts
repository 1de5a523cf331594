import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  builderText,
  type Group,
  newRow,
  readBuilder,
  withField,
  withOperator,
} from "../../console/builder-model.js";
import { getCatalog } from "../../src/catalog/index.js";
import { compile } from "../../src/compile.js";
import { print } from "../../src/print/index.js";
import { builderFilters } from "../helpers/builder-filters.js";

const catalog = getCatalog("http_requests")!;
const field = (name: string) => catalog.fields.get(name)!;

/** What the builder reads from a text, as the page reads it: from the text's one compile. */
function read(text: string) {
  const result = compile(text);
  return readBuilder(result.ast, result.diagnostics, catalog);
}

describe("the builder's model", () => {
  it("gives back, printed, every filter it can show (fast-check)", () => {
    fc.assert(
      fc.property(builderFilters, (expr) => {
        const text = print(expr);
        const reading = read(text);
        if (!reading.ok) throw new Error(`${text}: ${reading.reason}`);
        expect(builderText(reading.group, catalog)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads what it prints as what it holds, whatever was typed (fast-check)", () => {
    fc.assert(
      fc.property(builderFilters, (expr) => {
        const first = read(print(expr));
        if (!first.ok) throw new Error(first.reason);
        const text = builderText(first.group, catalog);
        const again = read(text);
        expect(again.ok && builderText(again.group, catalog)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("reads and/or as the text does: and binds tighter, parentheses are groups", () => {
    const reading = read(
      'ClientCountry eq "us" or EdgeResponseStatus geq 500 and (BotScore lt 30 or BotScore gt 90)',
    );
    expect(reading).toEqual({
      ok: true,
      group: {
        kind: "group",
        joins: ["or", "and"],
        items: [
          { kind: "row", field: "ClientCountry", operator: "eq", value: { kind: "one", text: "us" } },
          { kind: "row", field: "EdgeResponseStatus", operator: "geq", value: { kind: "one", text: "500" } },
          {
            kind: "group",
            joins: ["or"],
            items: [
              { kind: "row", field: "BotScore", operator: "lt", value: { kind: "one", text: "30" } },
              { kind: "row", field: "BotScore", operator: "gt", value: { kind: "one", text: "90" } },
            ],
          },
        ],
      },
    });
  });

  it("writes typed values: numbers for number fields, text otherwise, lists one value a line", () => {
    const group: Group = {
      kind: "group",
      joins: ["and", "or", "and"],
      items: [
        {
          kind: "row",
          field: "EdgeResponseStatus",
          operator: "in",
          value: { kind: "list", items: ["500", " 502 "] },
        },
        { kind: "row", field: "EdgeResponseStatus", operator: "eq", value: { kind: "one", text: "abc" } },
        {
          kind: "row",
          field: "ClientRequestHost",
          operator: "eq",
          value: { kind: "one", text: '5 "quoted"' },
        },
        { kind: "row", field: "CacheTieredFill", operator: "eq", value: { kind: "one", text: "true" } },
      ],
    };
    expect(builderText(group, catalog)).toBe(
      'EdgeResponseStatus in [500, 502] and EdgeResponseStatus eq "abc"\n  or ClientRequestHost eq "5 \\"quoted\\"" and CacheTieredFill eq true',
    );
    const checked = compile(builderText(group, catalog));
    expect(checked.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      'E0302 `EdgeResponseStatus` is an int field, but the value is the string "abc"',
    ]);
  });

  it("says why it cannot show a filter", () => {
    const reasons = (text: string) => {
      const reading = read(text);
      return reading.ok ? "shown" : [reading.reason, reading.pushDown];
    };
    expect(reasons('not ClientCountry eq "us"')).toEqual([
      "the builder has no NOT (Logpush's JSON has none either): the filter can be written without it, as its comparisons negated",
      true,
    ]);
    expect(reasons('# api\nClientCountry eq "us"')).toEqual([
      "the builder would drop the text's comments; remove them to use the builder",
      false,
    ]);
    expect(reasons("ClientCountry eq")).toEqual([
      'the text does not read as a filter: expected a value after `eq`: a "string", a number, true, false or a [list], found the end of the filter (line 1, column 17)',
      false,
    ]);
    expect(reasons('ClientIp eq "1.2.3.4"')).toEqual([
      "unknown field `ClientIp`; field names are case-sensitive: did you mean `ClientIP`? (line 1, column 1)",
      false,
    ]);
    expect(reasons('RequestHeaders eq "a"')).toEqual([
      "`RequestHeaders` is an object field, and Logpush cannot filter on objects (line 1, column 1)",
      false,
    ]);
    expect(reasons('EdgeResponseStatus eq "500"')).toEqual([
      '`EdgeResponseStatus` is an int field, but the value is the string "500"; write 500 (line 1, column 23)',
      false,
    ]);
    expect(reasons('ClientRequestPath eq "a\\nb"')).toEqual([
      "a value holds a line break, which the builder's inputs cannot (line 1, column 22)",
      false,
    ]);
    expect(reasons('ClientRequestPath in [""]')).toEqual([
      "a list of one empty text cannot be written one value a line (line 1, column 22)",
      false,
    ]);
    // What the builder shows with its problem at the row: the value's type, a list where one value is due.
    expect(reasons('EdgeResponseStatus eq "abc"')).toBe("shown");
    expect(reasons("EdgeResponseStatus eq [500, 502]")).toBe("shown");
    expect(reasons("EdgeResponseStatus eq 1.5")).toBe("shown");
  });

  it("turns a row's value into a list and back as the operator changes, and keeps what fits a new field", () => {
    const row = newRow(catalog, undefined);
    // The first field the Field control offers (by name) that a filter may compare.
    expect(row).toEqual({
      kind: "row",
      field: "AISecurityInjectionScore",
      operator: "eq",
      value: { kind: "one", text: "" },
    });
    const status = withField(row, field("EdgeResponseStatus"));
    expect(status).toEqual({
      kind: "row",
      field: "EdgeResponseStatus",
      operator: "eq",
      value: { kind: "one", text: "" },
    });
    const listed = withOperator({ ...status, value: { kind: "one", text: "500" } }, "in");
    expect(listed.value).toEqual({ kind: "list", items: ["500"] });
    expect(withOperator({ ...listed, value: { kind: "list", items: ["500", "502"] } }, "eq").value).toEqual({
      kind: "list",
      items: ["500", "502"],
    });
    expect(withOperator(listed, "eq").value).toEqual({ kind: "one", text: "500" });
    expect(withField(status, field("CacheTieredFill")).value).toEqual({ kind: "one", text: "true" });
    expect(withField(listed, field("ClientRequestHost"))).toEqual({
      kind: "row",
      field: "ClientRequestHost",
      operator: "in",
      value: { kind: "list", items: ["500"] },
    });
    expect(newRow(catalog, status).field).toBe("EdgeResponseStatus");
  });
});
