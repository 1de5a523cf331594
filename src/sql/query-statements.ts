import type { Cond } from "../check/index.js";
import type { TimestampReading } from "../eval/index.js";
import type { Location } from "./dialect.js";
import { duckdb } from "./engines/duckdb.js";
import { jsonPointer } from "./record-text.js";
import { toSql } from "./to-sql.js";

/*
 * The DuckDB statements `filterc query` runs around the SELECT `filterc sql --from` prints (toSql)
 * and its typed reads (typed-read.ts): the count, the groups of --group-by and the rows of the
 * groups shown, the measure of --stats, the pass that counts the timestamp values that are no
 * time, and the secrets that let DuckDB read buckets. Each is written here from the SELECTs and
 * expressions of this stage, so that what query runs and what `filterc sql` prints cannot drift;
 * the command only runs them and prints what they answer.
 */

/** The number of rows of `select`. */
export const countOf = (select: string) => `SELECT count(*) FROM (${select})`;

/**
 * The value of `field` --group-by groups the records' JSON text (column `json`) by, as JSON text:
 * a null is a missing value, one group, as the typed read has it.
 */
export const groupValue = (field: string) =>
  `NULLIF(json_extract(json, ${duckdb.string(jsonPointer(field))})::VARCHAR, 'null')`;

/** The table that holds the lines eval keeps for --group-by, in the files it reads for query. */
export const EVAL_KEPT = "filterc_eval_kept";

/** The statement that makes EVAL_KEPT, one JSON column `json`, for the lines eval appends. */
export const createEvalKept = () => `CREATE TEMP TABLE ${EVAL_KEPT} (json JSON)`;

/** The groups by `value` of the records `source` (a FROM item) holds, with topGroups' columns and no timestamp counted. */
const groupsFrom = (value: string, source: string) =>
  `SELECT count(*) AS n, ${value} AS value, 0 AS unreadable, NULL AS example FROM ${source} GROUP BY value`;

/** The groups by `value` of the records `select` returns (as groupsFrom). */
export const groupsOf = (value: string, select: string) => groupsFrom(value, `(${select})`);

/** The groups by `value` of the lines eval kept into EVAL_KEPT (as groupsFrom). */
export const evalKeptGroups = (value: string) => groupsFrom(value, EVAL_KEPT);

/** The groups of `parts` (each as groupsOf writes them) added up by value: one part is itself. */
export const mergedGroups = (parts: readonly string[]) =>
  parts.length === 1
    ? parts[0]!
    : `SELECT sum(n) AS n, value, sum(unreadable) AS unreadable, max(example) AS example FROM (${parts.join(" UNION ALL ")}) GROUP BY value`;

/**
 * The `top` groups with most lines (then by value) of `groups` (columns n, value, and the
 * timestamp values that are no time: their number and a line holding one), each row with the lines
 * of the groups not shown, the number of groups that have lines, and the timestamp columns over all
 * groups (the sum, and the line of the first group that holds one). DuckDB ranks them, and only
 * these rows reach filterc (a group with no line, which only counts timestamps, comes first only
 * when no group has a line).
 */
export function topGroups(groups: string, top: number): string {
  const ranked =
    "SELECT n, value, row_number() OVER (ORDER BY n DESC, value NULLS LAST) AS place, " +
    "count(*) FILTER (WHERE n > 0) OVER () AS groups, sum(n) OVER () AS lines, " +
    "sum(unreadable) OVER () AS unreadable, first_value(example IGNORE NULLS) OVER (ORDER BY n DESC, value " +
    `NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS example FROM (${groups})`;
  return (
    `SELECT n, value, lines - sum(n) OVER () AS rest, groups, unreadable, example ` +
    `FROM (${ranked}) WHERE place <= ${top} AND (n > 0 OR place = 1) ORDER BY place`
  );
}

/**
 * One typed read (typed-read.ts) as the statement query runs: with no `group`, the lines it keeps
 * and those holding a value of another type (`misfit`; none where not given, as the direct read);
 * with one, the groups of topGroups' columns, the misfits as the unreadable column.
 */
export function typedStatement(read: {
  table: string;
  kept: string;
  misfit?: string;
  group: string | undefined;
}): string {
  const misfit = read.misfit ?? "false";
  const records = `SELECT ${read.kept} AS kept, ${misfit} AS misfit${read.group ? `, ${read.group} AS value` : ""} FROM ${read.table}`;
  if (read.group === undefined)
    return `SELECT count(*) FILTER (WHERE kept), count(*) FILTER (WHERE misfit) FROM (${records})`;
  return `SELECT count(*) FILTER (WHERE kept) AS n, value, count(*) FILTER (WHERE misfit) AS unreadable, NULL AS example FROM (${records}) WHERE kept OR misfit GROUP BY value`;
}

/**
 * The measure of --stats in one pass over the records of `from`: the lines the filter keeps and
 * their bytes (a line end each), then those of every well-formed record, then `columns` (an
 * aggregate over the same records, such as UnreadableTimesSql's) when given.
 */
export function measureStatement(
  condition: Cond | null,
  from: readonly Location[],
  timestamps: TimestampReading | undefined,
  columns: string | undefined,
): string {
  const every = toSql(null, { dialect: "duckdb", from }).sql!;
  // The expression over the column of JSON text the SELECT of every record returns.
  const kept = toSql(condition, { dialect: "duckdb", timestamps }).sql!;
  const bytes = "strlen(json::VARCHAR) + 1";
  return (
    `SELECT count(*) FILTER (WHERE ${kept}), coalesce(sum(${bytes}) FILTER (WHERE ${kept}), 0), ` +
    `count(*), coalesce(sum(${bytes}), 0)${columns ? `, ${columns}` : ""} FROM (${every})`
  );
}

/** The SQL of the pass that counts the values of the filter's timestamp fields that are no time. */
export interface UnreadableTimesSql {
  /** The columns an aggregate over the records of `from` adds: the count, and a line holding one. */
  columns: string;
  /** The records the filter keeps, or that hold such values: the line, kept, and the count. */
  rows: string;
  /** The number of records the filter keeps, the count, and a line holding one. */
  count: string;
  /** The groups of the records the filter keeps by `value`, with the counts of topGroups' columns. */
  groups(value: string): string;
}

/**
 * How query counts the values of the filter's timestamp fields that are no time, with the SQL's
 * count (the engines property holds it to eval's), in a pass that reads every record of `from`
 * anyway. Undefined when the filter names no timestamp field.
 */
export function unreadableTimesSql(
  condition: Cond | null,
  from: readonly Location[],
  timestamps: TimestampReading | undefined,
): UnreadableTimesSql | undefined {
  const expression = toSql(condition, { dialect: "duckdb", timestamps });
  if (!expression.ok || expression.unreadableTimes === undefined) return undefined;
  const unreadable = expression.unreadableTimes;
  const every = toSql(null, { dialect: "duckdb", from }).sql!;
  /** Each record, whether the filter keeps it, and how many of its timestamps are no time. */
  const records = `SELECT json, ${expression.sql} AS kept, ${unreadable} AS unreadable FROM (${every})`;
  return {
    columns: `coalesce(sum(${unreadable}), 0), first(json) FILTER (WHERE ${unreadable} > 0)`,
    rows: `SELECT json, kept, unreadable FROM (${records}) WHERE kept OR unreadable > 0`,
    count: `SELECT count(*) FILTER (WHERE kept), coalesce(sum(unreadable), 0), first(json) FILTER (WHERE unreadable > 0) FROM (${records})`,
    groups: (value) =>
      `SELECT count(*) FILTER (WHERE kept) AS n, ${value} AS value, coalesce(sum(unreadable), 0) AS unreadable, ` +
      `first(json) FILTER (WHERE unreadable > 0) AS example FROM (${records}) WHERE kept OR unreadable > 0 GROUP BY value`,
  };
}

/**
 * A value of a `CREATE SECRET` as written: quotes doubled, nothing else escaped (the caller refuses
 * a credential holding a control character). The credential masks use this form too.
 */
export const secretValue = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The secret that lets DuckDB read s3:// buckets with these credentials. */
export function s3Secret(credentials: {
  keyId: string;
  secret: string;
  token: string | undefined;
  region: string;
}): string {
  const { keyId, secret, token, region } = credentials;
  const session = token ? `, SESSION_TOKEN ${secretValue(token)}` : "";
  return `CREATE SECRET filterc_s3 (TYPE s3, KEY_ID ${secretValue(keyId)}, SECRET ${secretValue(secret)}${session}, REGION ${secretValue(region)})`;
}

/** The secret that lets DuckDB read r2:// buckets of `account` with these credentials. */
export function r2Secret(credentials: { keyId: string; secret: string; account: string }): string {
  const { keyId, secret, account } = credentials;
  return `CREATE SECRET filterc_r2 (TYPE r2, KEY_ID ${secretValue(keyId)}, SECRET ${secretValue(secret)}, ACCOUNT_ID ${secretValue(account)})`;
}
