import { suggestOperator } from "../check/index.js";
import { replacementForNotBefore } from "../check/operators.js";
import { type CanonicalOperator, OPERATOR_SPELLINGS } from "../syntax/index.js";

/**
 * The Logpush operator a JSON operator string most likely meant. JSON takes only the 14 canonical
 * spellings, so the language's aliases (`==`, `ne`, `not in`) are read here as suggestions, with
 * the same near-miss table the checker uses (`neq` → `!eq`).
 */
export function suggestJsonOperator(text: string): CanonicalOperator | undefined {
  const alias = OPERATOR_SPELLINGS.get(text.trim());
  if (alias) return alias;
  const notBefore = /^not\s+(\S+)$/i.exec(text.trim());
  if (notBefore) return replacementForNotBefore(notBefore[1]!);
  return suggestOperator(text);
}
