import { type Extension, Prec } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { filterCompletion } from "./completion.js";
import { filterKeymap } from "./format.js";
import { filterHighlighting } from "./highlight.js";
import { filterHover } from "./hover.js";
import { filterLint } from "./lint.js";
import { filterOptions, type LogpushFilterOptions } from "./options.js";
import { compiledFilter } from "./result.js";
import { filterService } from "./service.js";
import { filterTheme } from "./theme.js";

export interface LogpushFilterExtensionOptions extends LogpushFilterOptions {
  /** Milliseconds of quiet typing before diagnostics refresh (default 200). */
  lintDelay?: number;
}

/**
 * Everything a CodeMirror 6 editor needs to edit Logpush filters, built on the language service:
 * colouring, diagnostics with their fixes, completion, hover and formatting (Shift-Alt-F). Put it in a
 * Compartment to change the dataset or the limits later.
 */
export function logpushFilter(options: LogpushFilterExtensionOptions = {}): Extension[] {
  const { lintDelay = 200, ...filter } = options;
  return [
    filterOptions.of(filter),
    filterService,
    compiledFilter,
    filterHighlighting,
    filterTheme,
    filterLint(lintDelay),
    filterCompletion,
    filterHover,
    Prec.high(keymap.of(filterKeymap)),
  ];
}
