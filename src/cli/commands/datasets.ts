import {
  type Catalog,
  datasetNames,
  datasetScopes,
  type FieldInfo,
  getCatalog,
  knownDatasets,
  SCOPES,
  type ScopeKind,
} from "../../catalog/index.js";
import { DATASETS_HELP, parseCommandArgs } from "../args.js";
import { type CliIO, UsageError } from "../io.js";

export const usage = `filterc datasets [--scope zone|account] [--json]
filterc datasets NAME [--json]

Without NAME: every Logpush dataset filterc knows, with the scopes its jobs live in (zone,
account or both) and its number of fields. With NAME: the dataset's fields, with their type, the
element type of arrays, whether the field is deprecated and whether a filter may use it.

Options:
  --scope S   only the datasets of one scope (zone or account)
  --json      machine-readable output
Exit status: 0 success, 2 usage (an unknown dataset or scope).`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    scope: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 1)
    throw new UsageError(`datasets takes one dataset name, not ${positionals.length}`);
  const json = values.json === true;
  const name = positionals[0];
  if (name !== undefined) {
    if (values.scope !== undefined) throw new UsageError("--scope lists datasets; it takes no dataset name");
    const catalog = getCatalog(name);
    if (!catalog) throw new UsageError(unknownDataset(name), DATASETS_HELP);
    io.stdout(json ? `${JSON.stringify(datasetFields(catalog))}\n` : fieldTable(catalog));
    return 0;
  }
  const scope = values.scope;
  if (scope !== undefined && !(SCOPES as readonly string[]).includes(scope))
    throw new UsageError(`--scope takes ${SCOPES.join(" or ")}, not ${JSON.stringify(scope)}`);
  const listed = datasetNames
    .map(datasetSummary)
    .filter((summary) => scope === undefined || summary.scopes.includes(scope as ScopeKind));
  io.stdout(json ? `${JSON.stringify(listed)}\n` : datasetTable(listed));
  return 0;
}

function unknownDataset(name: string): string {
  return `unknown dataset ${JSON.stringify(name)}; known datasets: ${knownDatasets(name)}`;
}

interface DatasetSummary {
  name: string;
  scopes: readonly ScopeKind[];
  fields: number;
}

function datasetSummary(name: string): DatasetSummary {
  return { name, scopes: datasetScopes(name) ?? [], fields: getCatalog(name)?.fields.size ?? 0 };
}

function datasetFields(catalog: Catalog) {
  return {
    name: catalog.dataset,
    scopes: datasetScopes(catalog.dataset) ?? [],
    fields: [...catalog.fields.values()].map((field: FieldInfo) => ({
      name: field.name,
      type: field.type,
      elementType: field.elementType ?? null,
      docType: field.docType,
      deprecated: field.deprecated,
      filterable: field.filterable,
      description: field.description,
    })),
  };
}

/** Columns padded to their widest cell; the last column is not padded. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))),
    )
    .map((cells) => `${cells.join("  ")}\n`)
    .join("");
}

function datasetTable(summaries: readonly DatasetSummary[]): string {
  return table([
    ["DATASET", "SCOPE", "FIELDS"],
    ...summaries.map(({ name, scopes, fields }) => [name, scopes.join(","), String(fields)]),
  ]);
}

function fieldTable(catalog: Catalog): string {
  const scopes = (datasetScopes(catalog.dataset) ?? []).join(", ");
  const header = `${catalog.dataset}: ${catalog.fields.size} fields, scope ${scopes}\n\n`;
  return (
    header +
    table([
      ["FIELD", "TYPE", "ELEMENT", "DEPRECATED", "FILTERABLE"],
      ...[...catalog.fields.values()].map((field) => [
        field.name,
        field.type,
        field.elementType ?? "-",
        field.deprecated ? "yes" : "no",
        field.filterable ? "yes" : "no",
      ]),
    ])
  );
}
