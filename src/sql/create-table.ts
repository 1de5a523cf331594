import type { Catalog } from "../catalog/index.js";
import { terminalJson } from "../diagnostics/index.js";
import { columnKind, showsAsIs, tableFields } from "./columns.js";
import { type DialectName, dialects } from "./dialects.js";

/** Options of `createTable`. */
interface TableOptions {
  dialect: DialectName;
  /** The table's name (default: the dataset's). */
  table?: string;
  /** The fields to give columns, in this order (default: every field of the catalog, in its order). */
  fields?: readonly string[];
}

/**
 * The `CREATE TABLE` of a dataset's records, with a column per field typed as the engine's column
 * types say (ClickHouse: a MergeTree ordered by the timestamp field), or why it cannot be written.
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
    const other = lowerNames.get(field.name.toLowerCase());
    if (dialect.caseInsensitiveColumns && other !== undefined)
      return {
        ok: false,
        problem: `${dialect.title}'s column names ignore case: ${terminalJson(other)} and ${terminalJson(field.name)} would be one column`,
      };
    lowerNames.set(field.name.toLowerCase(), field.name);
    columns.push(`  ${dialect.identifier(field.name)} ${dialect.columnTypes[kind]}`);
  }
  return { ok: true, sql: dialect.createTable(dialect.identifier(table), columns, fields) };
}
