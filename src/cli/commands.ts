import type { CommandTable } from "./command-types.js";

/**
 * Every command, loaded only when called: the bundle splits per command, so `filterc compile`
 * never loads the LSP server or the HTTP client.
 */
export const commands: CommandTable = {
  compile: { summary: "compile filter source to Logpush JSON", load: () => import("./commands/compile.js") },
  check: {
    summary: "check filter source against the dataset and limits",
    load: () => import("./commands/check.js"),
  },
  fmt: {
    summary: "format filter source canonically (--write, --check)",
    load: () => import("./commands/fmt.js"),
  },
  explain: {
    summary: "explain a filter in words, with its use of the limits",
    load: () => import("./commands/explain.js"),
  },
  decompile: {
    summary: "read Logpush filter JSON back into source",
    load: () => import("./commands/decompile.js"),
  },
  datasets: {
    summary: "list the Logpush datasets, or one dataset's fields",
    load: () => import("./commands/datasets.js"),
  },
  diff: {
    summary: "decide whether two filters keep the same records",
    load: () => import("./commands/diff.js"),
  },
  eval: { summary: "apply a filter to log lines (NDJSON, gzip)", load: () => import("./commands/eval.js") },
  query: {
    summary: "run a filter over local or remote NDJSON with embedded DuckDB",
    load: () => import("./commands/query.js"),
  },
  sql: {
    summary: "write a filter as SQL for DuckDB or ClickHouse",
    load: () => import("./commands/sql.js"),
  },
  schema: {
    summary: "write a dataset's CREATE TABLE for DuckDB or ClickHouse",
    load: () => import("./commands/schema.js"),
  },
  fields: {
    summary: "get, set, add, remove or clear the zone's custom log fields",
    load: () => import("./commands/fields.js"),
  },
  jobs: {
    summary: "list, get, create, update, delete, pull and diff Logpush jobs",
    load: () => import("./commands/jobs.js"),
  },
  tail: {
    summary: "stream a zone's live records through Instant Logs, with a checked filter",
    load: () => import("./commands/tail.js"),
  },
  explorer: {
    summary: "get, set, clear and diff the ingestion filter of Log Explorer datasets",
    load: () => import("./commands/explorer.js"),
  },
  sandbox: {
    summary: "serve a local Logpush and rulesets API and play the push",
    load: () => import("./commands/sandbox.js"),
  },
  test: {
    summary: "run filter tests kept as data",
    load: () => import("./commands/test.js"),
  },
  lsp: { summary: "run the language server over stdio (LSP)", load: () => import("./commands/lsp.js") },
  playground: {
    summary: "serve the playground page on 127.0.0.1",
    load: () => import("./commands/playground.js"),
  },
  console: {
    summary: "serve the dashboard's custom fields and jobs flows on 127.0.0.1",
    load: () => import("./commands/console.js"),
  },
  completion: {
    summary: "print a shell completion script (bash, zsh, fish)",
    load: () => import("./commands/completion.js"),
  },
  help: {
    summary: "print a command's help, or the manual page (--man)",
    load: () => import("./commands/help.js"),
  },
};
