import { DEFAULT_DATASET } from "../../catalog/index.js";
import type { Cond, Meaning } from "../../check/index.js";
import { terminalJson, terminalText } from "../../diagnostics/index.js";
import {
  compileLineFilter,
  DEFAULT_TIMESTAMP_READING,
  halfPairEscapesReplaced,
  type TimestampReading,
  topLevelMembers,
} from "../../eval/index.js";
import {
  addTally,
  type EvalCounts,
  emptyTally,
  UnreadableTimes,
  unreadableTimesReport,
} from "../../logs/index.js";
import {
  countOf,
  createEvalKept,
  EVAL_KEPT,
  evalKeptGroups,
  groupsOf,
  groupValue,
  type Location,
  measureStatement,
  mergedGroups,
  readFields,
  type TypedRead,
  topGroups,
  toSql,
  typedRead,
  typedStatement,
  unreadableTimesSql,
} from "../../sql/index.js";
import { MAX_THREADS, parseCommandArgs, parseCount } from "../args.js";
import { type DuckDBConnection, duckdbFailure, openDuckDB, remoteAccess } from "../duckdb.js";
import { type EvalAnswer, evalAnswer } from "../eval-answer.js";
import { loadEvalFilter } from "../eval-filter.js";
import { type CliIO, stdoutWriter, UsageError, UserError } from "../io.js";
import { keptStats } from "../kept-stats.js";
import { readLocations } from "../local-files.js";
import { type LocalRead, readLocalFiles } from "../local-read.js";
import { parseTimestampReading, TIMESTAMPS_USAGE } from "../timestamps-option.js";

/** The groups --group-by prints by default, and at most (each is a line held and printed). */
const DEFAULT_GROUPS = 1000;
const MAX_GROUPS = 1_000_000;

export const usage = `filterc query (--filter FILE | --expr SOURCE) PATH... [options]

Runs a filter over NDJSON logs (gzip or not) with embedded DuckDB, through the SQL filterc sql
writes (so it keeps exactly the records filterc eval keeps), and prints the matching lines. Each
PATH is a local file or glob, s3://bucket/key, r2://bucket/key or an https URL; globs reach many
files at once (s3://logs/http_requests/20261124/*.log.gz). Use it when eval on one machine is no
longer enough: many files, remote buckets, counts and groups.

Options:
  --filter FILE         the filter: source, or Logpush filter JSON (or a job record holding it)
  --expr SOURCE         the filter source, inline
  --dataset NAME        field catalog to check the filter against (default ${DEFAULT_DATASET})
  --catalog FILE        a JSON field catalog for a dataset filterc does not ship
  --count               print the number of matching lines instead of the lines
  --group-by FIELD      print how many matching lines hold each value of FIELD (most first)
  --top N               with --group-by, the N values most lines hold, then one line for the rest
                        (default ${DEFAULT_GROUPS}; at most ${MAX_GROUPS})
  --stats               also tell the share of lines and of bytes the filter keeps (stderr)
  --threads N           DuckDB's threads (default: every core; at most ${MAX_THREADS})
${TIMESTAMPS_USAGE}
Credentials for buckets come from the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
(AWS_SESSION_TOKEN, AWS_REGION) for s3://; R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY and R2_ACCOUNT_ID
for r2://. They are never printed. Needs the optional package @duckdb/node-api beside filterc;
without it, query prints the command that installs it for the way filterc was installed.
Exit status: 0 ran (also when nothing matched), 1 errors in the filter, paths that match nothing,
unreadable data, a damaged gzip file (what came before the damage is read) or missing
credentials, 2 usage.`;

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
    timestamps: { type: "string" },
    top: { type: "string" },
  });
  if ((values.filter === undefined) === (values.expr === undefined))
    throw new UsageError("give the filter with exactly one of --filter FILE and --expr SOURCE");
  if (paths.length === 0)
    throw new UsageError("say which logs to query: PATH... (files, globs, s3:// or r2:// URLs)");
  if ((paths as string[]).includes("-"))
    throw new UsageError("query reads files and URLs, not standard input (use filterc eval)");
  if (values.count && values["group-by"] !== undefined)
    throw new UsageError("give --count or --group-by, not both");
  if (values.top !== undefined && values["group-by"] === undefined)
    throw new UsageError("--top says how many groups --group-by prints: give --group-by FIELD");
  const top = parseCount(values.top, "--top", 1, MAX_GROUPS) ?? DEFAULT_GROUPS;
  const threads = parseCount(values.threads, "--threads", 1, MAX_THREADS);
  const timestamps = parseTimestampReading(values.timestamps);
  const locations = await readLocations(paths, io.cwd);
  const access = remoteAccess(locations, io.env);
  const loaded = await loadEvalFilter(values, io, "query");
  if (loaded === undefined) return 1;
  const groupBy = values["group-by"];
  const { catalog } = loaded;
  if (groupBy !== undefined && catalog && !catalog.fields.has(groupBy))
    throw new UsageError(`--group-by ${terminalJson(groupBy)}: ${catalog.dataset} has no such field`);
  const sql = toSql(loaded.meaning, { dialect: "duckdb", from: locations, timestamps });
  if (!sql.ok) {
    if (sql.problem) throw new UserError(sql.problem);
    throw new UserError("the filter cannot be written as DuckDB SQL (see filterc sql)");
  }
  const times = timesOf(loaded.meaning, locations, timestamps);
  const typedSql =
    (values.count || groupBy !== undefined) && !values.stats && !times && loaded.meaning !== null
      ? typedRead(loaded.meaning, {
          from: locations,
          timestamps: timestamps ?? DEFAULT_TIMESTAMP_READING,
          groupBy,
        })
      : undefined;
  const connection = await openDuckDB(threads);
  // Read here beside DuckDB's read, which says nothing of a gzip file cut short and reads some
  // lines otherwise than eval.
  const local = readLocalFiles(locations, io.cwd, {
    fields: readFields(loaded.meaning, groupBy, typedSql),
    typed: typedSql !== undefined,
    bytes: values.stats === true,
  });
  local.catch(() => undefined);
  const reportDamage = async () => {
    const { damage } = await local;
    for (const text of damage) io.stderr(`filterc query: ${terminalText(text)}\n`);
    return damage.length;
  };
  try {
    for (const statement of access.statements) await connection.run(statement);
    const typed = typedSql && (await readTyped(connection, typedSql, local, top));
    if (typed) {
      if (values.count) io.stdout(`${typed.count}\n`);
      else printGroups(typed.groups!, io);
      if (typed.misfits > 0) io.stderr(`filterc query: ${misfitReport(typed.misfits)}\n`);
      return (await reportDamage()) > 0 ? 1 : 0;
    }
    // The files DuckDB reads otherwise than eval are read by eval; DuckDB reads the others.
    const byEval = (await local.catch(() => undefined))?.byEval ?? [];
    const from = withoutFiles(locations, byEval);
    const duck = from.length > 0;
    const fromSql = duck ? toSql(loaded.meaning, { dialect: "duckdb", from, timestamps }).sql! : undefined;
    const times = timesOf(loaded.meaning, duck ? from : locations, timestamps);
    const evaluated = await evalPart(connection, byEval, io, {
      condition: loaded.meaning,
      timestamps,
      lines: !values.count && groupBy === undefined,
      groupBy,
    });
    // Only eval's part has line numbers: places beside DuckDB's part would not be the first ones.
    if (times && evaluated)
      addTally(times.tally, duck ? { ...evaluated.times.tally, first: [] } : evaluated.times.tally, 0);
    const stats = values.stats
      ? plus(
          duck ? await measure(connection, loaded.meaning, from, timestamps, times) : none(),
          evaluated?.counts,
        )
      : undefined;
    if (stats) io.stderr(`${keptStats(stats.kept, stats.of)}\n`);
    /** The timestamp values that are no time are counted in the pass below, unless --stats counted them. */
    const counting = stats === undefined ? times : undefined;
    if (values.count) {
      const count =
        stats?.kept.lines ??
        (!duck
          ? 0
          : Number(
              counting ? await counting.count(connection) : (await all(connection, countOf(fromSql!)))[0]![0],
            )) + (evaluated?.counts.matched ?? 0);
      io.stdout(`${count}\n`);
    } else if (groupBy !== undefined) {
      const value = groupValue(groupBy);
      const parts = [
        ...(!duck ? [] : [counting ? counting.sql.groups(value) : groupsOf(value, fromSql!)]),
        ...(evaluated ? [evalKeptGroups(value)] : []),
      ];
      const rows = await all(connection, topGroups(mergedGroups(parts), top));
      if (counting) counting.add(Number(rows[0]?.[4] ?? 0), (rows[0]?.[5] ?? null) as string | null);
      printGroups(rows, io);
    } else if (duck) {
      const result = await connection.stream(counting ? counting.sql.rows : fromSql!);
      for await (const rows of result.yieldRows()) {
        if (!counting) io.stdout(rows.map((row) => `${row[0]}\n`).join(""));
        else {
          io.stdout(rows.flatMap((row) => (row[1] ? [`${row[0]}\n`] : [])).join(""));
          for (const row of rows) counting.add(Number(row[2]), row[0] as string);
        }
      }
    }
    const report = times && unreadableTimesReport(times.tally, byEval.length > 1);
    if (report) io.stderr(`filterc query: ${report}\n`);
    return (await reportDamage()) > 0 ? 1 : 0;
  } catch (error) {
    // DuckDB stops at bytes after a gzip file's last member: the damage says what they are.
    await reportDamage().catch(() => 0);
    if (error instanceof UserError) throw error;
    throw duckdbFailure(error, access.secrets);
  } finally {
    connection.closeSync();
  }
}

/**
 * eval's part of the answer: the filter over the files DuckDB reads otherwise (undefined when
 * there are none), printing the lines it keeps (`lines`) or, with `groupBy`, putting them in
 * EVAL_KEPT, each as DuckDB then reads it as eval does (see groupedRecord).
 */
async function evalPart(
  connection: DuckDBConnection,
  files: readonly string[],
  io: CliIO,
  options: {
    condition: Meaning | null;
    timestamps: TimestampReading | undefined;
    lines: boolean;
    groupBy: string | undefined;
  },
): Promise<EvalAnswer | undefined> {
  if (files.length === 0) return undefined;
  const { condition, timestamps, lines, groupBy } = options;
  if (groupBy === undefined)
    return evalAnswer(files, io.cwd, condition, timestamps, lines ? stdoutWriter(io) : undefined);
  await connection.run(createEvalKept());
  const appender = await connection.createAppender(EVAL_KEPT);
  try {
    return await evalAnswer(files, io.cwd, condition, timestamps, async (bytes) => {
      for (const line of bytes.toString("utf8").split("\n")) {
        if (line === "") continue;
        appender.appendVarchar(groupedRecord(line, groupBy));
        appender.endRow();
      }
    });
  } finally {
    appender.closeSync();
  }
}

/**
 * A line eval keeps, as DuckDB reads its `field` as eval does: escapes of half a surrogate pair as
 * U+FFFD's (the SQL's reading; DuckDB refuses them), and a field given twice as its last value.
 */
function groupedRecord(line: string, field: string): string {
  const text = halfPairEscapesReplaced(line);
  const key = JSON.stringify(field);
  if (!text.includes("\\") && text.indexOf(key) === text.lastIndexOf(key)) return text;
  const last = topLevelMembers(text).findLast((member) => member.key === field);
  return last === undefined ? "{}" : `{${key}:${last.value}}`;
}

/** The locations without the local `files`. */
function withoutFiles(locations: readonly Location[], files: readonly string[]): Location[] {
  return locations.flatMap((location): Location[] => {
    if (location.kind !== "local") return [location];
    const paths = location.paths.filter((path) => !files.includes(path));
    return paths.length === 0 ? [] : [{ ...location, paths }];
  });
}

/** The rows of topGroups: each group's lines and value, then one line for the groups not shown. */
function printGroups(rows: unknown[][], io: CliIO): void {
  const shown = rows.filter((row) => Number(row[0]) > 0);
  for (const [n, found] of shown)
    io.stdout(`${n}\t${found === null ? "(missing)" : terminalText(String(found))}\n`);
  const more = Number(rows[0]?.[3] ?? 0) - shown.length;
  if (more > 0) io.stdout(`${rows[0]![2]}\t(${more} more value${more === 1 ? "" : "s"})\n`);
}

/** What query says of the lines whose values the typed read found of another type. */
const misfitReport = (lines: number) =>
  `${lines} line${lines === 1 ? "" : "s"} held a value of another type than the catalog gives its field; ${lines === 1 ? "it was" : "they were"} judged as filterc eval judges ${lines === 1 ? "it" : "them"}`;

type TypedAnswer = { count: unknown; groups: unknown[][] | undefined; misfits: number };

/**
 * The count, or the groups (topGroups' rows), of the typed reads, with the number of lines holding
 * a value of another type: the direct read's where the check of the lines found every value of its
 * kind (then none), else the fitted read's. Undefined when the JSON-text SELECT must answer
 * instead: DuckDB's reader failed on a line (malformed, no object, a key it reads twice), or a line
 * of the files may be JSON the reader takes and JSON.parse refuses (see LocalRead.strict); the
 * SELECT tests each line as eval.
 */
async function readTyped(
  connection: DuckDBConnection,
  read: TypedRead,
  local: Promise<LocalRead>,
  top: number,
): Promise<TypedAnswer | undefined> {
  const direct = read.direct && (await typedAnswer(connection, read.direct, top));
  const check = await local.catch(() => undefined);
  if (!check?.strict || check.byEval.length > 0) return undefined;
  if (direct && check.misfits === 0) return direct;
  return typedAnswer(connection, read, top);
}

/** The answer of one typed read; undefined when DuckDB's reader failed. */
async function typedAnswer(
  connection: DuckDBConnection,
  read: { table: string; kept: string; misfit?: string; group: string | undefined },
  top: number,
): Promise<TypedAnswer | undefined> {
  try {
    if (read.group === undefined) {
      const [row] = await all(connection, typedStatement(read));
      return { count: row![0], groups: undefined, misfits: Number(row![1]) };
    }
    const rows = await all(connection, topGroups(typedStatement(read), top));
    return { count: undefined, groups: rows, misfits: Number(rows[0]?.[4] ?? 0) };
  } catch {
    return undefined;
  }
}

async function all(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await connection.runAndReadAll(sql)).getRowsJS();
}

interface Volume {
  lines: number;
  bytes: number;
}

const none = () => ({ kept: { lines: 0, bytes: 0 }, of: { lines: 0, bytes: 0 } });

/** DuckDB's measure with eval's counts of the files it read added (see eval's --stats). */
function plus(measured: { kept: Volume; of: Volume }, counts: EvalCounts | undefined) {
  if (counts === undefined) return measured;
  const { kept, of } = measured;
  return {
    kept: { lines: kept.lines + counts.matched, bytes: kept.bytes + counts.matchedBytes },
    of: { lines: of.lines + counts.lines - counts.malformed, bytes: of.bytes + counts.bytes },
  };
}

/**
 * The lines and bytes (a line end each) the filter keeps and those of every well-formed record, in
 * one pass over the data (two queries read remote files twice), which also counts the timestamps
 * that are no time.
 */
async function measure(
  connection: DuckDBConnection,
  condition: Cond | null,
  locations: readonly Location[],
  timestamps: TimestampReading | undefined,
  times: QueryTimes | undefined,
): Promise<{ kept: Volume; of: Volume }> {
  const [row] = await all(connection, measureStatement(condition, locations, timestamps, times?.sql.columns));
  if (times) times.add(Number(row![4]), row![5] as string | null);
  return {
    kept: { lines: Number(row![0]), bytes: Number(row![1]) },
    of: { lines: Number(row![2]), bytes: Number(row![3]) },
  };
}

type QueryTimes = NonNullable<ReturnType<typeof timesOf>>;

/**
 * How query counts the values of the filter's timestamp fields that are no time, in a pass that
 * reads every record anyway: with the SQL's count (the engines property holds it to eval's), and one
 * line holding such a value, which eval's filter reads again to name the field and the value.
 * Undefined when the filter names no timestamp field.
 */
function timesOf(
  condition: Cond | null,
  locations: readonly Location[],
  reading: TimestampReading | undefined,
) {
  const sql = unreadableTimesSql(condition, locations, reading);
  if (sql === undefined) return undefined;
  const tally = emptyTally();
  return {
    tally,
    sql,
    add(count: number, line: string | null) {
      if (count === 0 || line === null) return;
      tally.count += count;
      if (tally.example !== undefined) return;
      const first = new UnreadableTimes();
      compileLineFilter(condition, { timestamps: reading, onUnreadableTime: first.note })(line);
      tally.example = first.tally.example;
    },
    /** The number of records the filter keeps, counting as it goes. */
    async count(connection: DuckDBConnection): Promise<unknown> {
      const [row] = await all(connection, this.sql.count);
      this.add(Number(row![1]), row![2] as string | null);
      return row![0];
    },
  };
}
