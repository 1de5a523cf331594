// The modules, not the stages' indexes: those bring the parser, the checker and every dataset's
// catalog, which an eval worker never uses (see src/logs/worker.ts).

import type { FieldInfo } from "../catalog/catalog.js";
import { isTimestampField } from "../catalog/timestamps.js";
import { meaningArgument } from "../check/cond-shape.js";
import { type Cond, type Leaf, type Meaning, type ScalarValue, scalarText } from "../check/ir.js";
import { expectArgument, unreachable } from "../diagnostics/arguments.js";
import {
  isOperatorOn,
  OPERATORS,
  operatorAccepts,
  type PositiveOperator,
  type PositiveOperatorOn,
} from "../syntax/vocabulary.js";
import {
  compareDecimals,
  type Decimal,
  decimalKey,
  isShortText,
  parseDecimal,
  recordDecimal,
  recordNumber,
} from "./numbers.js";
import { SlotValues } from "./slot-values.js";
import {
  isTimestampOptions,
  TIMESTAMP_OPTIONS,
  type TimestampOptions,
  timestampReader,
} from "./timestamps.js";

/** A compiled filter: whether one parsed log record passes. */
export type Predicate = (record: Record<string, unknown>) => boolean;

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
 * bool fields accept JSON booleans only; a timestamp field's value compares as the instant it names
 * (timestamps.ts). `not` means its push-down, as in the JSON a job runs: `not X lt 5` is `X geq 5`,
 * which a record without X fails (a condition is taken as written or as its meaning; one in the
 * form already is not copied).
 */
export function compilePredicate(condition: Cond, options: TimestampOptions = {}): Predicate {
  const meaning = meaningArgument(condition, "compilePredicate", "condition");
  expectArgument(options, isTimestampOptions, "compilePredicate", "options", TIMESTAMP_OPTIONS);
  // Each field the filter names has a slot, read from the record when a comparison first asks for
  // it: a filter that tests one field many times costs one property lookup, not many, and one
  // whose first comparison fails reads no other field.
  const { fields, test, slotValues } = compileSlotPredicate(meaning, options);
  let current: Record<string, unknown> = {};
  const values = slotValues((slot) => current[fields[slot]!]);
  return (record) => {
    current = record;
    values.next();
    return test(values);
  };
}

/** A test over the slot values of one record: `values.value(i)` is the record's field `fields[i]` (undefined when absent). */
type SlotTest = (values: SlotValues) => boolean;

/** A filter over the values of the fields it names: lets a caller read just those fields from a log line. */
interface SlotPredicate {
  /** The top-level fields the condition names, each once, in order of first mention. */
  fields: string[];
  /** The slots of the timestamp fields among them. */
  timeSlots: number[];
  /** The test over their values (with onUnreadableTime, it reads every timestamp field). */
  test: SlotTest;
  /**
   * The slot values of records read by `read` (a field's value by slot, undefined when absent), as
   * the test compares them: a timestamp field's value is the instant it names.
   */
  slotValues(read: (slot: number) => unknown): SlotValues;
}

/** The predicate over slots of a filter's meaning (null: the empty filter, which keeps every record). */
export function compileSlotPredicate(meaning: Meaning | null, options: TimestampOptions = {}): SlotPredicate {
  if (meaning === null)
    return { fields: [], timeSlots: [], test: always, slotValues: (read) => new SlotValues(0, read) };
  const slots = new Map<string, number>();
  const compiled = compileCond(meaning, slots);
  const fields = [...slots.keys()];
  const timestamps = new Set(
    namedFields(meaning)
      .filter(isTimestampField)
      .map((field) => field.name),
  );
  const readers = fields.map((field) =>
    timestamps.has(field) ? timestampReader(field, options) : undefined,
  );
  const timeSlots = fields.flatMap((field, slot) => (timestamps.has(field) ? [slot] : []));
  // Every timestamp value is read once the verdict is known, so what is told does not depend on
  // which comparisons the verdict needed.
  const test: SlotTest =
    options.onUnreadableTime && timeSlots.length > 0
      ? (values) => {
          const kept = compiled(values);
          for (let k = 0; k < timeSlots.length; k++) values.value(timeSlots[k]!);
          return kept;
        }
      : compiled;
  return {
    fields,
    timeSlots,
    test,
    slotValues: (read) =>
      new SlotValues(
        fields.length,
        timeSlots.length === 0
          ? read
          : (slot) => {
              const reader = readers[slot];
              return reader ? reader(read(slot)) : read(slot);
            },
      ),
  };
}

/** The fields the condition compares. */
function namedFields(condition: Meaning): FieldInfo[] {
  switch (condition.kind) {
    case "leaf":
      return [condition.field];
    case "and":
    case "or":
      return condition.operands.flatMap(namedFields);
  }
}

function compileCond(condition: Meaning, slots: Map<string, number>): SlotTest {
  switch (condition.kind) {
    case "leaf":
      return compileLeaf(condition, slots);
    case "and":
      return compileAnd(condition.operands.map((operand) => compileCond(operand, slots)));
    case "or":
      return compileDispatchedOr(condition.operands, slots);
  }
}

/** An `or` operand that holds only when a field equals one of some constants (and then when `rest` holds). */
interface Keyed {
  leaf: Leaf;
  keys: (string | number)[];
  rest: Meaning[];
}

/** Fewer `or` operands keyed on one field are tested one by one. */
const MIN_DISPATCH = 3;

/**
 * An `or` whose operands test one field for equality (`X eq c`, `X in [...]`, or an `and` holding
 * such a comparison) looks the field's value up in a map from the constants to the rest of those
 * operands, instead of testing the operands one by one; the other operands are tested as usual.
 * The predicate has no side effects, so testing in another order gives the same answer.
 */
function compileDispatchedOr(operands: Meaning[], slots: Map<string, number>): SlotTest {
  const byField = new Map<string, { operand: Meaning; keyed: Keyed }[]>();
  for (const operand of operands) {
    const keyed = keyedOperand(operand);
    if (!keyed) continue;
    const group = byField.get(keyed.leaf.field.name) ?? [];
    group.push({ operand, keyed });
    byField.set(keyed.leaf.field.name, group);
  }
  const largest = [...byField.values()].sort((a, b) => b.length - a.length)[0];
  if (!largest || largest.length < MIN_DISPATCH)
    return compileOr(operands.map((operand) => compileCond(operand, slots)));

  const dispatched = new Set(largest.map(({ operand }) => operand));
  const table = new Map<string | number, SlotTest[]>();
  let numeric = false;
  for (const { keyed } of largest) {
    compileLeaf(keyed.leaf, slots); // checks the comparison and gives the field its slot
    numeric = keyed.leaf.field.type !== "string";
    const rest =
      keyed.rest.length === 0 ? always : compileAnd(keyed.rest.map((operand) => compileCond(operand, slots)));
    for (const key of keyed.keys) {
      const tests = table.get(key) ?? [];
      if (!tests.includes(rest)) tests.push(rest);
      table.set(key, tests);
    }
  }
  const i = slots.get(largest[0]!.keyed.leaf.field.name)!;
  const others = operands
    .filter((operand) => !dispatched.has(operand))
    .map((operand) => compileCond(operand, slots));
  const other = others.length === 0 ? never : compileOr(others);
  // Numbers are looked up as doubles (numeric strings too, as `eq` compares them); a value of
  // another type, or one a double would round, finds nothing (NaN is no key): the keys are short.
  return (values) => {
    const actual = values.value(i);
    const tests = table.get(numeric ? recordNumber(actual) : (actual as string));
    if (tests !== undefined) for (let k = 0; k < tests.length; k++) if (tests[k]!(values)) return true;
    return other(values);
  };
}

const always: SlotTest = () => true;
const never: SlotTest = () => false;

/** The operand as a lookup on a string or number field, when it is one. */
function keyedOperand(operand: Meaning): Keyed | undefined {
  if (operand.kind === "leaf") {
    const keys = equalityKeys(operand);
    return keys && { leaf: operand, keys, rest: [] };
  }
  if (operand.kind !== "and") return undefined;
  for (const child of operand.operands) {
    if (child.kind !== "leaf") continue;
    const keys = equalityKeys(child);
    if (keys) return { leaf: child, keys, rest: operand.operands.filter((other) => other !== child) };
  }
  return undefined;
}

/** The constants an `eq` or `in` on a string or number field compares with (undefined for other comparisons, or numbers a double cannot hold). */
function equalityKeys(leaf: Leaf): (string | number)[] | undefined {
  if (leaf.operator !== "eq" && leaf.operator !== "in") return undefined;
  const texts = listOf(leaf.value).map(scalarText);
  switch (leaf.field.type) {
    case "string":
      return texts;
    case "int":
    case "float":
      return texts.every(isShortText) ? texts.map(Number) : undefined;
    case "bool":
    case "array":
    case "object":
      return undefined;
    default:
      return unreachable(leaf.field.type);
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

/** A comparison the checker never builds: a field that cannot be filtered, or an operator its type does not take. */
const refused = ({ field, operator }: Leaf) =>
  new Error(`cannot evaluate ${field.name} (${field.docType}) ${operator}`);

function compileLeaf(leaf: Leaf, slots: Map<string, number>): SlotTest {
  const { field, operator } = leaf;
  if (!field.filterable || !operatorAccepts(operator, field.type)) throw refused(leaf);
  const { negative: negated, positive } = OPERATORS[operator];
  let slot = slots.get(field.name);
  if (slot === undefined) {
    slot = slots.size;
    slots.set(field.name, slot);
  }
  // Each comparison reads its slot itself: one closure call per comparison.
  const test = slotTest(leaf, positive, slot);
  return negated ? (values) => !test(values) : test;
}

function slotTest(leaf: Leaf, operator: PositiveOperator, i: number): SlotTest {
  switch (leaf.field.type) {
    case "string":
      if (!isOperatorOn(operator, "string")) throw refused(leaf);
      return stringTest(operator, leaf.value, i);
    case "int":
    case "float":
      if (!isOperatorOn(operator, leaf.field.type)) throw refused(leaf);
      return numberTest(operator, leaf.value, i);
    case "bool": {
      if (!isOperatorOn(operator, "bool")) throw refused(leaf);
      return boolTest(operator, leaf.value, i);
    }
    case "array": {
      if (!isOperatorOn(operator, "array")) throw refused(leaf);
      return arrayTest(operator, leaf.field.elementType === "int", leaf.value, i);
    }
    case "object":
      throw new Error(`cannot evaluate the object field ${leaf.field.name}`);
  }
}

const listOf = (value: ScalarValue | ScalarValue[]): ScalarValue[] =>
  Array.isArray(value) ? value : [value];

function boolTest(
  operator: PositiveOperatorOn<"bool">,
  value: ScalarValue | ScalarValue[],
  i: number,
): SlotTest {
  switch (operator) {
    case "eq": {
      const expected = (value as ScalarValue & { kind: "bool" }).value;
      return (values) => values.value(i) === expected;
    }
  }
}

/** `contains` (one value) and `in` (a list) on an array field: whether an element equals one of the values. */
function arrayTest(
  operator: PositiveOperatorOn<"array">,
  intElements: boolean,
  value: ScalarValue | ScalarValue[],
  i: number,
): SlotTest {
  switch (operator) {
    case "contains":
    case "in": {
      const element = arrayElementTest(intElements, value);
      return (values) => {
        const actual = values.value(i);
        if (!Array.isArray(actual)) return false;
        for (let k = 0; k < actual.length; k++) if (element(actual[k])) return true;
        return false;
      };
    }
  }
}

function stringTest(
  operator: PositiveOperatorOn<"string">,
  value: ScalarValue | ScalarValue[],
  i: number,
): SlotTest {
  if (operator === "in") {
    const set = new Set(listOf(value).map(scalarText));
    return (values) => {
      const actual = values.value(i);
      return typeof actual === "string" && set.has(actual);
    };
  }
  const expected = scalarText(value as ScalarValue);
  switch (operator) {
    case "eq":
      return (values) => values.value(i) === expected;
    case "startsWith":
      return (values) => {
        const actual = values.value(i);
        return typeof actual === "string" && actual.startsWith(expected);
      };
    case "endsWith":
      return (values) => {
        const actual = values.value(i);
        return typeof actual === "string" && actual.endsWith(expected);
      };
    case "contains":
      return (values) => {
        const actual = values.value(i);
        return typeof actual === "string" && actual.includes(expected);
      };
  }
}

function numberTest(
  operator: PositiveOperatorOn<"int" | "float">,
  value: ScalarValue | ScalarValue[],
  i: number,
): SlotTest {
  const texts = listOf(value).map(scalarText);
  if (operator === "in" || operator === "eq") {
    const test = numberMembership(texts);
    return (values) => test(values.value(i));
  }
  const constant = parseDecimal(texts[0]!)!;
  const order = orderAgainst(constant);
  // A double compares with a short constant as a double; any other value exactly. NaN and
  // undefined (no number) fail every one of these comparisons, as a missing field should.
  if (isShortText(texts[0]!)) {
    const bound = Number(texts[0]);
    switch (operator) {
      case "lt":
        return (values) => {
          const actual = values.value(i);
          return typeof actual === "number" ? actual < bound : order(actual) < 0;
        };
      case "leq":
        return (values) => {
          const actual = values.value(i);
          return typeof actual === "number" ? actual <= bound : order(actual) <= 0;
        };
      case "gt":
        return (values) => {
          const actual = values.value(i);
          return typeof actual === "number" ? actual > bound : order(actual) > 0;
        };
      case "geq":
        return (values) => {
          const actual = values.value(i);
          return typeof actual === "number" ? actual >= bound : order(actual) >= 0;
        };
    }
  }
  switch (operator) {
    case "lt":
      return (values) => order(values.value(i)) < 0;
    case "leq":
      return (values) => order(values.value(i)) <= 0;
    case "gt":
      return (values) => order(values.value(i)) > 0;
    case "geq":
      return (values) => order(values.value(i)) >= 0;
  }
}

/** The exact order of a record value against a constant: a sort result, or NaN when the value is no number. */
function orderAgainst(constant: Decimal): (value: unknown) => number {
  return (value) => {
    const decimal = recordDecimal(value);
    return decimal === undefined ? Number.NaN : compareDecimals(decimal, constant);
  };
}

/**
 * Equality with one of the constants. When every constant is short, a double equal to one is that
 * number, and a value that must be compared exactly equals none of them (recordNumber gives NaN);
 * otherwise values and constants meet as exact decimals.
 */
function numberMembership(texts: string[]): ValueTest {
  if (texts.every(isShortText)) {
    if (texts.length === 1) {
      const expected = Number(texts[0]);
      return (actual) => recordNumber(actual) === expected;
    }
    const set = new Set(texts.map(Number));
    return (actual) => set.has(recordNumber(actual));
  }
  const keys = new Set(texts.map((text) => decimalKey(parseDecimal(text)!)));
  return (actual) => {
    const decimal = recordDecimal(actual);
    return decimal !== undefined && keys.has(decimalKey(decimal));
  };
}

/** `contains` (one value) and `in` (a list) on an array field: whether an element equals one of the values. */
function arrayElementTest(intElements: boolean, value: ScalarValue | ScalarValue[]): ValueTest {
  if (intElements) return numberMembership(listOf(value).map(scalarText));
  const set = new Set(listOf(value).map(scalarText));
  return (actual) => typeof actual === "string" && set.has(actual);
}
