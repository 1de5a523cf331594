import { type ArgsOf, DiagnosticKind, type DiagnosticKindName, type Severity } from "./kinds.js";
import type { Range } from "./range.js";

/** A replacement that fixes a diagnostic: put `replacement` where `range` stands. */
export interface Suggestion {
  message: string;
  range: Range;
  replacement: string;
}

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  range: Range;
  suggestion?: Suggestion;
  /** For problems in Logpush JSON (decompiling): the JSON pointer of the offending member, like `/where/and/2/operator`. */
  pointer?: string;
}

export function diagnose<K extends DiagnosticKindName>(
  name: K,
  range: Range,
  args: ArgsOf<K>,
  suggestion?: Suggestion,
): Diagnostic {
  const kind = DiagnosticKind[name] as {
    code: string;
    severity: Severity;
    message: (a: ArgsOf<K>) => string;
  };
  const diagnostic: Diagnostic = {
    code: kind.code,
    severity: kind.severity,
    message: kind.message(args),
    range,
  };
  if (suggestion) diagnostic.suggestion = suggestion;
  return diagnostic;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Sorts by position, then code, so every front end shows the same order. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort(
    (a, b) =>
      a.range.start.offset - b.range.start.offset ||
      a.range.end.offset - b.range.end.offset ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
