import type { FieldInfo } from "../catalog/index.js";
import type { Suggestion } from "../diagnostics/index.js";
import {
  type CanonicalOperator,
  type Comparison,
  negateOperator,
  type OperatorRef,
  operatorAccepts,
  stringLiteral,
} from "../syntax/index.js";
import { readPattern } from "./patterns.js";

/*
 * SQL's `like` (and `not like`, `!like`): the operator meant depends on where the pattern's `%`
 * stand, so the fix rewrites the operator and the value together: `like "%example%"` is
 * `contains "example"`, `like "example%"` `startsWith "example"`, `like "example"` `eq`. A pattern
 * no operator matches (a `%` inside) gets no fix. `_` is read as itself: it is in many logged values.
 */

/** The operator `like` meant in this comparison, and the fix of operator and value, when it is one. */
export function likeFix(
  ref: OperatorRef,
  comparison: Comparison,
  field: FieldInfo | undefined,
): { operator: CanonicalOperator; fix: Suggestion | undefined } | undefined {
  const written = /^(?:(not)\s+|(!))?like$/i.exec(ref.text);
  const { value } = comparison;
  if (!written || value.kind !== "string") return undefined;
  const negative = written[1] !== undefined || written[2] !== undefined;
  const reading = readPattern(value.value, "eq");
  // No `%` at the ends: `eq`, unless a `%` inside makes it a pattern no operator matches.
  const plain = reading === undefined && !/%(?![0-9A-Fa-f]{2})/.test(value.value);
  const meant = reading ? reading.meant : plain ? { operator: "eq" as const, text: value.value } : undefined;
  const operator = meant ? (negative ? negateOperator(meant.operator) : meant.operator) : undefined;
  if (
    !operator ||
    !meant ||
    (field && field.type !== "string") ||
    (field && !operatorAccepts(operator, field.type))
  )
    return { operator: negative ? "!contains" : "contains", fix: undefined };
  const replacement = `${operator} ${stringLiteral(meant.text)}`;
  return {
    operator,
    fix: {
      message: `write ${replacement}`,
      range: { start: ref.range.start, end: value.range.end },
      replacement,
    },
  };
}
