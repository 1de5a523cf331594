import { closestMatch } from "../diagnostics/index.js";
import { CANONICAL_OPERATORS, type CanonicalOperator } from "../syntax/index.js";
import { negateOperator } from "./matrix.js";

/** Spellings from other languages and the Instant Logs docs that mean a Logpush operator. */
const nearMisses: Record<string, CanonicalOperator> = Object.assign(Object.create(null), {
  neq: "!eq",
  nq: "!eq",
  noteq: "!eq",
  equals: "eq",
  equal: "eq",
  is: "eq",
  lte: "leq",
  gte: "geq",
  nin: "!in",
  notin: "!in",
  not_in: "!in",
  notcontains: "!contains",
  not_contains: "!contains",
  like: "contains",
  has: "contains",
  prefix: "startsWith",
  suffix: "endsWith",
  beginsWith: "startsWith",
});

const aliasesOf: Record<string, CanonicalOperator> = Object.assign(Object.create(null), {
  ne: "!eq",
  le: "leq",
  ge: "geq",
});
const symbolsOf: Record<string, CanonicalOperator> = Object.assign(Object.create(null), {
  "==": "eq",
  "!=": "!eq",
  "<": "lt",
  "<=": "leq",
  ">": "gt",
  ">=": "geq",
});

/** What an unknown operator most likely meant, or undefined when nothing is close. */
export function suggestOperator(text: string): CanonicalOperator | undefined {
  const known = nearMisses[text] ?? nearMisses[text.toLowerCase()];
  if (known) return known;
  if (text.startsWith("!")) {
    const positive = suggestOperator(text.slice(1));
    return positive && !positive.startsWith("!") ? negateOperatorWord(positive) : undefined;
  }
  const alias = aliasesOf[text.toLowerCase()];
  if (alias) return alias;
  return closestMatch(text, CANONICAL_OPERATORS) as CanonicalOperator | undefined;
}

/** `!` in front of a word operator: `!startswith` → `!startsWith`; other operators have no `!` form. */
function negateOperatorWord(operator: CanonicalOperator): CanonicalOperator | undefined {
  const negated = `!${operator}`;
  return (CANONICAL_OPERATORS as readonly string[]).includes(negated)
    ? (negated as CanonicalOperator)
    : undefined;
}

/** `not eq` → `!eq`, `not lt` → `geq`: the operator that says what `not OP` was meant to. */
export function replacementForNotBefore(word: string): CanonicalOperator | undefined {
  // Operators are case-sensitive, but `NOT In` plainly means `!in`.
  const canonical = CANONICAL_OPERATORS.find((operator) => operator.toLowerCase() === word.toLowerCase());
  const operator = canonical ?? aliasesOf[word.toLowerCase()] ?? symbolsOf[word];
  return operator ? negateOperator(operator) : undefined;
}
