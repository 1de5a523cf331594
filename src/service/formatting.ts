import { format } from "../print/index.js";
import type { Analysis } from "./analysis.js";
import type { FormattingOptions, TextEdit } from "./types.js";

/**
 * The edits that make the text canonical (src/print's `format`): none when it already is, or
 * when it has syntax errors (formatting never guesses at broken text). The one edit covers only
 * the part that changes, so an editor keeps the cursor and the undo history of the rest.
 */
export function formatting(analysis: Analysis, options: FormattingOptions = {}): TextEdit[] {
  const formatted = format(
    analysis.text,
    options.lineWidth === undefined ? {} : { lineWidth: options.lineWidth },
  );
  if (formatted.text === null || formatted.text === analysis.text) return [];
  return [minimalEdit(analysis.text, formatted.text)];
}

/** One edit from `before` to `after`, without their common start and end. */
function minimalEdit(before: string, after: string): TextEdit {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < shorter - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end++;
  return {
    range: { start, end: before.length - end },
    newText: after.slice(start, after.length - end),
  };
}
