import { DEFAULT_DATASET } from "../../catalog/index.js";
import { compile } from "../../compile.js";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_OPERATORS,
  toHclStringLiteral,
  toJsonStringLiteral,
} from "../../emit/index.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { compilerFlags, compilerOptionsFrom, withFolderDefaults } from "../compiler-options.js";
import { diagnosticsJson, reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, readSource, UsageError } from "../io.js";
import { TUNING_USAGE, tuningFlags } from "../tuning-flags.js";

export const usage = `filterc compile [FILE|-] [options]

Compiles filter source to the JSON string a Logpush job's "filter" takes, printed on stdout
with a newline (nothing for an empty filter). Diagnostics go to stderr.

Options:
  --dataset NAME        field catalog to check against (default ${DEFAULT_DATASET})
  --catalog FILE        a JSON field catalog for a dataset filterc does not ship
  --string              print the JSON as an escaped string, for a job body or HCL
  --hcl                 like --string, also escaping HCL template sequences (\${ and %{)
  --no-optimize         keep every comparison as written (no merging into in/!in)
  --max-operators N     comparison limit (default ${DEFAULT_MAX_OPERATORS})
  --max-bytes N         byte limit of the JSON (default ${DEFAULT_MAX_BYTES})
  --json                print {ok, filter, stats, diagnostics} as JSON on stdout
${TUNING_USAGE}
Exit status: 0 compiled, 1 errors in the filter, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    ...compilerFlags,
    ...tuningFlags,
    string: { type: "boolean" },
    hcl: { type: "boolean" },
    json: { type: "boolean" },
  });
  if (values.json && (values.string || values.hcl))
    throw new UsageError(
      `--json prints the filter in its JSON output; it takes no --${values.hcl ? "hcl" : "string"}`,
    );
  if (values.string && values.hcl)
    throw new UsageError("--hcl is --string with HCL escapes: give one of them");
  const options = await compilerOptionsFrom(values);
  const file = singleInput(positionals, "compile");
  const input = await readSource(io, file);
  const result = compile(input.text, await withFolderDefaults(io, options, file));
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ ok: result.ok, filter: result.filter, stats: result.stats, diagnostics: diagnosticsJson(result.diagnostics) })}\n`,
    );
    return result.ok ? 0 : 1;
  }
  reportDiagnostics(io, result.diagnostics, input.text, input.name);
  if (!result.ok) return 1;
  if (result.filter !== null) {
    const text = values.hcl
      ? toHclStringLiteral(result.filter)
      : values.string
        ? toJsonStringLiteral(result.filter)
        : result.filter;
    io.stdout(`${text}\n`);
  }
  return 0;
}
