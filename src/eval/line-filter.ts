import type { Cond } from "../check/index.js";
import { compileFieldReader } from "./field-reader.js";
import { compilePredicate, compileSlotPredicate } from "./predicate.js";
import { compileLineRejecter } from "./prefilter.js";
import { parseRecord } from "./records.js";

/** What one log line is to a filter. */
export const LineVerdict = { miss: 0, match: 1, malformed: 2 } as const;
export type LineVerdict = (typeof LineVerdict)[keyof typeof LineVerdict];

export interface LineFilterOptions {
  /**
   * Reject lines by their raw text before reading their fields where the filter allows it
   * (default true). A rejected line is still checked against the JSON grammar, so the verdicts
   * are the same either way: only the speed differs.
   */
  prefilter?: boolean;
  /**
   * Read only the fields the filter names, with a reader built for them (default true); false
   * parses each line whole with JSON.parse. Both give the same verdicts.
   */
  fieldReader?: boolean;
}

/** A compiled filter over raw NDJSON lines (without their line terminator). */
export type LineFilter = (line: string) => LineVerdict;

/**
 * Compiles a filter (null: the empty filter, which keeps every record) into a test of raw log
 * lines. Numbers compare by their exact decimal value (see numbers.ts).
 */
export function compileLineFilter(condition: Cond | null, options: LineFilterOptions = {}): LineFilter {
  const reject = condition && options.prefilter !== false ? compileLineRejecter(condition) : undefined;
  let full: LineFilter;
  if (options.fieldReader === false) {
    const predicate = condition ? compilePredicate(condition) : () => true;
    full = (line) => {
      const record = parseRecord(line);
      if (record === undefined) return LineVerdict.malformed;
      return predicate(record) ? LineVerdict.match : LineVerdict.miss;
    };
  } else {
    const { fields, test } = condition ? compileSlotPredicate(condition) : { fields: [], test: () => true };
    const read = compileFieldReader(fields);
    const values: unknown[] = new Array(fields.length);
    full = (line) => {
      if (!read(line, values)) return LineVerdict.malformed;
      return test(values) ? LineVerdict.match : LineVerdict.miss;
    };
  }
  if (!reject) return full;
  // A reader of no fields only validates the line: the same grammar, none of the values built.
  const validate = compileFieldReader([]);
  const none: unknown[] = [];
  return (line) => {
    if (!reject(line)) return full(line);
    return validate(line, none) ? LineVerdict.miss : LineVerdict.malformed;
  };
}
