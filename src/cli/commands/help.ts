import { version } from "../../../package.json";
import { parseCommandArgs } from "../args.js";
import { commandReferences } from "../command-reference.js";
import type { CommandTable } from "../command-types.js";
import type { CliIO } from "../io.js";
import { manPage } from "../man-page.js";
import { nearestWord } from "../nearest-word.js";
import { overview } from "../overview.js";

// The CLI's entry words these with help's bundle, loaded only when it needs them (see main.ts).
export { overview };

/** The error for a command that is not one, with the nearest name as git and cargo suggest it. */
export function unknownCommand(name: string, commands: CommandTable): string {
  const near = nearestWord(name, Object.keys(commands));
  return `unknown command ${JSON.stringify(name)}${near ? `; did you mean ${near}?` : ""}`;
}

export const usage = `filterc help [COMMAND]
filterc help --man

Prints the help of COMMAND (as filterc COMMAND --help does), or without one the list of commands.
--man prints the manual page as roff: the package installs it as man filterc, and where it is not
installed (npx) filterc help --man | man -l - shows it.

Options:
  --man                 print the manual page (roff)
Exit status: 0 printed, 2 usage.`;

export async function run(argv: string[], io: CliIO, commands: CommandTable): Promise<number> {
  const { values } = parseCommandArgs(argv, { man: { type: "boolean" } }, false);
  io.stdout(values.man ? manPage(await commandReferences(commands), version) : `${overview(commands)}\n`);
  return 0;
}
