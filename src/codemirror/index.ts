/**
 * filterc/codemirror: a CodeMirror 6 extension for Logpush filters, built on the filterc core.
 * The @codemirror/* packages are peer dependencies: the page brings its own editor.
 */
export { type LogpushFilterExtensionOptions, logpushFilter } from "./extension.js";
export { filterHighlighting } from "./highlight.js";
export { filterLint, toEditorDiagnostic } from "./lint.js";
export { filterOptions, type LogpushFilterOptions } from "./options.js";
export { compiledFilter, filterResult } from "./result.js";
export { filterTheme } from "./theme.js";
