import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Cond, check, negateOperator } from "../../src/check/index.js";
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

/**
 * The condition evaluated by its meaning, here: each comparison compiled alone, its operator paired
 * under an odd number of `not`s (`not X lt 5` is `X geq 5`), and/or swapped there (De Morgan).
 */
function naive(cond: Cond, negated = false): (record: Record<string, unknown>) => boolean {
  switch (cond.kind) {
    case "leaf":
      return compilePredicate(negated ? { ...cond, operator: negateOperator(cond.operator) } : cond);
    case "not":
      return naive(cond.operand, !negated);
    case "and":
    case "or": {
      const operands = cond.operands.map((operand) => naive(operand, negated));
      return (cond.kind === "and") !== negated
        ? (record) => operands.every((operand) => operand(record))
        : (record) => operands.some((operand) => operand(record));
    }
  }
}

describe("an or of equalities on one field (looked up in a table)", () => {
  const countries = ["us", "ca", "de", "", "US"];
  const statuses = ["200", "404", "500", "0", "-1", "1700000000000000000"];
  const comparison = fc.oneof(
    fc.constantFrom(...countries).map((c) => `ClientCountry eq "${c}"`),
    fc
      .subarray(countries, { minLength: 1 })
      .map((cs) => `ClientCountry in [${cs.map((c) => `"${c}"`).join(", ")}]`),
    fc.constantFrom(...statuses).map((n) => `EdgeResponseStatus eq ${n}`),
    fc.subarray(statuses, { minLength: 1 }).map((ns) => `EdgeResponseStatus in [${ns.join(", ")}]`),
    fc.constantFrom(...statuses).map((n) => `EdgeResponseStatus !eq ${n}`),
    fc.constantFrom(
      "BotScore lt 30",
      "BotScore eq 5",
      'ClientRequestHost eq "a"',
      "not BotScore eq 5",
      "not BotScore lt 30",
      '(not (ClientCountry eq "us" and BotScore geq 30))',
    ),
  );
  const operand = fc.oneof(
    comparison,
    fc.array(comparison, { minLength: 2, maxLength: 3 }).map((parts) => `(${parts.join(" and ")})`),
  );
  const filter = fc.array(operand, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(" or "));
  const value = fc.oneof(
    fc.constantFrom<unknown>(undefined, null, true, [], "us", "ca", "US", "", "de", "x"),
    fc.constantFrom<unknown>(200, 404, 500, 0, -0, -1, 0.5, 5, 29, 30, 1.7e18),
    fc.constantFrom<unknown>("200", "0500", "500.0", "-0", "1700000000000000000", "5e2", " 500"),
  );
  const record = fc.record(
    { ClientCountry: value, EdgeResponseStatus: value, BotScore: value, ClientRequestHost: value },
    { requiredKeys: [] },
  );

  it("agrees with the condition evaluated by its meaning", () => {
    fc.assert(
      fc.property(filter, fc.array(record, { minLength: 1, maxLength: 5 }), (source, records) => {
        const checked = check(source);
        expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const compiled = compilePredicate(checked.condition!);
        const reference = naive(checked.condition!);
        for (const r of records) expect(compiled(r)).toBe(reference(r));
      }),
      { numRuns: 2000 },
    );
  });
});
