export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_OPERATORS,
  type EmitOptions,
  type EmitResult,
  emit,
  emitMeaning,
  type FilterStats,
  WithLazyJson,
} from "./emit.js";
export {
  type LogpushFilter,
  type LogpushLeaf,
  type LogpushNode,
  toHclStringLiteral,
  toJsonStringLiteral,
} from "./json.js";
export { optimize } from "./optimize.js";
export { comparisonJson, serialize, utf8Length } from "./serialize.js";
