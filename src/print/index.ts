export { conditionToExpr } from "./from-condition.js";
export { DEFAULT_LINE_WIDTH, type PrintOptions, print } from "./print.js";
