import { type EditorState, StateField } from "@codemirror/state";
import { createLanguageService, type LanguageService } from "../service/index.js";
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
  return state.field(filterService);
}
