import { type ParseArgsConfig, parseArgs } from "node:util";
import { closestMatch } from "../diagnostics/index.js";
import { UsageError } from "./io.js";
import { nearestWord } from "./nearest-word.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs, with its errors turned into usage errors (exit 2, no stack) in filterc's words. */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(usageMessage((error as Error).message, Object.keys(options)));
  }
}

/**
 * parseArgs's messages, reworded: its unknown-option message went on about positional arguments
 * after `--` and left a quote open, and none of them named a flag the way the help does.
 */
function usageMessage(message: string, flags: readonly string[]): string {
  const unknown = /^Unknown option '(.*?)'(?:\. To specify a positional argument|$)/s.exec(message);
  if (unknown) {
    const option = unknown[1]!;
    const near = option.startsWith("--") ? closestMatch(option.slice(2).split("=")[0]!, flags) : undefined;
    return `unknown option ${option}${near ? `; did you mean --${near}?` : ""}`;
  }
  const missing = /^Option '(.*?)(?: <value>)?' argument missing$/s.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  // A value that starts with a dash reads as another option.
  const dashed = /^Option '(.*?)' argument is ambiguous\./s.exec(message);
  if (dashed) return `${dashed[1]} needs a value; one that starts with "-" is written ${dashed[1]}=VALUE`;
  const extra = /^Option '(.*?)' does not take an argument$/s.exec(message);
  if (extra) return `${extra[1]} takes no value`;
  const positional = /^Unexpected argument '(.*)'\. This command does not take positional arguments$/s.exec(
    message,
  );
  if (positional)
    return `unexpected argument ${JSON.stringify(positional[1])}: this command takes options only`;
  return message.replace(/^TypeError \[[A-Z_]+\]: /, "");
}

/**
 * A whole number from `least` to `most` from a flag, or a usage error naming the flag. Past
 * 2^53 - 1 a number is no longer exact, so that is the greatest value any flag takes.
 */
export function parseCount(
  value: string | undefined,
  flag: string,
  least = 0,
  most = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < least || count > most) {
    const range =
      most < Number.MAX_SAFE_INTEGER || count > most
        ? `a whole number from ${least} to ${most}`
        : least === 0
          ? "a whole number"
          : `a whole number of at least ${least}`;
    throw new UsageError(`${flag} takes ${range}, not ${JSON.stringify(value)}`);
  }
  return count;
}

/**
 * The most threads a flag may ask for (eval's --jobs, query's --threads): past the cores they only
 * cost memory (about 9 MB a worker), and with no
 * bound a mistyped number started workers until memory ran out.
 */
export const MAX_THREADS = 256;

/** What follows a usage error about a dataset's name, instead of the command's synopsis. */
export const DATASETS_HELP = "Run filterc datasets for every name.\n";

/** At most one positional (a file or `-`). */
export function singleInput(positionals: string[], command: string): string | undefined {
  if (positionals.length > 1)
    throw new UsageError(`${command} reads one file (or - for standard input), not ${positionals.length}`);
  return positionals[0];
}

/**
 * The subcommand `word` names: one of `names`, or a word `aliases` maps to one (`fields list` for
 * `get`, the word people type for a read). Anything else is a usage error naming the nearest
 * subcommand, as an unknown command's does.
 */
export function subcommandOf<T extends string>(
  word: string | undefined,
  names: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
  refused: Readonly<Record<string, string>> = {},
): T {
  if (word !== undefined && (names as readonly string[]).includes(word)) return word as T;
  if (word !== undefined && Object.hasOwn(aliases, word)) return aliases[word]!;
  if (word === undefined) throw new UsageError(`say ${names.join(", ")}`);
  if (Object.hasOwn(refused, word))
    throw new UsageError(`unknown subcommand ${JSON.stringify(word)}; ${refused[word]}`);
  const near = nearestWord(word, names);
  throw new UsageError(
    `unknown subcommand ${JSON.stringify(word)}; ${near ? `did you mean ${near}? (${names.join(", ")})` : `use ${names.join(", ")}`}`,
  );
}
