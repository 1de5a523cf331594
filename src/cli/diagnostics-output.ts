import type { Diagnostic } from "../diagnostics/index.js";
import { renderDiagnostics } from "../diagnostics/index.js";
import type { FilterStats } from "../emit/index.js";
import { type CliIO, useColor } from "./io.js";

/** Diagnostics on stderr, rendered with the source excerpt and caret. */
export function reportDiagnostics(
  io: CliIO,
  diagnostics: readonly Diagnostic[],
  source: string,
  fileName: string,
): void {
  if (diagnostics.length === 0) return;
  io.stderr(renderDiagnostics(diagnostics, source, { fileName, color: useColor(io) }));
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  const parts = [
    errors && `${errors} error${errors === 1 ? "" : "s"}`,
    warnings && `${warnings} warning${warnings === 1 ? "" : "s"}`,
  ].filter(Boolean);
  io.stderr(`${parts.join(", ")}\n`);
}

export function statsLine(stats: FilterStats): string {
  return `${stats.operators} of ${stats.maxOperators} comparisons, ${stats.bytes} of ${stats.maxBytes} bytes`;
}

/** The machine-readable form of a diagnostic list, the same in every command's --json. */
export function diagnosticsJson(diagnostics: readonly Diagnostic[]): unknown[] {
  return diagnostics.map((d) => ({ ...d }));
}
