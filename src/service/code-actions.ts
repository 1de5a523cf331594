import type { Analysis } from "./analysis.js";
import type { CodeAction, OffsetRange } from "./types.js";

/** A quick fix for every diagnostic with a suggestion whose range meets `range`. */
export function codeActions(analysis: Analysis, range: OffsetRange): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of analysis.compiled.diagnostics) {
    const { suggestion } = diagnostic;
    if (!suggestion) continue;
    const start = diagnostic.range.start.offset;
    const end = diagnostic.range.end.offset;
    // Ranges meet when they overlap or touch: a cursor at either end of a diagnostic selects it.
    if (start > range.end || end < range.start) continue;
    actions.push({
      title: suggestion.message,
      kind: "quickfix",
      diagnostic,
      edit: {
        range: { start: suggestion.range.start.offset, end: suggestion.range.end.offset },
        newText: suggestion.replacement,
      },
    });
  }
  return actions;
}
