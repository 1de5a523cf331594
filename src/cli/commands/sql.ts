import { DEFAULT_DATASET } from "../../catalog/index.js";
import { terminalJson, terminalText } from "../../diagnostics/index.js";
import { COLUMNS_FORMS, type ColumnsForm, DEFAULT_COLUMN, tableFields, toSql } from "../../sql/index.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { reportDiagnostics } from "../diagnostics-output.js";
import { loadEvalFilter } from "../eval-filter.js";
import { type CliIO, UsageError, UserError } from "../io.js";
import { readLocations } from "../local-files.js";
import { parseDialect, parseFieldList } from "../table-fields.js";
import { parseTimestampReading, TIMESTAMPS_USAGE } from "../timestamps-option.js";

export const usage = `filterc sql --dialect duckdb|clickhouse [--from PATH] [FILE|-] [options]
filterc sql --dialect duckdb|clickhouse --columns typed [--fields A,B,...] [FILE|-] [options]

Writes a filter (source, or Logpush filter JSON) as SQL that keeps exactly the records filterc eval
keeps: missing and null fields, numeric strings, 64-bit integers, arrays and case-sensitive strings
as eval reads them (docs/sql.md). Records are read as JSON text with the engine's JSON functions,
never through inferred column types; or, with --columns typed, from a table of typed columns as
filterc schema writes it (NULL is a missing field).

Without --from: the boolean expression for a WHERE clause over a column holding each record's JSON
text (--column, default ${DEFAULT_COLUMN}; DuckDB: VARCHAR or JSON, ClickHouse: String).
With --from: a complete SELECT of the matching lines of that NDJSON (gzip or not): a local path or
glob (it must match a file; filterc expands it and names each file, gzip or not as its first bytes
say), s3://bucket/key, r2://bucket/key (DuckDB), or an https URL.

Options:
  --dialect D           duckdb or clickhouse
  --from PATH           read the records from there: print a whole SELECT
  --column NAME         the column of JSON text (without --from; default ${DEFAULT_COLUMN})
  --columns FORM        json (the default): each record's JSON text; typed: a column per field
  --fields A,B,...      with --columns typed: the table's columns (default: every field)
  --dataset NAME        field catalog to check against (default ${DEFAULT_DATASET})
  --catalog FILE        a JSON field catalog for a dataset filterc does not ship
${TIMESTAMPS_USAGE}
Exit status: 0 written, 1 errors in the filter, a comparison the dialect cannot write exactly or a
field the table has no column for, or --from naming nothing readable, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    dialect: { type: "string" },
    from: { type: "string" },
    column: { type: "string" },
    columns: { type: "string" },
    fields: { type: "string" },
    dataset: { type: "string" },
    catalog: { type: "string" },
    timestamps: { type: "string" },
  });
  const dialect = parseDialect(values.dialect);
  if (values.from !== undefined && values.column !== undefined)
    throw new UsageError("--column names your table's column; with --from the SELECT reads the lines itself");
  if (values.column === "") throw new UsageError("--column needs a name");
  // An identifier has no escapes in DuckDB: the SQL would carry the character raw to the terminal.
  if (values.column !== undefined && terminalText(values.column) !== values.column)
    throw new UsageError(
      `--column ${terminalJson(values.column)} holds a character that would not show on a terminal`,
    );
  const columns = values.columns ?? "json";
  if (!COLUMNS_FORMS.includes(columns as ColumnsForm))
    throw new UsageError(`--columns takes ${COLUMNS_FORMS.join(" or ")}, not ${JSON.stringify(columns)}`);
  const typed = columns === "typed";
  if (typed && values.from !== undefined)
    throw new UsageError(
      "--columns typed writes the condition over a table you load; --from reads JSON text",
    );
  if (typed && values.column !== undefined)
    throw new UsageError("--column names the column of JSON text; a typed table has a column per field");
  if (!typed && values.fields !== undefined)
    throw new UsageError("--fields names a typed table's columns: give --columns typed");
  const fields = parseFieldList(values.fields);
  const timestamps = parseTimestampReading(values.timestamps);
  const filter = singleInput(positionals, "sql") ?? "-";
  const from = values.from === undefined ? undefined : await readLocations([values.from], io.cwd);
  const loaded = await loadEvalFilter(
    { filter, dataset: values.dataset, catalog: values.catalog },
    io,
    "sql",
  );
  if (loaded === undefined) return 1;
  if (fields !== undefined && loaded.catalog !== undefined) {
    const known = tableFields(loaded.catalog, fields);
    if ("problem" in known) throw new UsageError(`--fields: ${known.problem}`);
  }
  const result = toSql(loaded.meaning, {
    dialect,
    timestamps,
    ...(typed ? { columns: "typed" as const } : {}),
    ...(fields !== undefined ? { fields } : {}),
    ...(values.column !== undefined ? { column: values.column } : {}),
    ...(from !== undefined ? { from } : {}),
  });
  if (!result.ok) {
    if (result.problem) throw new UserError(result.problem);
    reportDiagnostics(io, result.diagnostics, loaded.input.text, loaded.input.name);
    return 1;
  }
  io.stdout(`${result.sql}\n`);
  return 0;
}
