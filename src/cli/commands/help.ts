import { version } from "../../../package.json";
import { parseCommandArgs } from "../args.js";
import { commandReferences } from "../command-reference.js";
import type { CommandTable } from "../command-types.js";
import type { CliIO } from "../io.js";
import { manPage } from "../man-page.js";
import { overview } from "../overview.js";

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
