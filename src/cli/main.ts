import { commands } from "./commands.js";
import { type CliIO, isUsageError, isUserError } from "./io.js";

const VERSION = "0.1.0";

function overview(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const list = Object.entries(commands)
    .map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`)
    .join("\n");
  return `filterc: Cloudflare Logpush filters, checked before they are sent

Usage: filterc <command> [options]

Commands:
${list}

Run filterc <command> --help for a command's options.`;
}

/** Runs the CLI with `argv` (without node and script); returns the exit status. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(`${overview()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    io.stderr(`filterc: unknown command ${JSON.stringify(name)}\n\n${overview()}\n`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (isUsageError(error)) {
      io.stderr(`filterc ${name}: ${error.message}\n\n${command.usage}\n`);
      return 2;
    }
    if (isUserError(error)) {
      io.stderr(`filterc ${name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
