export {
  isListOperator,
  isNegativeOperator,
  negateOperator,
  operatorAccepts,
  operatorsFor,
} from "../syntax/index.js";
export { analyzeExpr, type FilterAnalysis } from "./analyze.js";
export { type CheckOptions, type CheckResult, check, resolveCatalog } from "./check.js";
export { Checker } from "./checker.js";
export { A_CONDITION, isCond, meaningArgument, meaningOrNullArgument } from "./cond-shape.js";
export { Distinct, hasDuplicate } from "./distinct.js";
export {
  type Cond,
  type Group,
  type Leaf,
  leafKey,
  type Meaning,
  type Negation,
  type ScalarValue,
  sameScalar,
  scalarKey,
  scalarSource,
  scalarText,
} from "./ir.js";
export {
  DEFAULT_MAX_SEARCH_STEPS,
  findRecord,
} from "./meaning/search.js";
export type { FieldValue, Witness } from "./meaning/value.js";
export { toNegationNormalForm } from "./negate.js";
export { canonicalNumber, compareNumbers, fitsInt64Range } from "./numbers.js";
export { suggestOperator } from "./operators.js";
export { isSafeFix } from "./safe-fixes.js";
