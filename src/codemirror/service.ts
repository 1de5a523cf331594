import { type EditorState, StateField } from "@codemirror/state";
import { expectArgument, InvalidArgumentError } from "../diagnostics/index.js";
import { createLanguageService, type LanguageService } from "../service/index.js";
import { A_STATE, isState } from "./argument-shapes.js";
import { filterOptions } from "./options.js";

/** The language service of the editor, replaced when the options (dataset, limits) change. */
export const filterService = StateField.define<LanguageService>({
  create: (state) => createLanguageService(state.facet(filterOptions)),
  update(service, transaction) {
    const options = transaction.state.facet(filterOptions);
    return options === transaction.startState.facet(filterOptions) ? service : createLanguageService(options);
  },
});

export function languageService(state: EditorState): LanguageService {
  expectArgument(state, isState, "languageService", "state", A_STATE);
  const service = state.field(filterService, false);
  if (service === undefined) throw new InvalidArgumentError("languageService", "state", A_STATE, state);
  return service;
}
