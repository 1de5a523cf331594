import { type Cond, toNegationNormalForm } from "../check/index.js";
import type { Diagnostic } from "../diagnostics/index.js";
import { type DialectName, dialects, type Location } from "./dialect.js";
import { translate } from "./translate.js";

export interface SqlOptions {
  dialect: DialectName;
  /** The column that holds each record's JSON text (default `json`); not used with `from`. */
  column?: string;
  /** NDJSON to read (paths or globs, `s3://bucket/key`, `r2://bucket/key` or https URLs): a whole SELECT. */
  from?: string | readonly string[];
}

export type SqlResult =
  | { ok: true; sql: string; diagnostics: Diagnostic[] }
  | { ok: false; sql: null; diagnostics: Diagnostic[]; problem?: string };

/** The column name `toSql` expects records in when none is given. */
export const DEFAULT_COLUMN = "json";

/**
 * A checked filter as SQL with eval's semantics, `not` meaning its push-down as in the JSON a job
 * runs (null: no filter, every record): without `from`,
 * the boolean expression for a WHERE clause over a column of JSON text; with `from`, the SELECT of
 * the lines of that NDJSON that `filterc eval` keeps. Comparisons the dialect cannot write exactly
 * are error diagnostics, and there is then no SQL; an unreadable `from` is a `problem`.
 */
export function toSql(condition: Cond | null, options: SqlOptions): SqlResult {
  const dialect = dialects[options.dialect];
  let column = options.column ?? DEFAULT_COLUMN;
  let table: string | undefined;
  if (options.from !== undefined) {
    const from = typeof options.from === "string" ? [options.from] : options.from;
    const source = dialect.lines(from.map(parseLocation));
    if ("problem" in source) return { ok: false, sql: null, diagnostics: [], problem: source.problem };
    ({ table, column } = source);
  }
  const translated = condition && translate(toNegationNormalForm(condition), dialect, column);
  if (translated && translated.expression === null)
    return { ok: false, sql: null, diagnostics: translated.diagnostics };
  const where = dialect.record(column, translated?.expression ?? null, translated?.fields ?? []);
  const sql =
    table === undefined ? where : `SELECT ${dialect.identifier(column)} FROM ${table} WHERE ${where}`;
  return { ok: true, sql, diagnostics: [] };
}

/** `s3://bucket/key`, `r2://bucket/key`, an http(s) URL, or else a local path or glob. */
export function parseLocation(from: string): Location {
  const bucket = /^(s3|r2):\/\/([^/]+)\/?(.*)$/.exec(from);
  if (bucket) return { kind: bucket[1] as "s3" | "r2", bucket: bucket[2]!, key: bucket[3]! };
  if (/^https?:\/\//.test(from)) return { kind: "https", url: from };
  return { kind: "file", path: from };
}
