/**
 * Every command as its `--help` describes it, read as data: its synopsis lines, its subcommands,
 * and each flag its synopses and option rows name (running text may name another command's), with
 * what its value is. Shell completion and the manual page are made from this,
 * so they name exactly what `--help` names: the command table (commands.ts) gives the commands,
 * each command's usage text the rest, and a command added to the table is in both at once.
 */

import type { CommandName } from "./command-summaries.js";
import { commandSummaries } from "./command-summaries.js";
import type { CommandTable } from "./command-types.js";

/** What a flag's value is, for completion: a dataset, fields of one, a file, a folder, one of some words, or anything. */
export type FlagValue =
  | { kind: "dataset" }
  | { kind: "fields" }
  | { kind: "file" }
  | { kind: "folder" }
  | { kind: "word"; words: readonly string[] }
  | { kind: "text" };

export interface FlagReference {
  /** With its dashes: `--dataset`. */
  name: string;
  /** Undefined for a flag that takes no value. */
  value?: FlagValue;
  /** The first line of its help, where an option row gives one. */
  help?: string;
}

export interface CommandReference {
  name: string;
  summary: string;
  usage: string;
  /** The lines before the first blank one, each starting `filterc NAME`. */
  synopses: string[];
  subcommands: string[];
  /** What a positional argument is, as the synopses write it: a file, a dataset's name (`datasets NAME`), a command's name (help). */
  positional: "file" | "dataset" | "command" | "none";
  flags: FlagReference[];
}

/** Every command of the table, each module loaded for its usage text, in the table's order. */
export async function commandReferences(commands: CommandTable): Promise<CommandReference[]> {
  return Promise.all(
    Object.entries(commands).map(async ([name, entry]) =>
      readUsage(name, commandSummaries[name as CommandName], (await entry.load()).usage),
    ),
  );
}

/** A flag and the word after it in a synopsis or an option row: `--dataset NAME`, `[--dir D]`. */
const FLAG = /(?<![\w-])(--[a-z][a-z0-9-]*)(?:[ =]([^\s\][,]+(?:,[A-Z.…]+)*))?/g;

/** A metavariable: `N`, `FILE`, `A,B,C`, `FILE|JSON`, `LOG...`. */
const METAVARIABLE = /^[A-Z][A-Z0-9_]*(?:[,|][A-Z0-9_]+)*(?:,?(?:\.\.\.|…))?$/;

/** Words a value is one of: `zone|account`, `duckdb|clickhouse`. */
const CHOICES = /^[a-z0-9]+(?:\|[a-z0-9]+)+$/;

/** A single lower-case word after a flag in a synopsis or a row's flag part: the one value it takes (`--kind edge`). */
const WORD = /^[a-z][a-z0-9]*$/;

/** The usage text of command `name`, read. */
export function readUsage(name: string, summary: string, usage: string): CommandReference {
  const [head = "", ...rest] = usage.split("\n\n");
  const synopses = head.split("\n").map((line) => line.trim());
  const subcommands: string[] = [];
  let positional: CommandReference["positional"] = "none";
  for (const line of synopses) {
    const words = line.split(" ");
    if (words[0] !== "filterc" || words[1] !== name) continue;
    const first = words[2] ?? "";
    if (/^[a-z][a-z-]*(?:\|[a-z][a-z-]*)*$/.test(first)) subcommands.push(...first.split("|"));
    if (words.some((word) => /COMMAND/.test(word))) positional = "command";
    else if (first === "NAME") positional = "dataset";
    else if (positional === "none" && words.some((word) => /^\[?(FILE|PATH|LOG|A$|DIR)/.test(word)))
      positional = "file";
  }
  const flags = new Map<string, FlagReference>();
  const note = (flag: string, value: string | undefined, help?: string) => {
    const known = flags.get(flag) ?? { name: flag };
    const read = value === undefined ? undefined : flagValue(flag, value);
    if (read !== undefined && known.value === undefined) known.value = read;
    if (help !== undefined && known.help === undefined) known.help = help;
    flags.set(flag, known);
  };
  for (const line of synopses) for (const [, flag, value] of line.matchAll(FLAG)) note(flag!, value);
  for (const line of rest.join("\n\n").split("\n")) {
    // An option row: the flags, then two spaces or more, then the help (or the help on the lines below).
    const row = /^ {2}(-\S.*?)(?: {2,}(\S.*))?$/.exec(line);
    if (row) {
      const [, part, help] = row;
      const own = [...part!.matchAll(FLAG)];
      own.forEach(([, flag, value], index) => {
        note(flag!, value, index === 0 && own.length === 1 ? help?.trim() : undefined);
      });
    }
  }
  flags.delete("--help");
  return {
    name,
    summary,
    usage,
    synopses,
    subcommands: [...new Set(subcommands)],
    positional,
    flags: [...flags.values(), { name: "--help", help: "print this help" }],
  };
}

/** What the word after `flag` says its value is, or undefined when it is no value. */
function flagValue(flag: string, word: string): FlagValue | undefined {
  const text = word.replace(/^[`'"]|[`'";:)]+$|(?<!\.)\.$/g, "");
  if (CHOICES.test(text)) return { kind: "word", words: text.split("|") };
  if (!METAVARIABLE.test(text) && !WORD.test(text)) return undefined;
  if (WORD.test(text)) return { kind: "word", words: [text] };
  if (flag === "--dataset") return { kind: "dataset" };
  if (flag === "--fields") return { kind: "fields" };
  if (/DIR/.test(text) || flag === "--dir") return { kind: "folder" };
  if (/FILE|PATH|LOG/.test(text) || flag.endsWith("-file")) return { kind: "file" };
  return { kind: "text" };
}
