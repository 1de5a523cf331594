import { type EditorState, StateField } from "@codemirror/state";
import { type CompileResult, compile } from "../compile.js";
import { filterOptions } from "./options.js";

/**
 * The compiled document, kept in the editor state so the lint, the page around the editor and any
 * other reader share one compile per change of text or options.
 */
export const compiledFilter = StateField.define<CompileResult>({
  create: (state) => compile(state.doc.toString(), state.facet(filterOptions)),
  update(value, transaction) {
    const options = transaction.state.facet(filterOptions);
    if (!transaction.docChanged && options === transaction.startState.facet(filterOptions)) return value;
    return compile(transaction.state.doc.toString(), options);
  },
});

/** The compile result of the editor's document: JSON, statistics against the limits, diagnostics. */
export function filterResult(state: EditorState): CompileResult {
  return state.field(compiledFilter);
}
