import { type Cond, type Leaf, operatorAccepts, type ScalarValue, scalarText } from "../check/index.js";
import { compareExact, isExactAsDouble, recordNumber, recordNumberText } from "./numbers.js";

/** A compiled filter: whether one parsed log record passes. */
export type Predicate = (record: Record<string, unknown>) => boolean;

/** The positive operators; each `!` operator is exactly the negation of its positive one. */
type PositiveOperator = "eq" | "lt" | "leq" | "gt" | "geq" | "startsWith" | "endsWith" | "contains" | "in";

/** A test on the field's value alone (undefined when the record lacks the field). */
type ValueTest = (value: unknown) => boolean;

/**
 * Compiles a checked condition once into a predicate over parsed records. Each comparison becomes
 * a closure specialized for its operator and field type, with its constants prepared (sets for
 * lists, doubles or exact decimal text for numbers); groups become loops over those closures.
 *
 * Semantics: string comparisons are exact and case-sensitive; `contains` and `in` on an array
 * field hold when some element equals the value (or one of the list); a missing field (absent or
 * null), or a value of another type than the field's, makes every positive operator false and
 * therefore every `!` operator true; int and float fields accept JSON numbers and numeric strings;
 * bool fields accept JSON booleans only. `not` is evaluated as written.
 */
export function compilePredicate(condition: Cond): Predicate {
  // Each field the filter names is read from the record once, into a slot; the comparisons read
  // the slots. A filter that tests one field many times then costs one property lookup, not many.
  const slots = new Map<string, number>();
  const test = compileCond(condition, slots);
  const names = [...slots.keys()];
  const values: unknown[] = new Array(names.length);
  return (record) => {
    for (let i = 0; i < names.length; i++) values[i] = record[names[i]!];
    return test(values);
  };
}

/** A test over the slot values of one record. */
type SlotTest = (values: unknown[]) => boolean;

function compileCond(condition: Cond, slots: Map<string, number>): SlotTest {
  switch (condition.kind) {
    case "leaf":
      return compileLeaf(condition, slots);
    case "not": {
      const operand = compileCond(condition.operand, slots);
      return (values) => !operand(values);
    }
    case "and":
      return compileAnd(condition.operands.map((operand) => compileCond(operand, slots)));
    case "or":
      return compileOr(condition.operands.map((operand) => compileCond(operand, slots)));
  }
}

function compileAnd(operands: SlotTest[]): SlotTest {
  if (operands.length === 1) return operands[0]!;
  if (operands.length === 2) {
    const [a, b] = operands as [SlotTest, SlotTest];
    return (values) => a(values) && b(values);
  }
  return (values) => {
    for (let i = 0; i < operands.length; i++) if (!operands[i]!(values)) return false;
    return true;
  };
}

function compileOr(operands: SlotTest[]): SlotTest {
  if (operands.length === 1) return operands[0]!;
  if (operands.length === 2) {
    const [a, b] = operands as [SlotTest, SlotTest];
    return (values) => a(values) || b(values);
  }
  return (values) => {
    for (let i = 0; i < operands.length; i++) if (operands[i]!(values)) return true;
    return false;
  };
}

function compileLeaf(leaf: Leaf, slots: Map<string, number>): SlotTest {
  const { field, operator } = leaf;
  if (!field.filterable || !operatorAccepts(operator, field.type)) {
    throw new Error(`cannot evaluate ${field.name} (${field.docType}) ${operator}`);
  }
  const negated = operator.startsWith("!");
  const positive = (negated ? operator.slice(1) : operator) as PositiveOperator;
  const test = valueTest(leaf, positive);
  let slot = slots.get(field.name);
  if (slot === undefined) {
    slot = slots.size;
    slots.set(field.name, slot);
  }
  const index = slot;
  return negated ? (values) => !test(values[index]) : (values) => test(values[index]);
}

function valueTest(leaf: Leaf, operator: PositiveOperator): ValueTest {
  switch (leaf.field.type) {
    case "string":
      return stringTest(operator, leaf.value);
    case "int":
    case "float":
      return numberTest(operator, leaf.value);
    case "bool": {
      const expected = (leaf.value as ScalarValue & { kind: "bool" }).value;
      return (value) => value === expected;
    }
    case "array":
      return arrayTest(leaf.field.elementType === "int", leaf.value);
    case "object":
      throw new Error(`cannot evaluate the object field ${leaf.field.name}`);
  }
}

const listOf = (value: ScalarValue | ScalarValue[]): ScalarValue[] =>
  Array.isArray(value) ? value : [value];

function stringTest(operator: PositiveOperator, value: ScalarValue | ScalarValue[]): ValueTest {
  if (operator === "in") {
    const set = new Set(listOf(value).map(scalarText));
    return (actual) => typeof actual === "string" && set.has(actual);
  }
  const expected = scalarText(value as ScalarValue);
  switch (operator) {
    case "eq":
      return (actual) => actual === expected;
    case "startsWith":
      return (actual) => typeof actual === "string" && actual.startsWith(expected);
    case "endsWith":
      return (actual) => typeof actual === "string" && actual.endsWith(expected);
    case "contains":
      return (actual) => typeof actual === "string" && actual.includes(expected);
    default:
      throw new Error(`cannot evaluate ${operator} on a string field`);
  }
}

function numberTest(operator: PositiveOperator, value: ScalarValue | ScalarValue[]): ValueTest {
  const texts = listOf(value).map(scalarText);
  if (operator === "in" || operator === "eq") return numberMembership(texts);
  const constant = texts[0]!;
  if (isExactAsDouble(constant)) {
    const bound = Number(constant);
    switch (operator) {
      case "lt":
        return (actual) => recordNumber(actual) < bound;
      case "leq":
        return (actual) => recordNumber(actual) <= bound;
      case "gt":
        return (actual) => recordNumber(actual) > bound;
      case "geq":
        return (actual) => recordNumber(actual) >= bound;
    }
  }
  // NaN (no number) fails every one of these comparisons, as a missing field should.
  switch (operator) {
    case "lt":
      return (actual) => compareExact(actual, constant) < 0;
    case "leq":
      return (actual) => compareExact(actual, constant) <= 0;
    case "gt":
      return (actual) => compareExact(actual, constant) > 0;
    case "geq":
      return (actual) => compareExact(actual, constant) >= 0;
    default:
      throw new Error(`cannot evaluate ${operator} on a number field`);
  }
}

/** Equality with one of the constants: doubles when they are exact as doubles, decimal text otherwise. */
function numberMembership(texts: string[]): ValueTest {
  if (texts.every(isExactAsDouble)) {
    if (texts.length === 1) {
      const expected = Number(texts[0]);
      return (actual) => recordNumber(actual) === expected;
    }
    const set = new Set(texts.map(Number));
    return (actual) => set.has(recordNumber(actual));
  }
  const set = new Set(texts);
  return (actual) => {
    const text = recordNumberText(actual);
    return text !== undefined && set.has(text);
  };
}

/** `contains` (one value) and `in` (a list) on an array field: some element equals one of the values. */
function arrayTest(intElements: boolean, value: ScalarValue | ScalarValue[]): ValueTest {
  const element = intElements
    ? numberMembership(listOf(value).map(scalarText))
    : stringTest("in", listOf(value));
  return (actual) => {
    if (!Array.isArray(actual)) return false;
    for (let i = 0; i < actual.length; i++) if (element(actual[i])) return true;
    return false;
  };
}
