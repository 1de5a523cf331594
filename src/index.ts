/**
 * filterc: the library. Every function here runs in browsers as well as Node (no Node-only API).
 */

export * from "./api/index.js";
export {
  type Catalog,
  createCatalog,
  DEFAULT_DATASET,
  datasetNames,
  type FieldInfo,
  type FieldSpec,
  type FieldType,
  getCatalog,
} from "./catalog/index.js";
export {
  type CheckOptions,
  type CheckResult,
  type Cond,
  check,
  type Leaf,
  type Meaning,
  operatorAccepts,
  operatorsFor,
  type ScalarValue,
} from "./check/index.js";
export { type CompileOptions, type CompileResult, compile } from "./compile.js";
export {
  DEFAULT_MAX_INPUT_LENGTH,
  type DecompileOptions,
  type DecompileResult,
  decompile,
} from "./decompile/index.js";
export {
  type Diagnostic,
  DiagnosticKind,
  type Position,
  type Range,
  type Severity,
  type Suggestion,
} from "./diagnostics/index.js";
export { type DiffOptions, diffFilters, type FilterDiff, type Relation } from "./diff/index.js";
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_OPERATORS,
  type EmitOptions,
  type EmitResult,
  emit,
  type FilterStats,
  type LogpushFilter,
  type LogpushLeaf,
  type LogpushNode,
  toHclStringLiteral,
  toJsonStringLiteral,
} from "./emit/index.js";
export {
  compileLineFilter,
  compilePredicate,
  type LineFilter,
  type LineFilterOptions,
  LineVerdict,
  type Predicate,
  type TimestampOptions,
  type TimestampReading,
} from "./eval/index.js";
export {
  conditionToExpr,
  DEFAULT_LINE_WIDTH,
  explain,
  type FormatResult,
  format,
  type PrintOptions,
  print,
} from "./print/index.js";
export * from "./service/index.js";
export { type DialectName, type SqlOptions, type SqlResult, toSql } from "./sql/index.js";
export * from "./syntax/ast.js";
export {
  CANONICAL_OPERATORS,
  type CanonicalOperator,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_DIAGNOSTICS,
  DEFAULT_MAX_SOURCE_LENGTH,
  isCanonicalOperator,
  OPERATORS,
  type OperatorFacts,
  type ParseOptions,
  type ParseResult,
  parse,
} from "./syntax/index.js";
