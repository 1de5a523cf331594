import { compile } from "../../compile.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { compilerFlags, compilerOptionsFrom, withFolderDefaults } from "../compiler-options.js";
import { diagnosticsJson, reportDiagnostics, statsLine } from "../diagnostics-output.js";
import { type CliIO, readSource } from "../io.js";

export const usage = `filterc check [FILE|-] [options]

Checks filter source against the dataset and the Logpush limits without printing the JSON.
On success prints what the filter uses against the limits.

Options:
  --dataset NAME, --catalog FILE, --no-optimize, --max-operators N, --max-bytes N  as for compile
  --json                print {ok, stats, diagnostics} as JSON on stdout
Exit status: 0 valid (warnings allowed), 1 errors, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...compilerFlags, json: { type: "boolean" } });
  const options = await compilerOptionsFrom(values);
  const file = singleInput(positionals, "check");
  const input = await readSource(io, file);
  const result = compile(input.text, await withFolderDefaults(io, options, file));
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ ok: result.ok, stats: result.stats, diagnostics: diagnosticsJson(result.diagnostics) })}\n`,
    );
    return result.ok ? 0 : 1;
  }
  reportDiagnostics(io, result.diagnostics, input.text, input.name);
  if (!result.ok) return 1;
  io.stdout(result.filter === null ? "ok: empty filter (no filter)\n" : `ok: ${statsLine(result.stats)}\n`);
  return 0;
}
