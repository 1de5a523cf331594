import { closestMatch } from "../diagnostics/index.js";
import {
  CANONICAL_OPERATORS,
  type CanonicalOperator,
  negateOperator,
  OPERATOR_SPELLINGS,
  OPERATORS,
} from "../syntax/index.js";

const isWord = (text: string) => /^[A-Za-z]+$/.test(text);

/** The vocabulary's near misses (`neq` → `!eq`), by the spelling declared. */
const nearMisses = new Map<string, CanonicalOperator>(
  CANONICAL_OPERATORS.flatMap((operator) => OPERATORS[operator].nearMisses.map((miss) => [miss, operator])),
);

/** Word aliases (`ne`, `le`, `ge`) in small letters: operators are case-sensitive, but `NE` plainly means `ne`. */
const wordAliases = new Map<string, CanonicalOperator>(
  CANONICAL_OPERATORS.flatMap((operator) =>
    OPERATORS[operator].aliases.filter(isWord).map((alias) => [alias.toLowerCase(), operator]),
  ),
);

/** What an unknown operator most likely meant, or undefined when nothing is close. */
export function suggestOperator(text: string): CanonicalOperator | undefined {
  const known = nearMisses.get(text) ?? nearMisses.get(text.toLowerCase());
  if (known) return known;
  if (text.startsWith("!")) {
    const positive = suggestOperator(text.slice(1));
    return positive && bangFormOf(positive);
  }
  const alias = wordAliases.get(text.toLowerCase());
  if (alias) return alias;
  return closestMatch(text, CANONICAL_OPERATORS) as CanonicalOperator | undefined;
}

/** `!` in front of a word operator: `!startswith` → `!startsWith`; `lt` and the `!` operators have no such form. */
function bangFormOf(operator: CanonicalOperator): CanonicalOperator | undefined {
  if (OPERATORS[operator].negative) return undefined;
  return CANONICAL_OPERATORS.find(
    (other) => OPERATORS[other].negative && OPERATORS[other].positive === operator,
  );
}

/** `not eq` → `!eq`, `not lt` → `geq`: the operator that says what `not OP` was meant to. */
export function replacementForNotBefore(word: string): CanonicalOperator | undefined {
  // Operators are case-sensitive, but `NOT In` plainly means `!in`.
  const lower = word.toLowerCase();
  const operator =
    CANONICAL_OPERATORS.find((canonical) => canonical.toLowerCase() === lower) ??
    wordAliases.get(lower) ??
    OPERATOR_SPELLINGS.get(word);
  return operator ? negateOperator(operator) : undefined;
}
