import { ValidationError } from "./errors.js";
import { problem } from "./problems.js";

/** Zone IDs are 32 hex digits; anything URL-safe is accepted (emulators use their own), a zone name is not. */
const ZONE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function zonePath(zone: string, operation: string): string {
  if (!ZONE_ID.test(zone)) {
    throw new ValidationError(operation, [
      problem("InvalidIdentifier", "zone", {
        what: "zone ID",
        value: zone,
        expected: "the zone's ID (32 hex digits, on the dashboard's Overview page), not its name",
      }),
    ]);
  }
  return `/zones/${zone}`;
}

export function jobId(id: number | string, operation: string): number {
  const text = String(id);
  if (!/^[1-9]\d{0,15}$/.test(text)) {
    throw new ValidationError(operation, [
      problem("InvalidIdentifier", "id", {
        what: "job ID",
        value: text,
        expected: "a positive whole number",
      }),
    ]);
  }
  return Number(text);
}
