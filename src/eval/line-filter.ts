import { meaningOrNullArgument } from "../check/cond-shape.js";
import type { Cond } from "../check/ir.js";
import { expectArgument, isObject } from "../diagnostics/arguments.js";
import { compileFieldReader } from "./field-reader.js";
import { compilePredicate, compileSlotPredicate } from "./predicate.js";
import { compileLineRejecter } from "./prefilter.js";
import { parseRecord } from "./records.js";
import { isTimestampOptions, TIMESTAMP_OPTIONS, type TimestampOptions } from "./timestamps.js";

/** What one log line is to a filter. */
export const LineVerdict = { miss: 0, match: 1, malformed: 2 } as const;
/** A line's verdict: `miss`, `match`, or `malformed` (the line is no JSON record). */
export type LineVerdict = (typeof LineVerdict)[keyof typeof LineVerdict];

/** Options of `compileLineFilter`. */
export interface LineFilterOptions extends TimestampOptions {
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

/** Options left out, or an object whose switches are booleans. */
const isLineFilterOptions = (value: unknown): value is LineFilterOptions | undefined =>
  value === undefined ||
  (isTimestampOptions(value) &&
    isObject(value) &&
    ["prefilter", "fieldReader"].every(
      (name) => value[name] === undefined || typeof value[name] === "boolean",
    ));

/**
 * Compiles a filter (null: the empty filter, which keeps every record) into a test of raw log
 * lines, with the meaning of compilePredicate (`not` pushed down). Numbers compare by their exact
 * decimal value (see numbers.ts).
 */
export function compileLineFilter(filter: Cond | null, options: LineFilterOptions = {}): LineFilter {
  const meaning = meaningOrNullArgument(filter, "compileLineFilter", "condition");
  expectArgument(
    options,
    isLineFilterOptions,
    "compileLineFilter",
    "options",
    `{prefilter?, fieldReader?} (booleans), with ${TIMESTAMP_OPTIONS}`,
  );
  const reject = meaning && options.prefilter !== false ? compileLineRejecter(meaning) : undefined;
  const slotPredicate = compileSlotPredicate(meaning, options);
  let full: LineFilter;
  if (options.fieldReader === false) {
    const predicate = meaning ? compilePredicate(meaning, options) : () => true;
    full = (line) => {
      const record = parseRecord(line);
      if (record === undefined) return LineVerdict.malformed;
      return predicate(record) ? LineVerdict.match : LineVerdict.miss;
    };
  } else {
    const { fields, test, slotValues } = slotPredicate;
    const read = compileFieldReader(fields);
    const fieldValues: unknown[] = new Array(fields.length);
    const values = slotValues((slot) => fieldValues[slot]);
    full = (line) => {
      if (!read(line, fieldValues)) return LineVerdict.malformed;
      values.next();
      return test(values) ? LineVerdict.match : LineVerdict.miss;
    };
  }
  if (!reject) return full;
  // The reader of a rejected line only validates it (the same grammar, none of the values built),
  // except for the timestamp fields when their unreadable values are told: those are read as they
  // would be without the prefilter.
  const { fields, timeSlots, slotValues } = slotPredicate;
  const timeFields = options.onUnreadableTime ? timeSlots.map((slot) => fields[slot]!) : [];
  const validate = compileFieldReader(timeFields);
  const timeValues: unknown[] = new Array(timeFields.length);
  const rejectedValues = slotValues((slot) => timeValues[timeSlots.indexOf(slot)]);
  const prefiltered: LineFilter = (line) => {
    if (!reject(line)) return full(line);
    if (!validate(line, timeValues)) return LineVerdict.malformed;
    if (timeFields.length > 0) {
      rejectedValues.next();
      for (let k = 0; k < timeSlots.length; k++) rejectedValues.value(timeSlots[k]!);
    }
    return LineVerdict.miss;
  };
  return choosingFaster(prefiltered, full);
}

/**
 * Whether the prefilter pays depends on the lines: a rejected line is still validated, so it
 * saves only reading the named fields, and searching a line for texts it lacks costs about as
 * much as reading one or two fields. So both are timed on a window of lines each,
 * and the faster runs the next windows; the verdicts are the same either way.
 */
function choosingFaster(first: LineFilter, second: LineFilter): LineFilter {
  let current = first;
  let left = CHOICE_TRIAL_LINES;
  let trial: 0 | 1 | 2 = 0;
  let started = performance.now();
  let firstCost = 0;
  return (line) => {
    const verdict = current(line);
    if (--left > 0) return verdict;
    const now = performance.now();
    if (trial === 0) {
      firstCost = now - started;
      current = second;
      trial = 1;
      left = CHOICE_TRIAL_LINES;
    } else if (trial === 1) {
      current = now - started < firstCost ? second : first;
      trial = 2;
      left = CHOICE_TRIAL_LINES * CHOICE_KEPT_TRIALS;
    } else {
      current = first;
      trial = 0;
      left = CHOICE_TRIAL_LINES;
    }
    started = now;
    return verdict;
  };
}

/** Lines each way is timed on before choosing (a few milliseconds), and how many times that the choice is kept. */
const CHOICE_TRIAL_LINES = 2048;
const CHOICE_KEPT_TRIALS = 30;
