import { type Cond, meaningOrNullArgument } from "../check/index.js";
import { type Diagnostic, expectArgument, isObject, isString } from "../diagnostics/index.js";
import { DEFAULT_TIMESTAMP_READING, TIMESTAMP_READINGS, type TimestampReading } from "../eval/index.js";
import type { Location } from "./dialect.js";
import { type DialectName, dialects } from "./dialects.js";
import { translate } from "./translate.js";
import { translateTyped } from "./typed.js";

/** Options of `toSql`: the dialect, and the column or table the records are in. */
export interface SqlOptions {
  dialect: DialectName;
  /** The column that holds each record's JSON text (default `json`); not used with `from` or typed columns. */
  column?: string;
  /**
   * NDJSON to read (paths or globs, `s3://bucket/key`, `r2://bucket/key` or https URLs, or locations
   * such as local files named exactly): a whole SELECT.
   */
  from?: string | readonly (string | Location)[];
  /** How a number in a timestamp field is read, as eval reads it (default auto). */
  timestamps?: TimestampReading;
  /**
   * How the records are held: `json` (the default), each record's JSON text in `column`; `typed`,
   * a table with a column per field, named as the field and typed as `filterc schema` writes it
   * (NULL: the field is missing). Typed SQL has no `from`.
   */
  columns?: "json" | "typed";
  /** With typed columns: the table's columns, when it has not every field of the dataset. */
  fields?: readonly string[];
}

/** How `toSql` finds a record's fields: in its JSON text, or in typed columns. */
export type ColumnsForm = "json" | "typed";

/** The forms `toSql` writes SQL over. */
export const COLUMNS_FORMS: readonly ColumnsForm[] = ["json", "typed"];

/** What `toSql` returns: the SQL, or the reason the filter has no SQL. */
export type SqlResult =
  | {
      ok: true;
      sql: string;
      /**
       * Without `from`, when the filter names a timestamp field: an integer expression over the same
       * column, how many of a record's values of those fields are no time (eval counts and reports them).
       */
      unreadableTimes?: string;
      diagnostics: Diagnostic[];
    }
  | { ok: false; sql: null; diagnostics: Diagnostic[]; problem?: string };

/** The column name `toSql` expects records in when none is given. */
export const DEFAULT_COLUMN = "json";

/** What `toSql` takes as options: a dialect it knows, a column name, and locations of NDJSON. */
/** A location as `parseLocation` or a caller that expanded a glob writes one. */
const isLocation = (value: unknown): value is Location => {
  if (!isObject(value)) return false;
  switch (value["kind"]) {
    case "file":
      return isString(value["path"]);
    case "local":
      return (
        Array.isArray(value["paths"]) && value["paths"].every(isString) && typeof value["gzip"] === "boolean"
      );
    case "s3":
    case "r2":
      return isString(value["bucket"]) && isString(value["key"]);
    case "https":
      return isString(value["url"]);
    default:
      return false;
  }
};

const isSqlOptions = (value: unknown): value is SqlOptions =>
  isObject(value) &&
  Object.hasOwn(dialects, value["dialect"] as string) &&
  (value["column"] === undefined || isString(value["column"])) &&
  (value["timestamps"] === undefined || TIMESTAMP_READINGS.includes(value["timestamps"] as never)) &&
  (value["columns"] === undefined || COLUMNS_FORMS.includes(value["columns"] as never)) &&
  (value["fields"] === undefined || (Array.isArray(value["fields"]) && value["fields"].every(isString))) &&
  (value["from"] === undefined ||
    isString(value["from"]) ||
    (Array.isArray(value["from"]) && value["from"].every((one) => isString(one) || isLocation(one))));

/**
 * A checked filter as SQL with eval's semantics, `not` meaning its push-down as in the JSON a job
 * runs (null: no filter, every record): without `from`,
 * the boolean expression for a WHERE clause over a column of JSON text; with `from`, the SELECT of
 * the lines of that NDJSON that `filterc eval` keeps. Comparisons the dialect cannot write exactly
 * are error diagnostics, and there is then no SQL; an unreadable `from` is a `problem`.
 */
export function toSql(condition: Cond | null, options: SqlOptions): SqlResult {
  const meaning = meaningOrNullArgument(condition, "toSql", "condition");
  expectArgument(
    options,
    isSqlOptions,
    "toSql",
    "options",
    `{dialect: "duckdb" | "clickhouse", column?, from?, timestamps?: ${TIMESTAMP_READINGS.map((r) => `"${r}"`).join(" | ")}, columns?: "json" | "typed", fields?: string[]}`,
  );
  const dialect = dialects[options.dialect];
  const timestamps = options.timestamps ?? DEFAULT_TIMESTAMP_READING;
  if (options.columns === "typed") {
    if (options.from !== undefined)
      return {
        ok: false,
        sql: null,
        diagnostics: [],
        problem: "typed SQL is over a table you load; from reads JSON text",
      };
    if (meaning === null) return { ok: true, sql: "true", diagnostics: [] };
    const typed = translateTyped(meaning, dialect, timestamps, options.fields);
    return typed.expression === null
      ? { ok: false, sql: null, diagnostics: typed.diagnostics }
      : { ok: true, sql: typed.expression, diagnostics: [] };
  }
  let column = options.column ?? DEFAULT_COLUMN;
  let table: string | undefined;
  if (options.from !== undefined) {
    const from = typeof options.from === "string" ? [options.from] : options.from;
    const source = dialect.lines(from.map((one) => (typeof one === "string" ? parseLocation(one) : one)));
    if ("problem" in source) return { ok: false, sql: null, diagnostics: [], problem: source.problem };
    ({ table, column } = source);
  }
  const translated = meaning && translate(meaning, dialect, timestamps);
  if (translated && translated.expression === null)
    return { ok: false, sql: null, diagnostics: translated.diagnostics };
  const fields = translated?.fields ?? [];
  const where = dialect.recordTest(
    dialect.identifier(column),
    translated?.expression ?? null,
    fields,
    "false",
  );
  if (table !== undefined)
    return {
      ok: true,
      sql: `SELECT ${dialect.identifier(column)} FROM ${table} WHERE ${where}`,
      diagnostics: [],
    };
  const count = translated?.unreadableTimes;
  return {
    ok: true,
    sql: where,
    ...(count ? { unreadableTimes: dialect.recordTest(dialect.identifier(column), count, fields, "0") } : {}),
    diagnostics: [],
  };
}

/** `s3://bucket/key`, `r2://bucket/key`, an http(s) URL, or else a local path or glob. */
export function parseLocation(from: string): Location {
  const bucket = /^(s3|r2):\/\/([^/]+)\/?(.*)$/.exec(from);
  if (bucket) return { kind: bucket[1] as "s3" | "r2", bucket: bucket[2]!, key: bucket[3]! };
  if (/^https?:\/\//.test(from)) return { kind: "https", url: from };
  return { kind: "file", path: from };
}
