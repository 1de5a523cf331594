import type { Diagnostic } from "../diagnostics/index.js";
import {
  changedSinceRead,
  editBytes,
  notWrittenDiagnostic,
  readSnapshot,
  type TextEdit,
  WriteRefused,
  writeFileAtomically,
} from "../files/index.js";
import { type CheckedFile, DEFAULT_MAX_TERRAFORM_FILE_BYTES } from "./configuration.js";

/**
 * The text with each fix applied (a fix overlapping an earlier one waits for the next run), the
 * fixes applied, and the edits they make, in order.
 */
export function applyFixes(
  text: string,
  fixes: readonly Diagnostic[],
): { text: string; applied: Diagnostic[]; edits: TextEdit[] } {
  const ordered = fixes
    .filter((fix) => fix.suggestion)
    .sort((a, b) => a.suggestion!.range.start.offset - b.suggestion!.range.start.offset);
  const applied: Diagnostic[] = [];
  const edits: TextEdit[] = [];
  let result = "";
  let cursor = 0;
  for (const fix of ordered) {
    const { range, replacement } = fix.suggestion!;
    if (range.start.offset < cursor) continue;
    result += text.slice(cursor, range.start.offset) + replacement;
    cursor = range.end.offset;
    applied.push(fix);
    edits.push({ start: range.start.offset, end: range.end.offset, replacement });
  }
  return { text: result + text.slice(cursor), applied, edits };
}

export interface FixWriteOptions {
  /** The paths named on the command line: only files among them or inside them are written. */
  within: readonly string[];
}

/**
 * Writes the safe fixes of each file that parsed without error, in place, through
 * writeFileAtomically: to the file's bytes as they are (a byte that is no UTF-8 stays), only
 * while it still holds what was checked. Returns the fixes applied by file, and each file left as
 * it was with the diagnostic that says why (notWrittenDiagnostic).
 */
export async function writeFixes(
  files: readonly CheckedFile[],
  options: FixWriteOptions,
): Promise<{
  written: { file: CheckedFile; applied: Diagnostic[] }[];
  refused: { file: CheckedFile; problem: Diagnostic }[];
}> {
  const written: { file: CheckedFile; applied: Diagnostic[] }[] = [];
  const refused: { file: CheckedFile; problem: Diagnostic }[] = [];
  for (const checked of files) {
    if (!checked.parsed || checked.safeFixes.length === 0) continue;
    const { applied, edits } = applyFixes(checked.file.text, checked.safeFixes);
    try {
      await writeFixed(checked, edits, options);
      written.push({ file: checked, applied });
    } catch (error) {
      refused.push({ file: checked, problem: notWrittenDiagnostic(error, checked.file.rangeOf(0, 0)) });
    }
  }
  return { written, refused };
}

async function writeFixed(checked: CheckedFile, edits: TextEdit[], options: FixWriteOptions): Promise<void> {
  const { path, text } = checked.file;
  // The bytes now, which must still read as the text checked (as the reader reads them).
  const snapshot = await readSnapshot(path, DEFAULT_MAX_TERRAFORM_FILE_BYTES).catch(() => undefined);
  if (snapshot?.bytes === undefined || snapshot.bytes.toString("utf8") !== text) throw changedSinceRead();
  const bytes = editBytes(snapshot.bytes, text, edits);
  if (bytes === undefined)
    throw new WriteRefused(
      "unsafe",
      "the fix cannot be placed among the file's bytes, which are not all UTF-8",
    );
  await writeFileAtomically(path, bytes, { expected: snapshot, within: options.within });
}
