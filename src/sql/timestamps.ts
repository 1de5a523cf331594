import { DAYS_TO_EPOCH, RFC3339_TEXT } from "../catalog/index.js";
import { AUTO_NANOSECONDS_FROM, AUTO_SECONDS_BELOW, type TimestampReading } from "../eval/index.js";

import type { Dialect, JsonRef } from "./dialect.js";
import {
  compareNumber,
  isNumeric,
  type NumberOperator,
  numberCases,
  sqlComparator,
  unanchoredPattern,
} from "./numbers.js";

/**
 * A timestamp field as eval reads it (eval/timestamps.ts): RFC 3339 text as the instant it names,
 * numbers as unix seconds or nanoseconds as the reading says, compared with the filter's integers
 * (unix nanoseconds). Both engines compute the instant from the text's parts with integer
 * arithmetic on 128 bits, never with their date functions, which differ in range and in the text
 * they accept.
 */

const RFC3339_PATTERN = unanchoredPattern(RFC3339_TEXT);

/** A positive comparison of a timestamp field with integer constants (true, false or NULL). */
export function timestampTest(
  dialect: Dialect,
  ref: JsonRef,
  operator: NumberOperator,
  constants: readonly string[],
  reading: TimestampReading,
): string {
  const text = dialect.text(ref);
  const seconds = () => compareNumber(dialect, text, operator, constants.map(secondsText));
  const nanoseconds = () => compareNumber(dialect, text, operator, constants);
  const number =
    reading === "unixnano"
      ? nanoseconds()
      : reading === "unix"
        ? seconds()
        : `(${magnitudeBelow(dialect, text, AUTO_SECONDS_BELOW)} AND ${seconds()} OR NOT ${magnitudeBelow(dialect, text, AUTO_NANOSECONDS_FROM)} AND ${nanoseconds()})`;
  return `(${isNumeric(dialect, ref)} AND ${number} OR ${isRfc3339(dialect, ref)} AND ${rfc3339Comparison(dialect, text, operator, constants)})`;
}

/** Whether the field holds a value (not null) that is no time: eval counts those. */
export function unreadableTime(dialect: Dialect, ref: JsonRef, reading: TimestampReading): string {
  const text = dialect.text(ref);
  const number =
    reading === "auto"
      ? `${isNumeric(dialect, ref)} AND (${magnitudeBelow(dialect, text, AUTO_SECONDS_BELOW)} OR NOT ${magnitudeBelow(dialect, text, AUTO_NANOSECONDS_FROM)})`
      : isNumeric(dialect, ref);
  const time = dialect.orFalse(`${number} OR ${isRfc3339(dialect, ref)}`);
  return dialect.orFalse(`NOT ${dialect.isKind(ref, "null")} AND NOT ${time}`);
}

const isRfc3339 = (dialect: Dialect, ref: JsonRef) =>
  `${dialect.isKind(ref, "string")} AND ${dialect.fullMatch(dialect.text(ref), RFC3339_PATTERN)}`;

/** Whether numeric text is smaller in magnitude than `bound` (a power of ten), exactly where compareNumber is exact. */
function magnitudeBelow(dialect: Dialect, text: string, bound: string): string {
  return numberCases(dialect, text, [bound], (value, [literal]) => `abs(${value}) < ${literal}`);
}

/** An integer of nanoseconds as exact decimal text of seconds (`-1500000000` → `-1.5`). */
function secondsText(nanoseconds: string): string {
  const negative = nanoseconds.startsWith("-");
  const digits = (negative ? nanoseconds.slice(1) : nanoseconds).padStart(10, "0");
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(-9).replace(/0+$/, "");
  const zero = whole === "0" && fraction === "";
  return `${negative && !zero ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}

/**
 * RFC 3339 text (the grammar checked) compared with the constants: its whole nanoseconds, cut toward
 * the past, and whether the fraction goes on past them (then it equals no integer, is below the
 * constants above them and above those up to them).
 */
function rfc3339Comparison(
  dialect: Dialect,
  text: string,
  operator: NumberOperator,
  constants: readonly string[],
): string {
  const { integer, quotient } = dialect;
  const part = (start: number, length: number) => integer(`substr(${text}, ${start}, ${length})`);
  const month = part(6, 2);
  // H. Hinnant's days_from_civil, with the year moved on by 400 so that every quotient is of a
  // number at least 0 (as eval's daysFromCivil).
  const year = `(${part(1, 4)} + 399 + ${quotient(`${month} + 9`, "12")})`;
  const march = `((${month} + 9) % 12)`;
  const days = `(365 * ${year} + ${quotient(year, "4")} - ${quotient(year, "100")} + ${quotient(year, "400")} + ${quotient(`153 * ${march} + 2`, "5")} + ${part(9, 2)} - ${DAYS_TO_EPOCH})`;
  const zone = `right(${text}, 6)`;
  const sign = dialect.ifElse(`substr(${zone}, 1, 1) = ${dialect.string("-")}`, "-1", "1");
  const offset = dialect.ifElse(
    dialect.fullMatch(text, ".*[Zz]"),
    "0",
    `${sign} * (${integer(`substr(${zone}, 2, 2)`)} * 3600 + ${integer(`substr(${zone}, 5, 2)`)} * 60)`,
  );
  const fraction = integer(
    `substr(${dialect.firstGroup(text, String.raw`^.{19}\.(\d+)`)} || ${dialect.string("000000000")}, 1, 9)`,
  );
  const instant = `((${days} * 86400 + ${part(12, 2)} * 3600 + ${part(15, 2)} * 60 + ${part(18, 2)} - ${offset}) * 1000000000 + ${fraction})`;
  const between = dialect.fullMatch(text, String.raw`.{19}\.\d{9}\d*[1-9].*`);
  const literals = constants.map((constant) => integer(dialect.string(constant)));
  switch (operator) {
    case "eq":
    case "in":
      return `${literals.length === 1 ? `${instant} = ${literals[0]}` : `${instant} IN (${literals.join(", ")})`} AND NOT ${between}`;
    case "lt":
    case "geq":
      return `${instant} ${sqlComparator(operator)} ${literals[0]}`;
    case "leq":
      return `(${instant} < ${literals[0]} OR ${instant} = ${literals[0]} AND NOT ${between})`;
    case "gt":
      return `(${instant} > ${literals[0]} OR ${instant} = ${literals[0]} AND ${between})`;
  }
}
