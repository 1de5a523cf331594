/*
 * Arguments of the wrong type from JavaScript callers (TypeScript callers cannot give them). The
 * functions that answer with diagnostics (compile, check, parse, format, decompile) report them as
 * E0113 and E0006; every other exported function throws InvalidArgumentError, never a TypeError
 * from deep inside.
 */

/** How a message names a value a caller gave: `undefined`, `null`, `the number 42`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
    case "bigint":
    case "boolean":
      return `the ${typeof value} ${String(value)}`;
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    default:
      return "an object";
  }
}

/** An argument of the wrong type: `emit: condition must be a condition from check or compile, not null`. */
export class InvalidArgumentError extends Error {
  override readonly name = "InvalidArgumentError";
  constructor(
    /** The function called, as exported: `emit`. */
    readonly functionName: string,
    /** The argument, as the function's documentation names it: `condition`. */
    readonly argument: string,
    /** What the argument takes. */
    readonly expected: string,
    found: unknown,
  ) {
    super(`${functionName}: ${argument} must be ${expected}, not ${describeValue(found)}`);
  }
}

/** A plain object (not null, not an array): what options and records are. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `value` when `test` holds of it, else InvalidArgumentError for argument `argument` of
 * `functionName`, which takes `expected`.
 */
export function expectArgument<T>(
  value: unknown,
  test: (value: unknown) => value is T,
  functionName: string,
  argument: string,
  expected: string,
): T {
  if (!test(value)) throw new InvalidArgumentError(functionName, argument, expected, value);
  return value;
}

export const isString = (value: unknown): value is string => typeof value === "string";

/** An offset into a text: a whole number of at least 0. */
export const isOffset = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0;

/** A catalog as createCatalog builds it: its dataset's name and its two maps of fields. */
export const isCatalog = (value: unknown): boolean =>
  isObject(value) &&
  isString(value["dataset"]) &&
  value["fields"] instanceof Map &&
  value["byLowerName"] instanceof Map;

/** Options: left out (undefined), or an object. */
export const isOptions = (value: unknown): value is Record<string, unknown> | undefined =>
  value === undefined || isObject(value);

/**
 * The never check that ends a switch over a closed set (operators, node kinds): its argument's
 * type is never once every member has its case, so a member added without one is a type error
 * there. Reached only by a value no type allows.
 */
export function unreachable(value: never): never {
  throw new Error(`no case for ${JSON.stringify(value)}`);
}
