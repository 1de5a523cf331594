import type { CommandTable } from "./command-types.js";

/** What filterc is, in the words the overview and the manual page start with. */
export const TAGLINE = "Cloudflare Logpush filters, checked before they are sent";

/** `filterc --help`: every command of the table with its summary. */
export function overview(commands: CommandTable): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const list = Object.entries(commands)
    .map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`)
    .join("\n");
  return `filterc: ${TAGLINE}

Usage: filterc <command> [options]

Commands:
${list}

Run filterc <command> --help for a command's options.`;
}
