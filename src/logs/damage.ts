import { resolve } from "node:path";
import type { Location } from "../sql/index.js";
import { InputDamage } from "./gzip.js";
import { fileInput } from "./input.js";
import { warningText } from "./lines.js";

/**
 * The damage eval would report in the local gzip files among `locations` (a member cut short or
 * corrupt, bytes after the last one), as eval words it; each file is inflated here, beside the
 * engine's read. DuckDB reads a gzip file cut short up to the cut and says nothing.
 */
export async function gzipDamage(locations: readonly Location[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  for (const location of locations) {
    if (location.kind !== "local" || !location.gzip) continue;
    for (const path of location.paths) {
      const input = await fileInput(resolve(cwd, path));
      try {
        for await (const _ of input.open(() => undefined));
      } catch (error) {
        if (!(error instanceof InputDamage)) throw error;
        found.push(warningText({ kind: "damaged", input: path, reason: error.message, cutLine: undefined }));
      }
    }
  }
  return found;
}
