import { TIMESTAMP_READINGS, type TimestampReading } from "../eval/index.js";
import { UsageError } from "./io.js";

/** The usage lines of --timestamps (eval, sql and query). */
export const TIMESTAMPS_USAGE = `  --timestamps HOW      how a number in a timestamp field is read: auto (the default: unix
                        seconds or nanoseconds by its size), unix or unixnano, as a job's
                        timestamp_format writes it; RFC 3339 text is read as the time it names`;

/** --timestamps: how numbers in timestamp fields are read (undefined: the default). */
export function parseTimestampReading(value: string | undefined): TimestampReading | undefined {
  if (value === undefined || (TIMESTAMP_READINGS as readonly string[]).includes(value))
    return value as TimestampReading | undefined;
  if (value.startsWith("rfc3339"))
    throw new UsageError(
      `--timestamps ${value}: RFC 3339 text is read as the time it names whatever --timestamps says; it says how numbers are read: auto, unix or unixnano`,
    );
  throw new UsageError(`--timestamps takes auto, unix or unixnano, not ${JSON.stringify(value)}`);
}
