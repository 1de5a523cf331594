import type { Meaning } from "../check/index.js";
import { terminalText } from "../diagnostics/index.js";
import type { CheckedField, ColumnValueKind, KindedField, TimestampReading } from "../eval/index.js";
import { columnKind } from "./columns.js";
import type { Location } from "./dialect.js";
import { duckdb } from "./engines/duckdb.js";
import { translate } from "./translate.js";
import { translateTyped } from "./typed.js";

/**
 * `filterc query`'s columnar reads, each parsing a line once. The direct one reads each field the
 * filter names in its column's type, and the filter is the typed condition (typed.ts) over the
 * columns: as fast as a query typed by hand, and exact where every value is of its column's kind,
 * which query's own check of the lines tells (compileKindCheck). Where one is not, the fitted read
 * takes each field into a JSON column (the value's JSON as it was, not converted), and the filter is
 * the typed condition over the values where each fits its field's column type, and eval's semantics
 * over the values' JSON (translate.ts, over an object of those fields) where one does not. Both skip
 * the per-line JSON functions of the JSON-text SELECT, which cost ten times the read
 * (bench/RESULTS.md, "query reads typed", "query reads the columns typed").
 */

/** A field's value as text: the JSON DuckDB wrote back for it (NULL: missing or null). */
const json = (name: string) => `(${duckdb.identifier(name)}::VARCHAR)`;

/**
 * The kinds the read compares typed: whether a value's JSON fits the column type, and the typed
 * value of one that does. DuckDB writes a value back canonically (a string escapes only `"`, `\`
 * and controls; an integer keeps its text, and a number with a point or an exponent is written as
 * a double, `5.03e2` as `503.0`), so a string's text without a backslash is its content between the
 * quotes, and an integer's text holds no point or exponent.
 */
const FITS: Record<ColumnValueKind, { fits(text: string): string; value(text: string): string }> = {
  string: {
    fits: (text) => `starts_with(${text}, '"')`,
    value: (text) =>
      `CASE WHEN contains(${text}, '\\') THEN json_extract_string(${text}, '$') ELSE ${text}[2:-2] END`,
  },
  int: {
    fits: (text) => `TRY_CAST(${text} AS HUGEINT) IS NOT NULL AND NOT regexp_matches(${text}, '[.eE]')`,
    value: (text) => `TRY_CAST(${text} AS HUGEINT)`,
  },
  bool: {
    fits: (text) => `${text} IN ('true', 'false')`,
    value: (text) => `(${text} = 'true')`,
  },
};

/** The SQL of query's typed reads; see the file's comment. */
export interface TypedRead {
  /** The fields the filter compares and their columns' kinds, for the check of the lines. */
  fields: KindedField[];
  /**
   * The direct read (its `kept` and `group` over `table` as below): undefined where the group-by
   * field is an int the filter compares, whose JSON text a typed column does not keep.
   */
  direct: { table: string; kept: string; group: string | undefined } | undefined;
  /** The fitted read: a JSON column per field the filter names, and the group-by field. */
  table: string;
  /** Whether the filter keeps the row. */
  kept: string;
  /** Whether a value the filter compares is of another type than its field's column. */
  misfit: string;
  /** The group-by field's value as JSON text (NULL: missing or null), as `json_extract` writes it. */
  group: string | undefined;
}

/**
 * The typed read of the filter over `from`, grouping by `groupBy` when given; undefined where the
 * filter takes the JSON-text SELECT: a field of a kind the read does not compare typed (timestamps,
 * floats, arrays), names DuckDB's columns cannot tell apart or write, a comparison with no exact
 * typed form.
 */
export function typedRead(
  meaning: Meaning,
  options: { from: readonly Location[]; timestamps: TimestampReading; groupBy?: string },
): TypedRead | undefined {
  const kinds = new Map<string, ColumnValueKind>();
  for (const field of leafFields(meaning)) {
    const kind = columnKind(field);
    if (typeof kind !== "string" || !Object.hasOwn(FITS, kind)) return undefined;
    kinds.set(field.name, kind as ColumnValueKind);
  }
  const names = [...kinds.keys()];
  if (options.groupBy !== undefined && !kinds.has(options.groupBy)) {
    // As columnKind asks of the filter's fields: a name DuckDB's identifiers write as it is.
    if (terminalText(options.groupBy) !== options.groupBy) return undefined;
    names.push(options.groupBy);
  }
  if (duckdb.caseInsensitiveColumns && new Set(names.map((name) => name.toLowerCase())).size < names.length)
    return undefined;
  const typed = translateTyped(meaning, duckdb, options.timestamps, undefined, (name) =>
    FITS[kinds.get(name)!].value(json(name)),
  );
  const direct = translateTyped(meaning, duckdb, options.timestamps, undefined);
  const exact = translate(meaning, duckdb, options.timestamps);
  if (typed.expression === null || direct.expression === null || exact.expression === null) return undefined;
  const misfit = [...kinds]
    .map(([name, kind]) => `(${json(name)} IS NOT NULL AND NOT (${FITS[kind].fits(json(name))}))`)
    .join(" OR ");
  // The JSON text of the fields the filter reads, which eval's semantics test as a record.
  const record = `json_object(${exact.fields.map((name) => `${duckdb.string(name)}, ${duckdb.identifier(name)}`).join(", ")})`;
  const groupKind = options.groupBy === undefined ? undefined : kinds.get(options.groupBy);
  const directRead = duckdb.fieldsRead(
    options.from,
    names.map((name) => [name, kinds.has(name) ? duckdb.columnTypes[kinds.get(name)!] : "JSON"]),
  );
  const fittedRead = duckdb.fieldsRead(
    options.from,
    names.map((name) => [name, "JSON"]),
  );
  if ("problem" in directRead || "problem" in fittedRead) return undefined;
  return {
    fields: [...kinds].map(([name, kind]) => ({ name, kind })),
    direct:
      groupKind === "int"
        ? undefined
        : {
            table: directRead.table,
            kept: direct.expression,
            // A string's or a bool's JSON as DuckDB writes it back, as the JSON column holds it.
            group:
              options.groupBy === undefined
                ? undefined
                : groupKind === undefined
                  ? json(options.groupBy)
                  : `(to_json(${duckdb.identifier(options.groupBy)})::VARCHAR)`,
          },
    table: fittedRead.table,
    kept: `CASE WHEN ${misfit} THEN ${duckdb.recordTest(record, exact.expression, exact.fields, "false")} ELSE ${typed.expression} END`,
    misfit,
    group: options.groupBy === undefined ? undefined : json(options.groupBy),
  };
}

/**
 * The fields query's SQL reads of a record (those the filter compares, and the group-by field), for
 * its check of the lines: the kinds the typed `read` reads them in, and which compare as numbers.
 */
export function readFields(
  meaning: Meaning | null,
  groupBy: string | undefined,
  read: TypedRead | undefined,
): CheckedField[] {
  const fields = new Map<string, CheckedField>();
  for (const field of meaning ? leafFields(meaning) : []) {
    const numeric =
      field.type === "int" ||
      field.type === "float" ||
      (field.type === "array" && field.elementType === "int");
    fields.set(field.name, {
      name: field.name,
      numeric: numeric || fields.get(field.name)?.numeric === true,
    });
  }
  if (groupBy !== undefined && !fields.has(groupBy)) fields.set(groupBy, { name: groupBy });
  for (const { name, kind } of read?.fields ?? []) fields.get(name)!.kind = kind;
  return [...fields.values()];
}

function* leafFields(meaning: Meaning): Generator<Extract<Meaning, { kind: "leaf" }>["field"]> {
  if (meaning.kind === "leaf") yield meaning.field;
  else for (const operand of meaning.operands) yield* leafFields(operand);
}
