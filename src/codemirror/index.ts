/**
 * filterc/codemirror: a CodeMirror 6 extension for Logpush filters, built on the filterc language
 * service. The @codemirror/* packages are peer dependencies: the page brings its own editor.
 */
export { InvalidArgumentError } from "../diagnostics/index.js";
export { filterCompletion, filterCompletionSource } from "./completion.js";
export { type LogpushFilterExtensionOptions, logpushFilter } from "./extension.js";
export { filterKeymap, formatFilter } from "./format.js";
export { filterHighlighting } from "./highlight.js";
export { filterHover } from "./hover.js";
export { filterLint, toEditorDiagnostic } from "./lint.js";
export { filterOptions, type LogpushFilterOptions } from "./options.js";
export { compiledFilter, filterResult } from "./result.js";
export { filterService, languageService } from "./service.js";
export { filterTheme } from "./theme.js";
