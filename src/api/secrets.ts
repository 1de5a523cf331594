import { expectArgument, isString } from "../diagnostics/index.js";
import { isStrings } from "./argument-shapes.js";

/** What replaces a credential wherever a request, an error or a destination is shown. */
export const MASK = "****";

/** A prefix of a secret this long or longer, echoed by a server, is masked too. */
const MASKED_PREFIX_LENGTH = 8;

/**
 * `text` with every form of each secret a server may echo replaced by `****`: the secret as given,
 * trimmed, JSON-escaped, URL-encoded, and any prefix of eight characters or more (a truncated echo).
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  expectArgument(text, isString, "maskSecrets", "text", "a string");
  expectArgument(secrets, isStrings, "maskSecrets", "secrets", "the secrets (an array of strings)");
  let masked = text;
  for (const secret of secrets) {
    const forms = new Set([
      secret,
      secret.trim(),
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
    ]);
    for (const form of [...forms].sort((a, b) => b.length - a.length))
      if (form.length > 0) masked = masked.split(form).join(MASK);
    if (secret.length >= MASKED_PREFIX_LENGTH) masked = maskPrefixes(masked, secret.trim());
  }
  return masked;
}

/** Replaces each run of text that starts like `secret` for at least the masked prefix length. */
function maskPrefixes(text: string, secret: string): string {
  const start = secret.slice(0, MASKED_PREFIX_LENGTH);
  let out = "";
  let from = 0;
  for (let at = text.indexOf(start); at !== -1; at = text.indexOf(start, from)) {
    let end = at + start.length;
    while (end - at < secret.length && text[end] === secret[end - at]) end++;
    out += `${text.slice(from, at)}${MASK}`;
    from = end;
  }
  return out + text.slice(from);
}

/** Whether a credential holds a character no HTTP header can carry (CR, LF and other controls). */
export function hasControlCharacter(value: string): boolean {
  expectArgument(value, isString, "hasControlCharacter", "value", "a string");
  return /[\0-\x1f\x7f]/.test(value);
}
