import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { ErrorCode, SandboxError } from "./errors.js";

/** The credentials the sandbox accepts: an API token, an email with a global API key, or both. */
export interface Credentials {
  apiToken?: string;
  apiEmail?: string;
  apiKey?: string;
}

/** With no credentials configured the sandbox makes a token, so it never runs open. */
export function resolveCredentials(given: Credentials): {
  credentials: Credentials;
  generatedToken?: string;
} {
  for (const name of ["apiToken", "apiEmail", "apiKey"] as const)
    if (given[name] === "") throw new Error(`${name} is empty; give a credential or leave it out`);
  if (given.apiToken || (given.apiEmail && given.apiKey)) return { credentials: given };
  const generatedToken = randomBytes(24).toString("base64url");
  return { credentials: { apiToken: generatedToken }, generatedToken };
}

/** Compares in constant time (through digests, so lengths leak nothing either). */
export function same(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Lets the request through when it carries an accepted credential of either scheme. */
export function authenticate(headers: IncomingHttpHeaders, credentials: Credentials): void {
  const authorization = header(headers, "authorization");
  const email = header(headers, "x-auth-email");
  const key = header(headers, "x-auth-key");
  if (authorization === undefined && email === undefined && key === undefined)
    throw new SandboxError(
      401,
      ErrorCode.authentication,
      "Authentication error: send Authorization: Bearer <API token>, or X-Auth-Email and X-Auth-Key",
    );
  const bearer = authorization === undefined ? undefined : /^Bearer (.+)$/.exec(authorization)?.[1];
  if (bearer !== undefined && credentials.apiToken !== undefined && same(bearer, credentials.apiToken))
    return;
  if (
    email !== undefined &&
    key !== undefined &&
    credentials.apiEmail !== undefined &&
    credentials.apiKey !== undefined &&
    same(email, credentials.apiEmail) &&
    same(key, credentials.apiKey)
  )
    return;
  throw new SandboxError(401, ErrorCode.authentication, "Authentication error");
}
