import fc from "fast-check";
import { type FieldInfo, getCatalog } from "../../src/catalog/index.js";
import { isListOperator, operatorsFor } from "../../src/check/index.js";
import type { Comparison, Expr, Scalar } from "../../src/syntax/index.js";

const catalog = getCatalog("http_requests")!;
/** A field of each type the builder types its Value control for, arrays of both element types included. */
const fields: FieldInfo[] = [
  "EdgeResponseStatus",
  "BotScore",
  "EdgeResponseCompressionRatio",
  "ClientRequestPath",
  "ClientCountry",
  "CacheTieredFill",
  "BotDetectionIDs",
  "SecurityActions",
].map((name) => catalog.fields.get(name)!);

const place = { offset: 0, line: 1, column: 1 };
const noRange = { start: place, end: place };

/** Text a Value control holds: any characters but line breaks, which its inputs cannot hold. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom("a", "/", " ", '"', "'", "\\", "é", ",", "#", "]", "😀", "\u2028", "\t"),
      fc.string({ minLength: 1, maxLength: 1 }).filter((c) => c !== "\n" && c !== "\r"),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""));

function scalarFor(field: FieldInfo): fc.Arbitrary<Scalar> {
  const type = field.type === "array" ? (field.elementType === "int" ? "int" : "string") : field.type;
  const int = fc
    .oneof(fc.integer({ min: -3, max: 600 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }))
    .map((n): Scalar => ({ kind: "int", digits: String(n), range: noRange }));
  switch (type) {
    case "int":
      return int;
    case "float":
      return fc.oneof(
        int,
        fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 1, max: 999 })).map(
          ([whole, fraction]): Scalar => ({
            kind: "decimal",
            text: `${whole}.${String(fraction).replace(/0+$/, "")}`,
            range: noRange,
          }),
        ),
      );
    case "bool":
      return fc.boolean().map((value): Scalar => ({ kind: "bool", value, range: noRange }));
    default:
      return text.map((value): Scalar => ({ kind: "string", value, range: noRange }));
  }
}

const comparison: fc.Arbitrary<Comparison> = fc.constantFrom(...fields).chain((field) =>
  fc.constantFrom(...operatorsFor(field.type)).chain((op) => {
    const value = isListOperator(op)
      ? fc
          .uniqueArray(scalarFor(field), { maxLength: 3, selector: (s) => JSON.stringify(s) })
          // A list of one empty text is the one list one value a line cannot write.
          .filter(
            (elements) => !(elements.length === 1 && JSON.stringify(elements[0]).includes('"value":""')),
          )
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

/**
 * Filters the builder can show: comparisons of every type with the operators the matrix gives
 * them, joined by `and` and `or` in any nesting (the parser's shape: no group directly in one of
 * its own kind), and no `not`.
 */
export const { expr: builderFilters } = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    comparison,
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
