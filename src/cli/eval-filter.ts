import type { Cond } from "../check/index.js";
import { check } from "../check/index.js";
import { decompile } from "../decompile/index.js";
import { hasErrors } from "../diagnostics/index.js";
import { withoutByteOrderMark } from "../syntax/index.js";
import { compilerOptionsFrom } from "./compiler-options.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import { type CliIO, readSource } from "./io.js";

export interface EvalFilterFlags {
  filter?: string | undefined;
  expr?: string | undefined;
  dataset?: string | undefined;
  catalog?: string | undefined;
}

/**
 * The filter of `eval` as a checked condition: null for the empty filter (every record passes),
 * undefined when it has errors (reported on stderr). A file whose first non-blank character is
 * `{` or `"` holds Logpush filter JSON (or a job record); anything else is filter source.
 */
export async function loadEvalFilter(flags: EvalFilterFlags, io: CliIO): Promise<Cond | null | undefined> {
  const options = await compilerOptionsFrom({ dataset: flags.dataset, catalog: flags.catalog });
  const input =
    flags.expr !== undefined
      ? { text: withoutByteOrderMark(flags.expr), name: "<expr>" }
      : await readSource(io, flags.filter);
  const result = /^\s*["{]/.test(input.text) ? decompile(input.text, options) : check(input.text, options);
  reportDiagnostics(io, result.diagnostics, input.text, input.name);
  if (hasErrors(result.diagnostics)) return undefined;
  // An empty filter selects every line: most likely an empty file or a mistyped --expr, so say so.
  if (result.condition === null)
    io.stderr(`filterc eval: the filter ${input.name} is empty: every line is selected\n`);
  return result.condition;
}
