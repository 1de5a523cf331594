import { destinationSecrets } from "../api/index.js";
import { attributeOf, type Body, blocksOf } from "./hcl-ast.js";

/**
 * A file's text as excerpts show it: the credentials in each job's `destination_conf` (secret
 * keys, access key IDs, passwords) replaced by `*`, one for each character, so that every offset
 * stays where it was. A CI log shows the lines around a problem; it must not show a secret.
 */
export function shownText(text: string, body: Body): string {
  let shown = text;
  for (const block of blocksOf(body, "resource")) {
    if (block.labels[0]?.value !== "cloudflare_logpush_job") continue;
    const destination = attributeOf(block.body, "destination_conf");
    if (!destination) continue;
    const { start, end } = destination.value;
    const written = text.slice(start, end);
    for (const secret of destinationSecrets(written.replace(/^"|"$/g, ""))) {
      if (secret === "") continue;
      for (let at = written.indexOf(secret); at !== -1; at = written.indexOf(secret, at + secret.length))
        shown =
          shown.slice(0, start + at) + "*".repeat(secret.length) + shown.slice(start + at + secret.length);
    }
  }
  return shown;
}
