import fc from "fast-check";

/** A job's `timestamp_format`s: how Logpush writes a timestamp field in a delivered file. */
export const LOGPUSH_TIMESTAMP_FORMATS = ["unixnano", "unix", "rfc3339", "rfc3339ms", "rfc3339ns"] as const;
export type LogpushTimestampFormat = (typeof LOGPUSH_TIMESTAMP_FORMATS)[number];

const NANOSECONDS_PER_SECOND = 1_000_000_000n;

/** Division rounding toward minus infinity (BigInt's rounds toward zero). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? quotient - 1n : quotient;
}

/** The instant cut toward the past to `digits` fraction digits of a second. */
export function cutTo(ns: bigint, digits: number): bigint {
  if (digits >= 9) return ns;
  const unit = 10n ** BigInt(9 - digits);
  return floorDiv(ns, unit) * unit;
}

/**
 * RFC 3339 text of the instant `ns` (unix nanoseconds), written from JavaScript's Date (which the
 * reader under test does not use): `digits` fraction digits (the instant cut toward the past; past
 * nine, `extra` digits follow the nanoseconds), at `offsetMinutes` east of UTC (`Z` for 0 unless
 * `numericZero`), `T` and `Z` in `lowerCase` when asked.
 */
export function rfc3339Text(
  ns: bigint,
  digits: number,
  offsetMinutes = 0,
  options: { extra?: string; numericZero?: boolean; lowerCase?: boolean } = {},
): string {
  const seconds = floorDiv(ns, NANOSECONDS_PER_SECOND);
  const nanos = ns - seconds * NANOSECONDS_PER_SECOND;
  const local = new Date(Number(seconds + BigInt(offsetMinutes * 60)) * 1000).toISOString().slice(0, 19);
  const nine = String(nanos).padStart(9, "0");
  const fraction =
    digits === 0
      ? ""
      : `.${digits <= 9 ? nine.slice(0, digits) : nine + (options.extra ?? "0").padEnd(digits - 9, "0").slice(0, digits - 9)}`;
  const magnitude = Math.abs(offsetMinutes);
  const offset =
    offsetMinutes === 0 && !options.numericZero
      ? "Z"
      : `${offsetMinutes < 0 ? "-" : "+"}${String(Math.trunc(magnitude / 60)).padStart(2, "0")}:${String(magnitude % 60).padStart(2, "0")}`;
  const text = `${local}${fraction}${offset}`;
  return options.lowerCase ? text.replace("T", "t").replace("Z", "z") : text;
}

/** The JSON value Logpush writes for the instant in a format (the instant cut to the format's precision). */
export function writtenTimestamp(ns: bigint, format: LogpushTimestampFormat): string {
  switch (format) {
    case "unixnano":
      return String(ns);
    case "unix":
      return String(floorDiv(ns, NANOSECONDS_PER_SECOND));
    case "rfc3339":
      return JSON.stringify(rfc3339Text(ns, 0));
    case "rfc3339ms":
      return JSON.stringify(rfc3339Text(ns, 3));
    case "rfc3339ns":
      return JSON.stringify(rfc3339Text(ns, 9));
  }
}

/** The instant a format keeps of `ns`: what its unixnano value is. */
export const keptInstant = (ns: bigint, format: LogpushTimestampFormat) =>
  cutTo(ns, { unixnano: 9, unix: 0, rfc3339: 0, rfc3339ms: 3, rfc3339ns: 9 }[format]);

/** 0001-01-01T00:00:00Z and 9998-12-31T00:00:00Z: the instants every offset keeps within four-digit years. */
export const FIRST_INSTANT = -62_135_596_800n * NANOSECONDS_PER_SECOND;
export const LAST_INSTANT = 253_370_764_800n * NANOSECONDS_PER_SECOND;

/** Instants over the whole range, and around 1970 and today (where the logs are) more often. */
export const instantArbitrary: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: FIRST_INSTANT, max: LAST_INSTANT }),
  fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
  fc.bigInt({ min: 1_600_000_000n * NANOSECONDS_PER_SECOND, max: 1_800_000_000n * NANOSECONDS_PER_SECOND }),
);

/** Instants whose unix seconds and unix nanoseconds `auto` reads both: from 1973-03-03 (10^17 ns) to the year 5138 (10^11 s), and as far before 1970. */
export const autoInstantArbitrary: fc.Arbitrary<bigint> = fc
  .tuple(
    fc.oneof(
      // A second short of 10^11 seconds: cut toward the past, a time before 1970 stays within.
      fc.bigInt({ min: 10n ** 17n, max: 10n ** 20n - NANOSECONDS_PER_SECOND }),
      fc.bigInt({
        min: 1_600_000_000n * NANOSECONDS_PER_SECOND,
        max: 1_800_000_000n * NANOSECONDS_PER_SECOND,
      }),
    ),
    fc.boolean(),
  )
  .map(([ns, before1970]) => (before1970 ? -ns : ns));
