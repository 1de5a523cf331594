import { type Cond, check } from "../check/index.js";
import type { CompileOptions } from "../compile.js";
import { decompile } from "../decompile/index.js";
import { type Diagnostic, hasErrors } from "../diagnostics/index.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import type { CliIO } from "./io.js";

/** Filter JSON (an object, or the string a job stores) starts with { or "; the language never does. */
const isJson = (text: string) => /^\s*[{"]/.test(text);

/**
 * What a filter given to `sql` or `query` means: source is checked, Logpush filter JSON
 * decompiled; diagnostics reported on stderr. Undefined when there are errors.
 */
export function filterCondition(
  io: CliIO,
  input: { text: string; name: string },
  options: CompileOptions,
): { condition: Cond | null } | undefined {
  const { dataset, catalog } = options;
  const read = { ...(dataset ? { dataset } : {}), ...(catalog ? { catalog } : {}) };
  const result: { condition: Cond | null; diagnostics: Diagnostic[] } = isJson(input.text)
    ? decompile(input.text, read)
    : check(input.text, read);
  reportDiagnostics(io, result.diagnostics, input.text, input.name);
  return hasErrors(result.diagnostics) ? undefined : { condition: result.condition };
}
