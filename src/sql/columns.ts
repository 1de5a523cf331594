import { type Catalog, type FieldInfo, isTimestampField } from "../catalog/index.js";
import { closestMatch, terminalJson, terminalText } from "../diagnostics/index.js";
import { type DialectName, dialects } from "./dialect.js";

/**
 * Typed tables: the column each catalog type is stored in, one table for `filterc schema`, typed
 * SQL and `query`'s typed read. Every column holds the values Logpush delivers with a job's
 * default output options exactly, and a missing field as NULL (arrays: empty in ClickHouse, whose
 * arrays cannot be NULL; a missing array and an empty one pass and fail the same comparisons).
 */

/** How a field is stored: what typed SQL compares. */
type ColumnKind =
  | "string"
  | "int"
  | "timestamp"
  | "float"
  | "bool"
  | "strings"
  | "ints"
  | "object"
  | "objects";

/**
 * Each kind's column type. Ints are 128 bits: Logpush's ints run from -2^63 to 2^64 - 1, and
 * ClickHouse's JSONEachRow wraps a value past Int64 silently (DuckDB refuses it). Timestamps are
 * unix nanoseconds (the default `timestamp_format`), which Int64 holds and both engines' time
 * functions take. Floats are doubles: exact for decimals of up to 15 significant digits (neither
 * engine's reader keeps more: DuckDB parses a DECIMAL column's values as doubles, ClickHouse cuts
 * their digits). Objects are JSON, kept whole.
 */
const COLUMN_TYPES: Record<ColumnKind, Record<DialectName, string>> = {
  string: { duckdb: "VARCHAR", clickhouse: "Nullable(String)" },
  int: { duckdb: "HUGEINT", clickhouse: "Nullable(Int128)" },
  timestamp: { duckdb: "BIGINT", clickhouse: "Nullable(Int64)" },
  float: { duckdb: "DOUBLE", clickhouse: "Nullable(Float64)" },
  bool: { duckdb: "BOOLEAN", clickhouse: "Nullable(Bool)" },
  strings: { duckdb: "VARCHAR[]", clickhouse: "Array(Nullable(String))" },
  ints: { duckdb: "HUGEINT[]", clickhouse: "Array(Nullable(Int128))" },
  object: { duckdb: "JSON", clickhouse: "Nullable(JSON)" },
  objects: { duckdb: "JSON[]", clickhouse: "Array(JSON)" },
};

/** The column type of a kind in a dialect. */
export const columnType = (kind: ColumnKind, dialect: DialectName): string => COLUMN_TYPES[kind][dialect];

/**
 * The kind of each type, by the type and its documented form (`docType`; a custom catalog may give
 * only the type, which is then its docType too). A type not here has no column that holds it exactly.
 */
const KINDS_BY_TYPE: Record<string, ColumnKind> = {
  "string string": "string",
  "int int": "int",
  "float float": "float",
  "bool bool": "bool",
  "array array": "strings",
  "array array[string]": "strings",
  "array array[int]": "ints",
  "object object": "object",
  "array array[object]": "objects",
};

/** Whether a name shows on a terminal as it is: DuckDB's quoted identifiers have no escapes for the others. */
const showsAsIs = (name: string) => terminalText(name) === name;

/** A field's column kind, or why it has none: a type with no exact column, or a name no identifier writes. */
export function columnKind(field: FieldInfo): ColumnKind | { problem: string } {
  if (!showsAsIs(field.name))
    return { problem: "its name holds a character that would not show on a terminal" };
  if (isTimestampField(field)) return "timestamp";
  const type = `${field.type} ${field.docType}`;
  const kind = Object.hasOwn(KINDS_BY_TYPE, type) ? KINDS_BY_TYPE[type] : undefined;
  return kind ?? { problem: `no column type holds ${terminalJson(field.docType)} exactly` };
}

/** The timestamp field a ClickHouse table is ordered by: the request's start where there is one. */
const ORDER_KEYS = ["EdgeStartTimestamp", "Datetime", "Timestamp"];

function orderKey(fields: readonly FieldInfo[]): FieldInfo | undefined {
  const timestamps = fields.filter(isTimestampField);
  return (
    ORDER_KEYS.map((name) => timestamps.find((field) => field.name === name)).find(Boolean) ??
    timestamps.find((field) => field.name.includes("Start")) ??
    timestamps[0]
  );
}

/** The fields named (default: every field of the catalog, in its order), or why they are no table's columns. */
export function tableFields(
  catalog: Catalog,
  names: readonly string[] | undefined,
): readonly FieldInfo[] | { problem: string } {
  const fields: FieldInfo[] = [];
  for (const name of names ?? [...catalog.fields.keys()]) {
    const field = catalog.fields.get(name);
    if (field === undefined) {
      const near = closestMatch(name, [...catalog.fields.keys()]);
      return {
        problem: `${terminalText(catalog.dataset)} has no field ${terminalJson(name)}${near ? `; did you mean ${terminalJson(near)}?` : ""}`,
      };
    }
    if (fields.includes(field)) return { problem: `the field ${terminalJson(name)} is named twice` };
    fields.push(field);
  }
  if (fields.length === 0) return { problem: "a table needs at least one column" };
  return fields;
}

/** Options of `createTable`. */
interface TableOptions {
  dialect: DialectName;
  /** The table's name (default: the dataset's). */
  table?: string;
  /** The fields to give columns, in this order (default: every field of the catalog, in its order). */
  fields?: readonly string[];
}

/**
 * The `CREATE TABLE` of a dataset's records, with a column per field typed as COLUMN_TYPES says
 * (ClickHouse: a MergeTree ordered by the timestamp field), or why it cannot be written.
 */
export function createTable(
  catalog: Catalog,
  options: TableOptions,
): { ok: true; sql: string } | { ok: false; problem: string } {
  const dialect = dialects[options.dialect];
  const table = options.table ?? catalog.dataset;
  if (!showsAsIs(table))
    return {
      ok: false,
      problem: `the table's name ${terminalJson(table)} holds a character that would not show on a terminal`,
    };
  const fields = tableFields(catalog, options.fields);
  if ("problem" in fields) return { ok: false, problem: fields.problem };
  const columns: string[] = [];
  const lowerNames = new Map<string, string>();
  for (const field of fields) {
    const kind = columnKind(field);
    if (typeof kind !== "string")
      return { ok: false, problem: `the field ${terminalJson(field.name)} has no column: ${kind.problem}` };
    // DuckDB's column names ignore case.
    const other = lowerNames.get(field.name.toLowerCase());
    if (options.dialect === "duckdb" && other !== undefined)
      return {
        ok: false,
        problem: `DuckDB's column names ignore case: ${terminalJson(other)} and ${terminalJson(field.name)} would be one column`,
      };
    lowerNames.set(field.name.toLowerCase(), field.name);
    columns.push(`  ${dialect.identifier(field.name)} ${columnType(kind, options.dialect)}`);
  }
  const create = `CREATE TABLE ${dialect.identifier(table)} (\n${columns.join(",\n")}\n)`;
  if (options.dialect === "duckdb") return { ok: true, sql: `${create};\n` };
  const key = orderKey(fields);
  // The key may be missing from a record: a Nullable key needs the setting.
  const order = key
    ? `ORDER BY ${dialect.identifier(key.name)}\nSETTINGS allow_nullable_key = 1`
    : "ORDER BY tuple()";
  return { ok: true, sql: `${create}\nENGINE = MergeTree\n${order};\n` };
}
