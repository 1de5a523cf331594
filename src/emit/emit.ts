import { type Cond, type Meaning, toNegationNormalForm } from "../check/index.js";
import { type Diagnostic, diagnose, optionDiagnostics } from "../diagnostics/index.js";
import type { LogpushFilter } from "./json.js";
import { optimize } from "./optimize.js";
import { serialize } from "./serialize.js";

export interface EmitOptions {
  /** Rewrite into fewer comparisons with the same meaning (default true). */
  optimize?: boolean;
  /** Most comparisons Logpush accepts (default 30; the docs say "approximately 30 operators"). */
  maxOperators?: number;
  /** Most UTF-8 bytes of the compact JSON Logpush accepts (default 1000). */
  maxBytes?: number;
}

export const DEFAULT_MAX_OPERATORS = 30;
export const DEFAULT_MAX_BYTES = 1000;

/** What the filter uses against the limits Logpush sets. */
export interface FilterStats {
  operators: number;
  bytes: number;
  maxOperators: number;
  maxBytes: number;
}

export interface EmitResult {
  /** The compact JSON string for the job's `filter`; null when over a limit. */
  filter: string | null;
  /** `filter`, parsed (on first access). */
  readonly json: LogpushFilter | null;
  diagnostics: Diagnostic[];
  /** Measured even when over a limit, so that front ends can show by how much. */
  stats: FilterStats;
  /** The meaning as written to the JSON: in negation normal form and, unless turned off, optimized. */
  condition: Meaning;
}

/**
 * A result whose `json` is the parse of its `filter`, made on first access: most callers want
 * the string, and parsing it again would cost as much as the rest of a small compile.
 */
export class WithLazyJson {
  #json: LogpushFilter | null | undefined;

  constructor(public filter: string | null) {}

  get json(): LogpushFilter | null {
    if (this.#json === undefined)
      this.#json = this.filter === null ? null : (JSON.parse(this.filter) as LogpushFilter);
    return this.#json;
  }
}

class Emitted extends WithLazyJson implements EmitResult {
  constructor(
    filter: string | null,
    public diagnostics: Diagnostic[],
    public stats: FilterStats,
    public condition: Meaning,
  ) {
    super(filter);
  }
}

/** Writes a checked condition as Logpush JSON and holds it to the limits. */
export function emit(condition: Cond, options: EmitOptions = {}): EmitResult {
  return emitNormal(toNegationNormalForm(condition), options);
}

/** `emit` for a filter's meaning, its negation normal form (the analysis computes it once). */
export function emitNormal(normal: Meaning, options: EmitOptions = {}): EmitResult {
  const maxOperators = options.maxOperators ?? DEFAULT_MAX_OPERATORS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const written = options.optimize === false ? normal : optimize(normal);
  const { text, bytes, leaves } = serialize(written);
  const stats: FilterStats = { operators: leaves.length, bytes, maxOperators, maxBytes };
  const invalidOptions = optionDiagnostics(options);
  if (invalidOptions.length > 0) return new Emitted(null, invalidOptions, stats, written);
  const diagnostics: Diagnostic[] = [];
  if (stats.operators > maxOperators) {
    const crossing = leaves[maxOperators]!.leaf;
    diagnostics.push(
      diagnose("TooManyOperators", crossing.range, { count: stats.operators, limit: maxOperators }),
    );
  }
  if (stats.bytes > maxBytes) {
    const crossing = leaves.find((entry) => entry.endByte > maxBytes) ?? leaves[leaves.length - 1]!;
    diagnostics.push(diagnose("TooManyBytes", crossing.leaf.range, { bytes: stats.bytes, limit: maxBytes }));
  }
  const filter = diagnostics.length === 0 ? text : null;
  return new Emitted(filter, diagnostics, stats, written);
}
