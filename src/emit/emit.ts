import { type Cond, toNegationNormalForm } from "../check/index.js";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
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
  json: LogpushFilter | null;
  diagnostics: Diagnostic[];
  /** Measured even when over a limit, so that front ends can show by how much. */
  stats: FilterStats;
  /** The condition as written: in negation normal form and, unless turned off, optimized. */
  condition: Cond;
}

/** Writes a checked condition as Logpush JSON and holds it to the limits. */
export function emit(condition: Cond, options: EmitOptions = {}): EmitResult {
  const maxOperators = options.maxOperators ?? DEFAULT_MAX_OPERATORS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const normal = toNegationNormalForm(condition);
  const written = options.optimize === false ? normal : optimize(normal);
  const serialized = serialize(written);
  const stats: FilterStats = {
    operators: serialized.leaves.length,
    bytes: serialized.bytes,
    maxOperators,
    maxBytes,
  };
  const diagnostics: Diagnostic[] = [];
  if (stats.operators > maxOperators) {
    const crossing = serialized.leaves[maxOperators]!.leaf;
    diagnostics.push(
      diagnose("TooManyOperators", crossing.range, { count: stats.operators, limit: maxOperators }),
    );
  }
  if (stats.bytes > maxBytes) {
    const crossing =
      serialized.leaves.find((entry) => entry.endByte > maxBytes) ??
      serialized.leaves[serialized.leaves.length - 1]!;
    diagnostics.push(diagnose("TooManyBytes", crossing.leaf.range, { bytes: stats.bytes, limit: maxBytes }));
  }
  const ok = diagnostics.length === 0;
  return {
    filter: ok ? serialized.text : null,
    json: ok ? serialized.json : null,
    diagnostics,
    stats,
    condition: written,
  };
}
