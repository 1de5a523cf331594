import {
  type Diagnostic,
  type DiagnosticSettings,
  hasErrors,
  mergeSettings,
  terminalName,
  tuneDiagnostics,
} from "../../diagnostics/index.js";
import type { ConfigLookup } from "../../files/index.js";
import { DEFAULT_LINE_WIDTH, format } from "../../print/index.js";
import { parse, sourceIgnores } from "../../syntax/index.js";
import { parseCommandArgs, parseCount } from "../args.js";
import { configLookup, folderDefaults } from "../compiler-options.js";
import { reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, readSource, UsageError } from "../io.js";
import { CLI_OPTION_LABELS } from "../option-labels.js";
import { readSourceToRewrite, rewriteSource } from "../rewrite-source.js";
import { TUNING_USAGE, tuningFlags, tuningFromFlags } from "../tuning-flags.js";

export const usage = `filterc fmt [FILE…|-] [--write|--check] [options]

Prints filter source canonically: canonical operator spellings, minimal parentheses, lines
wrapped at 80 columns with indentation that shows the nesting, comments kept in place.
With no FILE (or -) reads standard input and prints the result.

Options:
  --write               rewrite each FILE in place (only files that change; one changed
                        meanwhile, or with several names, is left as it is: exit 1)
  --check               print nothing; list the files that are not formatted and exit 1
  --line-width N        wrap lines at N columns (default ${DEFAULT_LINE_WIDTH})
With --check, the parser's warnings take their levels from filterc.json and these flags, and
one they make an error fails the check:
${TUNING_USAGE}
Exit status: 0 done (or all formatted with --check), 1 syntax errors or unformatted files, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    write: { type: "boolean" },
    check: { type: "boolean" },
    "line-width": { type: "string" },
    ...tuningFlags,
  });
  if (values.write && values.check) throw new UsageError("--write and --check exclude each other");
  const flagged = tuningFromFlags(values);
  if (flagged !== undefined && !values.check) throw new UsageError("--deny and --allow apply to fmt --check");
  const lookup = configLookup(io);
  const files = positionals.length === 0 ? ["-"] : positionals;
  if (values.write && files.includes("-")) throw new UsageError("--write needs files, not standard input");
  if (files.filter((file) => file === "-").length > 1)
    throw new UsageError("standard input can be read only once: give - once");
  const lineWidth = parseCount(values["line-width"], "--line-width", 1);
  const options = { optionLabels: CLI_OPTION_LABELS, ...(lineWidth !== undefined && { lineWidth }) };
  let status = 0;
  for (const file of files) {
    const rewritten = values.write ? await readSourceToRewrite(file) : undefined;
    const input = rewritten ?? (await readSource(io, file));
    const result = format(input.text, options);
    if (values.check) {
      const diagnostics = await checkedDiagnostics(io, file, input.text, result.diagnostics, flagged, lookup);
      if (hasErrors(diagnostics)) {
        reportDiagnostics(io, diagnostics, input.text, input.name);
        status = 1;
      }
    }
    if (result.text === null) {
      if (!values.check) reportDiagnostics(io, result.diagnostics, input.text, input.name);
      status = 1;
      continue;
    }
    if (values.check) {
      if (result.text !== input.text) {
        io.stdout(`${terminalName(input.name)}\n`);
        status = 1;
      }
    } else if (rewritten) {
      // The file keeps its byte order mark, as it keeps its line endings.
      const refusal = result.text === input.text ? undefined : await rewriteSource(rewritten, result.text);
      if (refusal !== undefined) {
        reportDiagnostics(io, [refusal], input.text, input.name);
        status = 1;
      }
    } else {
      io.stdout(result.text);
    }
  }
  return status;
}

/**
 * The parser's diagnostics as `fmt --check` counts them: at the levels of the file's filterc.json
 * and the flags, with its `# filterc-ignore` comments; an ignore meant for the checker's warnings is
 * not reported unused here, where only the parser's are seen.
 */
async function checkedDiagnostics(
  io: CliIO,
  file: string,
  text: string,
  diagnostics: Diagnostic[],
  flagged: DiagnosticSettings | undefined,
  lookup: ConfigLookup,
): Promise<Diagnostic[]> {
  const folder = await folderDefaults(io, file, lookup);
  const settings =
    folder.diagnostics === undefined && flagged === undefined
      ? undefined
      : mergeSettings(folder.diagnostics, flagged);
  const ignores = text.includes("filterc-ignore") ? sourceIgnores(parse(text).filter, text) : [];
  return tuneDiagnostics(diagnostics, { settings, ignores, reportUnused: false });
}
