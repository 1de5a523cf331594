import { describeValue, isCatalog, isObject, isString } from "./arguments.js";
import { type Diagnostic, diagnose } from "./diagnostic.js";
import type { Range } from "./range.js";
import { settingsProblems } from "./tuning.js";

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

/**
 * The other options of the entry points a JavaScript caller may give the wrong type, with the test
 * a value passes and what the option takes.
 */
const typedOptions: Record<string, [test: (value: unknown) => boolean, expected: string]> = {
  dataset: [isString, "a dataset name (a string)"],
  catalog: [isCatalog, "a catalog from createCatalog"],
  optimize: [(value) => typeof value === "boolean", "true or false"],
  form: [(value) => value === "source" || value === "json", '"source" or "json"'],
  recordDatasetFirst: [(value) => typeof value === "boolean", "true or false"],
  optionLabels: [
    (value) => isObject(value) && Object.values(value).every((label) => label === null || isString(label)),
    "an object whose labels are strings or null",
  ],
  diagnostics: [isObject, 'an object of levels by code, like {"W0120": "off"}'],
};

/** The label of the `diagnostics` option in the messages about its entries. */
const DIAGNOSTICS_OPTION = "option diagnostics";

/** Every option checked, in the order their problems are reported. */
const checkedOptionNames = [...Object.keys(numericOptions), ...Object.keys(typedOptions)];

const atStart: Range = {
  start: { offset: 0, line: 1, column: 1 },
  end: { offset: 0, line: 1, column: 1 },
};

/** The options that messages name, so that their reader can find where a limit is set. */
export type NamedOption =
  | "maxSourceLength"
  | "maxInputLength"
  | "maxDepth"
  | "maxDiagnostics"
  | "maxOperators"
  | "maxBytes"
  | "lineWidth"
  | "optimize"
  | "timeoutMs"
  | "maxRetryDelayMs";

/**
 * How messages name the options (the `optionLabels` option of every entry point): by default
 * `option maxBytes`, as a library caller sets it. A front end gives the control its own user has
 * instead (`--max-bytes` on the command line, `setting filterc.maxBytes` in an editor), or null
 * where its user cannot change the option: the message then gives the limit alone.
 */
export type OptionLabels = Partial<Record<NamedOption, string | null>>;

/** How a message names `name` for a caller whose labels are `labels`; undefined to leave it out. */
export function optionLabel(labels: OptionLabels | undefined, name: NamedOption): string | undefined {
  const label = labels?.[name];
  return label === undefined ? `option ${name}` : (label ?? undefined);
}

/** What is wrong with `value` as the numeric option `name`, or undefined when it is right. */
export function numericOptionProblem(
  name: string,
  value: unknown,
  labels?: OptionLabels,
): string | undefined {
  if (value === undefined || !Object.hasOwn(numericOptions, name)) return undefined;
  const least = numericOptions[name]!;
  const whole = typeof value === "number" && (Number.isInteger(value) || value === Number.POSITIVE_INFINITY);
  if (whole && value >= least) return undefined;
  const shown = typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
  const label = optionLabel(labels, name as NamedOption) ?? `option ${name}`;
  return `${label} must be a whole number of at least ${least}, not ${shown}`;
}

/** What is wrong with `value` as the option `name` (numeric or other), or undefined when it is right. */
function optionProblem(name: string, value: unknown, labels: unknown): string | undefined {
  const typed = Object.hasOwn(typedOptions, name) ? typedOptions[name] : undefined;
  if (typed === undefined)
    return numericOptionProblem(name, value, isObject(labels) ? (labels as OptionLabels) : undefined);
  if (value === undefined || typed[0](value)) return undefined;
  return `option ${name} must be ${typed[1]}, not ${describeValue(value)}`;
}

/**
 * Whether some option given is not right: the options given are walked (usually none or one or
 * two) rather than every name looked up, since every entry point asks, three times a compile, and
 * `for…in` allocates nothing (looking up every name showed in the profile).
 */
function hasInvalidOption(options: Record<string, unknown>): boolean {
  for (const name in options)
    if (optionProblem(name, options[name], options["optionLabels"]) !== undefined) return true;
  const tuning = options["diagnostics"];
  return isObject(tuning) && settingsProblems(tuning, DIAGNOSTICS_OPTION).length > 0;
}

/**
 * One E0006 per option of `options` of the wrong type or out of range, in the order of the names
 * above, then one E0015–E0017 per wrong entry of `diagnostics`, or one E0006 for options that are no
 * object at all: entry points report these instead of
 * running, so that a bad option never throws and never half-works.
 */
export function optionDiagnostics(options: unknown): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (!isObject(options)) {
    if (options === undefined) return diagnostics;
    const problem = `options must be an object, not ${describeValue(options)}`;
    return [diagnose("InvalidOption", atStart, { problem })];
  }
  if (!hasInvalidOption(options)) return diagnostics;
  for (let i = 0; i < checkedOptionNames.length; i++) {
    const name = checkedOptionNames[i]!;
    const problem = optionProblem(name, options[name], options["optionLabels"]);
    if (problem) diagnostics.push(diagnose("InvalidOption", atStart, { problem }));
  }
  const tuning = options["diagnostics"];
  if (isObject(tuning))
    for (const { diagnostic } of settingsProblems(tuning, DIAGNOSTICS_OPTION)) diagnostics.push(diagnostic);
  return diagnostics;
}
