import type { Command, KeyBinding } from "@codemirror/view";
import { expectArgument, isObject } from "../diagnostics/index.js";
import { isState } from "./argument-shapes.js";
import { filterService } from "./service.js";

/**
 * Rewrites the document in canonical form (canonical operators, minimal parentheses, wrapped
 * lines, comments kept). Text with syntax errors is left alone; the command still reports that it
 * handled the key.
 */
export const formatFilter: Command = (view) => {
  const isView = (value: unknown): value is typeof view => isObject(value) && isState(value["state"]);
  expectArgument(view, isView, "formatFilter", "view", "an EditorView");
  const service = view.state.field(filterService, false);
  if (!service) return false;
  const edits = service.format(view.state.doc.toString());
  if (edits.length)
    view.dispatch({
      changes: edits.map((edit) => ({ from: edit.range.start, to: edit.range.end, insert: edit.newText })),
      userEvent: "input.format",
      scrollIntoView: true,
    });
  return true;
};

/** Shift-Alt-F formats, as in VS Code. */
export const filterKeymap: readonly KeyBinding[] = [{ key: "Shift-Alt-f", run: formatFilter }];
