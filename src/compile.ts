import { type CheckOptions, check } from "./check/index.js";
import { type Diagnostic, hasErrors, sortDiagnostics } from "./diagnostics/index.js";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_OPERATORS,
  type EmitOptions,
  emit,
  type FilterStats,
  type LogpushFilter,
  WithLazyJson,
} from "./emit/index.js";
import type { FilterSource } from "./syntax/index.js";

export interface CompileOptions extends CheckOptions, EmitOptions {}

export interface CompileResult {
  /** True when there is no error (warnings allowed). */
  ok: boolean;
  /** The compact JSON for the job's `filter`; null for the empty filter or when there are errors. */
  filter: string | null;
  /** `filter`, parsed on first access (numbers beyond 2^53 lose precision here; the string is exact). */
  readonly json: LogpushFilter | null;
  diagnostics: Diagnostic[];
  stats: FilterStats;
  /** The parsed source. */
  ast: FilterSource;
}

class Compiled extends WithLazyJson implements CompileResult {
  constructor(
    public ok: boolean,
    filter: string | null,
    public diagnostics: Diagnostic[],
    public stats: FilterStats,
    public ast: FilterSource,
  ) {
    super(filter);
  }
}

/** Compiles filter source to the Logpush JSON string: parse, check, emit. Never throws. */
export function compile(source: string, options: CompileOptions = {}): CompileResult {
  const checked = check(source, options);
  const emptyStats: FilterStats = {
    operators: 0,
    bytes: 0,
    maxOperators: options.maxOperators ?? DEFAULT_MAX_OPERATORS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
  };
  if (!checked.condition) {
    return new Compiled(
      !hasErrors(checked.diagnostics),
      null,
      checked.diagnostics,
      emptyStats,
      checked.filter,
    );
  }
  const emitted = emit(checked.condition, options);
  const diagnostics = emitted.diagnostics.length
    ? sortDiagnostics([...checked.diagnostics, ...emitted.diagnostics])
    : checked.diagnostics;
  return new Compiled(!hasErrors(diagnostics), emitted.filter, diagnostics, emitted.stats, checked.filter);
}
