import { dirname } from "node:path";
import { isSafeFix } from "../check/index.js";
import { type CompileOptions, type CompileResult, compile } from "../compile.js";
import { type Diagnostic, terminalText } from "../diagnostics/index.js";
import { writeFileAtomically } from "../files/index.js";
import { applyFixes } from "../terraform/fix.js";
import { MAX_FIX_ROUNDS } from "./check-terraform.js";
import { diagnosticsJson, reportDiagnostics, statsLine } from "./diagnostics-output.js";
import { type CliIO, cannotWrite, readSource } from "./io.js";

/*
 * `filterc check --fix FILE.lpf` (and `-`): the safe fixes of filter source (isSafeFix) applied
 * round by round, as the Terraform `--fix` does, then the check of what is left. A file is
 * rewritten in place, whole at every moment; standard input's result is printed.
 */

/** A fix applied, where it was in the text it was applied to. */
interface Applied {
  code: string;
  line: number;
  column: number;
  message: string;
}

/** The text with its safe fixes applied, round after round until none is left, and the fixes. */
function fixText(
  text: string,
  options: CompileOptions,
): { text: string; applied: Applied[]; result: CompileResult } {
  const applied: Applied[] = [];
  let result = compile(text, options);
  for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
    const safe = result.diagnostics.filter((d) => isSafeFix(d, text));
    if (safe.length === 0) break;
    const fixed = applyFixes(text, safe);
    for (const fix of fixed.applied) applied.push(appliedOf(fix));
    text = fixed.text;
    result = compile(text, options);
  }
  return { text, applied, result };
}

const appliedOf = (fix: Diagnostic): Applied => ({
  code: fix.code,
  line: fix.range.start.line,
  column: fix.range.start.column,
  message: fix.suggestion!.message,
});

/** Where a file's fixed text is written: the one write of `check --fix`. */
async function writeFixed(path: string, text: string): Promise<void> {
  await writeFileAtomically(path, text, dirname(path)).catch((error: unknown) => {
    throw cannotWrite(path, error);
  });
}

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
  // A file written back in place must be one: a fifo read to its end would wait for a writer.
  const input = await readSource(io, file, toStdout ? "stream" : "regular");
  const { text, applied, result } = fixText(input.text, options);
  if (!toStdout && applied.length > 0) await writeFixed(file!, input.byteOrderMark ? `\uFEFF${text}` : text);
  if (json) {
    const fixed = {
      ok: result.ok,
      stats: result.stats,
      diagnostics: diagnosticsJson(result.diagnostics),
      fixed: applied,
    };
    io.stdout(`${JSON.stringify(toStdout ? { ...fixed, text } : fixed)}\n`);
    return result.ok ? 0 : 1;
  }
  // With the fixed text on stdout, what is said about it goes to stderr.
  const say = (text: string) => (toStdout ? io.stderr(text) : io.stdout(text));
  for (const fix of applied)
    say(
      `fixed ${terminalText(input.name)}:${fix.line}:${fix.column}: ${terminalText(fix.message)} (${fix.code})\n`,
    );
  if (toStdout) io.stdout(text);
  reportDiagnostics(io, result.diagnostics, text, input.name);
  if (!result.ok) return 1;
  const summary =
    result.filter === null ? "ok: empty filter (no filter)\n" : `ok: ${statsLine(result.stats)}\n`;
  say(summary);
  return 0;
}
