import fc from "fast-check";
import { operatorsFor } from "../../src/check/index.js";
import { type Cond, type FieldInfo, getCatalog, type Leaf, type ScalarValue } from "../../src/index.js";

const place = { offset: 0, line: 1, column: 1 };
/** The range of generated conditions: they have no source. */
export const range = { start: place, end: place };

export function leaf(info: FieldInfo, operator: Leaf["operator"], value: ScalarValue | ScalarValue[]): Leaf {
  return { kind: "leaf", field: info, operator, value, range };
}

/**
 * One http_requests field of each type, the int one named: generated filters over so few fields
 * often compare one field twice, which is where meanings interact.
 */
export function fieldOfEachType(int: string) {
  const catalog = getCatalog("http_requests")!;
  const field = (name: string) => catalog.fields.get(name)!;
  return {
    int: field(int),
    float: field("EdgeResponseCompressionRatio"),
    string: field("ClientRequestPath"),
    bool: field("CacheTieredFill"),
    intArray: field("BotDetectionIDs"),
    stringArray: field("SecurityActions"),
  };
}

const sameValue = (a: ScalarValue, b: ScalarValue) => JSON.stringify(a) === JSON.stringify(b);

/** The constants comparisons take, as text, by the type of their field (array fields by element type). */
export interface ConstantTexts {
  int: readonly string[];
  float: readonly string[];
  string: readonly string[];
  intElements: readonly string[];
  stringElements: readonly string[];
}

const number = (text: string): ScalarValue => ({ kind: "number", text });
const string = (value: string): ScalarValue => ({ kind: "string", value });

function constantsOf(texts: ConstantTexts, info: FieldInfo): fc.Arbitrary<ScalarValue> {
  switch (info.type) {
    case "int":
      return fc.constantFrom(...texts.int).map(number);
    case "float":
      return fc.constantFrom(...texts.float).map(number);
    case "string":
      return fc.constantFrom(...texts.string).map(string);
    case "bool":
      return fc.boolean().map((value): ScalarValue => ({ kind: "bool", value }));
    default:
      return info.elementType === "int"
        ? fc.constantFrom(...texts.intElements).map(number)
        : fc.constantFrom(...texts.stringElements).map(string);
  }
}

/**
 * Checked conditions over `fields`: comparisons with every operator a field's type takes and
 * constants from `constants` (lists of up to 3 for `in`), under `not`, `and` and `or` of up to
 * `maxOperands` operands.
 */
export function conditionArbitrary(
  fields: readonly FieldInfo[],
  constants: ConstantTexts,
  maxOperands: number,
): fc.Arbitrary<Cond> {
  const leafArbitrary: fc.Arbitrary<Leaf> = fc
    .constantFrom(...fields)
    .chain((info) =>
      fc.tuple(
        fc.constant(info),
        fc.constantFrom(...operatorsFor(info.type)),
        fc.uniqueArray(constantsOf(constants, info), { minLength: 1, maxLength: 3, comparator: sameValue }),
      ),
    )
    .map(([info, operator, values]) =>
      leaf(info, operator, operator === "in" || operator === "!in" ? values : values[0]!),
    );
  return fc.letrec<{ cond: Cond }>((tie) => ({
    cond: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leafArbitrary,
      fc.record({ kind: fc.constant("not" as const), operand: tie("cond"), range: fc.constant(range) }),
      fc.record({
        kind: fc.constantFrom("and" as const, "or" as const),
        operands: fc.array(tie("cond"), { minLength: 2, maxLength: maxOperands }),
        range: fc.constant(range),
      }),
    ),
  })).cond;
}
