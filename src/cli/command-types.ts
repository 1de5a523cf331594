import type { CliIO } from "./io.js";

/**
 * A command module: its usage text (what `--help` prints) and what it does. `run` is handed the
 * table of every command, for the commands that describe the others (help, completion): they read
 * it as given rather than import it, since the table loads them.
 */
export interface Command {
  usage: string;
  run(argv: string[], io: CliIO, commands: CommandTable): Promise<number>;
}

/** Every command by name: its module, loaded when called (each one's summary: command-summaries.ts). */
export type CommandTable = Readonly<Record<string, { load: () => Promise<Command> }>>;
