import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/index.js";
import { compilePredicate } from "../../src/eval/index.js";

interface CaseGroup {
  filter: string;
  cases: [Record<string, unknown>, boolean][];
}

const groups: CaseGroup[] = JSON.parse(
  readFileSync(new URL("./fixtures/predicate-cases.json", import.meta.url), "utf8"),
);

function predicateOf(source: string) {
  const checked = check(source, { dataset: "http_requests" });
  expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return compilePredicate(checked.condition!);
}

describe("compilePredicate", () => {
  for (const group of groups) {
    it(group.filter, () => {
      const predicate = predicateOf(group.filter);
      const results = group.cases.map(([record]) => predicate(record));
      expect(results).toEqual(group.cases.map(([, expected]) => expected));
    });
  }

  it("covers every canonical operator and every filterable type in the table", () => {
    const operators = new Set<string>();
    const types = new Set<string>();
    for (const group of groups) {
      const collect = (cond: ReturnType<typeof check>["condition"]): void => {
        if (!cond) return;
        if (cond.kind === "leaf") {
          operators.add(cond.operator);
          types.add(cond.field.elementType ? `array[${cond.field.elementType}]` : cond.field.type);
        } else if (cond.kind === "not") collect(cond.operand);
        else cond.operands.forEach(collect);
      };
      collect(check(group.filter).condition);
    }
    expect([...operators].sort()).toEqual(
      [
        "!contains",
        "!endsWith",
        "!eq",
        "!in",
        "!startsWith",
        "contains",
        "endsWith",
        "eq",
        "geq",
        "gt",
        "in",
        "leq",
        "lt",
        "startsWith",
      ].sort(),
    );
    expect([...types].sort()).toEqual(["array[int]", "array[string]", "bool", "float", "int", "string"]);
  });

  it("refuses a comparison the operator matrix rejects", () => {
    const condition = check('ClientCountry eq "us"').condition!;
    const wrong = { ...condition, operator: "lt" } as typeof condition;
    expect(() => compilePredicate(wrong)).toThrow("cannot evaluate ClientCountry (string) lt");
  });
});
