import { unreachable } from "../diagnostics/index.js";
import {
  type CanonicalOperator,
  isNegativeOperator,
  negateOperator,
  OPERATORS,
  type PositiveOperator,
} from "../syntax/index.js";

/*
 * Wildcards and patterns at the ends of a value (`"*.example.com"`, `"%example%"`, `"^/api"`):
 * Logpush compares text exactly, so each stands for itself. Read as what they mean elsewhere,
 * they say where the text may start and end, which is one of the four text operators: the
 * literal part with `eq`, `startsWith`, `endsWith` or `contains`.
 */

/** What a pattern character is, for the message. */
const MEANINGS: Record<string, string> = {
  "*": "a wildcard in globs",
  "%": "a wildcard of SQL's LIKE",
  ".*": "any text in a regular expression",
  "^": "a regular expression's start",
  $: "a regular expression's end",
};

/** What a value written as a pattern means. */
export interface PatternReading {
  /** The first pattern character, as written. */
  character: string;
  meaning: string;
  /** The comparison it stands for, when the rest is literal text. */
  meant?: { operator: CanonicalOperator; text: string };
}

/** A `%` that starts percent-encoding (`%2F`) is literal text: a LIKE wildcard is any other. */
const percentWildcard = (text: string, at: number) =>
  text[at] === "%" && !/^[0-9A-Fa-f]{2}/.test(text.slice(at + 1));

/** The characters that make the rest of a value a pattern no single operator matches. */
const INNER_PATTERN = /[*%]|\.\*|\\|[[\]()|+?{}]|^\^|\$$/;

/** Which ends of the text an operator ties the value to. */
function anchors(operator: PositiveOperator): { start: boolean; end: boolean } {
  switch (operator) {
    case "eq":
    case "in":
      return { start: true, end: true };
    case "startsWith":
      return { start: true, end: false };
    case "endsWith":
      return { start: false, end: true };
    case "contains":
    case "lt":
    case "leq":
    case "gt":
    case "geq":
      return { start: false, end: false };
    default:
      return unreachable(operator);
  }
}

function operatorFor(start: boolean, end: boolean): PositiveOperator {
  if (start && end) return "eq";
  if (start) return "startsWith";
  if (end) return "endsWith";
  return "contains";
}

/**
 * How `text` compared with `operator` reads when its ends hold pattern characters; undefined when
 * they hold none (or the value is nothing but them). `operator` is a scalar operator, or `in`/`!in`
 * for one element of a list.
 */
export function readPattern(text: string, operator: CanonicalOperator): PatternReading | undefined {
  let core = text;
  let first: string | undefined;
  const found = (character: string) => {
    first ??= character;
  };
  const positive = OPERATORS[operator].positive;
  let { start, end } = anchors(positive);
  if (core.startsWith("^")) {
    found("^");
    core = core.slice(1);
    start = true;
  } else if (core.startsWith(".*")) {
    found(".*");
    core = core.slice(2);
    start = false;
  } else if (core.startsWith("*") || percentWildcard(core, 0)) {
    found(core[0]!);
    core = core.slice(1);
    start = false;
  }
  // `.*` at the end is a regular expression's only after one at the start (`^/api.*`, `.*admin.*`):
  // after other text it is a glob's literal dot and wildcard (`example.*`).
  if ((first === "^" || first === ".*") && core.endsWith(".*") && !core.endsWith("\\.*")) {
    found(".*");
    core = core.slice(0, -2);
    end = false;
  } else if (core.endsWith("*") || (core.endsWith("%") && percentWildcard(core, core.length - 1))) {
    found(core.at(-1)!);
    core = core.slice(0, -1);
    end = false;
  } else if (core.endsWith("$") && !core.endsWith("\\$") && (first === "^" || positive !== "contains")) {
    found("$");
    core = core.slice(0, -1);
    end = true;
  }
  if (first === undefined || core === "") return undefined;
  const reading: PatternReading = { character: first, meaning: MEANINGS[first]! };
  if (INNER_PATTERN.test(core)) return reading;
  const meant = operatorFor(start, end);
  reading.meant = { operator: isNegativeOperator(operator) ? negateOperator(meant) : meant, text: core };
  return reading;
}
