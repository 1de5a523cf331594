import { type ArgsOf, DiagnosticKind, type DiagnosticKindName, type Severity } from "./kinds.js";
import type { Range } from "./range.js";

/** A replacement that fixes a diagnostic: put `replacement` where `range` stands. */
export interface Suggestion {
  message: string;
  range: Range;
  replacement: string;
}

/** Another place a diagnostic involves, such as each further comparison of a group that can never hold. */
export interface RelatedLocation {
  range: Range;
  message: string;
  /** For problems in Logpush JSON: the JSON pointer of the member there. */
  pointer?: string;
}

/**
 * A problem found in a source or JSON: a stable code, a severity, a message, where it is, and a fix where one is
 * known.
 */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  range: Range;
  suggestion?: Suggestion;
  /** For problems in Logpush JSON (decompiling): the JSON pointer of the offending member, like `/where/and/2/operator`. */
  pointer?: string;
  /** The other places involved, each with a note (`W0103`: every comparison of the impossible group). */
  related?: RelatedLocation[];
}

export function diagnose<K extends DiagnosticKindName>(
  name: K,
  range: Range,
  args: ArgsOf<K>,
  suggestion?: Suggestion,
  related?: Range[],
): Diagnostic {
  const kind = DiagnosticKind[name] as {
    code: string;
    severity: Severity;
    message: (a: ArgsOf<K>) => string;
    related?: (a: ArgsOf<K>) => string;
  };
  const diagnostic: Diagnostic = {
    code: kind.code,
    severity: kind.severity,
    message: kind.message(args),
    range,
  };
  if (suggestion) diagnostic.suggestion = suggestion;
  if (related && related.length > 0) {
    const note = kind.related?.(args) ?? "";
    diagnostic.related = related.map((range) => ({ range, message: note }));
  }
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
