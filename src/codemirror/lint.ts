import { type Action, type Diagnostic as EditorDiagnostic, linter } from "@codemirror/lint";
import type { EditorView } from "@codemirror/view";
import type { Diagnostic } from "../diagnostics/index.js";
import { filterOptions } from "./options.js";
import { compiledFilter } from "./result.js";

/** The fix of a diagnostic as an editor action; offsets shift with edits made since the lint ran. */
function fixAction(diagnostic: Diagnostic): Action[] {
  const suggestion = diagnostic.suggestion;
  if (!suggestion) return [];
  return [
    {
      name: suggestion.message,
      apply(view: EditorView, from: number) {
        const shift = from - diagnostic.range.start.offset;
        view.dispatch({
          changes: {
            from: suggestion.range.start.offset + shift,
            to: suggestion.range.end.offset + shift,
            insert: suggestion.replacement,
          },
          userEvent: "input.fix",
        });
      },
    },
  ];
}

export function toEditorDiagnostic(diagnostic: Diagnostic): EditorDiagnostic {
  return {
    from: diagnostic.range.start.offset,
    to: diagnostic.range.end.offset,
    severity: diagnostic.severity,
    source: diagnostic.code,
    message: diagnostic.message,
    actions: fixAction(diagnostic),
  };
}

/** Every diagnostic of the compiler at its range, with its fix as a one-click action. */
export function filterLint(delay: number) {
  return linter((view) => view.state.field(compiledFilter).diagnostics.map(toEditorDiagnostic), {
    delay,
    needsRefresh: (update) => update.startState.facet(filterOptions) !== update.state.facet(filterOptions),
  });
}
