import { decompile } from "../../decompile/index.js";
import { DEFAULT_LINE_WIDTH } from "../../print/index.js";
import { parseCommandArgs, parseCount, singleInput } from "../args.js";
import { compilerOptionsFrom, folderDefaults } from "../compiler-options.js";
import { diagnosticsJson, reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, readSource } from "../io.js";
import { CLI_OPTION_LABELS } from "../option-labels.js";

export const usage = `filterc decompile [FILE|-] [options]

Reads Logpush filter JSON back into filter source, printed canonically on stdout. The input is
the filter ({"where": …}), the string a job stores (a JSON string holding the filter), or a whole
job record (its "filter"; its "dataset" is used unless --dataset is given). "" and null are no
filter and print nothing. Diagnostics name the JSON pointer and the line and column.

Options:
  --dataset NAME        field catalog to check against (default: the job's, else the nearest
                        filterc.json's, else http_requests)
  --catalog FILE        a JSON field catalog for a dataset filterc does not ship
  --line-width N        wrap lines at N columns (default ${DEFAULT_LINE_WIDTH})
  --json                print {ok, source, diagnostics} as JSON on stdout
Exit status: 0 read, 1 errors in the input, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    dataset: { type: "string" },
    catalog: { type: "string" },
    "line-width": { type: "string" },
    json: { type: "boolean" },
  });
  const { dataset, catalog } = await compilerOptionsFrom({
    dataset: values.dataset,
    catalog: values.catalog,
  });
  const lineWidth = parseCount(values["line-width"], "--line-width", 1);
  const file = singleInput(positionals, "decompile");
  const input = await readSource(io, file);
  const { dataset: defaultDataset, diagnostics } = await folderDefaults(io, file);
  const result = decompile(input.text, {
    optionLabels: CLI_OPTION_LABELS,
    ...(dataset !== undefined && { dataset }),
    ...(defaultDataset !== undefined && { defaultDataset }),
    ...(catalog !== undefined && { catalog }),
    ...(lineWidth !== undefined && { lineWidth }),
    ...(diagnostics !== undefined && { diagnostics }),
  });
  if (values.json) {
    const json = { ok: result.ok, source: result.source, diagnostics: diagnosticsJson(result.diagnostics) };
    io.stdout(`${JSON.stringify(json)}\n`);
    return result.ok ? 0 : 1;
  }
  reportDiagnostics(io, result.diagnostics, input.text, input.name);
  if (!result.ok) return 1;
  if (result.source) io.stdout(`${result.source}\n`);
  return 0;
}
