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
  io.stderr(`${countsLine(diagnostics)}\n`);
}

/** How many errors, warnings and notes: "2 errors, 1 note". */
export function countsLine(diagnostics: readonly Diagnostic[]): string {
  const count = (severity: Diagnostic["severity"]) =>
    diagnostics.filter((d) => d.severity === severity).length;
  return [
    [count("error"), "error"],
    [count("warning"), "warning"],
    [count("note"), "note"],
  ]
    .filter(([n]) => n !== 0)
    .map(([n, noun]) => `${n} ${noun}${n === 1 ? "" : "s"}`)
    .join(", ");
}

export function statsLine(stats: FilterStats): string {
  return `${stats.operators} of ${stats.maxOperators} comparisons, ${stats.bytes} of ${stats.maxBytes} bytes`;
}

/** The machine-readable form of a diagnostic list, the same in every command's --json. */
export function diagnosticsJson(diagnostics: readonly Diagnostic[]): unknown[] {
  return diagnostics.map((d) => ({ ...d }));
}
