import type { Catalog, FieldInfo } from "../src/catalog/index.js";
import type { Diagnostic, Range } from "../src/diagnostics/index.js";
import { print } from "../src/print/index.js";
import {
  type CanonicalOperator,
  type Comparison,
  type Expr,
  type FilterSource,
  isListOperator,
  operatorAccepts,
  operatorsFor,
  type Scalar,
  scan,
  tokenFacts,
  type Value,
} from "../src/syntax/index.js";

/*
 * The Filter section's builder as data: rows of Field, Operator and Value joined by AND / OR, and
 * groups in parentheses. It reads a filter from the parsed source and gives one back as an AST,
 * which the printer writes: the text and the builder never disagree, and no second parser exists.
 */

export type Join = "and" | "or";
/** What the Value control holds: one value as typed, or a list (one value a line). */
type RowValue = { kind: "one"; text: string } | { kind: "list"; items: string[] };

export interface Row {
  kind: "row";
  field: string;
  operator: CanonicalOperator;
  value: RowValue;
}

/** Items read left to right, `joins[i]` between items i and i + 1, `and` binding tighter than `or` as in the text. */
export interface Group {
  kind: "group";
  items: Item[];
  joins: Join[];
}

type Item = Row | Group;

/** A filter the builder shows, or why it cannot (then `pushDown` says the text's `not` is the reason). */
type BuilderReading = { ok: true; group: Group } | { ok: false; reason: string; pushDown: boolean };

/** The type a field's values have: an array field's elements', the field's own otherwise. */
export function valueType(field: FieldInfo): "string" | "int" | "float" | "bool" {
  if (field.type === "array") return field.elementType === "int" ? "int" : "string";
  return field.type === "object" ? "string" : field.type;
}

/** The fields the Field control offers: those a filter may compare, by name. */
export function builderFields(catalog: Catalog): FieldInfo[] {
  return [...catalog.fields.values()]
    .filter((field) => field.filterable)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function emptyGroup(): Group {
  return { kind: "group", items: [], joins: [] };
}

/** A new row: on the field of the row before it (lists of one field are common), else the first field. */
export function newRow(catalog: Catalog, before: Row | undefined): Row {
  const field = (before && catalog.fields.get(before.field)) ?? builderFields(catalog)[0]!;
  return { kind: "row", field: field.name, operator: operatorsFor(field.type)[0]!, value: emptyValue(field) };
}

function emptyValue(field: FieldInfo): RowValue {
  return { kind: "one", text: valueType(field) === "bool" ? "true" : "" };
}

/** The row on another field: its operator kept where the field's type takes it, its value kept as typed. */
export function withField(row: Row, field: FieldInfo): Row {
  const operators = operatorsFor(field.type);
  const operator = operators.includes(row.operator) ? row.operator : operators[0]!;
  const value =
    valueType(field) === "bool" && (row.value.kind === "list" || !["true", "false"].includes(row.value.text))
      ? emptyValue(field)
      : row.value;
  return withOperator({ ...row, field: field.name, value }, operator);
}

/** The row with another operator: one value becomes a list of it for `in`, a list of one value one value again. */
export function withOperator(row: Row, operator: CanonicalOperator): Row {
  const { value } = row;
  if (isListOperator(operator) && value.kind === "one")
    return { ...row, operator, value: { kind: "list", items: value.text === "" ? [] : [value.text] } };
  if (!isListOperator(operator) && value.kind === "list" && value.items.length <= 1)
    return { ...row, operator, value: { kind: "one", text: value.items[0] ?? "" } };
  return { ...row, operator };
}

// Builder → text.

const place = { offset: 0, line: 1, column: 1 };
/** Nodes made here have no source; the printer does not read ranges. */
const nowhere: Range = { start: place, end: place };

/** A number as the language writes it, when the text is exactly one (spaces around it aside). */
function numberNode(text: string): Scalar | undefined {
  const trimmed = text.trim();
  const { tokens, errors, comments } = scan(trimmed);
  const token = tokens[0];
  if (!token || tokens.length !== 1 || errors.length > 0 || comments.length > 0 || token.image !== trimmed)
    return undefined;
  const facts = tokenFacts(token);
  if (facts.class !== "value" || facts.value !== "number") return undefined;
  return /^-?\d+$/.test(trimmed)
    ? { kind: "int", digits: trimmed, range: nowhere }
    : { kind: "decimal", text: trimmed, range: nowhere };
}

/** A typed value: a number for a number field when it reads as one, true/false for a bool field, else the text. */
function scalarNode(text: string, type: ReturnType<typeof valueType>): Scalar {
  if (type === "bool" && (text === "true" || text === "false"))
    return { kind: "bool", value: text === "true", range: nowhere };
  if (type === "int" || type === "float") {
    const number = numberNode(text);
    if (number) return number;
  }
  return { kind: "string", value: text, range: nowhere };
}

function rowExpr(row: Row, catalog: Catalog): Comparison {
  const field = catalog.fields.get(row.field);
  const type = field ? valueType(field) : "string";
  const value: Value =
    row.value.kind === "list"
      ? { kind: "list", elements: row.value.items.map((item) => scalarNode(item, type)), range: nowhere }
      : scalarNode(row.value.text, type);
  return {
    kind: "comparison",
    field: { kind: "field", name: row.field, range: nowhere },
    operator: { kind: "operator", op: row.operator, text: row.operator, range: nowhere },
    value,
    range: nowhere,
  };
}

function joined(kind: Join, operands: Expr[]): Expr {
  const flat = operands.flatMap((operand) => (operand.kind === kind ? operand.operands : [operand]));
  return flat.length === 1 ? flat[0]! : { kind, operands: flat, range: nowhere };
}

/** The group as an AST, read as the text is: `and` binds tighter than `or`. Null when it has no rows. */
function groupExpr(group: Group, catalog: Catalog): Expr | null {
  const chains: Expr[][] = [[]];
  group.items.forEach((item, index) => {
    if (index > 0 && group.joins[index - 1] === "or") chains.push([]);
    const expr = item.kind === "row" ? rowExpr(item, catalog) : groupExpr(item, catalog);
    if (expr) chains[chains.length - 1]!.push(expr);
  });
  const ands = chains.filter((chain) => chain.length > 0).map((chain) => joined("and", chain));
  return ands.length === 0 ? null : joined("or", ands);
}

/** The text of the builder's filter, as the formatter writes it. */
export function builderText(group: Group, catalog: Catalog): string {
  const expr = groupExpr(group, catalog);
  return expr ? print(expr) : "";
}

// Text → builder.

class Unshowable extends Error {
  constructor(
    readonly reason: string,
    readonly pushDown = false,
  ) {
    super(reason);
  }
}

const inside = (inner: Range, outer: Range) =>
  inner.start.offset >= outer.start.offset && inner.end.offset <= outer.end.offset;

/** Reads a filter the builder can show exactly (printing what it read gives the filter back), or says why not. */
export function readBuilder(
  filter: FilterSource,
  diagnostics: readonly Diagnostic[],
  catalog: Catalog,
): BuilderReading {
  const syntax = diagnostics.find((d) => d.severity === "error" && /^E0[01]/.test(d.code));
  if (syntax) return unshowable(`the text does not read as a filter: ${located(syntax)}`);
  if (filter.comments.length > 0)
    return unshowable("the builder would drop the text's comments; remove them to use the builder");
  if (!filter.expr) return { ok: true, group: emptyGroup() };
  try {
    const reader = new Reader(catalog, diagnostics);
    return { ok: true, group: reader.sequence(filter.expr) };
  } catch (error) {
    if (error instanceof Unshowable) return unshowable(error.reason, error.pushDown);
    throw error;
  }
}

function unshowable(reason: string, pushDown = false): BuilderReading {
  return { ok: false, reason, pushDown };
}

function located(diagnostic: Diagnostic): string {
  const { line, column } = diagnostic.range.start;
  return `${diagnostic.message} (line ${line}, column ${column})`;
}

class Reader {
  constructor(
    private readonly catalog: Catalog,
    private readonly diagnostics: readonly Diagnostic[],
  ) {}

  /** An expression as the items of one group: an `or` of `and` chains, as the text reads it. */
  sequence(expr: Expr): Group {
    const group = emptyGroup();
    const ors = expr.kind === "or" ? expr.operands : [expr];
    ors.forEach((chain, chainIndex) => {
      const ands = chain.kind === "and" ? chain.operands : [chain];
      ands.forEach((operand, index) => {
        if (group.items.length > 0) group.joins.push(index === 0 && chainIndex > 0 ? "or" : "and");
        group.items.push(this.item(operand));
      });
    });
    return group;
  }

  private item(expr: Expr): Item {
    switch (expr.kind) {
      case "comparison":
        return this.row(expr);
      case "and":
      case "or":
        return this.sequence(expr);
      case "not":
        throw new Unshowable(
          "the builder has no NOT (Logpush's JSON has none either): the filter can be written without it, as its comparisons negated",
          true,
        );
      case "error":
        throw this.problemAt(expr.range, "the text has a part that is no comparison");
    }
  }

  /** Why a part of the text cannot be shown: the diagnostic there, or `otherwise`. */
  private problemAt(range: Range, otherwise: string): Unshowable {
    const diagnostic = this.diagnostics.find((d) => d.severity === "error" && inside(d.range, range));
    return new Unshowable(
      diagnostic
        ? located(diagnostic)
        : `${otherwise} (line ${range.start.line}, column ${range.start.column})`,
    );
  }

  private row(comparison: Comparison): Row {
    const field = this.catalog.fields.get(comparison.field.name);
    if (!field?.filterable)
      throw this.problemAt(
        comparison.field.range,
        `the builder offers no field \`${comparison.field.name}\``,
      );
    const operator = comparison.operator;
    if (operator.kind === "error" || operator.op === null || !operatorAccepts(operator.op, field.type))
      throw this.problemAt(operator.range, "the builder offers no such operator for this field");
    return {
      kind: "row",
      field: field.name,
      operator: operator.op,
      value: this.value(comparison.value, field),
    };
  }

  private value(value: Value, field: FieldInfo): RowValue {
    if (value.kind !== "list") return { kind: "one", text: this.scalar(value, field) };
    const items = value.elements.map((element) => this.scalar(element, field));
    // One line holding nothing reads back as no line: an empty list.
    if (items.length === 1 && items[0] === "")
      throw new Unshowable(
        `a list of one empty text cannot be written one value a line (line ${value.range.start.line}, column ${value.range.start.column})`,
      );
    return { kind: "list", items };
  }

  /** The text of a value that the Value control holds and gives back as the same value. */
  private scalar(value: Scalar, field: FieldInfo): string {
    const type = valueType(field);
    const cannot = () => this.problemAt(value.range, "the builder cannot hold this value");
    switch (value.kind) {
      case "string":
        if (type === "bool" || ((type === "int" || type === "float") && numberNode(value.value)))
          throw cannot();
        if (/[\r\n]/.test(value.value))
          throw new Unshowable(
            `a value holds a line break, which the builder's inputs cannot (line ${value.range.start.line}, column ${value.range.start.column})`,
          );
        return value.value;
      case "int":
        if (type !== "int" && type !== "float") throw cannot();
        return value.digits;
      case "decimal":
        if (type !== "int" && type !== "float") throw cannot();
        return value.text;
      case "bool":
        if (type !== "bool") throw cannot();
        return String(value.value);
      default:
        throw cannot();
    }
  }
}

/** The comparisons of a filter in the order the builder lists its rows. */
export function comparisonsOf(expr: Expr | null): Comparison[] {
  if (!expr) return [];
  switch (expr.kind) {
    case "comparison":
      return [expr];
    case "and":
    case "or":
      return expr.operands.flatMap(comparisonsOf);
    case "not":
      return comparisonsOf(expr.operand);
    case "error":
      return [];
  }
}

/** The rows of a group, depth first: the order of the text's comparisons. */
export function rowsOf(group: Group): Row[] {
  return group.items.flatMap((item) => (item.kind === "row" ? [item] : rowsOf(item)));
}
