import { version } from "../../../package.json";
import { parseCommandArgs, subcommandOf } from "../args.js";
import { commandReferences } from "../command-reference.js";
import type { CommandTable } from "../command-types.js";
import { completionScript, SHELLS, type Shell, TURN_ON } from "../completion-scripts.js";
import type { CliIO } from "../io.js";

export const usage = `filterc completion bash|zsh|fish

Prints a completion script for the shell: commands, subcommands, flags, the words a flag takes,
dataset names after --dataset, the dataset's field names after --fields (the dataset --dataset
names, else http_requests), files where a command takes one. It is made from what each command's
--help names, so it completes what this version of filterc takes. Turn it on with:
${SHELLS.map((shell) => `  ${TURN_ON[shell]}`).join("\n")}

Exit status: 0 printed, 2 usage.`;

export async function run(argv: string[], io: CliIO, commands: CommandTable): Promise<number> {
  const [word, ...rest] = argv;
  const shell: Shell = subcommandOf(word, SHELLS);
  parseCommandArgs(rest, {}, false);
  io.stdout(completionScript(shell, await commandReferences(commands), version));
  return 0;
}
