export {
  type Diagnostic,
  diagnose,
  hasErrors,
  type RelatedLocation,
  type Suggestion,
  sortDiagnostics,
} from "./diagnostic.js";
export { type ArgsOf, DiagnosticKind, type DiagnosticKindName, type Severity } from "./kinds.js";
export { numericOptionProblem, optionDiagnostics } from "./options.js";
export {
  emptyRangeAt,
  LineIndex,
  type Position,
  type Range,
  rangeContains,
  spanRanges,
  startOfSource,
} from "./range.js";
export { type RenderOptions, renderDiagnostic, renderDiagnostics } from "./render.js";
export { closestMatch, editDistance } from "./suggest.js";
export {
  codePointName,
  isHiddenCharacter,
  terminalJson,
  terminalJsonText,
  terminalText,
} from "./terminal-text.js";
