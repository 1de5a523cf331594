import { type Extension, Prec } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { expectArgument, isOptions } from "../diagnostics/index.js";
import { isDelay } from "./argument-shapes.js";
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
  // The other options go to the service, whose diagnostics say what is wrong with them (E0006).
  const isExtensionOptions = (value: unknown): value is LogpushFilterExtensionOptions =>
    isOptions(value) && (value?.["lintDelay"] === undefined || isDelay(value["lintDelay"]));
  expectArgument(
    options,
    isExtensionOptions,
    "logpushFilter",
    "options",
    "an object ({dataset?, maxOperators?, lintDelay?, …})",
  );
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
