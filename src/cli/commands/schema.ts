import { type Catalog, DEFAULT_DATASET, getCatalog } from "../../catalog/index.js";
import { createTable } from "../../sql/index.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { compilerOptionsFrom, withFolderDefaults } from "../compiler-options.js";
import { loadEvalFilter } from "../eval-filter.js";
import { type CliIO, UsageError, UserError } from "../io.js";
import { parseDialect, parseFieldList } from "../table-fields.js";

export const usage = `filterc schema --dialect duckdb|clickhouse [--dataset NAME] [--table NAME] [--fields A,B,...] [FILE]

Prints the CREATE TABLE of a dataset's records for DuckDB or ClickHouse, a column per field with
the catalog's type: NULL where a field is missing, integers exact on 128 bits, timestamps as the
unix nanoseconds a job writes by default, arrays as arrays, objects as JSON (ClickHouse: a
MergeTree ordered by the timestamp field). Logpush's files, as a job with the default output
options delivers them, load into it unchanged with COPY (DuckDB) or INSERT ... FORMAT JSONEachRow
(ClickHouse); filterc sql --columns typed writes a filter's condition over it (docs/sql.md).

The dataset: --dataset, else FILE's # dataset: (a filter), else the nearest filterc.json's, else
${DEFAULT_DATASET}.

Options:
  --dialect D           duckdb or clickhouse
  --dataset NAME        the dataset (default ${DEFAULT_DATASET})
  --catalog FILE        a JSON field catalog for a dataset filterc does not ship
  --table NAME          the table's name (default: the dataset's)
  --fields A,B,...      only these fields' columns, in this order (default: every field)
Exit status: 0 written, 1 a field no column holds exactly or a filter FILE with errors, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    dialect: { type: "string" },
    dataset: { type: "string" },
    catalog: { type: "string" },
    table: { type: "string" },
    fields: { type: "string" },
  });
  const dialect = parseDialect(values.dialect);
  if (values.table === "") throw new UsageError("--table needs a name");
  const fields = parseFieldList(values.fields);
  const catalog = await tableCatalog(values, singleInput(positionals, "schema"), io);
  if (catalog === undefined) return 1;
  const table = createTable(catalog, {
    dialect,
    ...(values.table !== undefined ? { table: values.table } : {}),
    ...(fields !== undefined ? { fields } : {}),
  });
  if (!table.ok) throw new UserError(table.problem);
  io.stdout(table.sql);
  return 0;
}

/** The catalog of the table: the flags', else a filter file's (its directive), else the folder's default. */
async function tableCatalog(
  flags: { dataset?: string | undefined; catalog?: string | undefined },
  file: string | undefined,
  io: CliIO,
): Promise<Catalog | undefined> {
  if (file !== undefined) return (await loadEvalFilter({ ...flags, filter: file }, io, "schema"))?.catalog;
  const options = await withFolderDefaults(io, await compilerOptionsFrom(flags), undefined);
  return options.catalog ?? getCatalog(options.dataset ?? options.defaultDataset ?? DEFAULT_DATASET);
}
