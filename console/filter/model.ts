import type { Catalog, FieldInfo } from "../../src/catalog/index.js";
import type { Diagnostic, Range } from "../../src/diagnostics/index.js";
import { print } from "../../src/print/index.js";
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
} from "../../src/syntax/index.js";

/*
 * The Filter section's builder as data: rows of Field, Operator and Value, in groups that each join
 * all their items one way, AND or OR. A group's items are rows and groups of the other join, so
 * the groups the rows are drawn in are the parentheses of the filter, and of its JSON: a chain that
 * mixes AND and OR is never shown flat. It reads a filter from the parsed source and gives one
 * back as an AST, which the printer writes: the text and the builder never disagree, and no second
 * parser exists. Any page with a filter (a job's, a live tail's) builds on it.
 */

export type Join = "and" | "or";
/** What the Value control holds: one value as typed, or a list (one value a line). */
type RowValue = { kind: "one"; text: string } | { kind: "list"; items: string[] };

/**
 * A comparison. A new row has no field and no value yet (`null`): it is unfinished, drawn but left
 * out of the filter, until its field is chosen and its value typed.
 */
export interface Row {
  kind: "row";
  field: string | null;
  operator: CanonicalOperator | null;
  value: RowValue | null;
}

/**
 * Items joined all one way. A group inside another has at least two items and the other join (a
 * group of its parent's join would be no group: its items are its parent's); the outermost group
 * has any number, and holds one item only if it is a row.
 */
export interface Group {
  kind: "group";
  join: Join;
  items: Item[];
}

export type Item = Row | Group;

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
  return { kind: "group", join: "and", items: [] };
}

/** A new row: no field, no operator, no value, so that nothing is claimed before it is chosen. */
export function newRow(): Row {
  return { kind: "row", field: null, operator: null, value: null };
}

/** Whether a row is in the filter: its field chosen and its value given. */
export function isFinished(
  row: Row,
): row is Row & { field: string; operator: CanonicalOperator; value: RowValue } {
  return row.field !== null && row.operator !== null && row.value !== null;
}

/** A bool field's Value control always holds a value: true until false is chosen. */
const startValue = (field: FieldInfo): RowValue | null =>
  valueType(field) === "bool" ? { kind: "one", text: "true" } : null;

/**
 * The row on another field (`was`: the field it had): its operator kept where the field's type takes
 * it, its value kept as typed, except a bool field's true/false, which was chosen, not typed.
 */
export function withField(row: Row, field: FieldInfo, was: FieldInfo | undefined): Row {
  const operators = operatorsFor(field.type);
  const operator = row.operator && operators.includes(row.operator) ? row.operator : operators[0]!;
  const chosen = was !== undefined && valueType(was) === "bool";
  const value =
    valueType(field) === "bool"
      ? row.value?.kind === "one" && ["true", "false"].includes(row.value.text)
        ? row.value
        : startValue(field)
      : chosen
        ? null
        : row.value;
  return withOperator({ ...row, field: field.name, value }, operator);
}

/** The row with another operator: one value becomes a list of it for `in`, a list of one value one value again. */
export function withOperator(row: Row, operator: CanonicalOperator): Row {
  const { value } = row;
  if (value === null) return { ...row, operator };
  if (isListOperator(operator) && value.kind === "one")
    return { ...row, operator, value: { kind: "list", items: value.text === "" ? [] : [value.text] } };
  if (!isListOperator(operator) && value.kind === "list" && value.items.length <= 1)
    return { ...row, operator, value: { kind: "one", text: value.items[0] ?? "" } };
  return { ...row, operator };
}

// Editing the groups. Each edit keeps the shape `Group` promises, so what is drawn is the filter's
// grouping: the outermost group is edited in place, as the page holds it.

const other = (join: Join): Join => (join === "and" ? "or" : "and");

/** The group that holds `item`, or undefined for the outermost group (or an item not in it). */
export function parentOf(root: Group, item: Item): Group | undefined {
  for (const inner of root.items) {
    if (inner === item) return root;
    if (inner.kind === "group") {
      const found = parentOf(inner, item);
      if (found) return found;
    }
  }
  return undefined;
}

/** Items as they stand in a group of `join`: a group of that same join gives its items instead. */
const spliced = (items: readonly Item[], join: Join): Item[] =>
  items.flatMap((item) => (item.kind === "group" && item.join === join ? item.items : [item]));

/**
 * Puts `replacement` where `group` is: in its parent (a group of the parent's join gives its items
 * there), or, for the outermost group, as the outermost group itself.
 */
function replace(root: Group, group: Group, replacement: Item): void {
  const parent = group === root ? undefined : parentOf(root, group);
  if (!parent) {
    const outermost =
      replacement.kind === "group"
        ? replacement
        : { kind: "group" as const, join: root.join, items: [replacement] };
    root.join = outermost.join;
    root.items = outermost.items;
    return;
  }
  const at = parent.items.indexOf(group);
  parent.items.splice(at, 1, ...spliced([replacement], parent.join));
}

/**
 * Adds an item at the end of `group`, joined with `join`, read left to right as a person reads the
 * rows: when the group joins its items the other way, the items before it are put in a group of
 * their own first, so that `a OR b`, AND `c` is `(a or b) and c`, with the parentheses shown.
 */
export function addItem(root: Group, group: Group, join: Join, item: Item): void {
  if (group.items.length <= 1 || group.join === join) {
    group.join = join;
    group.items.push(...spliced([item], join));
  } else {
    const before: Group = { kind: "group", join: group.join, items: group.items };
    replace(root, group, { kind: "group", join, items: [before, ...spliced([item], join)] });
  }
  const [only] = root.items;
  if (root.items.length === 1 && only!.kind === "group") replace(root, root, only!);
}

/** A group of two new rows, joined the other way than it is joined to the rest. */
export function newGroup(joinedWith: Join): Group {
  return { kind: "group", join: other(joinedWith), items: [newRow(), newRow()] };
}

/**
 * Joins all of a group's items with `join` (one setting a group, however many joins it shows);
 * items and a parent of that join then hold its items directly.
 */
export function setJoin(root: Group, group: Group, join: Join): void {
  if (group.join === join) return;
  replace(root, group, { kind: "group", join, items: spliced(group.items, join) });
}

/** Removes an item; a group left with one item is that item. */
export function removeItem(root: Group, group: Group, index: number): void {
  group.items.splice(index, 1);
  const [only] = group.items;
  if (group.items.length === 1 && (group !== root || only!.kind === "group")) replace(root, group, only!);
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

function rowExpr(row: Row, catalog: Catalog): Comparison | null {
  if (!isFinished(row)) return null;
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

/** The group as an AST, its unfinished rows left out. Null when it has no finished row. */
function groupExpr(group: Group, catalog: Catalog): Expr | null {
  const operands = group.items
    .map((item) => (item.kind === "row" ? rowExpr(item, catalog) : groupExpr(item, catalog)))
    .filter((expr): expr is Expr => expr !== null)
    .flatMap((expr) => (expr.kind === group.join ? expr.operands : [expr]));
  if (operands.length <= 1) return operands[0] ?? null;
  return { kind: group.join, operands, range: nowhere };
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
    const item = reader.item(filter.expr);
    return { ok: true, group: item.kind === "group" ? item : { kind: "group", join: "and", items: [item] } };
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

  /** An expression as a row, or as a group of its join (the parser holds no `and` directly in an `and`). */
  item(expr: Expr): Item {
    switch (expr.kind) {
      case "comparison":
        return this.row(expr);
      case "and":
      case "or":
        return {
          kind: "group",
          join: expr.kind,
          items: spliced(
            expr.operands.map((operand) => this.item(operand)),
            expr.kind,
          ),
        };
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

/** The rows of a group, depth first: the order of the text's comparisons (the finished ones). */
export function rowsOf(group: Group): Row[] {
  return group.items.flatMap((item) => (item.kind === "row" ? [item] : rowsOf(item)));
}
