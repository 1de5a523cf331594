import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FieldInfo, getCatalog } from "../../src/catalog/index.js";
import { check, operatorsFor } from "../../src/check/index.js";
import { compile } from "../../src/compile.js";
import { decompile } from "../../src/decompile/index.js";
import { compilePredicate } from "../../src/eval/index.js";
import { format, print } from "../../src/print/index.js";
import { type Comparison, type Expr, parse, type Scalar } from "../../src/syntax/index.js";

/** Each property runs at least this many generated cases. */
const RUNS = 2000;
const catalog = getCatalog("http_requests")!;
const fields = [...catalog.fields.values()].filter((field) => field.filterable && !field.deprecated);
const unlimited = { maxOperators: 1_000_000, maxBytes: 1_000_000_000 };
const noRange = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom("a", "b", "/", " ", '"', "'", "\\", "é", "\n", "😀", "\u2028", "\ud800"),
      fc.string({ minLength: 1, maxLength: 1 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));
const intDigits = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }).map(String);
const smallIntDigits = fc.integer({ min: -3, max: 600 }).map(String);
const decimalText = fc
  .tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 999 }))
  .map(([whole, fraction]) => `${whole}.${String(fraction).replace(/0+$/, "")}`);

/** One value of the type a comparison of `field` takes. */
function scalarFor(field: FieldInfo): fc.Arbitrary<Scalar> {
  const type = field.type === "array" ? (field.elementType === "int" ? "int" : "string") : field.type;
  switch (type) {
    case "int":
      return fc.oneof(smallIntDigits, intDigits).map((digits) => ({ kind: "int", digits, range: noRange }));
    case "float":
      return fc.oneof(
        decimalText.map((value): Scalar => ({ kind: "decimal", text: value, range: noRange })),
        smallIntDigits.map((digits): Scalar => ({ kind: "int", digits, range: noRange })),
      );
    case "bool":
      return fc.boolean().map((value) => ({ kind: "bool", value, range: noRange }));
    default:
      return text.map((value) => ({ kind: "string", value, range: noRange }));
  }
}

const comparison: fc.Arbitrary<Comparison> = fc.constantFrom(...fields).chain((field) =>
  fc.constantFrom(...operatorsFor(field.type)).chain((op) => {
    const value =
      op === "in" || op === "!in"
        ? fc
            .uniqueArray(scalarFor(field), { minLength: 1, maxLength: 4, selector: (s) => JSON.stringify(s) })
            .map((elements) => ({ kind: "list" as const, elements, range: noRange }))
        : scalarFor(field);
    return value.map(
      (v): Comparison => ({
        kind: "comparison",
        field: { kind: "field", name: field.name, range: noRange },
        operator: { kind: "operator", op, text: op, range: noRange },
        value: v,
        range: noRange,
      }),
    );
  }),
);

/** Well-typed ASTs in the parser's shape: n-ary groups never directly hold a group of their own kind. */
const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    comparison,
    tie("expr").map((operand): Expr => ({ kind: "not", operand, range: noRange })),
    fc
      .tuple(
        fc.constantFrom("and" as const, "or" as const),
        fc.array(tie("expr"), { minLength: 2, maxLength: 4 }),
      )
      .map(([kind, operands]): Expr => {
        const flat = operands.flatMap((operand) => (operand.kind === kind ? operand.operands : [operand]));
        return { kind, operands: flat, range: noRange };
      }),
  ),
}));

/** The AST without positions, for comparing shapes. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== "range")
      .map(([key, v]) => [key, shape(v)]),
  );
}

describe("round trips (fast-check)", () => {
  it("parse(print(ast)) equals ast", () => {
    fc.assert(
      fc.property(expr, fc.integer({ min: 20, max: 120 }), (ast, lineWidth) => {
        const source = print(ast, { lineWidth });
        const parsed = parse(source, { maxDepth: 1000 });
        expect(parsed.diagnostics).toEqual([]);
        expect(shape(parsed.filter.expr)).toEqual(shape(ast));
      }),
      { numRuns: RUNS },
    );
  });

  it("format(format(s)) equals format(s), and keeps the AST and every comment", () => {
    const texts = (source: string) =>
      parse(source, { maxDepth: 1000 })
        .filter.comments.map((c) => c.text.trimEnd())
        .sort();
    const comment = fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n]/g, " "));
    fc.assert(
      fc.property(
        expr,
        fc.integer({ min: 20, max: 120 }),
        fc.array(fc.tuple(fc.nat(), fc.boolean(), comment), { maxLength: 4 }),
        (ast, lineWidth, comments) => {
          const lines = print(ast, { lineWidth }).split("\n");
          for (const [at, ownLine, body] of comments) {
            const index = at % (lines.length + 1);
            if (ownLine || index === lines.length) lines.splice(index, 0, `#${body}`);
            else lines[index] = `${lines[index]} #${body}`;
          }
          const source = lines.join("\n");
          const once = format(source);
          expect(once.diagnostics).toEqual([]);
          expect(format(once.text!).text).toBe(once.text);
          const reparsed = parse(once.text!, { maxDepth: 1000 });
          expect(shape(reparsed.filter.expr)).toEqual(shape(ast));
          expect(texts(once.text!)).toEqual(texts(source));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("compile(decompile(json)) equals json for canonical json", () => {
    fc.assert(
      fc.property(expr, (ast) => {
        const json = compile(print(ast), { ...unlimited, maxDepth: 1000 }).filter!;
        const back = decompile(json, { maxInputLength: 10_000_000, maxDepth: 1000 });
        expect(back.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        expect(compile(back.source!, { ...unlimited, maxDepth: 1000 }).filter).toBe(json);
      }),
      { numRuns: RUNS },
    );
  });

  it("decompile(compile(src)) means the same as src on generated records, fields present or missing", () => {
    const records = (ast: Expr) => {
      const constants = new Map<string, unknown[]>();
      const collect = (node: Expr): void => {
        if (node.kind === "comparison") {
          const scalars = node.value.kind === "list" ? node.value.elements : [node.value];
          const list = constants.get(node.field.name) ?? [];
          for (const s of scalars) list.push(recordValue(s));
          constants.set(node.field.name, list);
        } else if (node.kind === "not") collect(node.operand);
        else if (node.kind === "and" || node.kind === "or") node.operands.forEach(collect);
      };
      collect(ast);
      const entries = [...constants].map(([name, values]) => {
        const field = catalog.fields.get(name)!;
        const one = fc.oneof(fc.constantFrom(...values), scalarFor(field).map(recordValue));
        const value = field.type === "array" ? fc.array(one, { maxLength: 3 }) : one;
        return [name, value] as const;
      });
      return fc.array(fc.record(Object.fromEntries(entries), { requiredKeys: [] }), {
        minLength: 1,
        maxLength: 5,
      });
    };
    fc.assert(
      fc.property(
        expr.chain((ast) => fc.tuple(fc.constant(ast), records(ast))),
        ([ast, generated]) => {
          const source = print(ast);
          const meaning = compilePredicate(check(source, { maxDepth: 1000 }).condition!);
          const json = compile(source, { ...unlimited, maxDepth: 1000 }).filter!;
          const back = compilePredicate(
            decompile(json, { maxInputLength: 10_000_000, maxDepth: 1000 }).condition!,
          );
          // `not` means its push-down (docs/language.md#what-not-means): no record tells the source from its JSON.
          for (const record of generated) expect(back(record)).toBe(meaning(record));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

function recordValue(scalar: Scalar): unknown {
  switch (scalar.kind) {
    case "string":
      return scalar.value;
    case "int":
      return scalar.digits;
    case "decimal":
      return scalar.text;
    case "bool":
      return scalar.value;
    default:
      return null;
  }
}
