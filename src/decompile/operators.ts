import { suggestOperator } from "../check/index.js";
import { replacementForNotBefore } from "../check/operators.js";
import type { CanonicalOperator } from "../syntax/index.js";
import { scan } from "../syntax/lexer.js";
import { canonicalOfToken } from "../syntax/tokens.js";

/**
 * The Logpush operator a JSON operator string most likely meant. JSON takes only the 14 canonical
 * spellings, so the language's aliases (`==`, `ne`, `not in`) are read here as suggestions, with
 * the same near-miss table the checker uses (`neq` → `!eq`).
 */
export function suggestJsonOperator(text: string): CanonicalOperator | undefined {
  const { tokens, errors } = scan(text);
  if (errors.length === 0 && tokens.length === 1) {
    const alias = canonicalOfToken[tokens[0]!.tokenType.name];
    if (alias) return alias;
  }
  const notBefore = /^not\s+(\S+)$/i.exec(text.trim());
  if (notBefore) return replacementForNotBefore(notBefore[1]!);
  return suggestOperator(text);
}
