export { explain, explainHeld } from "./explain.js";
export { type FormatResult, format } from "./format.js";
export { conditionToExpr } from "./from-condition.js";
export { DEFAULT_LINE_WIDTH, type PrintOptions, print } from "./print.js";
