export {
  describeValue,
  expectArgument,
  InvalidArgumentError,
  isCatalog,
  isObject,
  isOffset,
  isOptions,
  isString,
  unreachable,
} from "./arguments.js";
export {
  type Diagnostic,
  diagnose,
  hasErrors,
  type RelatedLocation,
  type Suggestion,
  sortDiagnostics,
} from "./diagnostic.js";
export type { IgnoreComment, IgnoredCode } from "./ignore-comment.js";
export { isIgnoreText, lineIgnores, readIgnore } from "./ignores.js";
export {
  type ArgsOf,
  DiagnosticKind,
  type DiagnosticKindName,
  type Severity,
  whyNotTunable,
} from "./kinds.js";
export {
  type NamedOption,
  numericOptionProblem,
  type OptionLabels,
  optionDiagnostics,
  optionLabel,
} from "./options.js";
export {
  emptyRangeAt,
  LineIndex,
  type Position,
  type Range,
  startOfSource,
} from "./range.js";
export { renderDiagnostics } from "./render.js";
export { closestMatch, editDistance } from "./suggest.js";
export {
  codePointName,
  isHiddenCharacter,
  terminalJson,
  terminalJsonText,
  terminalName,
  terminalText,
} from "./terminal-text.js";
export {
  DIAGNOSTIC_LEVELS,
  type DiagnosticLevel,
  type DiagnosticSettings,
  EVERY_WARNING,
  levelOf,
  mergeSettings,
  type SettingProblem,
  settingCodeProblem,
  settingsProblems,
  severityOfCode,
  TUNABLE_CODES,
  type TuneOptions,
  tuneDiagnostics,
} from "./tuning.js";
