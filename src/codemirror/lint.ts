import { type Action, type Diagnostic as EditorDiagnostic, linter } from "@codemirror/lint";
import type { EditorView } from "@codemirror/view";
import type { Diagnostic } from "../diagnostics/index.js";
import type { CodeAction } from "../service/index.js";
import { filterService } from "./service.js";

/** A quick fix as an editor action; offsets shift with the edits made since the lint ran. */
function fixAction(action: CodeAction): Action {
  return {
    name: action.title,
    apply(view: EditorView, from: number) {
      const shift = from - action.diagnostic.range.start.offset;
      view.dispatch({
        changes: {
          from: action.edit.range.start + shift,
          to: action.edit.range.end + shift,
          insert: action.edit.newText,
        },
        userEvent: "input.fix",
      });
    },
  };
}

export function toEditorDiagnostic(diagnostic: Diagnostic, fixes: readonly CodeAction[]): EditorDiagnostic {
  return {
    from: diagnostic.range.start.offset,
    to: diagnostic.range.end.offset,
    // CodeMirror calls a note "info".
    severity: diagnostic.severity === "note" ? "info" : diagnostic.severity,
    source: diagnostic.code,
    message: diagnostic.message,
    actions: fixes.filter((fix) => fix.diagnostic === diagnostic).map(fixAction),
  };
}

/** Every diagnostic of the language service at its range, with its quick fix as a one-click action. */
export function filterLint(delay: number) {
  return linter(
    (view) => {
      const service = view.state.field(filterService);
      const text = view.state.doc.toString();
      const fixes = service.codeActions(text, { start: 0, end: text.length });
      return service.diagnostics(text).map((diagnostic) => toEditorDiagnostic(diagnostic, fixes));
    },
    {
      delay,
      needsRefresh: (update) => update.startState.field(filterService) !== update.state.field(filterService),
    },
  );
}
