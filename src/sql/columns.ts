import { type Catalog, type FieldInfo, isTimestampField } from "../catalog/index.js";
import { closestMatch, terminalJson, terminalText } from "../diagnostics/index.js";

/**
 * Typed tables: the column each catalog type is stored in, one table for `filterc schema`, typed
 * SQL and `query`'s typed read. Every column holds the values Logpush delivers with a job's
 * default output options exactly, and a missing field as NULL (arrays: empty in ClickHouse, whose
 * arrays cannot be NULL; a missing array and an empty one pass and fail the same comparisons).
 * Ints are 128 bits: Logpush's ints run from -2^63 to 2^64 - 1, and ClickHouse's JSONEachRow wraps
 * a value past Int64 silently (DuckDB refuses it). Timestamps are unix nanoseconds (the default
 * `timestamp_format`), which Int64 holds and both engines' time functions take. Floats are doubles:
 * exact for decimals of up to 15 significant digits (neither engine's reader keeps more: DuckDB
 * parses a DECIMAL column's values as doubles, ClickHouse cuts their digits). Objects are JSON,
 * kept whole. Each engine's types are its module's (src/sql/engines/).
 */

/** How a field is stored: what typed SQL compares; each engine has a column type for each (Dialect's `columnTypes`). */
export type ColumnKind =
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
export const showsAsIs = (name: string) => terminalText(name) === name;

/** A field's column kind, or why it has none: a type with no exact column, or a name no identifier writes. */
export function columnKind(field: FieldInfo): ColumnKind | { problem: string } {
  if (!showsAsIs(field.name))
    return { problem: "its name holds a character that would not show on a terminal" };
  if (isTimestampField(field)) return "timestamp";
  const type = `${field.type} ${field.docType}`;
  const kind = Object.hasOwn(KINDS_BY_TYPE, type) ? KINDS_BY_TYPE[type] : undefined;
  return kind ?? { problem: `no column type holds ${terminalJson(field.docType)} exactly` };
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
