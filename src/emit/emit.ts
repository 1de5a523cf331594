import { type Cond, type Meaning, meaningArgument } from "../check/index.js";
import {
  type Diagnostic,
  diagnose,
  isObject,
  type OptionLabels,
  optionDiagnostics,
  optionLabel,
} from "../diagnostics/index.js";
import type { LogpushFilter } from "./json.js";
import { optimize } from "./optimize.js";
import { serialize } from "./serialize.js";

/** Options of `emit`: whether to optimize, and the Logpush limits to check. */
export interface EmitOptions {
  /** Rewrite into fewer comparisons with the same meaning (default true). */
  optimize?: boolean;
  /** Most comparisons Logpush accepts (default 30; the docs say "approximately 30 operators"). */
  maxOperators?: number;
  /** Most UTF-8 bytes of the compact JSON Logpush accepts (default 1000). */
  maxBytes?: number;
  /** How messages name the options: see OptionLabels. */
  optionLabels?: OptionLabels;
}

/** The most comparisons a filter may have, as Logpush allows (`maxOperators`). */
export const DEFAULT_MAX_OPERATORS = 30;
/** The most bytes a filter's JSON may have, as Logpush allows (`maxBytes`). */
export const DEFAULT_MAX_BYTES = 1000;

/** What the filter uses against the limits Logpush sets. */
export interface FilterStats {
  operators: number;
  bytes: number;
  maxOperators: number;
  maxBytes: number;
}

/** What `emit` returns: the job's `filter` string (null when a limit is exceeded), its stats and diagnostics. */
export interface EmitResult {
  /** The compact JSON string for the job's `filter`; null when over a limit. */
  filter: string | null;
  /** `filter`, parsed (on first access). */
  readonly json: LogpushFilter | null;
  diagnostics: Diagnostic[];
  /** Measured even when over a limit, so that front ends can show by how much. */
  stats: FilterStats;
  /** The meaning as written to the JSON: `not`-free as every meaning is and, unless turned off, optimized. */
  meaning: Meaning;
  /** The former name of `meaning`, kept for callers written against it. @deprecated Read `meaning`. */
  readonly condition: Meaning;
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
    public meaning: Meaning,
  ) {
    super(filter);
  }

  get condition(): Meaning {
    return this.meaning;
  }
}

/**
 * What can bring a filter under a limit: the optimizer, where it was turned off and the caller's
 * user can turn it on (it merges `eq` comparisons of one field into lists), and for an `or`,
 * several jobs (each pushes the records of some of its parts). Undefined where neither applies.
 */
function limitHelp(written: Meaning, options: EmitOptions): string | undefined {
  const helps: string[] = [];
  const optimizer = optionLabel(options.optionLabels, "optimize");
  if (options.optimize === false && optimizer !== undefined)
    helps.push(
      `the optimizer, off here (${optimizer}), merges \`eq\` comparisons of one field joined by \`or\`, and \`!eq\` ones joined by \`and\`, into lists`,
    );
  if (written.kind === "or")
    helps.push(
      "the filter's `or` can be split across several jobs, each pushing the records of some of its parts",
    );
  return helps.length === 0 ? undefined : helps.join("; ");
}

/**
 * Writes a checked condition as Logpush JSON and holds it to the limits: its meaning, so a
 * condition as written and its meaning give the same JSON.
 */
export function emit(condition: Cond, options: EmitOptions = {}): EmitResult {
  return emitMeaning(meaningArgument(condition, "emit", "condition"), options);
}

/** `emit` for a filter's meaning, as the analysis (`check`, `loadFilter`) gives it. */
export function emitMeaning(meaning: Meaning, given: EmitOptions = {}): EmitResult {
  // Options that are no object are reported (E0006) with the defaults' figures.
  const options: EmitOptions = isObject(given) ? given : {};
  const maxOperators = options.maxOperators ?? DEFAULT_MAX_OPERATORS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const written = options.optimize === false ? meaning : optimize(meaning);
  const { text, bytes, leaves, endBytes } = serialize(written);
  const stats: FilterStats = { operators: leaves.length, bytes, maxOperators, maxBytes };
  const invalidOptions = optionDiagnostics(given);
  if (invalidOptions.length > 0) return new Emitted(null, invalidOptions, stats, written);
  const diagnostics: Diagnostic[] = [];
  const labels = options.optionLabels;
  if (stats.operators > maxOperators) {
    const crossing = leaves[maxOperators]!;
    const option = optionLabel(labels, "maxOperators");
    diagnostics.push(
      diagnose("TooManyOperators", crossing.range, {
        count: stats.operators,
        limit: maxOperators,
        option,
        help: limitHelp(written, options),
      }),
    );
  }
  if (stats.bytes > maxBytes) {
    const index = endBytes.findIndex((endByte) => endByte > maxBytes);
    const crossing = leaves[index === -1 ? leaves.length - 1 : index]!;
    const option = optionLabel(labels, "maxBytes");
    diagnostics.push(
      diagnose("TooManyBytes", crossing.range, {
        bytes: stats.bytes,
        limit: maxBytes,
        option,
        help: limitHelp(written, options),
      }),
    );
  }
  const filter = diagnostics.length === 0 ? text : null;
  return new Emitted(filter, diagnostics, stats, written);
}
