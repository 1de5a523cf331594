import type { Cond } from "../../check/index.js";
import { dialects, parseLocation, toSql } from "../../sql/index.js";
import { MAX_THREADS, parseCommandArgs, parseCount } from "../args.js";
import { type DuckDBConnection, duckdbFailure, openDuckDB, remoteAccess } from "../duckdb.js";
import { loadEvalFilter } from "../eval-filter.js";
import { type CliIO, UsageError, UserError } from "../io.js";
import { keptStats } from "../kept-stats.js";
import { localFiles } from "../local-files.js";

export const usage = `filterc query (--filter FILE | --expr SOURCE) PATH... [options]

Runs a filter over NDJSON logs (gzip or not) with embedded DuckDB, through the SQL filterc sql
writes (so it keeps exactly the records filterc eval keeps), and prints the matching lines. Each
PATH is a local file or glob, s3://bucket/key, r2://bucket/key or an https URL; globs reach many
files at once (s3://logs/http_requests/20261124/*.log.gz). Use it when eval on one machine is no
longer enough: many files, remote buckets, counts and groups.

Options:
  --filter FILE         the filter: source, or Logpush filter JSON (or a job record holding it)
  --expr SOURCE         the filter source, inline
  --dataset NAME        field catalog to check the filter against (default http_requests)
  --catalog FILE        a JSON field catalog for a dataset filterc does not ship
  --count               print the number of matching lines instead of the lines
  --group-by FIELD      print how many matching lines hold each value of FIELD (most first)
  --stats               also tell the share of lines and of bytes the filter keeps (stderr)
  --threads N           DuckDB's threads (default: every core; at most 256)
Credentials for buckets come from the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
(AWS_SESSION_TOKEN, AWS_REGION) for s3://; R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY and R2_ACCOUNT_ID
for r2://. They are never printed. Needs the optional dependency @duckdb/node-api.
Exit status: 0 ran (also when nothing matched), 1 errors in the filter, paths that match nothing,
unreadable data or missing credentials, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals: paths } = parseCommandArgs(argv, {
    filter: { type: "string" },
    expr: { type: "string" },
    dataset: { type: "string" },
    catalog: { type: "string" },
    count: { type: "boolean" },
    "group-by": { type: "string" },
    stats: { type: "boolean" },
    threads: { type: "string" },
  });
  if ((values.filter === undefined) === (values.expr === undefined))
    throw new UsageError("give the filter with exactly one of --filter FILE and --expr SOURCE");
  if (paths.length === 0)
    throw new UsageError("say which logs to query: PATH... (files, globs, s3:// or r2:// URLs)");
  if ((paths as string[]).includes("-"))
    throw new UsageError("query reads files and URLs, not standard input (use filterc eval)");
  if (values.count && values["group-by"] !== undefined)
    throw new UsageError("give --count or --group-by, not both");
  const threads = parseCount(values.threads, "--threads", 1, MAX_THREADS);
  const locations = paths.map(parseLocation);
  for (const location of locations) if (location.kind === "file") await localFiles(location.path, io.cwd);
  const access = remoteAccess(locations, io.env);
  const loaded = await loadEvalFilter(values, io, "query");
  if (loaded === undefined) return 1;
  const groupBy = values["group-by"];
  const { catalog } = loaded;
  if (groupBy !== undefined && catalog && !catalog.fields.has(groupBy))
    throw new UsageError(`--group-by ${JSON.stringify(groupBy)}: ${catalog.dataset} has no such field`);
  const sql = toSql(loaded.condition, { dialect: "duckdb", from: paths });
  if (!sql.ok) {
    if (sql.problem) throw new UserError(sql.problem);
    throw new UserError("the filter cannot be written as DuckDB SQL (see filterc sql)");
  }
  const connection = await openDuckDB(threads);
  try {
    for (const statement of access.statements) await connection.run(statement);
    const stats = values.stats ? await measure(connection, loaded.condition, paths) : undefined;
    if (stats) io.stderr(`${keptStats(stats.kept, stats.of)}\n`);
    if (values.count) {
      const count = stats?.kept.lines ?? (await all(connection, `SELECT count(*) FROM (${sql.sql})`))[0]![0];
      io.stdout(`${count}\n`);
    } else if (groupBy !== undefined) {
      const value = `json_extract(json, ${dialects.duckdb.string(`$.${JSON.stringify(groupBy)}`)})::VARCHAR`;
      const rows = await all(
        connection,
        `SELECT count(*) AS n, ${value} AS value FROM (${sql.sql}) GROUP BY value ORDER BY n DESC, value NULLS LAST`,
      );
      for (const [n, found] of rows)
        io.stdout(`${n}\t${found === null || found === "null" ? "(missing)" : found}\n`);
    } else {
      const result = await connection.stream(sql.sql);
      for await (const rows of result.yieldRows()) io.stdout(rows.map((row) => `${row[0]}\n`).join(""));
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw duckdbFailure(error, access.secrets);
  } finally {
    connection.closeSync();
  }
  return 0;
}

async function all(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRowsJS();
}

interface Volume {
  lines: number;
  bytes: number;
}

/**
 * The lines and bytes (a line end each) the filter keeps and those of every well-formed record, in
 * one pass over the data (two queries read remote files twice).
 */
async function measure(
  connection: DuckDBConnection,
  condition: Cond | null,
  paths: readonly string[],
): Promise<{ kept: Volume; of: Volume }> {
  const every = toSql(null, { dialect: "duckdb", from: paths }).sql!;
  // The expression over the column of JSON text the SELECT of every record returns.
  const kept = toSql(condition, { dialect: "duckdb" }).sql!;
  const bytes = "strlen(json::VARCHAR) + 1";
  const [row] = await all(
    connection,
    `SELECT count(*) FILTER (WHERE ${kept}), coalesce(sum(${bytes}) FILTER (WHERE ${kept}), 0), ` +
      `count(*), coalesce(sum(${bytes}), 0) FROM (${every})`,
  );
  return {
    kept: { lines: Number(row![0]), bytes: Number(row![1]) },
    of: { lines: Number(row![2]), bytes: Number(row![3]) },
  };
}
