import { type EditorState, StateField } from "@codemirror/state";
import type { CompileResult } from "../compile.js";
import { expectArgument, InvalidArgumentError } from "../diagnostics/index.js";
import { A_STATE, isState } from "./argument-shapes.js";
import { filterService } from "./service.js";

/**
 * The compiled document, kept in the editor state so the lint, the page around the editor and any
 * other reader share the service's one compile per change of text or options.
 */
export const compiledFilter = StateField.define<CompileResult>({
  create: (state) => state.field(filterService).analyze(state.doc.toString()).compiled,
  update(value, transaction) {
    const service = transaction.state.field(filterService);
    if (!transaction.docChanged && service === transaction.startState.field(filterService)) return value;
    return service.analyze(transaction.state.doc.toString()).compiled;
  },
});

/** The compile result of the editor's document: JSON, statistics against the limits, diagnostics. */
export function filterResult(state: EditorState): CompileResult {
  expectArgument(state, isState, "filterResult", "state", A_STATE);
  const result = state.field(compiledFilter, false);
  if (result === undefined) throw new InvalidArgumentError("filterResult", "state", A_STATE, state);
  return result;
}
