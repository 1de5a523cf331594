import { dirname } from "node:path";
import type { Diagnostic } from "../diagnostics/index.js";
import { writeFileAtomically } from "../files/index.js";
import type { CheckedFile } from "./configuration.js";

/** The text with each fix applied (a fix overlapping an earlier one waits for the next run), and the fixes applied. */
export function applyFixes(
  text: string,
  fixes: readonly Diagnostic[],
): { text: string; applied: Diagnostic[] } {
  const ordered = fixes
    .filter((fix) => fix.suggestion)
    .sort((a, b) => a.suggestion!.range.start.offset - b.suggestion!.range.start.offset);
  const applied: Diagnostic[] = [];
  let result = "";
  let cursor = 0;
  for (const fix of ordered) {
    const { range, replacement } = fix.suggestion!;
    if (range.start.offset < cursor) continue;
    result += text.slice(cursor, range.start.offset) + replacement;
    cursor = range.end.offset;
    applied.push(fix);
  }
  return { text: result + text.slice(cursor), applied };
}

/**
 * Writes the safe fixes of each file that parsed without error, in place: the new text goes to a
 * temporary file beside it that is renamed over it, so the file is whole at every moment. Returns
 * the fixes applied, by file.
 */
export async function writeFixes(
  files: readonly CheckedFile[],
): Promise<{ file: CheckedFile; applied: Diagnostic[] }[]> {
  const written: { file: CheckedFile; applied: Diagnostic[] }[] = [];
  for (const checked of files) {
    if (!checked.parsed || checked.safeFixes.length === 0) continue;
    const { text, applied } = applyFixes(checked.file.text, checked.safeFixes);
    await writeFileAtomically(checked.file.path, text, dirname(checked.file.path));
    written.push({ file: checked, applied });
  }
  return written;
}
