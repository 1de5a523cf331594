import type { CommandName } from "./command-summaries.js";
import { commandSummaries } from "./command-summaries.js";
import type { CommandTable } from "./command-types.js";

/** What filterc is, in the words the overview and the manual page start with. */
export const TAGLINE = "Cloudflare Logpush filters, checked before they are sent";

/** `filterc --help`: every command of the table with its summary. */
export function overview(commands: CommandTable): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const list = Object.keys(commands)
    .map((name) => `  ${name.padEnd(width)}  ${commandSummaries[name as CommandName]}`)
    .join("\n");
  return `filterc: ${TAGLINE}

Usage: filterc <command> [options]

Commands:
${list}

Run filterc <command> --help for a command's options.`;
}
