export { type BlockFilter, compileBlockFilter } from "./block-filter.js";
export {
  type ByteFilter,
  type CheckedField,
  type ColumnValueKind,
  compileKindCheck,
  halfPairEscapesReplaced,
  holdsHalfPairEscape,
  type KindedField,
  type ReadingWatch,
} from "./kind-check.js";
export { compileLineFilter, type LineFilter, type LineFilterOptions, LineVerdict } from "./line-filter.js";
export { lineScannerModule } from "./line-scanner.js";
export { ExactNumber, isShort, jsonNumber, NUMERIC_TEXT, parseDecimal } from "./numbers.js";
export { compilePredicate, type Predicate } from "./predicate.js";
export { compileLineRejecter } from "./prefilter.js";
export { parseRecord, topLevelMembers } from "./records.js";
export {
  AUTO_NANOSECONDS_FROM,
  AUTO_SECONDS_BELOW,
  DEFAULT_TIMESTAMP_READING,
  instantOf,
  isTimestampOptions,
  TIMESTAMP_READINGS,
  type TimestampOptions,
  type TimestampReading,
} from "./timestamps.js";
