import { parseCommandArgs } from "../args.js";
import { compilerFlags, compilerOptionsFrom } from "../compiler-options.js";
import { type CliIO, UsageError } from "../io.js";

export const usage = `filterc lsp --stdio [options]

Runs the filterc language server over standard input and output (LSP): diagnostics,
completion, hover, formatting, quick fixes, semantic tokens, outline, folding, selection ranges,
inlay hints, field links, and the evaluation and test-file code lenses for filter documents
(language id logpush-filter or lpf, or a file ending in .lpf); diagnostics for Terraform files.

Options:
  --stdio               talk LSP over stdin/stdout (the only transport)
  --dataset NAME, --catalog FILE, --max-operators N, --max-bytes N
                        defaults until the client's settings (filterc.dataset,
                        filterc.maxOperators, filterc.maxBytes) say otherwise; the
                        filterc.json nearest a document, then its # dataset:, win over both
Exit status: 0 after an LSP shutdown and exit (or the end of the input), 1 when exit or the end of
the input comes without shutdown, 2 usage.`;

export async function run(argv: string[], _io: CliIO): Promise<number> {
  const { values } = parseCommandArgs(argv, { ...compilerFlags, stdio: { type: "boolean" } }, false);
  if (!values.stdio) throw new UsageError("the language server talks over --stdio; pass --stdio");
  const options = await compilerOptionsFrom(values);
  // The server and vscode-languageserver load only for this command: other commands stay light.
  const { startStdioServer } = await import("../../lsp/server.js");
  startStdioServer(options);
  // The server ends the process on the client's `exit` notification, or at the end of its input.
  return new Promise<number>(() => {});
}
