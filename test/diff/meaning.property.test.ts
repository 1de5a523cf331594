import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { negateOperator } from "../../src/check/index.js";
import { constancyOf, satisfiable } from "../../src/check/meaning/field.js";
import { findConstantGroups } from "../../src/check/satisfiability.js";
import { parseRecord } from "../../src/eval/index.js";
import {
  type Cond,
  compilePredicate,
  type Diagnostic,
  diffFilters,
  type Leaf,
  type ScalarValue,
} from "../../src/index.js";
import { leaf, range } from "../helpers/conditions.js";
import { condArbitrary, fields, recordArbitrary } from "./generators.js";

const RUNS = 1000;

const not = (operand: Cond): Cond => ({ kind: "not", operand, range });
const group = <Operand extends Cond>(kind: "and" | "or", operands: Operand[]) => ({ kind, operands, range });
const listOf = (value: ScalarValue | ScalarValue[]) => (Array.isArray(value) ? value : [value]);

/** A comparison said another way with the same meaning, under eval's semantics. */
function rewriteLeaf(node: Leaf, choice: number): Cond {
  const values = listOf(node.value);
  const scalarField = node.field.type !== "array";
  switch (choice % 4) {
    case 0:
      // `not` means its push-down: `not X geq c` is `X lt c`, missing fields included.
      return not(leaf(node.field, negateOperator(node.operator), node.value));
    case 1:
      // `in` is an `or` of `eq`s on scalar fields (of `contains` on arrays); `!in` an `and` of `!eq`s.
      if (node.operator === "in")
        return group(
          "or",
          values.map((value) => leaf(node.field, scalarField ? "eq" : "contains", value)),
        );
      if (node.operator === "!in")
        return group(
          "and",
          values.map((value) => leaf(node.field, scalarField ? "!eq" : "!contains", value)),
        );
      return node;
    case 2:
      // On an int field, `lt c` is `leq c-1` and `gt c` is `geq c+1`, within the 64-bit range.
      if (node.field.type === "int" && !Array.isArray(node.value) && node.value.kind === "number") {
        const c = BigInt(node.value.text);
        const shifted = (text: bigint): ScalarValue => ({ kind: "number", text: text.toString() });
        if (node.operator === "lt" && c > -(2n ** 63n)) return leaf(node.field, "leq", shifted(c - 1n));
        if (node.operator === "gt" && c < 2n ** 64n - 1n) return leaf(node.field, "geq", shifted(c + 1n));
      }
      return group("and", [node, node]);
    default:
      return group("or", [node, group("and", [node, node])]);
  }
}

/** The filter said another way: De Morgan, reordering, double negation, rewritten comparisons. */
function rewrite(cond: Cond, seed: number): Cond {
  switch (cond.kind) {
    case "leaf":
      return rewriteLeaf(cond, seed);
    case "not":
      return seed % 3 === 0
        ? not(not(not(rewrite(cond.operand, seed >> 1))))
        : not(rewrite(cond.operand, seed >> 1));
    case "and":
    case "or": {
      const operands = cond.operands.map((operand, i) => rewrite(operand, seed + i * 7));
      if (seed % 3 === 0) operands.reverse();
      if (seed % 5 === 0) {
        const dual = cond.kind === "and" ? "or" : "and";
        return not(group(dual, operands.map(not)));
      }
      return group(cond.kind, operands);
    }
  }
}

function stripNot(cond: Cond): Cond {
  return cond.kind === "not" ? stripNot(cond.operand) : cond;
}

/** A small change that may or may not change the meaning. */
function mutate(cond: Cond, seed: number, replacement: Leaf): Cond {
  switch (cond.kind) {
    case "leaf":
      return seed % 2 === 0 ? replacement : not(cond);
    case "not":
      return seed % 4 === 0 ? stripNot(cond.operand) : not(mutate(cond.operand, seed >> 2, replacement));
    case "and":
    case "or": {
      const target = seed % cond.operands.length;
      if (seed % 7 === 3) return group(cond.kind === "and" ? "or" : "and", cond.operands);
      if (seed % 7 === 5)
        return cond.operands.length > 2
          ? group(
              cond.kind,
              cond.operands.filter((_, i) => i !== target),
            )
          : cond.operands[target]!;
      return group(
        cond.kind,
        cond.operands.map((operand, i) => (i === target ? mutate(operand, seed >> 3, replacement) : operand)),
      );
    }
  }
}

/** Whether the diff agrees with the evaluator on the sampled records, and its records really separate A and B. */
function expectConsistent(a: Cond, b: Cond, records: Record<string, unknown>[]) {
  const result = diffFilters(a, b);
  expect(result.decided).toBe(true);
  if (!result.decided) return result;
  const keepsA = compilePredicate(a);
  const keepsB = compilePredicate(b);
  for (const record of records) {
    const [inA, inB] = [keepsA(record), keepsB(record)];
    if (inA && !inB) expect(result.onlyA, JSON.stringify(record)).not.toBeNull();
    if (inB && !inA) expect(result.onlyB, JSON.stringify(record)).not.toBeNull();
    if (inA && inB) expect(result.relation).not.toBe("disjoint");
  }
  for (const [json, keeps, drops] of [
    [result.onlyA, keepsA, keepsB],
    [result.onlyB, keepsB, keepsA],
  ] as const) {
    if (json === null) continue;
    const record = parseRecord(json)!;
    expect(keeps(record) && !drops(record), json).toBe(true);
  }
  expect(result.relation === "equivalent").toBe(result.onlyA === null && result.onlyB === null);
  return result;
}

describe("diff on generated pairs", () => {
  it("finds every meaning-preserving rewrite equivalent", () => {
    fc.assert(
      fc.property(
        condArbitrary,
        fc.nat(),
        fc.array(recordArbitrary, { maxLength: 20 }),
        (cond, seed, records) => {
          const result = expectConsistent(cond, rewrite(cond, seed), records);
          expect(result).toEqual({ decided: true, relation: "equivalent", onlyA: null, onlyB: null });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("separates a filter from a small mutation with records the evaluator confirms, and never calls a difference equivalent", () => {
    const replacement = fc
      .constantFrom(...Object.values(fields))
      .chain(() => condArbitrary.filter((c): c is Leaf => c.kind === "leaf"));
    fc.assert(
      fc.property(
        condArbitrary,
        fc.nat(),
        replacement,
        fc.array(recordArbitrary, { maxLength: 20 }),
        (cond, seed, other, records) => {
          expectConsistent(cond, mutate(cond, seed, other), records);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("the group warnings on generated groups", () => {
  it("W0103 and W0104 hold on every sampled record that has the field (the field solvers, checked by the evaluator)", () => {
    const leafArbitrary = condArbitrary.filter((cond): cond is Leaf => cond.kind === "leaf");
    let warned = 0;
    fc.assert(
      fc.property(
        fc.array(leafArbitrary, { minLength: 2, maxLength: 4 }),
        fc.constantFrom("and" as const, "or" as const),
        fc.array(recordArbitrary, { maxLength: 30 }),
        (generated, kind, records) => {
          const field = generated[0]!.field;
          const leaves = generated.filter((leaf) => leaf.field === field);
          fc.pre(leaves.length >= 2);
          const cond = group(kind, leaves);
          const diagnostics: Diagnostic[] = [];
          findConstantGroups(cond, diagnostics);
          const codes = diagnostics.map((diagnostic) => diagnostic.code);
          const keeps = compilePredicate(cond);
          const present = records.filter((record) => record[field.name] !== undefined);
          if (codes.includes("W0103") || codes.includes("W0104")) warned++;
          for (const record of present) {
            if (codes.includes("W0103")) expect(keeps(record), JSON.stringify(record)).toBe(false);
            if (codes.includes("W0104")) expect(keeps(record), JSON.stringify(record)).toBe(true);
          }
        },
      ),
      { numRuns: RUNS },
    );
    // The generated groups do conflict: the property is not held by silence alone.
    expect(warned).toBeGreaterThan(RUNS / 20);
  });

  it("W0105 and W0106: a comparison of any type alone is constant exactly when the solver, ungated, says so (regression: an integer bound was never warned)", () => {
    const leafArbitrary = condArbitrary.filter((cond): cond is Leaf => cond.kind === "leaf");
    const counts = { always: 0, never: 0 };
    fc.assert(
      fc.property(leafArbitrary, fc.array(recordArbitrary, { maxLength: 30 }), (comparison, records) => {
        const expected = !satisfiable([comparison])
          ? "never"
          : !satisfiable([{ ...comparison, operator: negateOperator(comparison.operator) }])
            ? "always"
            : undefined;
        const constancy = constancyOf(comparison);
        expect(constancy).toBe(expected);
        if (constancy) counts[constancy]++;
        const diagnostics: Diagnostic[] = [];
        findConstantGroups(comparison, diagnostics);
        const code = { always: "W0106", never: "W0105" } as const;
        expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(constancy ? [code[constancy]] : []);
        const keeps = compilePredicate(comparison);
        for (const record of records.filter((record) => record[comparison.field.name] !== undefined))
          if (constancy) expect(keeps(record), JSON.stringify(record)).toBe(constancy === "always");
      }),
      { numRuns: RUNS },
    );
    expect(counts.always).toBeGreaterThan(0);
    expect(counts.never).toBeGreaterThan(0);
  });
});
