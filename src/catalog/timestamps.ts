import type { FieldInfo } from "./catalog.js";

/**
 * Timestamp fields: the fields a job's `timestamp_format` writes (unixnano, unix, rfc3339,
 * rfc3339ms, rfc3339ns), and the RFC 3339 text they may hold. A filter compares them as integers
 * of unix nanoseconds (docs/eval.md, "Timestamps").
 */

/** The catalogs give the fields a job's `timestamp_format` writes the documented type `int or string`. */
export function isTimestampField(field: FieldInfo): boolean {
  return field.type === "int" && field.docType === "int or string";
}

/** Years divisible by 4, except centuries not divisible by 400 (0000 is one), in the proleptic Gregorian calendar. */
const LEAP_YEAR = String.raw`(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)`;
/** A real date: each month's days, February's 29th in leap years only. */
const DATE = String.raw`(?:\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|${LEAP_YEAR}-02-29)`;
/** Hours 00-23, minutes and seconds 00-59 (unix time has no leap second 60), any fraction, `Z` or an offset. */
const TIME = String.raw`[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)`;
/**
 * RFC 3339 date-time text (section 5.6), with only real dates and times: whole, it is the instant's
 * grammar for eval and for the SQL engines alike (their RE2 reads it as JavaScript does).
 */
export const RFC3339_TEXT = new RegExp(`^${DATE}${TIME}$`);

const NANOSECONDS_PER_SECOND = 1_000_000_000n;

/**
 * RFC 3339 text's instant in whole unix nanoseconds (cut toward the past) and whether the fraction
 * goes on past them with digits that are not all zeros; undefined when the text is no RFC 3339
 * time. Read from the text's fixed places, once the grammar has checked each part.
 */
export function rfc3339Nanoseconds(text: string): { nanoseconds: bigint; between: boolean } | undefined {
  if (!RFC3339_TEXT.test(text)) return undefined;
  // The grammar has checked that these places hold ASCII digits: read in place, faster than slices.
  const part = (start: number, end: number) => {
    let value = 0;
    for (let i = start; i < end; i++) value = value * 10 + text.charCodeAt(i) - 48;
    return value;
  };
  let end = text.length;
  let offsetSeconds = 0;
  const last = text[end - 1];
  if (last === "Z" || last === "z") end--;
  else {
    end -= 6;
    const sign = text[end] === "-" ? -1 : 1;
    offsetSeconds = sign * (part(end + 1, end + 3) * 3600 + part(end + 4, end + 6) * 60);
  }
  const fraction = end > 19 ? text.slice(20, end) : "";
  const seconds =
    daysFromCivil(part(0, 4), part(5, 7), part(8, 10)) * 86400 +
    part(11, 13) * 3600 +
    part(14, 16) * 60 +
    part(17, 19) -
    offsetSeconds;
  return {
    nanoseconds: BigInt(seconds) * NANOSECONDS_PER_SECOND + BigInt(fraction.slice(0, 9).padEnd(9, "0")),
    between: fraction.length > 9 && /[1-9]/.test(fraction.slice(9)),
  };
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil,
 * with the year moved on by 400, one whole cycle of 146,097 days, so that every quotient is of a
 * number at least 0: the SQL engines' integer division truncates, and does the same with these).
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = year - (month <= 2 ? 1 : 0) + 400;
  const m = (month + 9) % 12; // March is 0
  return (
    365 * y +
    Math.trunc(y / 4) -
    Math.trunc(y / 100) +
    Math.trunc(y / 400) +
    Math.trunc((153 * m + 2) / 5) +
    day -
    DAYS_TO_EPOCH
  );
}

/** Days from 0000-03-01 to 1970-01-01 (719,468), plus the 400 years daysFromCivil adds. */
export const DAYS_TO_EPOCH = 719_468 + 146_097 + 1;

/** Whole unix nanoseconds as RFC 3339 text in UTC, with the fraction's trailing zeros left out (`1970-01-01T00:00:01.7Z`). */
export function rfc3339TextOf(nanoseconds: bigint): string {
  let seconds = nanoseconds / NANOSECONDS_PER_SECOND;
  if (nanoseconds % NANOSECONDS_PER_SECOND < 0n) seconds--;
  const fraction = String(nanoseconds - seconds * NANOSECONDS_PER_SECOND)
    .padStart(9, "0")
    .replace(/0+$/, "");
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${whole}${fraction === "" ? "" : `.${fraction}`}Z`;
}
