import { destinationSecrets } from "../api/index.js";
import { attributeOf, type Block, type Body, blocksOf } from "./hcl-ast.js";
import type { Site, SourceFile } from "./source-file.js";
import { evaluate, type Scope } from "./values.js";

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

/**
 * Where the credentials of a job's destination are written when its `destination_conf` takes them
 * from elsewhere (a variable's default, a `.tfvars` value, a local, a file `file()` reads): each
 * character's place, through escapes, for maskSecrets.
 */
export async function destinationSecretSites(block: Block, file: SourceFile, scope: Scope): Promise<Site[]> {
  const destination = attributeOf(block.body, "destination_conf");
  const value = destination && (await evaluate(destination.value, file, scope));
  if (value?.kind !== "string") return [];
  const { text } = value.value;
  const sites: Site[] = [];
  for (const secret of destinationSecrets(text)) {
    if (secret === "") continue;
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length))
      for (let i = at; i < at + secret.length; i++) sites.push(value.value.siteOf(i, i + 1));
  }
  return sites;
}

/** A file's shown text with the characters at `sites` (those in this file) replaced by `*`. */
export function maskSecrets(shown: string, path: string, sites: readonly Site[]): string {
  const chars = shown.split("");
  let masked = false;
  for (const site of sites) {
    if (site.file.path !== path) continue;
    for (let i = site.start; i < site.end && i < chars.length; i++) chars[i] = "*";
    masked = true;
  }
  return masked ? chars.join("") : shown;
}
