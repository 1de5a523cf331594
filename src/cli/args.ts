import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs, with its errors turned into usage errors (exit 2, no stack). */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ""));
  }
}

/** A whole number of at least `least` from a flag, or a usage error naming the flag. */
export function parseCount(value: string | undefined, flag: string, least = 0): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < least) {
    const range = least === 0 ? "a whole number" : `a whole number of at least ${least}`;
    throw new UsageError(`${flag} takes ${range}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** At most one positional (a file or `-`). */
export function singleInput(positionals: string[], command: string): string | undefined {
  if (positionals.length > 1)
    throw new UsageError(`${command} reads one file (or - for standard input), not ${positionals.length}`);
  return positionals[0];
}
