import type { NamedOption, OptionLabels } from "../diagnostics/index.js";

/**
 * How the CLI's messages name the library's options: by the flag that sets one (`--max-bytes`),
 * and not at all where no flag does (the limit is then given alone). Every option a message names
 * is decided here.
 */
export const CLI_OPTION_LABELS: Record<NamedOption, string | null> & OptionLabels = {
  maxOperators: "--max-operators",
  maxBytes: "--max-bytes",
  optimize: "--no-optimize",
  lineWidth: "--line-width",
  timeoutMs: "--timeout-ms",
  maxSourceLength: null,
  maxInputLength: null,
  maxDepth: null,
  maxDiagnostics: null,
  maxRetryDelayMs: null,
};
