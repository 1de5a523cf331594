import { join } from "node:path";
import { S3_BUCKET } from "../api/destination.js";
import { MAX_DESTINATION_LENGTH } from "../api/job-options.js";
import { invalidJob } from "./errors.js";

/** An `s3://bucket/path?region=…` destination, mapped to the folder `<data dir>/<bucket>/<path>`. */
interface Destination {
  bucket: string;
  /** Path segments under the bucket; `{DATE}` is kept and filled in at push time. */
  segments: string[];
  /** bucket/path without the query: the key of the ownership challenge. */
  key: string;
}

const segmentName = /^[A-Za-z0-9!_.*'()={}-]+$/;
/** A path segment becomes a folder name: file systems take at most 255 bytes (the segments are ASCII). */
const MAX_SEGMENT_BYTES = 255;
/** What `{DATE}` becomes: YYYYMMDD. */
const DATE_LENGTH = 8;

export function parseDestination(destination: string): Destination {
  if (destination.length > MAX_DESTINATION_LENGTH)
    throw invalidJob(
      `destination_conf is ${destination.length} characters; at most ${MAX_DESTINATION_LENGTH} are allowed`,
    );
  const match = /^s3:\/\/([^/?]+)((?:\/[^?]*)?)(?:\?(.*))?$/.exec(destination);
  if (!match)
    throw invalidJob(
      `destination_conf ${JSON.stringify(destination)} is not supported by the sandbox: it delivers to s3://bucket/path?region=REGION`,
    );
  const [, bucket = "", path = "", query = ""] = match;
  if (!S3_BUCKET.test(bucket))
    throw invalidJob(`destination_conf: ${JSON.stringify(bucket)} is not a valid S3 bucket name`);
  const segments = path.split("/").filter((segment) => segment !== "");
  for (const segment of segments)
    if (!segmentName.test(segment) || segment === "." || segment === "..")
      throw invalidJob(`destination_conf: the path segment ${JSON.stringify(segment)} is not allowed`);
  for (const segment of segments) {
    const bytes = segment.replaceAll("{DATE}", "x".repeat(DATE_LENGTH)).length;
    if (bytes > MAX_SEGMENT_BYTES)
      throw invalidJob(
        `destination_conf: a path segment is ${bytes} bytes (with {DATE} filled in); the sandbox takes at most ${MAX_SEGMENT_BYTES}`,
      );
  }
  if (!new URLSearchParams(query).get("region"))
    throw invalidJob("destination_conf: an s3 destination needs ?region=REGION");
  return { bucket, segments, key: [bucket, ...segments].join("/") };
}

/** The folder a push writes to for `date` (YYYYMMDD), inside the data directory. */
export function destinationFolder(dataDir: string, destination: Destination, date: string): string {
  return join(dataDir, destination.bucket, ...destination.segments.map((s) => s.replaceAll("{DATE}", date)));
}
