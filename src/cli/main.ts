import { version } from "../../package.json";
import { terminalText } from "../diagnostics/terminal-text.js";
// The module, not the stage's index: the entry loads as little as it can.
import { isLogReadError } from "../logs/read-error.js";
import type { CommandTable } from "./command-types.js";
import { commands as table } from "./commands.js";
import { type CliIO, cannotReadText, isUsageError, isUserError } from "./io.js";

/**
 * What follows a usage error: the command's synopsis and where the rest is. The whole usage (40
 * lines for eval) pushed the message itself off a small terminal.
 */
function shortUsage(name: string, usage: string): string {
  // The synopsis: the lines before the first blank one (one per subcommand for jobs and fields).
  // Each line after the first under "Usage: ", whatever indent the usage text gave it.
  const synopsis = usage
    .split("\n\n", 1)[0]!
    .split("\n")
    .map((line, index) => (index === 0 ? line : `       ${line.trimStart()}`))
    .join("\n");
  return `Usage: ${synopsis}\nRun filterc ${name} --help for the options.\n`;
}

/**
 * help's module, which also words the overview and the unknown command's did-you-mean: they load
 * with its bundle, when asked for, so that the entry every command starts from stays small.
 */
const helpModule = () => import("./commands/help.js");

// Looked up by whatever name was typed.
const commands: CommandTable = table;

/** Runs the CLI with `argv` (without node and script); returns the exit status. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  // No command is a usage error: the overview goes to stderr, as every usage error's does.
  if (name === undefined) {
    io.stderr(`${(await helpModule()).overview(commands)}\n`);
    return 2;
  }
  // help COMMAND is COMMAND --help; help's own flags (--man) are its module's.
  if (name === "help" && rest.length > 0 && !rest[0]!.startsWith("-")) return main([...rest, "--help"], io);
  if (name === "--help" || name === "-h" || (name === "help" && rest.length === 0)) {
    io.stdout(`${(await helpModule()).overview(commands)}\n`);
    return 0;
  }
  // -v and -V as well: the spellings other CLIs take for the version.
  if (name === "--version" || name === "-V" || name === "-v") {
    io.stdout(`${version}\n`);
    return 0;
  }
  // With --json, a usage or input error is JSON on stdout too, so a script reads one format.
  const json = rest.includes("--json");
  const fail = (failure: "usage" | "input", prefix: string, message: string, help: string): number => {
    if (json) io.stdout(`${JSON.stringify({ ok: false, failure, message })}\n`);
    else io.stderr(`${prefix}: ${terminalText(message)}\n${help}`);
    return failure === "usage" ? 2 : 1;
  };
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    const { unknownCommand } = await helpModule();
    return fail("usage", "filterc", unknownCommand(name, commands), "Run filterc --help for the commands.\n");
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io, commands);
  } catch (error) {
    if (isUsageError(error))
      return fail("usage", `filterc ${name}`, error.message, error.help ?? shortUsage(name, command.usage));
    if (isUserError(error)) return fail("input", `filterc ${name}`, error.message, "");
    if (isLogReadError(error))
      return fail("input", `filterc ${name}`, cannotReadText(error.path, error.reason), "");
    throw error;
  }
}
