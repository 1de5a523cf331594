import type { CommandName } from "./command-summaries.js";
import type { CommandTable } from "./command-types.js";

/**
 * Every command, loaded only when called: the bundle splits per command, so `filterc compile`
 * never loads the LSP server or the HTTP client. What each does is said in command-summaries.ts,
 * which only the commands that describe the others read: the CLI's entry, which holds this table,
 * is read at every start.
 */
export const commands = {
  compile: { load: () => import("./commands/compile.js") },
  check: { load: () => import("./commands/check.js") },
  fmt: { load: () => import("./commands/fmt.js") },
  explain: { load: () => import("./commands/explain.js") },
  decompile: { load: () => import("./commands/decompile.js") },
  datasets: { load: () => import("./commands/datasets.js") },
  diff: { load: () => import("./commands/diff.js") },
  eval: { load: () => import("./commands/eval.js") },
  query: { load: () => import("./commands/query.js") },
  sql: { load: () => import("./commands/sql.js") },
  schema: { load: () => import("./commands/schema.js") },
  fields: { load: () => import("./commands/fields.js") },
  jobs: { load: () => import("./commands/jobs.js") },
  tail: { load: () => import("./commands/tail.js") },
  explorer: { load: () => import("./commands/explorer.js") },
  sandbox: { load: () => import("./commands/sandbox.js") },
  test: { load: () => import("./commands/test.js") },
  lsp: { load: () => import("./commands/lsp.js") },
  playground: { load: () => import("./commands/playground.js") },
  console: { load: () => import("./commands/console.js") },
  completion: { load: () => import("./commands/completion.js") },
  help: { load: () => import("./commands/help.js") },
} satisfies CommandTable & Record<CommandName, unknown>;
