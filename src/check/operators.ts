import type { FieldInfo } from "../catalog/index.js";
import { closestMatch } from "../diagnostics/index.js";
import {
  CANONICAL_OPERATORS,
  type CanonicalOperator,
  isListOperator,
  negateOperator,
  OPERATOR_SPELLINGS,
  OPERATORS,
  operatorAccepts,
  type Value,
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
    OPERATOR_SPELLINGS.get(word) ??
    nearMisses.get(word);
  return operator ? negateOperator(operator) : undefined;
}

/**
 * The operator a fix writes for `meant` in a comparison of `field` with `value`: `meant` itself,
 * or its form for a list (`eq [..]` → `in`) or for an array field (`eq` → `contains`); undefined
 * when none of them takes this field and value, so that a fix never brings an error of its own.
 * An unknown field (its own error) or a broken value leaves that side unchecked.
 */
export function fittingOperator(
  meant: CanonicalOperator,
  field: FieldInfo | undefined,
  value: Value,
): CanonicalOperator | undefined {
  const { onList, onArray } = OPERATORS[meant];
  for (const candidate of [meant, onList, onArray]) {
    if (candidate === undefined) continue;
    const shapeFits = value.kind === "error" || isListOperator(candidate) === (value.kind === "list");
    const typeFits = field === undefined || operatorAccepts(candidate, field.type);
    if (shapeFits && typeFits) return candidate;
  }
  return undefined;
}
