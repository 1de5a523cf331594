/*
 * Units people type after a number (`50ms`, `2s`, `10KiB`), and the `x`s of a status class
 * (`5xx`). Filters take plain numbers: the scanner reads such a number and its letters as one
 * unquoted value, so that the checker can say what was meant (E0310, E0311) instead of the parser
 * reporting the letters as text after the end.
 */

/** What a unit word measures, and its size in the smallest unit of that kind (nanoseconds, bytes). */
export interface UnitWord {
  kind: "time" | "bytes";
  /** Nanoseconds or bytes in one of it; undefined where the word is read two ways (a kB is 1000 or 1024 bytes). */
  size: bigint | undefined;
  /** How messages name the unit. */
  name: string;
}

const time = (size: bigint, name: string): UnitWord => ({ kind: "time", size, name });
const bytes = (size: bigint | undefined, name: string): UnitWord => ({ kind: "bytes", size, name });

const SECOND = 1_000_000_000n;

/** The unit words, in small letters (`µs` and `μs` both: the micro sign and the Greek mu). */
const UNIT_WORDS: ReadonlyMap<string, UnitWord> = new Map([
  ["ns", time(1n, "nanoseconds")],
  ["us", time(1000n, "microseconds")],
  ["µs", time(1000n, "microseconds")],
  ["μs", time(1000n, "microseconds")],
  ["ms", time(1_000_000n, "milliseconds")],
  ["s", time(SECOND, "seconds")],
  ["sec", time(SECOND, "seconds")],
  ["secs", time(SECOND, "seconds")],
  ["second", time(SECOND, "seconds")],
  ["seconds", time(SECOND, "seconds")],
  ["m", time(60n * SECOND, "minutes")],
  ["min", time(60n * SECOND, "minutes")],
  ["mins", time(60n * SECOND, "minutes")],
  ["minute", time(60n * SECOND, "minutes")],
  ["minutes", time(60n * SECOND, "minutes")],
  ["h", time(3600n * SECOND, "hours")],
  ["hr", time(3600n * SECOND, "hours")],
  ["hrs", time(3600n * SECOND, "hours")],
  ["hour", time(3600n * SECOND, "hours")],
  ["hours", time(3600n * SECOND, "hours")],
  ["d", time(86_400n * SECOND, "days")],
  ["day", time(86_400n * SECOND, "days")],
  ["days", time(86_400n * SECOND, "days")],
  ["b", bytes(1n, "bytes")],
  ["byte", bytes(1n, "bytes")],
  ["bytes", bytes(1n, "bytes")],
  ["kib", bytes(1024n, "kibibytes")],
  ["mib", bytes(1024n ** 2n, "mebibytes")],
  ["gib", bytes(1024n ** 3n, "gibibytes")],
  ["k", bytes(undefined, "kilobytes")],
  ["kb", bytes(undefined, "kilobytes")],
  ["mb", bytes(undefined, "megabytes")],
  ["gb", bytes(undefined, "gigabytes")],
]);

/** Every unit word (in small letters): the editors' grammars read a number and one of them as one value. */
export const UNIT_WORDS_LOWER: readonly string[] = [...UNIT_WORDS.keys()];

/** The unit a word after a number names, in any letter case but `M` (mega, not minutes). */
export function unitWord(word: string): UnitWord | undefined {
  if (word === "M") return undefined;
  return UNIT_WORDS.get(word.toLowerCase());
}

/** Whether letters right after a number continue it into one unquoted value: a unit, or a status class's `x`s. */
export function continuesNumber(letters: string): boolean {
  return /^[xX]+$/.test(letters) || unitWord(letters) !== undefined;
}

/** A number written with a unit (`50ms`, `1.5s`): its digits and the unit word; undefined for anything else. */
export function numberWithUnit(text: string): { digits: string; unit: UnitWord; word: string } | undefined {
  const match = /^(-?\d+(?:\.\d+)?)([A-Za-zµμ]+)$/.exec(text);
  const unit = match ? unitWord(match[2]!) : undefined;
  return match && unit ? { digits: match[1]!, unit, word: match[2]! } : undefined;
}

/** A status class (`5xx`, `50x`): the lowest and highest number it stands for; undefined for anything else. */
export function numberClass(text: string): { low: string; high: string } | undefined {
  const match = /^([1-9]\d*)([xX]+)$/.exec(text);
  if (!match) return undefined;
  const places = match[2]!.length;
  return { low: match[1]! + "0".repeat(places), high: match[1]! + "9".repeat(places) };
}
