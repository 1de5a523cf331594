// The module, not the stage's index: eval's worker threads load this file.
import { terminalJson } from "../diagnostics/terminal-text.js";
import { ExactNumber, NUMERIC_TEXT } from "../eval/index.js";
/** The values of timestamp fields a filter could not read as a time, over a run or a part of one. */
export interface UnreadableTimeTally {
  count: number;
  /** Where the first ones are (line numbers as the part counts them). */
  first: { input: string; line: number }[];
  /** The first one, as shown. */
  example: { field: string; value: string; number: boolean } | undefined;
}

/** Places of unreadable values the report names, as for malformed lines. */
const PLACES_SHOWN = 5;
/** A value is shown cut to this many characters. */
const VALUE_SHOWN = 40;

export function emptyTally(): UnreadableTimeTally {
  return { count: 0, first: [], example: undefined };
}

/**
 * Counts what a filter compiled with `note` as its onUnreadableTime tells, at the place of the line
 * tested: evalLines says which input and line that is.
 */
export class UnreadableTimes {
  tally = emptyTally();
  input = "";
  line = 0;

  readonly note = (field: string, value: unknown): void => {
    const { tally } = this;
    tally.count++;
    if (tally.first.length < PLACES_SHOWN) tally.first.push({ input: this.input, line: this.line });
    tally.example ??= { field, value: shownValue(value), number: isNumber(value) };
  };
}

/** Adds a part's tally to the run's, the part's line numbers moved on by `lineOffset`. */
export function addTally(total: UnreadableTimeTally, part: UnreadableTimeTally, lineOffset: number): void {
  total.count += part.count;
  for (const place of part.first)
    if (total.first.length < PLACES_SHOWN)
      total.first.push({ input: place.input, line: place.line + lineOffset });
  total.example ??= part.example;
}

const isNumber = (value: unknown) =>
  typeof value === "number" ||
  value instanceof ExactNumber ||
  (typeof value === "string" && NUMERIC_TEXT.test(value));

/** The value as JSON for a terminal, numbers as the log wrote them, cut to VALUE_SHOWN characters. */
function shownValue(value: unknown): string {
  if (value instanceof ExactNumber) return cut(value.text);
  // A long string is cut before it is written out, which could take as long as the line.
  const json = terminalJson(typeof value === "string" ? value.slice(0, VALUE_SHOWN + 1) : value);
  return cut(json);
}

const cut = (text: string) => (text.length > VALUE_SHOWN ? `${text.slice(0, VALUE_SHOWN - 1)}…` : text);

/**
 * The report of a run's unreadable values, or undefined when there were none: how many, where the
 * first are (with their inputs when `manyInputs`; query has no line numbers), and the first one.
 */
export function unreadableTimesReport(tally: UnreadableTimeTally, manyInputs: boolean): string | undefined {
  const { count, example } = tally;
  if (count === 0 || example === undefined) return undefined;
  const places = tally.first.map((place) =>
    manyInputs ? `${place.input}:${place.line}` : String(place.line),
  );
  const shown = `${example.field} ${example.value}${example.number ? ", a number the size of neither unix seconds nor unix nanoseconds: see --timestamps" : ""}`;
  if (count === 1)
    return `1 value of a timestamp field cannot be read as a time, so it compares as a missing field (${places.length > 0 ? `line ${places[0]}: ` : ""}${shown})`;
  const more = count > places.length ? ", …" : "";
  const where =
    places.length > 0 ? `first at lines ${places.join(", ")}${more}; line ${places[0]}: ` : "one is ";
  return `${count} values of timestamp fields cannot be read as a time, so they compare as missing fields (${where}${shown})`;
}
