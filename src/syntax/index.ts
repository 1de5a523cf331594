export * from "./ast.js";
export { isPrintable } from "./ast-shape.js";
export { withoutByteOrderMark } from "./byte-order-mark.js";
export { directiveName, readDirective } from "./directive.js";
export { sourceIgnores } from "./ignores.js";
export { type ScanResult, scan } from "./lexer.js";
export {
  capDiagnostics,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_DIAGNOSTICS,
  DEFAULT_MAX_SOURCE_LENGTH,
  notText,
  type ParseOptions,
  type ParseResult,
  parse,
} from "./parse.js";
export { decodeStringToken, jsonEscapes, stringLiteral } from "./strings.js";
export { tokenFacts } from "./tokens.js";
export { numberClass, numberWithUnit, type UnitWord } from "./units.js";
export {
  CANONICAL_OPERATORS,
  type CanonicalOperator,
  INFIX_NOT_OPERATORS,
  isCanonicalOperator,
  isListOperator,
  isNegativeOperator,
  isOperatorOn,
  LOGIC,
  negateOperator,
  OPERATOR_NAMES,
  OPERATOR_SPELLINGS,
  OPERATORS,
  type OperatorFacts,
  operatorAccepts,
  operatorsFor,
  type PositiveOperator,
  type PositiveOperatorOn,
  type Punctuation,
  type TokenFacts,
} from "./vocabulary.js";
