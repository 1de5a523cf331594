import type { Problem } from "./errors.js";
import { problem } from "./problems.js";

/** S3 bucket names: 3–63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
export const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** AWS regions: `us-west-2`, `eu-central-1`, `us-gov-west-1`, `ap-southeast-4`. */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

export interface DestinationCheck {
  problems: Problem[];
  notices: string[];
}

/**
 * Checks `destination_conf`. `s3://bucket[/path]?region=…` is checked in full (the form the seed
 * uses); other schemes (r2, gs, azure, https, splunk, datadog…) are passed through with a notice,
 * since their options are the service's to check.
 */
export function checkDestination(destination: string, path = "destination"): DestinationCheck {
  const invalid = (reason: string): DestinationCheck => ({
    problems: [problem("InvalidDestination", path, { destination, reason })],
    notices: [],
  });
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(destination)?.[1];
  if (scheme === undefined)
    return invalid("expected a URL such as s3://bucket/logs?region=us-west-2 (a scheme and ://)");
  if (scheme.toLowerCase() !== "s3") {
    return {
      problems: [],
      notices: [
        `${path}: the ${scheme}:// destination is passed through as written; filterc checks s3:// destinations only`,
      ],
    };
  }
  const match = /^s3:\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?$/i.exec(destination);
  if (!match) return invalid("an s3 destination is s3://bucket/path?region=REGION");
  const [, bucket = "", , query] = match;
  if (!S3_BUCKET.test(bucket) || bucket.includes(".."))
    return invalid(
      `the bucket ${JSON.stringify(bucket)} is not a valid S3 bucket name (3–63 lower-case letters, digits, dots, hyphens)`,
    );
  const region = new URLSearchParams(query ?? "").get("region");
  if (region === null || region === "")
    return invalid("an s3 destination needs its bucket's region: add ?region=us-west-2 (for example)");
  if (!REGION.test(region))
    return invalid(`${JSON.stringify(region)} is not an AWS region (e.g. us-west-2, eu-central-1)`);
  return { problems: [], notices: [] };
}
