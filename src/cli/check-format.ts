/** `check --format`: the output formats, apart from the reports that write them (loaded only when asked). */
import { UsageError } from "./io.js";

/** The output formats of `check`; `json` is also `--json`. */
export const CHECK_FORMATS = ["text", "json", "sarif", "github"] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** The format `--format` and `--json` ask for: `--json` beside another format is a usage error. */
export function checkFormat(format: string | undefined, json: boolean): CheckFormat {
  if (format === undefined) return json ? "json" : "text";
  if (!(CHECK_FORMATS as readonly string[]).includes(format))
    throw new UsageError(
      `--format takes ${CHECK_FORMATS.join(", ")}, not ${JSON.stringify(format)} (sarif for code scanning, github for workflow annotations)`,
    );
  if (json && format !== "json")
    throw new UsageError(`--json is --format json; give one format, not ${format}`);
  return format as CheckFormat;
}
