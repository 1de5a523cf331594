/**
 * Shell completion scripts for bash, zsh and fish, made from the command references (what each
 * command's `--help` names, command-reference.ts) and the field catalogs: commands, subcommands,
 * flags, the words a flag takes (`--dialect duckdb|clickhouse`), dataset names after `--dataset`
 * and the dataset's fields after `--fields` (the dataset named on the line, else http_requests),
 * files and folders where a value is one.
 */
import { DEFAULT_DATASET, datasetNames, getCatalog } from "../catalog/index.js";
import type { CommandReference, FlagReference, FlagValue } from "./command-reference.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** The line that turns completion on, for each shell: what the docs and the scripts' heads say. */
export const TURN_ON: Record<Shell, string> = {
  bash: "echo 'source <(filterc completion bash)' >> ~/.bashrc",
  zsh: "echo 'source <(filterc completion zsh)' >> ~/.zshrc",
  fish: "filterc completion fish > ~/.config/fish/completions/filterc.fish",
};

/** What a script completes: the commands and the catalogs' names. */
interface Completions {
  commands: readonly CommandReference[];
  datasets: readonly string[];
  fields: ReadonlyMap<string, readonly string[]>;
}

/** A name written into a script unquoted must be made of these (every dataset and field name is). */
const PLAIN = /^[A-Za-z0-9_.:-]+$/;

function completions(commands: readonly CommandReference[]): Completions {
  const plain = (name: string) => {
    if (!PLAIN.test(name))
      throw new Error(`${JSON.stringify(name)} cannot be written into a completion script`);
    return name;
  };
  const fields = new Map<string, string[]>();
  for (const dataset of datasetNames)
    fields.set(plain(dataset), [...getCatalog(dataset)!.fields.keys()].map(plain));
  for (const command of commands) for (const flag of command.flags) plain(flag.name);
  return { commands, datasets: datasetNames, fields };
}

/** The completion script for `shell`. */
export function completionScript(
  shell: Shell,
  commands: readonly CommandReference[],
  version: string,
): string {
  const data = completions(commands);
  const head = `# ${shell} completion for filterc ${version}, written by \`filterc completion ${shell}\`.\n# Turn it on with: ${TURN_ON[shell]}\n`;
  return head + (shell === "bash" ? bash(data) : shell === "zsh" ? zsh(data) : fish(data));
}

/** What a flag's value completes to, as the scripts' helpers name it. */
function valueKind(value: FlagValue | undefined): string {
  if (value === undefined) return "none";
  return value.kind === "word" ? `word:${value.words.join(" ")}` : value.kind;
}

/** `case` arms of a shell function: one per key, its words in single quotes. */
const arms = (entries: readonly (readonly [string, string])[], indent: string) =>
  entries.map(([key, words]) => `${indent}${key}) REPLY='${words}' ;;`).join("\n");

/** Where `--dataset` is on the line, its value names the dataset whose fields `--fields` completes. */
function bash({ commands, datasets, fields }: Completions): string {
  const withSubcommands = commands.filter((command) => command.subcommands.length > 0);
  const values = commands.flatMap((command) =>
    command.flags
      .filter((flag) => flag.value !== undefined)
      .map((flag) => [`'${command.name} ${flag.name}'`, valueKind(flag.value)] as const),
  );
  return `
_filterc_commands='${commands.map((command) => command.name).join(" ")}'
_filterc_datasets='${datasets.join(" ")}'

_filterc_subcommands() {
  case $1 in
${arms(
  withSubcommands.map((command) => [command.name, command.subcommands.join(" ")]),
  "    ",
)}
    *) REPLY='' ;;
  esac
}

_filterc_flags() {
  case $1 in
${arms(
  commands.map((command) => [command.name, command.flags.map((flag) => flag.name).join(" ")]),
  "    ",
)}
    *) REPLY='' ;;
  esac
}

# What the value of flag $2 of command $1 is: none (the flag takes none), dataset, fields, file,
# folder, text, or word:WORDS; unset for a word that is no flag of the command.
_filterc_value() {
  case "$1 $2" in
${arms(values, "    ")}
    *) REPLY='' ;;
  esac
}

_filterc_fields() {
  case $1 in
${arms(
  [...fields].map(([dataset, names]) => [dataset, names.join(" ")]),
  "    ",
)}
    *) REPLY='' ;;
  esac
}

_filterc() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev='' command=\${COMP_WORDS[1]} dataset=${DEFAULT_DATASET} i REPLY
  COMPREPLY=()
  if ((COMP_CWORD >= 2)); then prev=\${COMP_WORDS[COMP_CWORD-1]}; fi
  # bash splits --flag=value at the =: the value is the word after it.
  if [[ $cur == = ]]; then
    cur=''
  elif [[ $prev == = ]] && ((COMP_CWORD >= 3)); then
    prev=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  if ((COMP_CWORD == 1)); then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$_filterc_commands" -- "$cur"))
    fi
    return 0
  fi
  for ((i = 2; i < COMP_CWORD; i++)); do
    if [[ \${COMP_WORDS[i]} == --dataset ]]; then
      dataset=\${COMP_WORDS[i+1]}
      [[ $dataset == = ]] && dataset=\${COMP_WORDS[i+2]}
    fi
  done
  if [[ $prev == --* ]]; then
    _filterc_value "$command" "$prev"
    case $REPLY in
      dataset) COMPREPLY=($(compgen -W "$_filterc_datasets" -- "$cur")); return 0 ;;
      fields)
        local before='' last=$cur
        if [[ $cur == *,* ]]; then before=\${cur%,*},; last=\${cur##*,}; fi
        _filterc_fields "$dataset"
        COMPREPLY=($(compgen -P "$before" -W "$REPLY" -- "$last"))
        compopt -o nospace 2>/dev/null
        return 0 ;;
      file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
      folder) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
      word:*) COMPREPLY=($(compgen -W "\${REPLY#word:}" -- "$cur")); return 0 ;;
      text) return 0 ;;
    esac
  fi
  if [[ $cur == -* ]]; then
    _filterc_flags "$command"
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  _filterc_subcommands "$command"
  if [[ -n $REPLY ]] && ((COMP_CWORD == 2)); then
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  case $command in
${commands
  .filter((command) => command.positional !== "file")
  .map(
    (command) =>
      `    ${command.name}) ${
        command.positional === "command"
          ? `((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$_filterc_commands" -- "$cur"))`
          : command.positional === "dataset"
            ? `((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$_filterc_datasets" -- "$cur"))`
            : ":"
      } ;;`,
  )
  .join("\n")}
    *) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
  return 0
}

complete -F _filterc filterc
`;
}

/** Text for a zsh `_describe` entry or a fish description: one line, its separators escaped. */
const described = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();
const zshEntry = (name: string, help: string | undefined) =>
  `'${`${name.replaceAll(":", "\\:")}:${described(help).replaceAll(":", "\\:")}`.replaceAll("'", "'\\''")}'`;

function zsh({ commands, datasets, fields }: Completions): string {
  const flagEntries = (flags: readonly FlagReference[]) =>
    flags.map((flag) => zshEntry(flag.name, flag.help)).join(" ");
  return `
_filterc_fields_of() {
  case $1 in
${arms(
  [...fields].map(([dataset, names]) => [dataset, names.join(" ")]),
  "    ",
)}
    *) REPLY='' ;;
  esac
}

_filterc() {
  local command=\${words[2]} dataset=${DEFAULT_DATASET} prev=\${words[CURRENT-1]} i REPLY
  local -a entries
  if ((CURRENT == 2)); then
    entries=(${commands.map((command) => zshEntry(command.name, command.summary)).join(" ")})
    _describe -t commands 'filterc command' entries
    return
  fi
  for ((i = 3; i < CURRENT; i++)); do
    [[ \${words[i]} == --dataset ]] && dataset=\${words[i+1]}
    [[ \${words[i]} == --dataset=* ]] && dataset=\${words[i]#--dataset=}
  done
  if [[ \${words[CURRENT]} == --*=* ]]; then
    prev=\${words[CURRENT]%%=*}
    compset -P '*='
  elif [[ $prev != --* ]]; then
    prev=''
  fi
  case "$command $prev" in
${commands
  .flatMap((command) =>
    command.flags
      .filter((flag) => flag.value !== undefined)
      .map((flag) => `    '${command.name} ${flag.name}') ${zshValue(flag.value!, datasets)}; return ;;`),
  )
  .join("\n")}
  esac
  if [[ $PREFIX == -* ]]; then
    case $command in
${commands.map((command) => `      ${command.name}) entries=(${flagEntries(command.flags)}) ;;`).join("\n")}
    esac
    _describe -t options 'option' entries
    return
  fi
  if ((CURRENT == 3)); then
    case $command in
${commands
  .filter((command) => command.subcommands.length > 0)
  .map((command) => `      ${command.name}) compadd -- ${command.subcommands.join(" ")}; return ;;`)
  .join("\n")}
${commands
  .filter((command) => command.positional === "command" || command.positional === "dataset")
  .map(
    (command) =>
      `      ${command.name}) compadd -- ${command.positional === "command" ? commands.map((c) => c.name).join(" ") : datasets.join(" ")}; return ;;`,
  )
  .join("\n")}
    esac
  fi
  case $command in
${commands
  .filter((command) => command.positional !== "file")
  .map((command) => `    ${command.name}) return ;;`)
  .join("\n")}
  esac
  _files
}

# Sourced into a shell whose completion is on (compinit), or autoloaded from a file named _filterc.
if (($+functions[compdef])); then
  compdef _filterc filterc
fi
`;
}

function zshValue(value: FlagValue, datasets: readonly string[]): string {
  switch (value.kind) {
    case "dataset":
      return `compadd -- ${datasets.join(" ")}`;
    case "fields":
      return `_filterc_fields_of "$dataset"; compset -P '*,'; compadd -S '' -- \${=REPLY}`;
    case "file":
      return "_files";
    case "folder":
      return "_files -/";
    case "word":
      return `compadd -- ${value.words.join(" ")}`;
    case "text":
      return ":";
  }
}

/** A fish string in single quotes. */
const fishQuoted = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

function fish({ commands, datasets, fields }: Completions): string {
  const lines: string[] = [];
  for (const command of commands) {
    const on = `-n '__filterc_command_is ${command.name}'`;
    if (command.positional !== "file") lines.push(`complete -c filterc ${on} -f`);
    else lines.push(`complete -c filterc ${on} -F`);
    for (const sub of command.subcommands)
      lines.push(
        `complete -c filterc -n '__filterc_command_is ${command.name}; and __filterc_at 3' -f -a ${sub}`,
      );
    if (command.positional === "command")
      lines.push(
        `complete -c filterc -n '__filterc_command_is ${command.name}; and __filterc_at 3' -f -a '(__filterc_commands)'`,
      );
    if (command.positional === "dataset")
      lines.push(
        `complete -c filterc -n '__filterc_command_is ${command.name}; and __filterc_at 3' -f -a '${datasets.join(" ")}'`,
      );
    for (const flag of command.flags) {
      const value = flag.value;
      const takes =
        value === undefined
          ? ""
          : value.kind === "file"
            ? " -r -F"
            : value.kind === "folder"
              ? " -x -a '(__fish_complete_directories)'"
              : value.kind === "dataset"
                ? ` -x -a '${datasets.join(" ")}'`
                : value.kind === "fields"
                  ? " -x -a '(__filterc_fields)'"
                  : value.kind === "word"
                    ? ` -x -a '${value.words.join(" ")}'`
                    : " -x";
      const help = described(flag.help);
      lines.push(
        `complete -c filterc ${on} -l ${flag.name.slice(2)}${takes}${help ? ` -d ${fishQuoted(help)}` : ""}`,
      );
    }
  }
  return `
# The command: the first word after filterc.
function __filterc_command_is
    set -l words (commandline -opc)
    test (count $words) -ge 2; and test "$words[2]" = "$argv[1]"
end

# Whether the word being completed is the Nth of the line.
function __filterc_at
    test (count (commandline -opc)) -eq (math $argv[1] - 1)
end

function __filterc_commands
${commands.map((command) => `    printf '%s\\t%s\\n' ${command.name} ${fishQuoted(described(command.summary))}`).join("\n")}
end

# The fields of the dataset --dataset names (else ${DEFAULT_DATASET}), after what the word has before its last comma.
function __filterc_fields
    set -l words (commandline -opc)
    set -l dataset ${DEFAULT_DATASET}
    for i in (seq (count $words))
        if test "$words[$i]" = --dataset; and test $i -lt (count $words)
            set dataset $words[(math $i + 1)]
        end
    end
    set -l token (commandline -ct)
    set -l before (string replace -r '[^,]*$' '' -- $token)
    switch $dataset
${[...fields].map(([dataset, names]) => `        case ${dataset}\n            printf '%s\\n' $before${names.length ? `{${names.join(",")}}` : ""}`).join("\n")}
    end
end

complete -c filterc -n 'test (count (commandline -opc)) -eq 1' -f -a '(__filterc_commands)'
complete -c filterc -n 'test (count (commandline -opc)) -eq 1' -l help -d 'print the overview'
complete -c filterc -n 'test (count (commandline -opc)) -eq 1' -l version -d 'print the version'
${lines.join("\n")}
`;
}
