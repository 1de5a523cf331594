import { destinationSecrets, maskDestination } from "./destination.js";
import { SecretMask } from "./secrets.js";

/**
 * A copy of `answer`, what the service returned, fit to show: in every string each form of
 * `secrets` masked. Unless `showDestinations`, a destination is masked too: an object's
 * `destination_conf` (a job's), or the `before` and `after` of a change of it, and its credentials
 * wherever they recur inside that object (a job's `error_message` may quote them). Each object is
 * masked with its own destination's credentials only, so time grows with the answer, not with
 * its square.
 */
export function maskAnswer(answer: unknown, secrets: readonly string[], showDestinations: boolean): unknown {
  return masked(answer, SecretMask.of(secrets), showDestinations, false);
}

/** The members that hold a destination: a job's, and both sides of a change of it. */
const DESTINATION = ["destination_conf"];
const CHANGED_DESTINATION = ["destination_conf", "before", "after"];

function masked(value: unknown, mask: SecretMask, show: boolean, destination: boolean): unknown {
  if (typeof value === "string") {
    const text = mask.apply(value);
    return destination && !show ? maskDestination(text) : text;
  }
  if (Array.isArray(value)) return value.map((item) => masked(item, mask, show, false));
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  const destinations = object["path"] === "destination_conf" ? CHANGED_DESTINATION : DESTINATION;
  const own = show
    ? []
    : destinations.flatMap((key) => {
        const member = object[key];
        return typeof member === "string" ? destinationSecrets(member) : [];
      });
  const inside = mask.with(own);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(object))
    copy[key] = masked(object[key], inside, show, destinations.includes(key));
  return copy;
}
