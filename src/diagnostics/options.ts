import { type Diagnostic, diagnose } from "./diagnostic.js";
import type { Range } from "./range.js";

/**
 * The numeric options of every entry point, with the least value each takes. A limit is a whole
 * number (or Infinity, for no limit); `maxDepth` 0 allows no nesting, the others need at least 1.
 */
const numericOptions: Record<string, number> = {
  maxSourceLength: 1,
  maxInputLength: 1,
  maxDepth: 0,
  maxDiagnostics: 1,
  maxOperators: 1,
  maxBytes: 1,
  lineWidth: 1,
};

const numericOptionNames = Object.keys(numericOptions);

const atStart: Range = {
  start: { offset: 0, line: 1, column: 1 },
  end: { offset: 0, line: 1, column: 1 },
};

/** What is wrong with `value` as the numeric option `name`, or undefined when it is right. */
export function numericOptionProblem(name: string, value: unknown): string | undefined {
  if (value === undefined || !Object.hasOwn(numericOptions, name)) return undefined;
  const least = numericOptions[name]!;
  const whole = typeof value === "number" && (Number.isInteger(value) || value === Number.POSITIVE_INFINITY);
  if (whole && value >= least) return undefined;
  const shown = typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
  return `option ${name} must be a whole number of at least ${least}, not ${shown}`;
}

/**
 * Whether some numeric option given is not right: the options given are walked (usually none or
 * one or two) rather than every numeric name looked up, since every entry point asks, three times
 * a compile, and `for…in` allocates nothing (looking up every name showed in the profile).
 */
function hasInvalidOption(options: object): boolean {
  for (const name in options)
    if (numericOptionProblem(name, (options as Record<string, unknown>)[name]) !== undefined) return true;
  return false;
}

/**
 * One E0006 per numeric option of `options` that is not a whole number in range, in the order of
 * the names above: entry points report these instead of running, so that a bad option never throws
 * and never half-works.
 */
export function optionDiagnostics(options: object): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (!hasInvalidOption(options)) return diagnostics;
  for (let i = 0; i < numericOptionNames.length; i++) {
    const name = numericOptionNames[i]!;
    const problem = numericOptionProblem(name, (options as Record<string, unknown>)[name]);
    if (problem) diagnostics.push(diagnose("InvalidOption", atStart, { problem }));
  }
  return diagnostics;
}
