import type { Catalog } from "./catalog/index.js";
import {
  type CheckOptions,
  type CheckResult,
  type Cond,
  check,
  type Leaf,
  type Meaning,
} from "./check/index.js";
import { type Diagnostic, hasErrors, isObject, sortDiagnostics } from "./diagnostics/index.js";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_OPERATORS,
  type EmitOptions,
  emitMeaning,
  type FilterStats,
  type LogpushFilter,
  WithLazyJson,
} from "./emit/index.js";
import type { FilterSource } from "./syntax/index.js";

/** Options of `compile`: those of `check` and of `emit`. */
export interface CompileOptions extends CheckOptions, EmitOptions {}

/** What `compile` returns: the job's `filter` string, its stats and diagnostics, and the stages' results on the way. */
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
  /** The checked filter as written (`not` kept); null when it is empty or has errors. */
  condition: Cond | null;
  /** What the filter means: `condition` with every `not` pushed down, as the JSON has it, before optimizing; null with it. */
  meaning: Meaning | null;
  /** The former name of `meaning`, kept for callers written against it. @deprecated Read `meaning`. */
  readonly normal: Meaning | null;
  /** Every comparison that checked, in source order, even where the filter as a whole has errors. */
  comparisons: Leaf[];
  /** The catalog the filter was checked against; undefined when the dataset is unknown. */
  catalog: Catalog | undefined;
}

class Compiled extends WithLazyJson implements CompileResult {
  ast: FilterSource;
  condition: Cond | null;
  meaning: Meaning | null;
  comparisons: Leaf[];
  catalog: Catalog | undefined;

  constructor(
    public ok: boolean,
    filter: string | null,
    public diagnostics: Diagnostic[],
    public stats: FilterStats,
    checked: CheckResult,
  ) {
    super(filter);
    this.ast = checked.filter;
    this.condition = checked.condition;
    this.meaning = checked.meaning;
    this.comparisons = checked.comparisons;
    this.catalog = checked.catalog;
  }

  get normal(): Meaning | null {
    return this.meaning;
  }
}

/** What an empty filter uses against the limits. */
function emptyStats(options: EmitOptions): FilterStats {
  return {
    operators: 0,
    bytes: 0,
    maxOperators: options.maxOperators ?? DEFAULT_MAX_OPERATORS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
  };
}

/**
 * Compiles filter source to the Logpush JSON string: parse, check, emit. The meaning the checker
 * computed for its warnings is the one the emitter writes. Never throws.
 */
export function compile(source: string, options: CompileOptions = {}): CompileResult {
  const checked = check(source, options);
  if (!checked.meaning) {
    const ok = !hasErrors(checked.diagnostics);
    // Options that are no object were reported (E0006); the limits are then the defaults.
    const stats = emptyStats(isObject(options) ? options : {});
    return new Compiled(ok, null, checked.diagnostics, stats, checked);
  }
  const emitted = emitMeaning(checked.meaning, options);
  const diagnostics = emitted.diagnostics.length
    ? sortDiagnostics([...checked.diagnostics, ...emitted.diagnostics])
    : checked.diagnostics;
  return new Compiled(!hasErrors(diagnostics), emitted.filter, diagnostics, emitted.stats, checked);
}
