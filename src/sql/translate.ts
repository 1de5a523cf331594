import { isTimestampField } from "../catalog/index.js";
import { type Leaf, type Meaning, type ScalarValue, scalarText } from "../check/index.js";
import { type Diagnostic, diagnose, unreachable } from "../diagnostics/index.js";
import type { TimestampReading } from "../eval/index.js";
import { isOperatorOn, OPERATORS, type PositiveOperator, type PositiveOperatorOn } from "../syntax/index.js";
import type { Dialect, JsonRef } from "./dialect.js";
import { compareNumber, EXACT_NUMBER, isNumeric, type NumberOperator } from "./numbers.js";
import { timestampTest, unreadableTime } from "./timestamps.js";

/** A string holding half of a surrogate pair: no UTF-8 text, so no engine's string can equal it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** U+FFFD, which the SQL reads in place of half a surrogate pair in a record (see dialect.ts). */
const REPLACEMENT = "\ufffd";

/**
 * A filter's meaning as a boolean SQL expression over a record's fields (the dialect's `record`
 * binds them to the text of a column), with eval's semantics: each comparison is true or false,
 * never NULL (a missing or null field, or a value of another type, fails every positive operator),
 * so the `!` operators, written `NOT`, mean what they mean in eval. The comparisons no engine can decide exactly are
 * diagnostics at their place, and there is then no expression. `unreadableTimes` counts a record's
 * values of the timestamp fields the condition names that are no time (null when it names none).
 */
export function translate(
  meaning: Meaning,
  dialect: Dialect,
  timestamps: TimestampReading,
): {
  expression: string | null;
  unreadableTimes: string | null;
  fields: string[];
  diagnostics: Diagnostic[];
} {
  const diagnostics: Diagnostic[] = [];
  const translation = new Translation(dialect, timestamps, diagnostics);
  const expression = translation.cond(meaning, false);
  return {
    expression: diagnostics.length > 0 ? null : expression,
    unreadableTimes: translation.unreadableTimes(),
    fields: translation.fields,
    diagnostics,
  };
}

class Translation {
  /** The fields the condition reads, each once, in order of first mention: a field's ref has its index here. */
  readonly fields: string[] = [];
  /** The timestamp fields among them. */
  private readonly timestampFields = new Set<string>();

  constructor(
    private readonly dialect: Dialect,
    private readonly timestamps: TimestampReading,
    private readonly diagnostics: Diagnostic[],
  ) {}

  /** The number of a record's timestamp values that are no time, summed over the fields; null when there are none. */
  unreadableTimes(): string | null {
    if (this.timestampFields.size === 0) return null;
    return [...this.timestampFields]
      .map((name) => {
        const unreadable = unreadableTime(this.dialect, this.ref(name), this.timestamps);
        return this.dialect.ifElse(unreadable, "1", "0");
      })
      .join(" + ");
  }

  private ref(name: string): JsonRef & { kind: "field" } {
    if (!this.fields.includes(name)) this.fields.push(name);
    return { kind: "field", name, index: this.fields.indexOf(name) };
  }

  /** `nested`: inside a group of the other kind, so that an `or` needs its parentheses. */
  cond(condition: Meaning, nested: boolean): string {
    switch (condition.kind) {
      case "leaf":
        return this.leaf(condition);
      case "and":
      case "or": {
        const joined = condition.operands
          .map((operand) => this.cond(operand, true))
          .join(condition.kind === "and" ? " AND " : " OR ");
        return nested ? `(${joined})` : joined;
      }
    }
  }

  private leaf(leaf: Leaf): string {
    const { negative, positive } = OPERATORS[leaf.operator];
    const values = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
    for (const value of values) this.checkExpressible(leaf, value);
    const test = this.dialect.orFalse(this.positive(leaf, positive, values));
    return negative ? `NOT ${test}` : test;
  }

  private checkExpressible(leaf: Leaf, value: ScalarValue): void {
    const text = scalarText(value);
    const name = leaf.field.name;
    let problem: string | undefined;
    if (LONE_SURROGATE.test(name))
      problem = "the field's name holds half of a surrogate pair, which no UTF-8 text holds";
    if (name.includes(REPLACEMENT))
      problem = "the field's name holds U+FFFD, which the SQL reads in place of half a surrogate pair";
    if (value.kind === "string" && LONE_SURROGATE.test(text))
      problem = "the string holds half of a surrogate pair, which no UTF-8 text holds";
    if (value.kind === "string" && text.includes(REPLACEMENT))
      problem = "the string holds U+FFFD, which the SQL reads in place of half a surrogate pair";
    if (value.kind === "number" && !EXACT_NUMBER.test(text))
      problem = `${text} has more than 20 digits before the point or 18 after it, past the exact decimals both engines have`;
    if (problem)
      this.diagnostics.push(
        diagnose("NotExpressibleInSql", leaf.range, {
          engine: this.dialect.title,
          field: leaf.field.name,
          problem,
        }),
      );
  }

  private positive(leaf: Leaf, operator: PositiveOperator, values: ScalarValue[]): string {
    const field = this.ref(leaf.field.name);
    const type = leaf.field.type;
    const refused = () => new Error(`${operator} does not compare the ${type} field ${leaf.field.name}`);
    switch (type) {
      case "string":
        if (!isOperatorOn(operator, type)) throw refused();
        return this.stringTest(field, operator, values);
      case "int":
      case "float":
        if (!isOperatorOn(operator, type)) throw refused();
        if (!isTimestampField(leaf.field)) return this.numberTest(field, operator, values);
        this.timestampFields.add(leaf.field.name);
        return timestampTest(this.dialect, field, operator, values.map(scalarText), this.timestamps);
      case "bool":
        if (!isOperatorOn(operator, type)) throw refused();
        return this.boolTest(field, operator, values);
      case "array": {
        if (!isOperatorOn(operator, type)) throw refused();
        return this.arrayTest(field, operator, leaf.field.elementType === "int", values);
      }
      case "object":
        throw refused();
    }
  }

  private boolTest(ref: JsonRef, operator: PositiveOperatorOn<"bool">, values: ScalarValue[]): string {
    switch (operator) {
      case "eq":
        return `${this.dialect.isKind(ref, "bool")} AND ${this.dialect.text(ref)} = '${scalarText(values[0]!)}'`;
    }
  }

  /** `contains` and `in` on an array field: whether some element is one of the values. */
  private arrayTest(
    field: JsonRef & { kind: "field" },
    operator: PositiveOperatorOn<"array">,
    intElements: boolean,
    values: ScalarValue[],
  ): string {
    switch (operator) {
      case "contains":
      case "in": {
        const element = (ref: JsonRef) =>
          intElements ? this.numberTest(ref, "in", values) : this.stringTest(ref, "in", values);
        return `${this.dialect.isKind(field, "array")} AND ${this.dialect.someElement(field, element)}`;
      }
    }
  }

  private stringTest(ref: JsonRef, operator: PositiveOperatorOn<"string">, values: ScalarValue[]): string {
    const { dialect } = this;
    const text = dialect.text(ref);
    const literals = values.map((value) => dialect.string(scalarText(value)));
    let test: string;
    switch (operator) {
      case "eq":
        test = `${text} = ${literals[0]}`;
        break;
      case "in":
        test = literals.length === 1 ? `${text} = ${literals[0]}` : `${text} IN (${literals.join(", ")})`;
        break;
      case "startsWith":
      case "endsWith":
      case "contains":
        test = dialect.textOperators[operator](text, literals[0]!);
        break;
      default:
        return unreachable(operator);
    }
    return `${dialect.isKind(ref, "string")} AND ${test}`;
  }

  /** A JSON number, or a string of digits as eval reads one, compared exactly (see compareNumber). */
  private numberTest(ref: JsonRef, operator: NumberOperator, values: ScalarValue[]): string {
    const { dialect } = this;
    return `${isNumeric(dialect, ref)} AND ${compareNumber(dialect, dialect.text(ref), operator, values.map(scalarText))}`;
  }
}
