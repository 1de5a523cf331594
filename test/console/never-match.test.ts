import { describe, expect, it } from "vitest";
import { builderText, type Group, type Row } from "../../console/filter/model.js";
import { getCatalog } from "../../src/catalog/index.js";
import { compile } from "../../src/compile.js";

/*
 * The Filter section's rows print the text the page compiles, so a row that can never match gets
 * the warning and fix the text gets (the row shows the message; the editor offers the fix).
 */

const catalog = getCatalog("http_requests")!;
const row = (field: string, operator: Row["operator"], value: Row["value"]): Row => ({
  kind: "row",
  field,
  operator,
  value,
});
const group = (...items: Row[]): Group => ({
  kind: "group",
  join: "and",
  items,
});

describe("the builder's rows that can never match", () => {
  it.each([
    [
      row("ClientCountry", "in", { kind: "list", items: ["us,ca"] }),
      "W0127",
      'ClientCountry in ["us", "ca"]',
    ],
    [row("ClientCountry", "eq", { kind: "one", text: "US" }), "W0126", '"us"'],
    [row("ClientIP", "in", { kind: "list", items: ["10.0.0.0/8"] }), "W0124", 'ClientIP startsWith "10."'],
    [
      row("ClientRequestHost", "eq", { kind: "one", text: "*.example.com" }),
      "W0125",
      'ClientRequestHost endsWith ".example.com"',
    ],
  ])("%o gets %s, fixed to %s", (typed, code, replacement) => {
    const text = builderText(group(typed), catalog);
    const found = compile(text).diagnostics.filter((d) => d.code === code);
    expect(found.map((d) => d.suggestion?.replacement)).toEqual([replacement]);
  });
});
