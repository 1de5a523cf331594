// The module, not the stage's index: that brings every dataset's catalog, which an eval worker never uses.
import { rfc3339Nanoseconds } from "../catalog/timestamps.js";
import { type Decimal, ExactNumber, isShort, jsonNumber, NUMERIC_TEXT, parseDecimal } from "./numbers.js";

/**
 * Logpush filters a record before formatting it: a filter compares a timestamp field's instant in
 * unix nanoseconds, the unit of the job's default output (unixnano), whatever form the delivered
 * file writes it in (a job's `timestamp_format`: unixnano, unix, rfc3339, rfc3339ms, rfc3339ns).
 * Here a value in a delivered file is read back as the instant it names: RFC 3339 text of any
 * fraction length and offset, and numbers (JSON numbers and numeric strings) as unix seconds or
 * nanoseconds, as `TimestampReading` says.
 */

/**
 * How a number in a timestamp field is read: `unixnano` as nanoseconds, `unix` as seconds, `auto`
 * by its size (seconds below AUTO_SECONDS_BELOW, nanoseconds from AUTO_NANOSECONDS_FROM; a number
 * between is no time either job format writes: a millisecond or microsecond time). RFC 3339 text
 * is read whatever the reading.
 */
export const TIMESTAMP_READINGS = ["auto", "unixnano", "unix"] as const;
export type TimestampReading = (typeof TIMESTAMP_READINGS)[number];
export const DEFAULT_TIMESTAMP_READING: TimestampReading = "auto";

/** 10^11 seconds is in the year 5138; unix seconds of any time Logpush logs are far below. */
export const AUTO_SECONDS_BELOW = "100000000000";
/** 10^17 nanoseconds is 1973-03-03T09:46:40Z; unix nanoseconds of any time Logpush logs are above. */
export const AUTO_NANOSECONDS_FROM = "100000000000000000";
/** The same bounds as a Decimal's exponent: the number of digits before the point. */
const SECONDS_MAX_EXPONENT = parseDecimal(AUTO_SECONDS_BELOW)!.exponent - 1;
const NANOSECONDS_MIN_EXPONENT = parseDecimal(AUTO_NANOSECONDS_FROM)!.exponent;

/** A timestamp as eval compares numbers: a double when that is exact, else an ExactNumber (see numbers.ts). */
export type Instant = number | ExactNumber;

/**
 * The instant a timestamp field's value names, in unix nanoseconds; undefined when the value is
 * missing (undefined or null) or cannot be read as a time (then it compares as a missing field).
 */
export function instantOf(value: unknown, reading: TimestampReading): Instant | undefined {
  if (typeof value === "number") {
    // Doubles of JSON numbers compare exactly with these powers of ten (both are short; numbers.ts).
    const magnitude = Math.abs(value);
    const unit =
      reading !== "auto"
        ? reading
        : magnitude < SECONDS_BELOW
          ? "unix"
          : magnitude >= NANOSECONDS_FROM
            ? "unixnano"
            : undefined;
    if (unit === "unixnano") return value;
    return unit && nanosecondsOfSeconds(parseDecimal(String(value))!);
  }
  if (value instanceof ExactNumber) return numberInstant(value, value.decimal, reading);
  if (typeof value !== "string") return undefined;
  if (NUMERIC_TEXT.test(value)) return numberInstant(value, parseDecimal(value)!, reading);
  return rfc3339Instant(value);
}

const SECONDS_BELOW = Number(AUTO_SECONDS_BELOW);
const NANOSECONDS_FROM = Number(AUTO_NANOSECONDS_FROM);

/** The instant of a number kept exact or written as a string: the number itself when it counts nanoseconds. */
function numberInstant(value: string | ExactNumber, decimal: Decimal, reading: TimestampReading) {
  if (decimal.digits === "") return 0;
  const unit =
    reading !== "auto"
      ? reading
      : decimal.exponent <= SECONDS_MAX_EXPONENT
        ? "unix"
        : decimal.exponent >= NANOSECONDS_MIN_EXPONENT
          ? "unixnano"
          : undefined;
  if (unit === "unixnano")
    return value instanceof ExactNumber
      ? value
      : isShort(decimal)
        ? Number(value)
        : new ExactNumber(value, decimal);
  return unit && nanosecondsOfSeconds(decimal);
}

/** A decimal other than zero as text that parseDecimal and Number read back exactly. */
const decimalText = (decimal: Decimal) =>
  `${decimal.negative ? "-" : ""}0.${decimal.digits}e${decimal.exponent}`;

/** Seconds times 10^9, exactly: the decimal's exponent moves on by nine. */
const nanosecondsOfSeconds = (seconds: Decimal): Instant =>
  seconds.digits === "" ? 0 : jsonNumber(decimalText({ ...seconds, exponent: seconds.exponent + 9 }));

/**
 * The instant of RFC 3339 text. The fraction's first nine digits are nanoseconds; further digits
 * that are not all zeros put the instant strictly between two nanoseconds, which a filter's
 * integers compare with as they do with the point halfway (so a fraction of any length costs one
 * scan, not arithmetic on its digits).
 */
function rfc3339Instant(text: string): Instant | undefined {
  const time = rfc3339Nanoseconds(text);
  if (time === undefined) return undefined;
  const { nanoseconds, between } = time;
  if (!between) return jsonNumber(String(nanoseconds));
  return jsonNumber(nanoseconds < 0n ? `-${-nanoseconds - 1n}.5` : `${nanoseconds}.5`);
}

/** How a compiled filter reads timestamp fields. */
export interface TimestampOptions {
  /** How a number in a timestamp field is read (default auto). */
  timestamps?: TimestampReading;
  /**
   * Told of each value of a timestamp field the filter names that cannot be read as a time (it
   * compares as a missing field): once per record, whether or not a comparison needed the value.
   */
  onUnreadableTime?: (field: string, value: unknown) => void;
}

/** Reads a timestamp field's values as their instants, telling `onUnreadableTime` of those that are no time. */
export function timestampReader(
  field: string,
  options: TimestampOptions,
): (value: unknown) => Instant | undefined {
  const reading = options.timestamps ?? DEFAULT_TIMESTAMP_READING;
  const unreadable = options.onUnreadableTime;
  return (value) => {
    const instant = instantOf(value, reading);
    if (instant === undefined && unreadable && value !== undefined && value !== null)
      unreadable(field, value);
    return instant;
  };
}
