import type { Leaf, Meaning, ScalarValue } from "../check/index.js";
import { scalarText } from "../check/index.js";
import { type Diagnostic, diagnose, unreachable } from "../diagnostics/index.js";
import { AUTO_NANOSECONDS_FROM, AUTO_SECONDS_BELOW, type TimestampReading } from "../eval/index.js";
import { isOperatorOn, OPERATORS, type PositiveOperatorOn } from "../syntax/index.js";
import { columnKind } from "./columns.js";
import type { Dialect } from "./dialect.js";
import { type NumberOperator, sqlComparator } from "./numbers.js";

/**
 * A filter's meaning over a typed table (columns.ts): direct comparisons of the columns, NULL read
 * as a missing field. Each comparison is wrapped so that NULL is false, and the `!` operators are
 * `NOT` of that, so a missing field fails every positive operator and passes every `!` one, as in
 * eval; the meaning has no `not` of a group, so no NULL reaches an `AND`, `OR` or `NOT` above them.
 */

/** Integers an engine reads as a literal of a type every 128-bit column compares with (ClickHouse finds no type for Int64 and UInt64 together). */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A string holding half of a surrogate pair: no UTF-8 text, so no column can equal it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Decimals a double holds exactly enough to compare: at most 15 significant digits. */
const DOUBLE_DIGITS = 15;

/** How many of the table's columns a message about a missing one lists. */
const COLUMNS_NAMED = 10;

/**
 * The typed condition, or the diagnostics of the comparisons it cannot write exactly (E0800) and
 * of fields the table has no column for (E0801; `columns`: the table's, when it has not every field).
 * `typedValue` writes a field's typed value: its column, or an expression of that type (query's read).
 */
export function translateTyped(
  meaning: Meaning,
  dialect: Dialect,
  timestamps: TimestampReading,
  columns: readonly string[] | undefined,
  typedValue: (name: string) => string = dialect.identifier,
): { expression: string | null; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const cond = (node: Meaning, nested: boolean): string => {
    if (node.kind === "leaf") return leafTest(node, dialect, timestamps, columns, typedValue, diagnostics);
    const joined = node.operands
      .map((operand) => cond(operand, true))
      .join(node.kind === "and" ? " AND " : " OR ");
    return nested ? `(${joined})` : joined;
  };
  const expression = cond(meaning, false);
  return { expression: diagnostics.length > 0 ? null : expression, diagnostics };
}

function leafTest(
  leaf: Leaf,
  dialect: Dialect,
  timestamps: TimestampReading,
  columns: readonly string[] | undefined,
  typedValue: (name: string) => string,
  diagnostics: Diagnostic[],
): string {
  const name = leaf.field.name;
  const values = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
  const notExpressible = (problem: string) =>
    diagnostics.push(
      diagnose("NotExpressibleInSql", leaf.range, { engine: dialect.title, field: name, problem }),
    );
  if (columns !== undefined && !columns.includes(name)) {
    const listed = columns.slice(0, COLUMNS_NAMED).join(", ");
    const more = columns.length > COLUMNS_NAMED ? ` and ${columns.length - COLUMNS_NAMED} more` : "";
    diagnostics.push(diagnose("NoSuchColumn", leaf.range, { field: name, columns: `${listed}${more}` }));
    return "";
  }
  const kind = columnKind(leaf.field);
  if (typeof kind !== "string") {
    notExpressible(`the field has no typed column: ${kind.problem}`);
    return "";
  }
  for (const value of values) {
    const text = scalarText(value);
    if (value.kind === "string" && LONE_SURROGATE.test(text))
      notExpressible("the string holds half of a surrogate pair, which no UTF-8 text holds");
    if (kind === "float" && significantDigits(text) > DOUBLE_DIGITS)
      notExpressible(
        `${text} has more than ${DOUBLE_DIGITS} significant digits, past what a column of doubles compares exactly`,
      );
  }
  const { negative, positive } = OPERATORS[leaf.operator];
  const column = typedValue(name);
  const texts = values.map(scalarText);
  const integer = (text: string) =>
    BigInt(text) >= INT64_MIN && BigInt(text) <= INT64_MAX ? text : dialect.wide(dialect.string(text));
  const refused = () => new Error(`${positive} does not compare the field ${name} (${kind})`);
  let test: string;
  switch (kind) {
    case "string":
      if (!isOperatorOn(positive, "string")) throw refused();
      test = stringTest(dialect, column, positive, values);
      break;
    case "int":
    case "float":
      if (!isOperatorOn(positive, kind)) throw refused();
      test = compare(column, positive, kind === "int" ? texts.map(integer) : texts);
      break;
    case "timestamp":
      if (!isOperatorOn(positive, "int")) throw refused();
      test = compare(instant(dialect, column, timestamps), positive, texts.map(integer));
      break;
    case "bool":
      if (!isOperatorOn(positive, "bool")) throw refused();
      test = boolTest(column, positive, texts);
      break;
    case "strings":
    case "ints": {
      if (!isOperatorOn(positive, "array")) throw refused();
      const literals = kind === "ints" ? texts.map(integer) : texts.map((text) => dialect.string(text));
      test = arrayTest(dialect, column, positive, literals);
      break;
    }
    case "object":
    case "objects":
      throw refused();
    default:
      return unreachable(kind);
  }
  const known = dialect.orFalse(test);
  return negative ? `NOT ${known}` : known;
}

function stringTest(
  dialect: Dialect,
  column: string,
  operator: PositiveOperatorOn<"string">,
  values: ScalarValue[],
): string {
  const literals = values.map((value) => dialect.string(scalarText(value)));
  switch (operator) {
    case "startsWith":
    case "endsWith":
    case "contains":
      return dialect.textOperators[operator](column, literals[0]!);
    case "eq":
    case "in":
      return compare(column, operator, literals);
  }
}

function boolTest(column: string, operator: PositiveOperatorOn<"bool">, texts: string[]): string {
  switch (operator) {
    case "eq":
      return `${column} = ${texts[0]}`;
  }
}

/** `contains` and `in` on an array column: whether it holds one of the literals. */
function arrayTest(
  dialect: Dialect,
  column: string,
  operator: PositiveOperatorOn<"array">,
  literals: string[],
): string {
  switch (operator) {
    case "contains":
    case "in":
      return literals.length === 1 ? dialect.has(column, literals[0]!) : dialect.hasAny(column, literals);
  }
}

/** `value` compared with literals by an equality, a list or an order comparison. */
function compare(value: string, operator: NumberOperator, literals: string[]): string {
  switch (operator) {
    case "eq":
    case "in":
      return literals.length === 1 ? `${value} = ${literals[0]}` : `${value} IN (${literals.join(", ")})`;
    case "lt":
    case "leq":
    case "gt":
    case "geq":
      return `${value} ${sqlComparator(operator)} ${literals[0]}`;
  }
}

/**
 * A timestamp column's instant in nanoseconds, on 128 bits, as eval reads a number under the
 * reading: `auto` takes unix seconds below 10^11 and nanoseconds from 10^17, and a number between
 * is no time (NULL: it compares as a missing field).
 */
function instant(dialect: Dialect, column: string, reading: TimestampReading): string {
  const wide = dialect.wide(column);
  const seconds = `${wide} * 1000000000`;
  if (reading === "unixnano") return wide;
  if (reading === "unix") return `(${seconds})`;
  const magnitude = `abs(${wide})`;
  return dialect.ifElse(
    `${magnitude} < ${AUTO_SECONDS_BELOW}`,
    seconds,
    dialect.ifElse(`${magnitude} >= ${AUTO_NANOSECONDS_FROM}`, wide, "NULL"),
  );
}

/** The significant digits of a decimal's text (`0.0012` has 2, `120.5` has 4, `1200` has 2). */
function significantDigits(text: string): number {
  return text.replace(/[-.]/g, "").replace(/^0+|0+$/g, "").length;
}
