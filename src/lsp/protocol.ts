/*
 * The request filterc's language server answers besides LSP's own, for editor commands that show
 * or copy what a document compiles to (the VS Code extension's commands and status bar; any client
 * may send it). Types only, so that a client bundles nothing of the server.
 */

/** `filterc/compile`: what the document's filter compiles to, with the document's own settings. */
export const COMPILE_REQUEST = "filterc/compile";

export interface CompileParams {
  textDocument: { uri: string };
}

/** The answer; null for a document that is not open or is not a filter document. */
export interface CompileAnswer {
  /** The dataset the document was checked against. */
  dataset: string;
  /** True when there is no error (warnings allowed). */
  ok: boolean;
  /** The compact JSON for the job's `filter`; null for the empty filter or when there are errors. */
  filter: string | null;
  /** `filter` as a Terraform string, as `filterc compile --hcl` prints it. */
  terraform: string | null;
  /** The filter in words, as `filterc explain` prints it; null when there are errors. */
  explanation: string | null;
  /** Comparisons and bytes of the JSON against the limits (0 of each for no filter or errors). */
  stats: { operators: number; bytes: number; maxOperators: number; maxBytes: number };
  errors: number;
  warnings: number;
}

/**
 * The command of the evaluation lens (`workspace/executeCommand`, arguments `[uri]`): the sample
 * lines the document's filter keeps, as its text is now. A client shows them (the VS Code
 * extension in a read-only document, the Neovim recipe in the quickfix list).
 */
export const SHOW_KEPT_SAMPLES_COMMAND = "filterc.showKeptSamples";

/** The command's answer; null for a document that is not open or is not a filter document. */
export interface KeptSamples {
  /** The lens's title: how many lines of how many the filter keeps. */
  title: string;
  /** The first kept lines, in the order read, each with its file and 0-based line. */
  lines: { uri: string; line: number; text: string }[];
  /** Kept lines left out of `lines` (past the bounds on what one answer carries). */
  more: number;
}
