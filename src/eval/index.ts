export { compileLineFilter, type LineFilter, type LineFilterOptions, LineVerdict } from "./line-filter.js";
export { compilePredicate, type Predicate } from "./predicate.js";
export { compileLineRejecter } from "./prefilter.js";
export { parseRecord, quoteLongIntegers } from "./records.js";
