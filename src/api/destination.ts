import type { Problem } from "./errors.js";
import { problem } from "./problems.js";
import { MASK } from "./secrets.js";

/** S3 bucket names: 3–63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
export const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** R2 bucket names: 3–63 lower-case letters, digits and hyphens. */
const R2_BUCKET = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
/** Google Cloud Storage bucket names: 3–63 lower-case letters, digits, dots, hyphens and underscores. */
const GCS_BUCKET = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
/** AWS regions: `us-west-2`, `eu-central-1`, `us-gov-west-1`, `ap-southeast-4`. */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** Query parameters whose values are credentials: masked wherever a destination is shown. */
const SECRET_PARAMETERS = new Set(["secret-access-key", "access-key-id", "sig", "ibm_api_key", "api-key"]);
const isSecretParameter = (name: string) => {
  const lower = name.toLowerCase();
  return SECRET_PARAMETERS.has(lower) || lower.startsWith("header_");
};

/** The schemes Logpush pushes to, for messages. */
const SCHEMES = "s3, r2, gs, azure, datadog, splunk, sumo, https (also New Relic), kinesis, ibmcl";

interface Parts {
  scheme: string;
  /** The text between `://` and the path: bucket, container, host[:port] or stream. */
  authority: string;
  path: string;
  /** Query parameters, decoded (a name given twice keeps its last value). */
  query: Map<string, string>;
  /** Each query parameter's name, decoded, and its value as written (`abc+def`, `abc%2Bdef`). */
  written: [name: string, value: string][];
}

function parse(destination: string): Parts | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?$/i.exec(destination);
  if (!match) return undefined;
  const query = new Map<string, string>();
  const written: [string, string][] = [];
  for (const part of (match[4] ?? "").split("&")) {
    if (part === "") continue;
    const at = part.indexOf("=");
    const name = decode(at === -1 ? part : part.slice(0, at));
    const value = at === -1 ? "" : part.slice(at + 1);
    query.set(name, decode(value));
    written.push([name, value]);
  }
  return { scheme: match[1]!.toLowerCase(), authority: match[2]!, path: match[3]!, query, written };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * `destination` with every credential in it replaced by `****`: secret keys, access key IDs, `header_*`
 * values, Azure SAS signatures, API keys, a Sumo Logic collector code and any user:password before the host.
 */
export function maskDestination(destination: string): string {
  let masked = destination.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${MASK}@`);
  masked = masked.replace(/^(sumo:\/\/[^/?#]*\/receiver\/v1\/http\/)[^?#]+/i, `$1${MASK}`);
  const query = masked.indexOf("?");
  if (query === -1) return masked;
  const parameters = masked
    .slice(query + 1)
    .split("&")
    .map((part) => {
      const at = part.indexOf("=");
      return at !== -1 && isSecretParameter(decode(part.slice(0, at)))
        ? `${part.slice(0, at)}=${MASK}`
        : part;
    });
  return `${masked.slice(0, query)}?${parameters.join("&")}`;
}

/**
 * The credentials inside a destination, for masking what a server echoes: each as written (what
 * the client sent: `abc+def`) and decoded (`abc def`), every value of a name given twice, and a
 * user:password before the host also as HTTP Basic credentials (base64), the form a service
 * pushing there sends it in.
 */
export function destinationSecrets(destination: string): string[] {
  const parts = parse(destination);
  if (!parts) return [];
  const secrets: string[] = [];
  for (const [name, value] of parts.written)
    if (isSecretParameter(name) && value !== "") secrets.push(value, decode(value));
  const sumo = /^\/receiver\/v1\/http\/(.+)$/.exec(parts.path);
  if (parts.scheme === "sumo" && sumo) secrets.push(sumo[1]!, decode(sumo[1]!));
  const userinfo = /^([^@]*)@/.exec(parts.authority)?.[1];
  if (userinfo) {
    const decoded = userinfo.split(":").map(decode).join(":");
    secrets.push(userinfo, decoded, basicCredentials(decoded));
  }
  return [...new Set(secrets)];
}

/** `user:password` as an `Authorization: Basic` header carries it: base64 of its UTF-8 bytes. */
function basicCredentials(userinfo: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(userinfo)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Whether a job may push to the destination only with the token of its ownership challenge: S3
 * without keys in the URL, Cloud Storage, Azure and Sumo Logic. The others carry their own
 * credentials (S3-compatible and R2 keys, HTTP headers, API keys).
 */
export function needsOwnershipChallenge(destination: string): boolean {
  const parts = parse(destination);
  if (!parts) return false;
  if (parts.scheme === "s3") return !parts.query.has("access-key-id");
  return parts.scheme === "gs" || parts.scheme === "azure" || parts.scheme === "sumo";
}

export interface DestinationCheck {
  problems: Problem[];
  notices: string[];
}

/**
 * Checks `destination_conf` by its scheme: the bucket, container, host or stream, and the parameters
 * each destination needs (a region, keys, a SAS signature, an API key header). Messages never show the
 * credentials (the destination is shown masked).
 */
export function checkDestination(destination: string, path = "destination_conf"): DestinationCheck {
  const invalid = (reason: string): DestinationCheck => ({
    problems: [problem("InvalidDestination", path, { destination: maskDestination(destination), reason })],
    notices: [],
  });
  const parts = parse(destination);
  if (!parts) return invalid("expected a URL such as s3://bucket/logs?region=us-west-2 (a scheme and ://)");
  const { scheme, authority, path: urlPath, query } = parts;
  const needs = (names: readonly string[], example: string): DestinationCheck | undefined => {
    const missing = names.filter((name) => !query.get(name));
    return missing.length > 0
      ? invalid(`a ${scheme} destination needs ${missing.join(", ")} (${example})`)
      : undefined;
  };
  switch (scheme) {
    case "s3": {
      if (!S3_BUCKET.test(authority) || authority.includes(".."))
        return invalid(
          `the bucket ${JSON.stringify(authority)} is not a valid S3 bucket name (3–63 lower-case letters, digits, dots, hyphens)`,
        );
      const region = query.get("region");
      if (!region)
        return invalid("an s3 destination needs its bucket's region: add ?region=us-west-2 (for example)");
      if (!REGION.test(region) && !query.get("endpoint"))
        return invalid(`${JSON.stringify(region)} is not an AWS region (e.g. us-west-2, eu-central-1)`);
      if (query.has("access-key-id") !== query.has("secret-access-key"))
        return invalid("an S3-compatible destination gives both access-key-id and secret-access-key");
      return ok();
    }
    case "r2":
      if (!R2_BUCKET.test(authority))
        return invalid(
          `the bucket ${JSON.stringify(authority)} is not a valid R2 bucket name (3–63 lower-case letters, digits, hyphens)`,
        );
      return (
        needs(
          ["account-id", "access-key-id", "secret-access-key"],
          "r2://bucket/path?account-id=…&access-key-id=…&secret-access-key=…",
        ) ?? ok()
      );
    case "gs":
      if (!GCS_BUCKET.test(authority))
        return invalid(`the bucket ${JSON.stringify(authority)} is not a valid Cloud Storage bucket name`);
      return ok();
    case "azure":
      if (authority === "")
        return invalid("an azure destination names its container: azure://container/path?<SAS>");
      return (
        needs(["sig"], "the container's SAS token as the query: azure://container/path?sv=…&sig=…") ?? ok()
      );
    case "datadog":
      if (authority === "")
        return invalid(
          "a datadog destination names the intake host: datadog://http-intake.logs.datadoghq.com/api/v2/logs?…",
        );
      return needs(["header_DD-API-KEY"], "datadog://HOST/api/v2/logs?header_DD-API-KEY=…") ?? ok();
    case "splunk":
      if (!/^\/services\/collector\/raw\/?$/.test(urlPath))
        return invalid(
          "a splunk destination posts to /services/collector/raw: splunk://HOST:PORT/services/collector/raw?channel=…",
        );
      return (
        needs(["channel", "header_Authorization"], "?channel=GUID&header_Authorization=Splunk%20TOKEN") ??
        ok()
      );
    case "sumo":
      if (!/^\/receiver\/v1\/http\/[^/]+$/.test(urlPath))
        return invalid("a sumo destination is the HTTP source's URL: sumo://HOST/receiver/v1/http/CODE");
      return ok();
    case "https": {
      if (authority === "" || authority.endsWith("@")) return invalid("an https destination names its host");
      if (/^log-api(\.eu)?\.newrelic\.com$/i.test(authority))
        return needs(["Api-Key"], "https://log-api.newrelic.com/log/v1?Api-Key=…&format=cloudflare") ?? ok();
      return ok();
    }
    case "http":
      return invalid("Logpush pushes over TLS only: use https://");
    case "kinesis": {
      if (authority === "")
        return invalid("a kinesis destination names its stream: kinesis://STREAM?region=…");
      const missing = needs(["region"], "kinesis://STREAM?region=us-east-1&sts-assume-role-arn=…");
      if (missing) return missing;
      const keys = query.has("access-key-id") && query.has("secret-access-key");
      if (!query.get("sts-assume-role-arn") && !keys)
        return invalid(
          "a kinesis destination gives sts-assume-role-arn, or access-key-id and secret-access-key",
        );
      return ok();
    }
    case "ibmcl":
      return (
        needs(
          ["ibm_api_key"],
          "ibmcl://INSTANCE.ingress.REGION.logs.cloud.ibm.com/logs/v1/singles?ibm_api_key=…",
        ) ?? ok()
      );
    default:
      return invalid(`unknown scheme ${JSON.stringify(scheme)}; Logpush pushes to ${SCHEMES}`);
  }
}

function ok(): DestinationCheck {
  return { problems: [], notices: [] };
}
