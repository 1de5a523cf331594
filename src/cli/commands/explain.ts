import { compile } from "../../compile.js";
import { explain } from "../../print/index.js";
import { parseCommandArgs, singleInput } from "../args.js";
import { compilerFlags, compilerOptionsFrom, withFolderDefaults } from "../compiler-options.js";
import { diagnosticsJson, reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, readSource } from "../io.js";

export const usage = `filterc explain [FILE|-] [options]

Prints what the filter means, as its JSON has it (\`not\` pushed down), as an indented tree: "a
record is pushed when", then "all of", "any of" and each comparison in plain words with the
field's type, then the comparisons and bytes its JSON uses against the limits.

Options:
  --dataset NAME, --catalog FILE, --no-optimize, --max-operators N, --max-bytes N  as for compile
  --json                print {ok, explanation, stats, diagnostics} as JSON on stdout
Exit status: 0 explained, 1 errors in the filter, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...compilerFlags, json: { type: "boolean" } });
  const options = await compilerOptionsFrom(values);
  const file = singleInput(positionals, "explain");
  const input = await readSource(io, file);
  const compiled = compile(input.text, await withFolderDefaults(io, options, file));
  if (values.json) {
    const explanation = compiled.ok ? explain(compiled.meaning, compiled.stats) : null;
    io.stdout(
      `${JSON.stringify({ ok: compiled.ok, explanation, stats: compiled.stats, diagnostics: diagnosticsJson(compiled.diagnostics) })}\n`,
    );
    return compiled.ok ? 0 : 1;
  }
  reportDiagnostics(io, compiled.diagnostics, input.text, input.name);
  if (!compiled.ok) return 1;
  io.stdout(explain(compiled.meaning, compiled.stats));
  return 0;
}
