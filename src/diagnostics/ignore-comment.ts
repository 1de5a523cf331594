/** What a `filterc-ignore` comment says once read: the shape ignores.ts reads and tuning.ts applies. */
import type { Diagnostic } from "./diagnostic.js";
import type { Range } from "./range.js";

/** A code an ignore names, and where it is written. */
export interface IgnoredCode {
  code: string;
  range: Range;
}

/** A `filterc-ignore` comment as read: the codes it silences, where, and what is wrong with how it is written. */
export interface IgnoreComment {
  /** Where the comment is written. */
  range: Range;
  /** The codes of warnings and notes it names; none when the comment is not read (`problems` say why). */
  codes: IgnoredCode[];
  /** What it applies to: diagnostics that start at an offset from `start` up to `end` (exclusive). */
  applies: { start: number; end: number } | undefined;
  /** The comment's whole line, its line break included: what removing the comment takes. */
  line: Range;
  /** Every code as written, in order (unknown ones too), and where the list runs: what a fix rewrites. */
  list: { written: string[]; range: Range } | undefined;
  /** How it is written wrong (W0151–W0154): reported with the diagnostics it tunes. */
  problems: Diagnostic[];
}
