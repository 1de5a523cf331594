import { isSafeFix } from "../check/index.js";
import { type CompileOptions, type CompileResult, compile } from "../compile.js";
import { type Diagnostic, terminalName, terminalText } from "../diagnostics/index.js";
import { applyFixes } from "../terraform/fix.js";
import { MAX_FIX_ROUNDS } from "./check-terraform.js";
import { diagnosticsJson, reportDiagnostics, statsLine } from "./diagnostics-output.js";
import { type CliIO, readSource } from "./io.js";
import { readSourceToRewrite, rewriteSource } from "./rewrite-source.js";

/*
 * `filterc check --fix FILE.lpf` (and `-`): the safe fixes of filter source (isSafeFix) applied
 * round by round, as the Terraform `--fix` does, then the check of what is left. A file is
 * rewritten in place through writeFileAtomically (whole at every moment, its mode and links kept,
 * only while it still holds what was read); standard input's result is printed.
 */

/** A fix applied, where it was in the text it was applied to. */
interface Applied {
  code: string;
  line: number;
  column: number;
  message: string;
}

/**
 * The text with its safe fixes applied, round after round until none is left, the fixes, the
 * check of the result and of the text as it was (what is reported when the file is not written).
 */
function fixText(
  text: string,
  options: CompileOptions,
): { text: string; applied: Applied[]; result: CompileResult; unfixed: CompileResult } {
  const applied: Applied[] = [];
  const unfixed = compile(text, options);
  let result = unfixed;
  for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
    const safe = result.diagnostics.filter((d) => isSafeFix(d, text));
    if (safe.length === 0) break;
    const fixed = applyFixes(text, safe);
    for (const fix of fixed.applied) applied.push(appliedOf(fix));
    text = fixed.text;
    result = compile(text, options);
  }
  return { text, applied, result, unfixed };
}

const appliedOf = (fix: Diagnostic): Applied => ({
  code: fix.code,
  line: fix.range.start.line,
  column: fix.range.start.column,
  message: fix.suggestion!.message,
});

/**
 * Runs `check --fix` on one filter file, or standard input (`-` or none): prints each fix
 * applied (to stderr when stdout takes the fixed text), then the check of the result.
 */
export async function checkAndFix(
  io: CliIO,
  file: string | undefined,
  options: CompileOptions,
  json: boolean,
): Promise<number> {
  const toStdout = file === undefined || file === "-";
  const rewritten = toStdout ? undefined : await readSourceToRewrite(file!);
  const input = rewritten ?? (await readSource(io, file));
  const fixed = fixText(input.text, options);
  const { text, applied } = fixed;
  const refusal = rewritten && applied.length > 0 ? await rewriteSource(rewritten, text) : undefined;
  if (refusal !== undefined) return reportRefusal(io, input.name, input.text, fixed.unfixed, refusal, json);
  const { result } = fixed;
  if (json) {
    const report = {
      ok: result.ok,
      stats: result.stats,
      diagnostics: diagnosticsJson(result.diagnostics),
      fixed: applied,
    };
    io.stdout(`${JSON.stringify(toStdout ? { ...report, text } : report)}\n`);
    return result.ok ? 0 : 1;
  }
  // With the fixed text on stdout, what is said about it goes to stderr.
  const say = (text: string) => (toStdout ? io.stderr(text) : io.stdout(text));
  for (const fix of applied)
    say(
      `fixed ${terminalName(input.name)}:${fix.line}:${fix.column}: ${terminalText(fix.message)} (${fix.code})\n`,
    );
  if (toStdout) io.stdout(text);
  reportDiagnostics(io, result.diagnostics, text, input.name);
  if (!result.ok) return 1;
  const summary =
    result.filter === null ? "ok: empty filter (no filter)\n" : `ok: ${statsLine(result.stats)}\n`;
  say(summary);
  return 0;
}

/**
 * A file `--fix` left as it was (changed since read, several names, …): nothing is fixed, and the
 * check of the text read is reported after the reason. Exit 1.
 */
function reportRefusal(
  io: CliIO,
  name: string,
  text: string,
  unfixed: CompileResult,
  refusal: Diagnostic,
  json: boolean,
): number {
  const diagnostics = [refusal, ...unfixed.diagnostics];
  if (json) {
    const report = { ok: false, stats: unfixed.stats, diagnostics: diagnosticsJson(diagnostics), fixed: [] };
    io.stdout(`${JSON.stringify(report)}\n`);
  } else reportDiagnostics(io, diagnostics, text, name);
  return 1;
}
