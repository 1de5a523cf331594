/** Each command's one-line summary: the overview's, the completion scripts' and the manual page's. */
export const commandSummaries = {
  compile: "compile filter source to Logpush JSON",
  check: "check filter source against the dataset and limits",
  fmt: "format filter source canonically (--write, --check)",
  explain: "explain a filter in words, with its use of the limits",
  decompile: "read Logpush filter JSON back into source",
  datasets: "list the Logpush datasets, or one dataset's fields",
  diff: "decide whether two filters keep the same records",
  eval: "apply a filter to log lines (NDJSON, gzip)",
  query: "run a filter over local or remote NDJSON with embedded DuckDB",
  sql: "write a filter as SQL for DuckDB or ClickHouse",
  schema: "write a dataset's CREATE TABLE for DuckDB or ClickHouse",
  fields: "get, set, add, remove or clear the zone's custom log fields",
  jobs: "list, get, create, update, delete, pull and diff Logpush jobs",
  tail: "stream a zone's live records through Instant Logs, with a checked filter",
  explorer: "get, set, clear and diff the ingestion filter of Log Explorer datasets",
  sandbox: "serve a local Logpush and rulesets API and play the push",
  test: "run filter tests kept as data",
  lsp: "run the language server over stdio (LSP)",
  playground: "serve the playground page on 127.0.0.1",
  console: "serve the dashboard's custom fields and jobs flows on 127.0.0.1",
  completion: "print a shell completion script (bash, zsh, fish)",
  help: "print a command's help, or the manual page (--man)",
} as const satisfies Readonly<Record<string, string>>;

/** The name of a command: every command has a summary, and the table of commands.ts one entry each. */
export type CommandName = keyof typeof commandSummaries;
